"""Deck balance in a mirror match: each deck's score against the field, the deck x deck matrix and the first seat's.

Example::

    from ccg_env.agents.balance import mirror_balance
    result = mirror_balance("heuristic", games=490, seed=0)   # every ordered pair of the 7 packaged decks, 10 times
    print(result.table())
    result.failures()                                        # the bounds that fail, as sentences

One agent spec plays both seats (two instances of it, built as the arena builds agents), on the arena's deals:
game ``j`` is deal ``j`` of :func:`ccg_env.agents.arena.schedule`, with seed ``seed + j`` and the ``j``-th ordered
deck pair of the pool (round by round), so ``n_decks ** 2`` games (a *cycle*, 49 with the 7 packaged decks) play
every deck against every deck from both seats once. The arena plays each deal twice with the agents swapped; in a
mirror the two games are the same game whenever the agent's play depends only on its inputs and the seed it is
reset with (the heuristic and search agents), so a mirror arena of ``2 * N`` games gives the figures of ``N``
games here: ``ccg-env arena --agents heuristic heuristic:name=h2 --games 980`` those of ``games=490``.

Scores count a draw (or the turn limit) as half a win. A deck's score against the field is over its games
against the other decks of the pool, from either seat (a deck against itself always scores one half, so those
games are left out); the matrix cell ``(row, column)`` is the row deck's score against the column deck over both
seats; the first seat's score is over every game. Intervals are 95% Wilson score intervals (every game has its
own seed). The bounds: every deck within :data:`DECK_BOUNDS` against the field, the first seat within
:data:`SEAT_BOUNDS`; a bound fails when the score (not its interval) lies outside it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from ccg_env.intervals import wilson_interval

from .arena import build_agent, resolve_pool, run_tasks, schedule
from .match import GameRecord

#: every deck's score against the field must lie within these bounds
DECK_BOUNDS = (0.42, 0.58)
#: the first seat's score must lie within these bounds
SEAT_BOUNDS = (0.45, 0.55)


@dataclass(frozen=True)
class Score:
    """Games, the score (wins plus half the draws) over them, and its 95% Wilson interval."""

    games: int
    points: float

    @property
    def rate(self) -> float | None:
        return self.points / self.games if self.games else None

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.points, self.games)

    def to_dict(self) -> dict[str, Any]:
        low, high = self.interval
        return {"games": self.games, "score": self.rate, "ci_low": low, "ci_high": high}


def seat_points(record: GameRecord, seat: int) -> float:
    """What ``seat`` scored in the game: 1 for a win, 1/2 for a draw or the turn limit, 0 for a loss."""
    return 0.5 if record.winner is None else float(record.winner == seat)


@dataclass
class BalanceResult:
    """The games of a mirror over a deck pool, and the balance figures computed from them."""

    agent: str
    decks: list[str]
    games: list[GameRecord]
    config: dict[str, Any] = field(default_factory=dict)

    def _scores(self, keep: Any) -> Score:
        """The score of every (game, seat) for which ``keep(record, seat)`` holds."""
        points = [seat_points(r, s) for r in self.games for s in (0, 1) if keep(r, s)]
        return Score(len(points), sum(points))

    def deck_score(self, deck: str, seat: int | None = None) -> Score:
        """``deck``'s score against the other decks (from ``seat`` only, when given)."""
        return self._scores(lambda r, s: _decks(r)[s] == deck != _decks(r)[1 - s] and seat in (None, s))

    def matchup(self, deck: str, other: str) -> Score:
        """``deck``'s score against ``other`` over both seats."""
        return self._scores(lambda r, s: _decks(r) == ((deck, other) if s == 0 else (other, deck)))

    def first_seat(self) -> Score:
        """Seat 0's score (it moves first) over every game."""
        return self._scores(lambda r, s: s == 0)

    def failures(self) -> list[str]:
        """One sentence per bound that fails: a deck's score against the field, then the first seat's."""
        found = [_outside(f"{deck} against the field", self.deck_score(deck), DECK_BOUNDS) for deck in self.decks]
        found.append(_outside("the first seat", self.first_seat(), SEAT_BOUNDS))
        return [text for text in found if text]

    def table(self) -> str:
        """The per-deck table, the matrix, the first seat and the verdict as aligned text."""
        return "\n".join([*self._header(), "", *self._deck_lines(), "", *self._matrix_lines(), "",
                          *self._verdict()])

    def _header(self) -> list[str]:
        games, cycle = len(self.games), len(self.decks) ** 2
        whole, extra = divmod(games, cycle)
        note = (f"{whole} whole cycle{'s' * (whole != 1)} of {cycle}" + (f" + {extra} games: not every matchup "
                f"equally often" if extra else ": every ordered deck pair equally often, from both seats"))
        return [f"{self.agent} mirror, {games} games (seeds {self.config.get('seed', 0)}.."
                f"{self.config.get('seed', 0) + games - 1}; {note})"]

    def _deck_lines(self) -> list[str]:
        width = max(8, *(len(d) for d in self.decks))
        lines = [f"{'deck':<{width}}  vs field [95% CI]        games  moving first  moving second  bounds "
                 f"{DECK_BOUNDS[0]:.2f}-{DECK_BOUNDS[1]:.2f}"]
        for deck in self.decks:
            score = self.deck_score(deck)
            first, second = self.deck_score(deck, 0), self.deck_score(deck, 1)
            verdict = "FAIL" if _outside(deck, score, DECK_BOUNDS) else "ok"
            lines.append(f"{deck:<{width}}  {_cell(score, True):<24} {score.games:>5}  {_cell(first):>12}  "
                         f"{_cell(second):>13}  {verdict}")
        return lines

    def _matrix_lines(self) -> list[str]:
        width = max(8, *(len(d) for d in self.decks))
        lines = ["row deck's score against the column deck (both seats; games per cell: "
                 f"{min((self.matchup(a, b).games for a in self.decks for b in self.decks if a != b), default=0)}"
                 " or more)", " " * width + "".join(f"{d[:8]:>9}" for d in self.decks)]
        for deck in self.decks:
            cells = ("-" if other == deck else _cell(self.matchup(deck, other)) for other in self.decks)
            lines.append(f"{deck:<{width}}" + "".join(f"{c:>9}" for c in cells))
        return lines

    def _verdict(self) -> list[str]:
        seat = self.first_seat()
        lines = [f"first seat (moves first): {_cell(seat, True)} over {seat.games} games, bounds "
                 f"{SEAT_BOUNDS[0]:.2f}-{SEAT_BOUNDS[1]:.2f}"]
        failures = self.failures()
        lines.append("bounds: all hold" if not failures else f"bounds failing ({len(failures)}): "
                     + "; ".join(failures))
        return lines

    def to_dict(self) -> dict[str, Any]:
        """The figures as plain data (what :meth:`save` writes)."""
        return {"config": self.config, "agent": self.agent, "decks": self.decks,
                "against_field": {d: {**self.deck_score(d).to_dict(),
                                      "first": self.deck_score(d, 0).to_dict(),
                                      "second": self.deck_score(d, 1).to_dict()} for d in self.decks},
                "matrix": {d: {o: self.matchup(d, o).to_dict() for o in self.decks if o != d} for d in self.decks},
                "first_seat": self.first_seat().to_dict(), "failures": self.failures(),
                "games": [record.to_dict() for record in self.games]}

    def save(self, path: str) -> None:
        """Write :meth:`to_dict` as JSON to ``path``."""
        Path(path).write_text(json.dumps(self.to_dict(), indent=1) + "\n", encoding="utf-8")


