"""Tournament reports: per-pair, per-seat, per-deck and per-agent tables, text output, JSON / CSV files and plots.

Every win rate is agent A's (the pair's first agent, in the order the agents were given) with its 95% Wilson
score interval, which counts every game as independent; the pair's rate also has an interval computed per deal
(the two games of one seed and deck pair, one from each seat, as one unit) and the deal categories. Files written by :func:`save_result` (``TournamentResult.save``):

``pairs.csv``, one row per pair of agents:
    ``agent_a``, ``agent_b``: the pair. ``games``: games played. ``wins_a``, ``wins_b``, ``draws``:
    outcomes (a draw is a simultaneous death or the turn limit). ``win_rate_a``: ``wins_a / games``.
    ``ci_low``, ``ci_high``: its 95% Wilson score interval. ``score_a``: ``(wins_a + draws / 2) / games``.
    ``avg_turns``: mean game length in turns (both players' turns counted). ``avg_decisions``: mean number
    of actions chosen per game (both players). The seat split: ``games_a_first``, ``win_rate_a_first``,
    ``ci_low_a_first``, ``ci_high_a_first``: A's games and win rate in seat 0 (moving first);
    ``games_a_second``, ``win_rate_a_second``, ``ci_low_a_second``, ``ci_high_a_second``: the same in seat 1.
    The deal statistics (a *deal* is one seed and deck pair, played once from each seat; its two games are one
    unit, since the deal's decks and seed weigh on both): ``deals``: deals played. ``deal_ci_low``,
    ``deal_ci_high``: the 95% interval of ``win_rate_a`` computed per deal, Wilson's score interval at the
    effective number of games of the cluster-robust variance over deals (:func:`ccg_env.agents.stats.deal_interval`:
    wider than ``ci_low``/``ci_high`` where a deal's two games tend to go the same way, narrower where they split).
    ``deals_won_both``, ``deals_split``, ``deals_lost_both``: deals A won from both seats, won from one seat only
    (each agent won one game: the seat and decks decided), lost from both. ``deals_other``: deals with a draw, or
    of one game (an odd number of games per pair).
``seats.csv``, two rows per pair (the seat split, long form):
    ``agent_a``, ``agent_b``. ``seat_a``: A's seat, 0 (moves first) or 1. Then the outcome columns
    ``games``, ``wins_a``, ``wins_b``, ``draws``, ``win_rate_a``, ``ci_low``, ``ci_high``, ``score_a`` over
    those games (as in ``pairs.csv``; empty rate for a split without games).
``decks.csv``, one row per pair and deck of the pool:
    ``agent_a``, ``agent_b``. ``deck_a``: the deck A played (from either seat). Then the outcome columns.
``matchups.csv``, one row per pair and ordered deck pair (the deck-against-deck matrix, long form):
    ``agent_a``, ``agent_b``, ``deck_a``, ``deck_b``: the decks A and B played. Then the outcome columns.
``ratings.csv``, one row per agent, best first:
    ``rank``, ``agent``. ``rating``: Bradley-Terry strength on the Elo scale (mean 1500; +400 = 10:1 odds).
    ``games``, ``wins``, ``losses``, ``draws``. ``score``: ``(wins + draws / 2) / games``.
``games.csv``, one row per game:
    ``game``: index. ``seat0``, ``seat1``: agent names (seat 0 moves first). ``seed``: game seed.
    ``winner``: the winning agent's name (empty for a draw). ``result``: ``win``, ``draw`` or
    ``turn_limit``. ``turns``. ``decisions``. ``deck0``, ``deck1``: the decks dealt to seat 0 and seat 1.
``results.json``:
    ``{"env_version", "spec_hash", "config", "agents", "decks", "pairs", "seat_splits", "deck_splits", "matchups",
    "ratings", "games"}`` holding the same rows; ``env_version`` and ``spec_hash`` name the environment version
    (:mod:`ccg_env.env.versions`), ``config`` also records the deck pool and how balanced the schedule is.
``winrate_matrix.png``:
    Heat map of the row agent's score against the column agent.
``seat_split.png``:
    Per pair, A's win rate overall, moving first and moving second, with 95% intervals.
``deck_matrix.png``:
    Per pair, a heat map of A's win rate by A's deck (rows) against B's deck (columns).
"""

from __future__ import annotations

import csv
import json
from itertools import product
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..env.versions import env_record
from .figures import deck_matrix_figure, seat_split_figure
from .splits import DECK_COLUMNS, MATCHUP_COLUMNS, SEAT_COLUMNS, outcome, pair_games, seat_rows
from .stats import DEAL_CATEGORIES, deal_categories, deal_interval

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from .arena import TournamentResult

