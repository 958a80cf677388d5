"""Benchmark: the cost of ``card_features`` (and ``card_ids=False``), interleaved with the default observation.

Each round measures every variant once, in turn, on the same fixed seeded work: the raw AEC env (steps per
CPU-second of this process: ``env.last()`` and a random masked action, resets included, as
``benchmarks/env_aec.py`` plays) and the batched env with N=64 slots against the random opponent (env-steps per
CPU-second inside ``step``; :func:`benchmarks.gym_vec.run_vector`). CPU time rather than wall time, so that other
jobs on a shared machine move the figures less. Prints the median over the rounds per variant, and the median of the
per-round ratios to the default observation.

Run: ``python benchmarks/card_features.py [--rounds 5] [--aec-steps 5000] [--batched-steps 12800]``
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gym_vec import run_vector  # noqa: E402  (a sibling benchmark script)

from ccg_env.cli import positive_int  # noqa: E402
from ccg_env.engine import ENGINE_BUILD  # noqa: E402
from ccg_env.env.aec import raw_env  # noqa: E402
from ccg_env.env.vector import CcgDuelVectorEnv  # noqa: E402

VARIANTS = {"default": {}, "card_features": {"card_features": True},
            "card_features, no ids": {"card_features": True, "card_ids": False}}


def aec_rate(options: dict, steps: int, seed: int = 0) -> float:
    """Raw AEC env steps per CPU-second: ``last()`` then a random legal action, resets included."""
    env, rng = raw_env(**options), random.Random(seed)
    env.reset(seed=seed)
    start = time.process_time()
    for _ in range(steps):
        if not env.agents:
            env.reset()
        observation, _, terminated, truncated, _ = env.last()
        legal = observation["action_mask"].nonzero()[0]
        env.step(None if terminated or truncated else int(legal[rng.randrange(legal.size)]))
    return steps / (time.process_time() - start)


def batched_rate(options: dict, steps: int) -> float:
    """Batched env (N=64) env-steps per CPU-second inside ``step``."""
    done, clock = run_vector(lambda: CcgDuelVectorEnv(64, **options), steps, seed=0)
    return done / clock.cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=positive_int, default=5)
    parser.add_argument("--aec-steps", type=positive_int, default=5000)
    parser.add_argument("--batched-steps", type=positive_int, default=12800)
    args = parser.parse_args()
    rates: dict[str, dict[str, list[float]]] = {name: {"aec": [], "batched": []} for name in VARIANTS}
    for round_index in range(args.rounds):
        for name, options in VARIANTS.items():
            rates[name]["aec"].append(aec_rate(options, args.aec_steps))
            rates[name]["batched"].append(batched_rate(options, args.batched_steps))
        print(f"round {round_index + 1}/{args.rounds} done", file=sys.stderr)
    print(f"engine build: {ENGINE_BUILD}; {args.rounds} rounds, variants interleaved")
    print("| observation | raw AEC (steps/CPU-s) | ratio | batched N=64 (env-steps/CPU-s) | ratio |")
    print("| --- | --- | --- | --- | --- |")
    base = rates["default"]
    for name, measured in rates.items():
        cells = []
        for kind in ("aec", "batched"):
            ratio = statistics.median(a / b for a, b in zip(measured[kind], base[kind]))
            cells += [f"{statistics.median(measured[kind]):,.0f}", f"{ratio:.2f}"]
        print(f"| {name} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
