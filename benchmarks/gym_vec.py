"""Benchmark: env-steps/s of the single Gymnasium env, make_vec sync/async and the batched env, random legal play.

Every variant plays uniformly random legal actions (read from the returned action masks) against the built-in
random opponent, resets included. Only the time spent inside the env's ``reset``/``step`` is counted (picking
the random actions is outside the clock), so the figures are the env's own cost; an env step is one learner
decision plus the opponent's replies. Prints the median (and min/max) of several repeats per variant, in
wall-clock steps/s and in steps per CPU-second of this process (steadier when other jobs share the cores;
not meaningful for the async variant, whose work happens in worker processes).

``--profile`` also runs cProfile over the batched env (N=64) and splits its time into the engine
(``ccg_env/engine``), the observation encoder, the action codec and mask, this env's own code (duel, vector,
gym_env) and the rest; built-in calls are charged to their callers. cProfile cannot see inside compiled modules,
so with the compiled build the profile runs on the pure-Python one, in a child process.

Run: ``python benchmarks/gym_vec.py [--steps 20000] [--repeats 5] [--profile]``
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import random
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from typing import Callable

import gymnasium as gym
import numpy as np

from ccg_env.cli import positive_int
from ccg_env.engine import COMPILED, ENGINE_BUILD
from ccg_env.engine.native import PURE_ENV_VAR
from ccg_env.env.gym_env import ENV_ID, CcgDuelEnv
from ccg_env.env.sb3_vec import CcgDuelSb3VecEnv
from ccg_env.env.vector import CcgDuelVectorEnv

BATCH_SIZES = (1, 8, 64, 256)


def pick(mask: np.ndarray, rng: random.Random) -> int:
    """A uniformly random legal id (0 for a finished game's all-zero mask, whose action is ignored)."""
    legal = np.flatnonzero(mask)
    return int(legal[rng.randrange(legal.size)]) if legal.size else 0


class Clock:
    """Accumulates wall time and this process's CPU time over the timed sections only."""

    def __init__(self) -> None:
        self.wall = self.cpu = 0.0

    def __enter__(self) -> Clock:
        self._wall, self._cpu = time.perf_counter(), time.process_time()
        return self

    def __exit__(self, *exc: object) -> None:
        self.wall += time.perf_counter() - self._wall
        self.cpu += time.process_time() - self._cpu


def run_single(steps: int, seed: int) -> tuple[int, Clock]:
    env, rng, clock = CcgDuelEnv(), random.Random(seed), Clock()
    _, info = env.reset(seed=seed)
    for _ in range(steps):
        action = pick(info["action_mask"], rng)
        with clock:
            _, _, terminated, truncated, info = env.step(action)
            if terminated or truncated:
                _, info = env.reset()
    return steps, clock


def run_vector(make: Callable[[], gym.vector.VectorEnv], steps: int, seed: int) -> tuple[int, Clock]:
    """Gymnasium vector env (NEXT_STEP autoreset): about ``steps`` env-steps in total across its slots."""
    env, rng, clock = make(), random.Random(seed), Clock()
    try:
        _, infos = env.reset(seed=seed)
        rounds = max(1, steps // env.num_envs)
        for _ in range(rounds):
            actions = np.array([pick(row, rng) for row in infos["action_mask"]])
            with clock:
                infos = env.step(actions)[4]
    finally:
        env.close()
    return rounds * env.num_envs, clock


def run_sb3(num_envs: int, steps: int, seed: int) -> tuple[int, Clock]:
    env, rng, clock = CcgDuelSb3VecEnv(num_envs), random.Random(seed), Clock()
    env.seed(seed)
    env.reset()
    rounds = max(1, steps // num_envs)
    for _ in range(rounds):
        actions = np.array([pick(row, rng) for row in env.action_masks()])
        with clock:
            env.step(actions)
    return rounds * num_envs, clock


def variants(steps: int) -> dict[str, Callable[[int], tuple[int, Clock]]]:
    table: dict[str, Callable[[int], tuple[int, Clock]]] = {"single env (CcgDuelEnv)": lambda s: run_single(steps, s)}
    for mode in ("sync", "async"):
        table[f"make_vec {mode}, N=8"] = lambda s, m=mode: run_vector(
            lambda: gym.make_vec(ENV_ID, num_envs=8, vectorization_mode=m), steps, s)
    for n in BATCH_SIZES:
        table[f"batched, N={n}"] = lambda s, n=n: run_vector(lambda: CcgDuelVectorEnv(n, copy=False), steps, s)
    table["batched copy=True, N=64"] = lambda s: run_vector(lambda: CcgDuelVectorEnv(64), steps, s)
    table["batched SB3 VecEnv, N=64"] = lambda s: run_sb3(64, steps, s)
    return table


#: Where each source file's time is charged (first matching fragment wins).
CATEGORIES = (("ccg_env/engine/attacks.py", "observation encoder"),  # the "can attack" columns ask it
              ("ccg_env/engine/", "engine"),
              ("ccg_env/env/observation", "observation encoder"),  # observation.py and observation_writer.py
              ("ccg_env/env/codec.py", "action codec and mask"), ("ccg_env/env/masks.py", "action codec and mask"),
              ("ccg_env/env/", "env glue (duel, vector)"),
              ("benchmarks/", "benchmark loop (action picking)"))


def category(filename: str) -> str:
    for fragment, name in CATEGORIES:
        if fragment in filename.replace("\\", "/"):
            return name
    return "other (numpy, gymnasium, interpreter)"


def profile_batched(steps: int) -> dict[str, float]:
    """Share of the batched env's time (N=64) per category, from cProfile's own times."""
    profiler = cProfile.Profile()
    profiler.runcall(run_vector, lambda: CcgDuelVectorEnv(64, copy=False), steps, 0)
    stats = pstats.Stats(profiler).stats  # (file, line, name) -> (cc, nc, tottime, cumtime, callers)
    shares: dict[str, float] = defaultdict(float)
    for (filename, _, _), (_, _, own, _, callers) in stats.items():
        if not filename.startswith("~") or not callers:
            shares[category(filename)] += own
            continue
        total = sum(c[2] for c in callers.values()) or 1.0  # a built-in: charge its callers by their share
        for (caller_file, _, _), caller_times in callers.items():
            shares[category(caller_file)] += own * caller_times[2] / total
    env_total = sum(v for k, v in shares.items() if not k.startswith("benchmark"))
    return {name: value / env_total for name, value in sorted(shares.items(), key=lambda kv: -kv[1])}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=positive_int, default=20_000, help="env-steps per repeat")
    parser.add_argument("--repeats", type=positive_int, default=5, help="repeats; the median is reported")
    parser.add_argument("--profile", action="store_true", help="also split the batched env's time by component")
    parser.add_argument("--profile-only", action="store_true", help=argparse.SUPPRESS)  # the child of --profile
    args = parser.parse_args()
    if args.profile_only:
        print_profile(args.steps)
        return
    print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; "
          f"{args.steps} steps x {args.repeats}")
    print(f"{'variant':<28}{'env-steps/s (wall)':>20}{'min':>9}{'max':>9}{'per CPU-second':>16}")
    for name, run in variants(args.steps).items():
        results = [run(seed) for seed in range(args.repeats)]
        wall = [steps / clock.wall for steps, clock in results]
        cpu = statistics.median(steps / clock.cpu for steps, clock in results)
        cpu_text = "n/a" if "async" in name else f"{cpu:,.0f}"  # async workers' CPU is not this process's
        print(f"{name:<28}{statistics.median(wall):>20,.0f}{min(wall):>9,.0f}{max(wall):>9,.0f}{cpu_text:>16}")
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    if args.profile:
        print_profile(args.steps)


def print_profile(steps: int) -> None:
    """Print the split of the batched env's time; cProfile sees no function inside compiled modules, so with the
    compiled build it profiles the pure-Python one in a child process (the compiled split differs)."""
    if COMPILED:
        env = {**os.environ, PURE_ENV_VAR: "1"}
        sys.stdout.flush()  # the child writes to the same stdout: keep the order of lines
        subprocess.run([sys.executable, __file__, "--profile-only", "--steps", str(steps)], env=env, check=True)
        return
    print(f"\ncProfile of the batched env, N=64, as shares of the env's time; engine build: {ENGINE_BUILD}")
    print("(cProfile cannot see inside compiled code; the benchmark loop is shown against the same total but")
    print("excluded from it; profiler overhead inflates call-heavy code):")
    for name, share in profile_batched(steps).items():
        print(f"  {name:<34}{share:>7.1%}")


if __name__ == "__main__":
    main()