SEAT_SPLIT_COLUMNS = tuple(f"{stat}_a_{seat}" for seat in ("first", "second")
                           for stat in ("games", "win_rate", "ci_low", "ci_high"))
DEAL_SPLIT_COLUMNS = ("deals", "deal_ci_low", "deal_ci_high", *(f"deals_{category}" for category in DEAL_CATEGORIES))
PAIR_COLUMNS = ("agent_a", "agent_b", "games", "wins_a", "wins_b", "draws", "win_rate_a", "ci_low", "ci_high",
                "score_a", "avg_turns", "avg_decisions", *SEAT_SPLIT_COLUMNS, *DEAL_SPLIT_COLUMNS)
RATING_COLUMNS = ("rank", "agent", "rating", "games", "wins", "losses", "draws", "score")
GAME_COLUMNS = ("game", "seat0", "seat1", "seed", "winner", "result", "turns", "decisions", "deck0", "deck1")
#: every file :func:`save_result` writes
OUTPUT_FILES = ("results.json", "pairs.csv", "seats.csv", "decks.csv", "matchups.csv", "ratings.csv", "games.csv",
                "winrate_matrix.png", "seat_split.png", "deck_matrix.png")


def pair_rows(result: TournamentResult) -> list[dict[str, Any]]:
    """One dict per pair (keys ``PAIR_COLUMNS``), pairs in the order they were scheduled."""
    seats = iter(seat_rows(result))  # two rows per pair, in the same pair order
    return [_pair_row(result, a, b, indices, next(seats), next(seats))
            for (a, b), indices in pair_games(result).items()]


def _pair_row(result: TournamentResult, a: int, b: int, indices: list[int], first: dict[str, Any],
              second: dict[str, Any]) -> dict[str, Any]:
    n = len(indices)
    row = {"agent_a": result.agents[a], "agent_b": result.agents[b], **outcome(result, a, indices),
           "avg_turns": sum(result.games[i].turns for i in indices) / n,
           "avg_decisions": sum(result.games[i].decisions for i in indices) / n}
    for seat, split in (("first", first), ("second", second)):
        row.update({f"games_a_{seat}": split["games"], f"win_rate_a_{seat}": split["win_rate_a"],
                    f"ci_low_a_{seat}": split["ci_low"], f"ci_high_a_{seat}": split["ci_high"]})
    return {**row, **deal_columns(deal_points(result, a, indices))}


def deal_points(result: TournamentResult, agent: int, indices: list[int]) -> list[list[float]]:
    """``agent``'s points (1 a win, 0.5 a draw, 0 a loss) in the games at ``indices``, grouped by deal (the games
    sharing a seed and the decks of seat 0 and seat 1), deals in the order of their first game."""
    deals: dict[tuple[int, str, str], list[float]] = {}
    for i in indices:
        record = result.games[i]
        points = 0.5 if record.winner is None else float(result.seats[i][record.winner] == agent)
        deals.setdefault((record.seed, record.deck0, record.deck1), []).append(points)
    return list(deals.values())


def deal_columns(deals: list[list[float]]) -> dict[str, Any]:
    """``DEAL_SPLIT_COLUMNS`` of A from its points per deal: the deal count, the per-deal interval of A's win rate
    (a draw is no win, as in ``win_rate_a``) and the deal categories."""
    low, high = deal_interval([(sum(p == 1 for p in points), len(points)) for points in deals])
    categories = deal_categories(deals)
    return {"deals": len(deals), "deal_ci_low": low, "deal_ci_high": high,
            **{f"deals_{category}": categories[category] for category in DEAL_CATEGORIES}}


def _outcomes(result: TournamentResult, agent: int, indices: list[int]) -> tuple[int, int, int]:
    """(wins, losses, draws) of ``agent`` over the games at ``indices``."""
    counts = outcome(result, agent, indices)
    return counts["wins_a"], counts["wins_b"], counts["draws"]


def rating_rows(result: TournamentResult) -> list[dict[str, Any]]:
    """One dict per agent (keys ``RATING_COLUMNS``), highest rating first."""
    ratings = result.ratings()
    rows = []
    for index, name in enumerate(result.agents):
        played = [i for i, seats in enumerate(result.seats) if index in seats]
        wins, losses, draws = _outcomes(result, index, played)
        games = len(played)
        rows.append({"agent": name, "rating": ratings[name], "games": games, "wins": wins, "losses": losses,
                     "draws": draws, "score": (wins + draws / 2) / games if games else 0.0})
    rows.sort(key=lambda row: -row["rating"])
    return [{"rank": rank, **row} for rank, row in enumerate(rows, 1)]


