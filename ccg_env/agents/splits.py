"""Per-seat and per-deck splits of each pair's results: rows of wins, draws and win rates with 95% intervals."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Hashable, Sequence

from .stats import wilson_interval

if TYPE_CHECKING:
    from .arena import TournamentResult

#: the outcome columns of every split row (after the columns that name the pair and the split)
OUTCOME_COLUMNS = ("games", "wins_a", "wins_b", "draws", "win_rate_a", "ci_low", "ci_high", "score_a")
SEAT_COLUMNS = ("agent_a", "agent_b", "seat_a", *OUTCOME_COLUMNS)
DECK_COLUMNS = ("agent_a", "agent_b", "deck_a", *OUTCOME_COLUMNS)
MATCHUP_COLUMNS = ("agent_a", "agent_b", "deck_a", "deck_b", *OUTCOME_COLUMNS)


def pair_games(result: TournamentResult) -> dict[tuple[int, int], list[int]]:
    """Game indices of each pair ``(a, b)`` with ``a < b`` (``a`` is the pair's agent A), in schedule order."""
    groups: dict[tuple[int, int], list[int]] = {}
    for index, (s0, s1) in enumerate(result.seats):
        groups.setdefault((min(s0, s1), max(s0, s1)), []).append(index)
    return groups


def outcome(result: TournamentResult, agent: int, indices: list[int]) -> dict[str, Any]:
    """``OUTCOME_COLUMNS`` of ``agent`` (as A) over the games at ``indices``: counts, win rate, interval, score."""
    wins = losses = draws = 0
    for i in indices:
        winner = result.games[i].winner
        if winner is None:
            draws += 1
        elif result.seats[i][winner] == agent:
            wins += 1
        else:
            losses += 1
    n = len(indices)
    low, high = wilson_interval(wins, n)
    return {"games": n, "wins_a": wins, "wins_b": losses, "draws": draws, "win_rate_a": wins / n if n else None,
            "ci_low": low, "ci_high": high, "score_a": (wins + draws / 2) / n if n else None}


def seat_of(result: TournamentResult, agent: int, game: int) -> int:
    """The seat ``agent`` sat in during game ``game`` (0 moves first)."""
    return result.seats[game].index(agent)


def deck_of(result: TournamentResult, agent: int, game: int) -> str:
    """The deck ``agent`` played in game ``game``."""
    record = result.games[game]
    return (record.deck0, record.deck1)[seat_of(result, agent, game)]


def seat_rows(result: TournamentResult) -> list[dict[str, Any]]:
    """Rows of ``SEAT_COLUMNS``: per pair, agent A's results from seat 0 (moving first), then from seat 1."""
    return _split(result, lambda a, b, g: seat_of(result, a, g), [0, 1], ("seat_a",))


def deck_rows(result: TournamentResult) -> list[dict[str, Any]]:
    """Rows of ``DECK_COLUMNS``: per pair and deck of the pool, agent A's results when it played that deck."""
    return _split(result, lambda a, b, g: deck_of(result, a, g), list(result.decks), ("deck_a",))


def matchup_rows(result: TournamentResult) -> list[dict[str, Any]]:
    """Rows of ``MATCHUP_COLUMNS``: per pair and ordered (A's deck, B's deck), agent A's results there."""
    keys = [(x, y) for x in result.decks for y in result.decks]
    return _split(result, lambda a, b, g: (deck_of(result, a, g), deck_of(result, b, g)), keys,
                  ("deck_a", "deck_b"))


def _split(result: TournamentResult, key: Callable[[int, int, int], Hashable], keys: Sequence[Hashable],
           columns: tuple[str, ...]) -> list[dict[str, Any]]:
    """One row per pair and key value (in ``keys`` order; a value no game had is a row of zero games)."""
    rows = []
    for (a, b), indices in pair_games(result).items():
        groups: dict[Hashable, list[int]] = {k: [] for k in keys}
        for i in indices:
            groups.setdefault(key(a, b, i), []).append(i)
        for value, games in groups.items():
            named = dict(zip(columns, value if isinstance(value, tuple) else (value,)))
            rows.append({"agent_a": result.agents[a], "agent_b": result.agents[b], **named,
                         **outcome(result, a, games)})
    return rows
