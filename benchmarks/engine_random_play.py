"""Engine speed: seeded random play decisions/s and games/s (resets included) and the cost of clone().

Usage: python benchmarks/engine_random_play.py [--seconds 5] [--repeats 5]
Prints the median of several repeats; compare figures from one run, never assert them in tests.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
import timeit

from ccg_env.engine import Game


def random_play(seconds: float, first_seed: int) -> tuple[float, float, float]:
    """Play seeded random games for ``seconds``; return (decisions/s, games/s, decisions per game)."""
    decisions = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game = Game.new(seed=first_seed + games, log=False)
        rng = random.Random(games)
        while not game.is_over:
            game.apply(rng.choice(game.legal_actions()))
            decisions += 1
        games += 1
    elapsed = time.perf_counter() - start
    return decisions / elapsed, games / elapsed, decisions / games


def mid_game(seed: int = 5, decisions: int = 40) -> Game:
    """A game after ``decisions`` random choices (mid-game boards and hands)."""
    game = Game.new(seed=seed, log=False)
    rng = random.Random(seed)
    for _ in range(decisions):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
    return game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=4.0, help="duration of one random-play repeat")
    parser.add_argument("--repeats", type=int, default=5, help="repeats; the median is reported")
    args = parser.parse_args()
    runs = [random_play(args.seconds, 1000 * i) for i in range(args.repeats)]
    game = mid_game()
    clone_us = [timeit.timeit(game.clone, number=20000) / 20000 * 1e6 for _ in range(args.repeats)]
    board = sum(len(p.battlefield) for p in game.state.players)
    hands = sum(len(p.hand) for p in game.state.players)
    print(f"{'metric':<32}{'median':>12}{'min':>12}{'max':>12}")
    for name, values in (("decisions/s (random play)", [r[0] for r in runs]),
                         ("games/s (resets included)", [r[1] for r in runs]),
                         ("decisions per game", [r[2] for r in runs]),
                         ("clone() microseconds", clone_us)):
        print(f"{name:<32}{statistics.median(values):>12.1f}{min(values):>12.1f}{max(values):>12.1f}")
    print(f"(clone measured on turn {game.turn}: {board} minions, {hands} cards in hands)")


if __name__ == "__main__":
    main()
