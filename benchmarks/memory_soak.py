"""Long-run memory: resident set size over many games with resets, for the engine and every env.

Usage: python benchmarks/memory_soak.py [--games 10000] [--every 500] [--target engine aec gym vector]

Each target plays seeded random games back to back: a new ``Game`` each time for the engine, ``reset()`` of one
long-lived env for the AEC env and the single-agent Gymnasium env, and one batched vector env (N=64, autoreset)
whose slots start new games as theirs end. The RSS (``psutil``) is sampled after a ``gc.collect()`` every
``--every`` finished games; the script prints the series and the growth: from the first sample (includes
warm-up: caches, interned strings) and from the second sample on (the steady state, which should be flat).
Figures are printed, never asserted. A progress bar per target shows games and the latest RSS.
"""

from __future__ import annotations

import argparse
import gc
import random
import time
from typing import Callable, Iterator

import psutil
from tqdm import tqdm

from ccg_env.cli import positive_int

MB = 1024 * 1024

#: A target plays games forever, yielding (games finished so far, actions taken so far) after each game.
Runner = Callable[[], Iterator[tuple[int, int]]]


def engine_games() -> Iterator[tuple[int, int]]:
    """Seeded random engine games with logging on, one new ``Game`` each."""
    from ccg_env.engine import Game

    actions = 0
    for seed in range(10**9):
        game, rng = Game.new(seed=seed), random.Random(seed)
        while not game.is_over:
            game.apply(rng.choice(game.legal_actions()))
            actions += 1
        yield seed + 1, actions


def aec_games() -> Iterator[tuple[int, int]]:
    """Seeded random games in one long-lived raw AEC env, reset for each game."""
    import numpy as np

    from ccg_env.env.aec import raw_env

    env, actions = raw_env(), 0
    for seed in range(10**9):
        env.reset(seed=seed)
        rng = random.Random(seed)
        while not any(env.terminations.values()) and not any(env.truncations.values()):
            mask = env.observe(env.agent_selection)["action_mask"]
            env.step(int(rng.choice(np.flatnonzero(mask))))
            actions += 1
        yield seed + 1, actions


def gym_games() -> Iterator[tuple[int, int]]:
    """Random learner games against the random opponent in one long-lived single-agent Gymnasium env."""
    import numpy as np

    from ccg_env.env.gym_env import CcgDuelEnv

    env, actions = CcgDuelEnv(), 0
    for seed in range(10**9):
        _, info = env.reset(seed=seed)
        rng, done = random.Random(seed), False
        while not done:
            _, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            done, actions = terminated or truncated, actions + 1
        yield seed + 1, actions


def vector_games(num_envs: int = 64) -> Iterator[tuple[int, int]]:
    """Random learner games in one batched vector env (N=64, next-step autoreset); yields as each game ends."""
    import numpy as np

    from ccg_env.env.vector import CcgDuelVectorEnv

    env, rng = CcgDuelVectorEnv(num_envs, copy=False), random.Random(0)
    _, infos = env.reset(seed=0)
    games = actions = 0
    while True:
        picks = [int(rng.choice(legal)) if (legal := np.flatnonzero(row)).size else 0 for row in infos["action_mask"]]
        _, _, terminated, truncated, infos = env.step(np.array(picks))
        actions += num_envs
        for _ in range(int(np.count_nonzero(terminated | truncated))):
            games += 1
            yield games, actions


TARGETS: dict[str, Runner] = {"engine": engine_games, "aec": aec_games, "gym": gym_games, "vector": vector_games}


def soak(name: str, runner: Runner, games: int, every: int) -> tuple[list[tuple[int, float]], int, float]:
    """Play ``games`` games; return the (games played, RSS MB) samples, the actions and the seconds."""
    process = psutil.Process()
    samples: list[tuple[int, float]] = []
    actions, start = 0, time.perf_counter()
    with tqdm(total=games, desc=name, unit="game", mininterval=1.0) as bar:
        for played, actions in runner():
            bar.update(1)
            if played % every == 0:
                gc.collect()
                samples.append((played, process.memory_info().rss / MB))
                bar.set_postfix(rss_mb=f"{samples[-1][1]:.1f}")
            if played >= games:
                break
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
    parser.add_argument("--games", type=positive_int, default=10_000, help="games per target")
    parser.add_argument("--every", type=positive_int, default=500, help="sample the RSS every this many games")
    parser.add_argument("--target", nargs="+", choices=tuple(TARGETS), default=list(TARGETS),
                        help="what to soak (default: all)")
    args = parser.parse_args()
    if args.every > args.games:
        parser.error(f"--every ({args.every}) must not exceed --games ({args.games}): no sample would be taken")
    for target in args.target:
        print(describe(target, *soak(target, TARGETS[target], args.games, args.every)), flush=True)


if __name__ == "__main__":
    main()