def _decks(record: GameRecord) -> tuple[str, str]:
    return record.deck0, record.deck1


def _cell(score: Score, interval: bool = False) -> str:
    if score.rate is None:
        return "n/a"
    if not interval:
        return f"{score.rate:.3f}"
    low, high = score.interval
    return f"{score.rate:.3f} [{low:.3f}, {high:.3f}]"


def _outside(what: str, score: Score, bounds: tuple[float, float]) -> str:
    rate = score.rate
    if rate is None:
        return f"{what}: no games"
    if rate < bounds[0]:
        return f"{what}: {rate:.3f} below {bounds[0]:.2f}"
    if rate > bounds[1]:
        return f"{what}: {rate:.3f} above {bounds[1]:.2f}"
    return ""


def mirror_balance(agent: str = "heuristic", games: int = 490, seed: int = 0, *, decks: Sequence[Any] | None = None,
                   rules: Any = None, cards: Any = None, workers: int = 1, progress: bool = False) -> BalanceResult:
    """Play ``games`` mirror games of ``agent`` over a deck pool (module docstring) and return their figures.

    Args:
        agent: an agent spec as the arena takes it (``"heuristic"``, ``"search:iterations=48"``).
        games: games to play; a multiple of ``len(pool) ** 2`` plays every ordered deck pair equally often.
        seed: game ``j`` uses seed ``seed + j``.
        decks: the pool (packaged names, ``Deck`` objects or .yaml paths); default every packaged deck.
        rules, cards: as the arena takes them (default: the packaged ones).
        workers: worker processes; 1 plays in this process. Results do not depend on it.
        progress: show a progress bar.

    Raises:
        ValueError: ``games`` below 1, a bad agent spec, or a bad deck pool (as the arena says it).
    """
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"games: expected a whole number of at least 1, got {games!r}")
    pool = resolve_pool(decks, rules, cards)
    name = build_agent(agent).name
    tasks = schedule(2, 2 * games, seed, len(pool))[::2]  # deal j, the first agent in seat 0
    names = [f"{name}@0", f"{name}@1"]
    init_args: tuple[Any, ...] = ([agent, agent], names, {"rules": rules, "cards": cards}, pool, {})
    records = dict(run_tasks(tasks, workers, init_args, progress))
    cycle = len(pool) ** 2
    config = {"agent": agent, "games": games, "seed": seed, "decks": [deck.name for deck in pool],
              "cycle_games": cycle, "whole_cycles": games // cycle, "deck_bounds": list(DECK_BOUNDS),
              "seat_bounds": list(SEAT_BOUNDS)}
    return BalanceResult(agent, [deck.name for deck in pool], [records[t.game] for t in tasks], config)