def game_rows(result: TournamentResult) -> list[dict[str, Any]]:
    """One dict per game (keys ``GAME_COLUMNS``)."""
    return [{"game": i, "seat0": r.seat0, "seat1": r.seat1, "seed": r.seed, "winner": r.winner_name or "",
             "result": r.result, "turns": r.turns, "decisions": r.decisions, "deck0": r.deck0, "deck1": r.deck1}
            for i, r in enumerate(result.games)]


def format_table(result: TournamentResult) -> str:
    """Aligned text: the pair table (win rate with its 95% interval), its seat and deck splits, the protocol
    and the ratings."""
    pairs = pair_rows(result)
    name = max(24, *(len(agent) + 2 for agent in result.agents))  # the name columns: a long name keeps a gap
    sections = [_pair_lines(pairs, name), _deal_lines(pairs, name), _seat_lines(pairs, name), _deck_lines(result, name),
                _protocol_lines(result), _rating_lines(rating_rows(result), name)]
    return "\n\n".join("\n".join(lines) for lines in sections if lines)


def _rate(rate: float | None, low: float, high: float) -> str:
    return "-" if rate is None else f"{rate:.3f} [{low:.3f}, {high:.3f}]"


def _pair_lines(pairs: list[dict[str, Any]], name: int) -> list[str]:
    lines = [f"{'agent A':<{name}}{'agent B':<{name}}{'games':>6}{'A wins':>7}{'B wins':>7}{'draws':>6}"
             f"{'A win rate [95% CI]':>24}{'turns':>7}{'decisions':>10}"]
    for row in pairs:
        rate = _rate(row["win_rate_a"], row["ci_low"], row["ci_high"])
        lines.append(f"{row['agent_a']:<{name}}{row['agent_b']:<{name}}{row['games']:>6}{row['wins_a']:>7}"
                     f"{row['wins_b']:>7}{row['draws']:>6}{rate:>24}{row['avg_turns']:>7.1f}"
                     f"{row['avg_decisions']:>10.1f}")
    return lines


def _deal_lines(pairs: list[dict[str, Any]], name: int) -> list[str]:
    """Per pair: deals played, A's win rate with its interval per deal, and the deal categories."""
    lines = [f"{'by deal (both seats)':<{name}}{'':<{name}}{'deals':>6}{'A win rate [95% CI per deal]':>30}"
             f"{'A won both':>11}{'split':>7}{'B won both':>11}{'other':>7}"]
    for row in pairs:
        rate = _rate(row["win_rate_a"], row["deal_ci_low"], row["deal_ci_high"])
        lines.append(f"{row['agent_a']:<{name}}{row['agent_b']:<{name}}{row['deals']:>6}{rate:>30}"
                     f"{row['deals_won_both']:>11}{row['deals_split']:>7}{row['deals_lost_both']:>11}"
                     f"{row['deals_other']:>7}")
    return lines


def _seat_lines(pairs: list[dict[str, Any]], name: int) -> list[str]:
    lines = [f"{'by seat':<{name}}{'':<{name}}{'A moves first [95% CI]':>30}{'A moves second [95% CI]':>30}"]
    for row in pairs:
        first, second = (_rate(row[f"win_rate_a_{s}"], row[f"ci_low_a_{s}"], row[f"ci_high_a_{s}"]) +
                         f" n={row[f'games_a_{s}']}" for s in ("first", "second"))
        lines.append(f"{row['agent_a']:<{name}}{row['agent_b']:<{name}}{first:>30}{second:>30}")
    return lines


def _deck_lines(result: TournamentResult, name: int) -> list[str]:
    """A's win rate by the deck A played: one line per pair, one column per deck of the pool."""
    if not result.decks:
        return []
    width = max(8, *(len(deck) + 2 for deck in result.decks))
    title = "by A's deck: A win rate"
    lines = [f"{title:<{2 * name}}" + "".join(f"{deck:>{width}}" for deck in result.decks)]
    rows, n = result.deck_splits(), len(result.decks)
    for cells in (rows[start:start + n] for start in range(0, len(rows), n)):
        lines.append(f"{cells[0]['agent_a']:<{name}}{cells[0]['agent_b']:<{name}}" +
                     "".join(f"{'-' if c['win_rate_a'] is None else format(c['win_rate_a'], '.3f'):>{width}}"
                             for c in cells))
    return lines


