"""Long-run memory: resident set size over many games with resets, for the engine and the AEC env.

Usage: python benchmarks/memory_soak.py [--games 10000] [--every 500] [--target engine aec]

Each target plays seeded random games back to back (a new ``Game`` each time for the engine, ``reset()`` of
one env for the AEC env), samples the RSS (``psutil``) after a ``gc.collect()`` every ``--every`` games and
prints the series and the growth: from the first sample (includes warm-up: caches, interned strings) and
from the second sample on (the steady state, which should be flat). Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import gc
import random
import time
from typing import Callable

import psutil

MB = 1024 * 1024


def play_engine_game(seed: int) -> int:
    """One seeded random engine game with logging on; return its number of actions."""
    from ccg_env.engine import Game

    game = Game.new(seed=seed)
    rng = random.Random(seed)
    actions = 0
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
        actions += 1
    return actions


def aec_player() -> Callable[[int], int]:
    """A function playing one seeded random game in one long-lived AEC env (reset each game)."""
    import numpy as np

    from ccg_env.env.aec import raw_env

    env = raw_env()

    def play(seed: int) -> int:
        env.reset(seed=seed)
        rng = random.Random(seed)
        actions = 0
        while not any(env.terminations.values()) and not any(env.truncations.values()):
            mask = env.observe(env.agent_selection)["action_mask"]
            env.step(int(rng.choice(np.flatnonzero(mask))))
            actions += 1
        return actions

    return play


def soak(play: Callable[[int], int], games: int, every: int) -> tuple[list[tuple[int, float]], int, float]:
    """Play ``games`` games; return the (games played, RSS MB) samples, the actions and the seconds."""
    process = psutil.Process()
    samples, actions, start = [], 0, time.perf_counter()
    for seed in range(games):
        actions += play(seed)
        if (seed + 1) % every == 0:
            gc.collect()
            samples.append((seed + 1, process.memory_info().rss / MB))
    return samples, actions, time.perf_counter() - start


def describe(name: str, samples: list[tuple[int, float]], actions: int, seconds: float) -> str:
    """The series and the growth of one target, as printable lines."""
    series = ", ".join(f"{g}:{mb:.1f}" for g, mb in samples)
    first, second, last = samples[0][1], samples[min(1, len(samples) - 1)][1], samples[-1][1]
    steady_games = samples[-1][0] - samples[min(1, len(samples) - 1)][0]
    per_1000 = (last - second) / steady_games * 1000 if steady_games else 0.0
    return (f"[{name}] {samples[-1][0]:,} games, {actions:,} actions, {seconds:.0f} s\n"
            f"  RSS MB by games played: {series}\n"
            f"  growth: {last - first:+.2f} MB since game {samples[0][0]}, {last - second:+.2f} MB since game "
            f"{samples[min(1, len(samples) - 1)][0]} ({per_1000:+.3f} MB per 1,000 games)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000, help="games per target")
    parser.add_argument("--every", type=int, default=500, help="sample the RSS every this many games")
    parser.add_argument("--target", nargs="+", choices=("engine", "aec"), default=["engine", "aec"])
    args = parser.parse_args()
    for target in args.target:
        play = play_engine_game if target == "engine" else aec_player()
        print(describe(target, *soak(play, args.games, args.every)), flush=True)


if __name__ == "__main__":
    main()
