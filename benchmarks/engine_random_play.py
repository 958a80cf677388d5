"""Engine speed: seeded random play decisions/s and games/s (resets included) and the cost of clone().

Usage: python benchmarks/engine_random_play.py [--seconds 4] [--repeats 5] [--all-decks]
With ``--all-decks`` the games cycle through every ordered pair of the packaged decks (the whole card set in
play) instead of the default midrange-versus-aggro pairing.
Prints the median of several repeats; compare figures from one run, never assert them in tests.
"""

from __future__ import annotations

import argparse
import itertools
import statistics

from ccg_env.agents.bench import clone_microseconds, mid_game, random_play
from ccg_env.cli import positive_int, positive_seconds
from ccg_env.engine import ENGINE_BUILD
from ccg_env.engine.decks import default_deck_paths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=positive_seconds, default=4.0, help="duration of one random-play repeat")
    parser.add_argument("--repeats", type=positive_int, default=5, help="repeats; the median is reported")
    parser.add_argument("--all-decks", action="store_true",
                        help="cycle through every ordered pair of the packaged decks (default: midrange vs aggro)")
    args = parser.parse_args()
    pairs = None
    if args.all_decks:
        names = sorted(default_deck_paths())
        pairs = list(itertools.product(names, repeat=2))
        print(f"decks: all {len(pairs)} ordered pairs of {', '.join(names)}")
    runs = [random_play(args.seconds, 1000 * i, pairs) for i in range(args.repeats)]
    game = mid_game()
    clone_us = [clone_microseconds(game, number=20000) for _ in range(args.repeats)]
    board = sum(len(p.battlefield) for p in game.state.players)
    hands = sum(len(p.hand) for p in game.state.players)
    print(f"engine build: {ENGINE_BUILD}")
    print(f"{'metric':<32}{'median':>12}{'min':>12}{'max':>12}")
    for name, values in (("decisions/s (random play)", [r[0] for r in runs]),
                         ("games/s (resets included)", [r[1] for r in runs]),
                         ("decisions per game", [r[2] for r in runs]),
                         ("clone() microseconds", clone_us)):
        print(f"{name:<32}{statistics.median(values):>12.1f}{min(values):>12.1f}{max(values):>12.1f}")
    print(f"(clone measured on turn {game.turn}: {board} minions, {hands} cards in hands)")


if __name__ == "__main__":
    main()
