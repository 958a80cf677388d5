"""Benchmark: raw and wrapped AEC env steps per second with observations and masks, random legal actions.

Each repeat plays whole games (resets included) for a fixed number of steps, reading ``env.last()`` (the
observation vector and the action mask) before every step and picking a uniformly random masked action.
Prints the median of several repeats per variant as a small table, with the bare engine (the same random
play on ``Game``, no observations or masks) as the baseline, since the machine's load moves every figure.

Run: ``python benchmarks/env_aec.py [--steps 20000] [--repeats 5]``
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Callable

import numpy as np

from ccg_env.cli import positive_int
from ccg_env.engine import ENGINE_BUILD, Game
from ccg_env.env.aec import env as wrapped_env
from ccg_env.env.aec import raw_env


def play_steps(env, steps: int, seed: int) -> float:
    """Play ``steps`` agent steps (dead-agent steps included, resets when a game ends); return steps per second."""
    rng = random.Random(seed)
    env.reset(seed=seed)
    done = 0
    start = time.perf_counter()
    while done < steps:
        if not env.agents:
            env.reset()
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
        else:
            env.step(rng.choice(np.flatnonzero(observation["action_mask"]).tolist()))
        done += 1
    return steps / (time.perf_counter() - start)


def play_engine_steps(steps: int, seed: int) -> float:
    """The baseline: the same random play on ``Game`` directly, without observations or masks."""
    rng = random.Random(seed)
    game, done, games = Game.new(seed, log=False), 0, 0
    start = time.perf_counter()
    while done < steps:
        if game.is_over:
            games += 1
            game = Game.new(seed + games, log=False)
        game.apply(rng.choice(game.legal_actions()))
        done += 1
    return steps / (time.perf_counter() - start)


def measure(make: Callable[[], object], steps: int, repeats: int) -> tuple[float, float, float]:
    """Return (median, min, max) steps per second over ``repeats`` runs."""
    if make is Game:
        rates = [play_engine_steps(steps, seed=repeat) for repeat in range(repeats)]
        return statistics.median(rates), min(rates), max(rates)
    env = make()
    play_steps(env, steps // 10, seed=999)  # warm-up
    rates = [play_steps(env, steps, seed=repeat) for repeat in range(repeats)]
    return statistics.median(rates), min(rates), max(rates)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=positive_int, default=20_000, help="agent steps per repeat")
    parser.add_argument("--repeats", type=positive_int, default=5, help="repeats; the median is reported")
    args = parser.parse_args()
    variants = {"engine only": Game, "raw_env": raw_env, "env (wrapped)": wrapped_env}
    print(f"engine build: {ENGINE_BUILD}")
    print(f"{'variant':<16}{'median steps/s':>16}{'min':>10}{'max':>10}{'us/step':>10}"
          f"   ({args.steps} steps x {args.repeats})")
    for name, make in variants.items():
        median, low, high = measure(make, args.steps, args.repeats)
        print(f"{name:<16}{median:>16,.0f}{low:>10,.0f}{high:>10,.0f}{1e6 / median:>10.1f}")


if __name__ == "__main__":
    main()
