"""Measure how fair generated cards are: heuristic self-play on generated pools, each card's play rate and win
contribution, by kind of card, beside the cost model's own error.

Usage::

    python benchmarks/generated_fairness.py --pools 4 --size 60 --games-per-pair 10
    python benchmarks/generated_fairness.py --pools 1 --size 30 --games-per-pair 1 --json out.json   # a quick look

Each pool (``generated:seed=S,size=N`` for S = first_seed, first_seed + 1, ...) plays every ordered pair of its
decks (one per hero class and a neutral one) ``games-per-pair`` times, the heuristic in both seats, each game with
its own seed. For every (game, side) the script records which pool cards the side's deck held and which it played.
For each card:

- **play rate**: the share of the sides holding it that played it at least once;
- **win contribution**: the win rate of the sides that played it minus that of the sides that held it and did not
  (a draw counts half); a side that wins plays more cards, so the average card has a positive contribution: the
  table shows each card's contribution **above the average card's** (``excess``), in percentage points;
- **model error**: the card's power minus the fair power of its printed cost (``power - (2 x cost + 1)``,
  :mod:`ccg_env.engine.cost_model`), in stat points: what rounding to whole mana (and the cost cap) leaves.

Cards are grouped by kind (type, keyword, effect with its selector, trigger); a kind whose mean excess is more than
two standard errors from zero is flagged over-costed (negative: played, it wins less than the average card) or
under-costed (positive). Only cards held by at least ``--min-sides`` sides each way count. Figures are printed (and
written with ``--json``), never asserted; benchmarks/README.md records a run.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import time
from collections import defaultdict
from dataclasses import asdict, dataclass
from typing import Any

from ccg_env.cli import non_negative_int, positive_int
from ccg_env.engine import ChoiceKind, Game
from ccg_env.engine.cost_model import card_power, fair_power
from ccg_env.engine.generated_pool import generated_card_set, spec_text
from ccg_env.engine.rules import Rules
from ccg_env.engine.view import GameView
from ccg_env.engine.vocabulary import KEYWORD_NAMES


@dataclass(frozen=True)
class Args:
    """What to measure."""

    pools: int = 4  # generated pools, seeds first_seed, first_seed + 1, ...
    first_seed: int = 1000  # the first pool's seed (seeds in another range than tests and training use)
    size: int = 60  # collectible cards per pool
    games_per_pair: int = 10  # games per ordered pair of a pool's decks (7 decks: 49 pairs)
    workers: int = 1  # processes
    min_sides: int = 10  # a card counts when at least this many sides held it and played it, and as many did not
    json: str | None = None  # write the figures here


@dataclass(frozen=True)
class Side:
    """One side of one game: the pool, the cards its deck held and played, and its score (1, 0.5 or 0)."""

    pool: int
    held: tuple[str, ...]
    played: tuple[str, ...]
    score: float


def play_pool_game(task: tuple[int, int, int, int, int]) -> list[Side]:
    """Play one heuristic self-play game of a pool between two of its decks; return both sides."""
    from ccg_env.agents.heuristic import choose

    seed, size, deck0, deck1, game_seed = task
    cards = generated_card_set(spec_text(seed, size))
    decks = cards.decks(Rules.load())
    game = Game.new(game_seed, cards=cards, decks=[decks[deck0], decks[deck1]], log=False)
    played: list[set[str]] = [set(), set()]
    while not game.is_over:
        seat = game.current_player
        choice = choose(GameView(game, seat))
        if choice.kind is ChoiceKind.PLAY:
            played[seat].add(game.state.find(choice.source).definition.id)
        game.apply(choice)
    scores = (0.5, 0.5) if game.winner is None else ((1.0, 0.0) if game.winner == 0 else (0.0, 1.0))
    return [Side(seed, tuple(sorted(set(deck.cards))), tuple(sorted(played[i])), scores[i])
            for i, deck in enumerate((decks[deck0], decks[deck1]))]


def tasks(args: Args) -> list[tuple[int, int, int, int, int]]:
    """Every game: each pool's ordered deck pairs, ``games_per_pair`` times, each game with its own seed."""
    out = []
    for seed in range(args.first_seed, args.first_seed + args.pools):
        n = len(generated_card_set(spec_text(seed, args.size)).decks(Rules.load()))
        for k in range(args.games_per_pair):
            out += [(seed, args.size, a, b, len(out)) for a in range(n) for b in range(n)]
    return out


def kinds(card: Any) -> list[str]:
    """The kinds a card is grouped under: its type, keywords, each ability's effect/selector and trigger."""
    found = [f"type {card.card_type.value}"]
    found += [f"keyword {name}" for name, bit in KEYWORD_NAMES.items() if card.keywords & int(bit)]
    for ability in card.abilities:
        found += [f"effect {ability.effect.value}/{ability.selector.value}", f"trigger {ability.trigger.value}"]
    if card.card_type.value == "minion" and not card.abilities and not card.keywords:
        found.append("vanilla minion")
    return sorted(set(found))