def _protocol_lines(result: TournamentResult) -> list[str]:
    if "balance" not in result.config:
        return []
    if result.config.get("mode") == "draft":
        return ["draft mode: each agent drafts its deck (hero class drawn per seat), then battles; the deck split "
                "is by the class A drafted for", f"schedule: {result.config['balance']}"]
    return [f"deck pool: {', '.join(result.decks)} (decks dealt independently of seats; each deal from both seats)",
            f"schedule: {result.config['balance']}"]


def _rating_lines(ratings: list[dict[str, Any]], name: int) -> list[str]:
    lines = [f"{'rank':<6}{'agent':<{name}}{'rating':>8}{'games':>7}{'wins':>6}{'losses':>8}{'draws':>7}{'score':>7}"]
    for row in ratings:
        lines.append(f"{row['rank']:<6}{row['agent']:<{name}}{row['rating']:>8.0f}{row['games']:>7}{row['wins']:>6}"
                     f"{row['losses']:>8}{row['draws']:>7}{row['score']:>7.3f}")
    return lines


def score_matrix(result: TournamentResult) -> list[list[float | None]]:
    """``m[i][j]`` = score of agent ``i`` against ``j`` (wins plus half the draws, over games); None on the diagonal."""
    wins = result.win_matrix()
    n = len(result.agents)
    out: list[list[float | None]] = [[None] * n for _ in range(n)]
    for i in range(n):
        for j in range(n):
            total = wins[i][j] + wins[j][i]
            if i != j and total > 0:
                out[i][j] = wins[i][j] / total
    return out


def win_rate_figure(result: TournamentResult) -> Figure:
    """A matplotlib figure of the score matrix (row agent against column agent), without touching pyplot."""
    from matplotlib.figure import Figure

    matrix = score_matrix(result)
    n = len(result.agents)
    figure = Figure(figsize=(1.6 + 1.1 * n, 1.2 + 1.0 * n))
    ax = figure.add_subplot()
    image = ax.imshow([[float("nan") if v is None else v for v in row] for row in matrix], vmin=0.0, vmax=1.0,
                      cmap="RdYlGn")
    for (i, j), value in ((ij, matrix[ij[0]][ij[1]]) for ij in product(range(n), range(n))):
        if value is not None:
            ax.text(j, i, f"{value:.0%}", ha="center", va="center", fontsize=9)
    ax.set_xticks(range(n), result.agents, rotation=30, ha="right")
    ax.set_yticks(range(n), result.agents)
    ax.set(xlabel="opponent", ylabel="agent", title="score (wins + draws/2) of row vs column")
    figure.colorbar(image, ax=ax, fraction=0.046)
    return figure


def save_result(result: TournamentResult, out_dir: str | Path) -> dict[str, str]:
    """Write the files described in this module's docstring (``OUTPUT_FILES``) into ``out_dir``; return name -> path."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = {name: str(out / name) for name in OUTPUT_FILES}
    tables = {"pairs": (PAIR_COLUMNS, pair_rows(result)), "seat_splits": (SEAT_COLUMNS, result.seat_splits()),
              "deck_splits": (DECK_COLUMNS, result.deck_splits()), "matchups": (MATCHUP_COLUMNS, result.matchups()),
              "ratings": (RATING_COLUMNS, rating_rows(result)), "games": (GAME_COLUMNS, game_rows(result))}
    document = {**env_record(), "config": result.config, "agents": result.agents, "decks": result.decks,
                **{key: rows for key, (_, rows) in tables.items()}}
    Path(paths["results.json"]).write_text(json.dumps(document, indent=2) + "\n")
    for key, csv_name in (("pairs", "pairs.csv"), ("seat_splits", "seats.csv"), ("deck_splits", "decks.csv"),
                          ("matchups", "matchups.csv"), ("ratings", "ratings.csv"), ("games", "games.csv")):
        _write_csv(paths[csv_name], *tables[key])
    for name, figure in (("winrate_matrix.png", win_rate_figure(result)), ("seat_split.png", seat_split_figure(result)),
                         ("deck_matrix.png", deck_matrix_figure(result))):
        figure.savefig(paths[name], dpi=120, bbox_inches="tight")  # a bare Figure (no pyplot) renders with Agg
    return paths


def _write_csv(path: str, columns: tuple[str, ...], rows: list[dict[str, Any]]) -> None:
    with open(path, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=columns)
        writer.writeheader()
        for row in rows:
            writer.writerow({k: f"{v:.6g}" if isinstance(v, float) else v for k, v in row.items()})