def card_figures(sides: list[Side], args: Args) -> list[dict[str, Any]]:
    """Each pool card's sides held, play rate, win contribution and model error."""
    tally: dict[tuple[int, str], list[list[float]]] = defaultdict(lambda: [[], []])  # [not played, played]
    for side in sides:
        played = set(side.played)
        for card_id in side.held:
            tally[(side.pool, card_id)][card_id in played].append(side.score)
    rows = []
    for (seed, card_id), (unplayed, played) in sorted(tally.items()):
        pool = generated_card_set(spec_text(seed, args.size))
        card = pool[card_id]
        counted = len(played) >= args.min_sides and len(unplayed) >= args.min_sides
        rows.append({"pool": seed, "card": card_id, "cost": card.cost, "held": len(played) + len(unplayed),
                     "play_rate": len(played) / (len(played) + len(unplayed)),
                     "contribution": (_mean(played) - _mean(unplayed)) if counted else None,
                     "model_error": card_power(card, pool) - fair_power(card.cost), "kinds": kinds(card)})
    return rows


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def kind_table(rows: list[dict[str, Any]]) -> tuple[float, list[dict[str, Any]]]:
    """The average card's contribution, and per kind: cards, play rate, mean excess contribution and its error."""
    counted = [r for r in rows if r["contribution"] is not None]
    average = _mean([r["contribution"] for r in counted])
    by_kind: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in counted:
        for kind in row["kinds"]:
            by_kind[kind].append(row)
    table = []
    for kind, members in sorted(by_kind.items()):
        excess = [r["contribution"] - average for r in members]
        mean = _mean(excess)
        error = math.sqrt(sum((x - mean) ** 2 for x in excess) / (len(excess) - 1) / len(excess)) \
            if len(excess) > 1 else float("inf")
        verdict = "under-costed" if mean > 2 * error else ("over-costed" if mean < -2 * error else "")
        table.append({"kind": kind, "cards": len(members), "play_rate": _mean([r["play_rate"] for r in members]),
                      "excess": mean, "error": error, "model_error": _mean([r["model_error"] for r in members]),
                      "verdict": verdict})
    return average, table


def correlation(xs: list[float], ys: list[float]) -> float:
    """Pearson's r (0 when either side does not vary)."""
    mx, my = _mean(xs), _mean(ys)
    sx = math.sqrt(sum((x - mx) ** 2 for x in xs))
    sy = math.sqrt(sum((y - my) ** 2 for y in ys))
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / (sx * sy) if sx and sy else 0.0


def report(args: Args, sides: list[Side], rows: list[dict[str, Any]], seconds: float) -> dict[str, Any]:
    """Print the figures; return them as JSON data."""
    average, table = kind_table(rows)
    counted = [r for r in rows if r["contribution"] is not None]
    r_error = correlation([r["model_error"] for r in counted], [r["contribution"] for r in counted])
    abs_error = _mean([abs(r["model_error"]) for r in rows])
    print(f"{len(sides) // 2} games over {args.pools} pools of {args.size} cards in {seconds:.0f} s; "
          f"{len(counted)} of {len(rows)} cards counted (held by >= {args.min_sides} sides each way)")
    print(f"average card: play rate {_mean([r['play_rate'] for r in rows]):.2f}, win contribution "
          f"{100 * average:+.1f} points; cost model rounding error: mean |power - (2 x cost + 1)| "
          f"{abs_error:.2f} stat points; r(model error, contribution) = {r_error:+.2f}")
    print(f"{'kind':34} {'cards':>5} {'play':>5} {'excess':>7} {'+-se':>6} {'model err':>9}  verdict")
    for line in table:
        print(f"{line['kind']:34} {line['cards']:5d} {line['play_rate']:5.2f} {100 * line['excess']:+7.1f} "
              f"{100 * line['error']:6.1f} {line['model_error']:+9.2f}  {line['verdict']}")
    return {"args": asdict(args), "games": len(sides) // 2, "seconds": seconds, "average_contribution": average,
            "mean_abs_model_error": abs_error, "r_model_error_contribution": r_error, "kinds": table, "cards": rows}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    for name, default in asdict(Args()).items():
        kind = str if name == "json" else (non_negative_int if name in ("first_seed", "min_sides") else positive_int)
        parser.add_argument(f"--{name.replace('_', '-')}", type=kind, default=default)
    args = Args(**vars(parser.parse_args(argv)))
    start = time.perf_counter()
    work = tasks(args)
    random.Random(0).shuffle(work)  # spread the pools over the workers
    if args.workers > 1:
        with multiprocessing.Pool(args.workers) as pool:
            results = pool.map(play_pool_game, work, chunksize=8)
    else:
        results = [play_pool_game(task) for task in work]
    sides = [side for pair in results for side in pair]
    figures = report(args, sides, card_figures(sides, args), time.perf_counter() - start)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump(figures, handle, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
