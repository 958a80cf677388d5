"""A/B helper: the same seeded random play on each front-end of one source tree, in CPU seconds, as one JSON line.

Run it alternately on two trees (each with its own compiled build, e.g. a ``git worktree`` of the older commit
built with ``setup.py build_ext --inplace``) and compare the medians of the paired ratios; the tree's package is
put first on ``sys.path``, so one interpreter serves both::

    for r in 1 2 3 4 5; do for t in /work/wt/base /work/wt/new; do
        .venv/bin/python benchmarks/ab/front_ends.py $t 10000 10000 32000; done; done

Fixed work per front-end (the raw AEC env both seats random, the single Gymnasium env, the batched env N=64, the
SB3 VecEnv N=64), timed with ``process_time``: CPU seconds are less disturbed than wall time by other jobs on a
shared machine, but cache and core contention still move them (see benchmarks/README.md).
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path

TREE = Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else Path(__file__).resolve().parents[2]
sys.path[:0] = [str(TREE)]

import numpy as np  # noqa: E402

from ccg_env.engine import ENGINE_BUILD  # noqa: E402
from ccg_env.env.aec import raw_env  # noqa: E402
from ccg_env.env.gym_env import CcgDuelEnv  # noqa: E402
from ccg_env.env.sb3_vec import CcgDuelSb3VecEnv  # noqa: E402  (needs the train extra)
from ccg_env.env.vector import CcgDuelVectorEnv  # noqa: E402


def aec(decisions: int) -> int:
    env, rng = raw_env(), random.Random(1)
    env.reset(seed=1)
    done = 0
    while done < decisions:
        if not env.agents:
            env.reset()
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        env.step(int(legal[rng.randrange(legal.size)]))
        done += 1
    return done


def single(steps: int) -> int:
    env, rng = CcgDuelEnv(), random.Random(1)
    _, info = env.reset(seed=1)
    for _ in range(steps):
        legal = np.flatnonzero(info["action_mask"])
        _, _, terminated, truncated, info = env.step(int(legal[rng.randrange(legal.size)]))
        if terminated or truncated:
            _, info = env.reset()
    return steps


def _pick(masks: np.ndarray, rng: random.Random) -> np.ndarray:
    picked = []
    for row in masks:
        legal = np.flatnonzero(row)
        picked.append(int(legal[rng.randrange(legal.size)]) if legal.size else 0)
    return np.array(picked)


def batched(steps: int) -> int:
    env, rng = CcgDuelVectorEnv(64, copy=False), random.Random(1)
    _, infos = env.reset(seed=1)
    for _ in range(steps // 64):
        infos = env.step(_pick(infos["action_mask"], rng))[4]
    return steps // 64 * 64


def sb3(steps: int) -> int:
    env, rng = CcgDuelSb3VecEnv(64), random.Random(1)
    env.seed(1)
    env.reset()
    for _ in range(steps // 64):
        env.step(_pick(env.action_masks(), rng))
    return steps // 64 * 64


def main() -> None:
    aec_n, single_n, batch_n = (int(a) for a in (sys.argv[2:5] if len(sys.argv) >= 5 else (2000, 2000, 6400)))
    out: dict[str, object] = {"tree": str(TREE), "build": ENGINE_BUILD}
    for name, run, work in (("aec", aec, aec_n), ("single", single, single_n), ("batched", batched, batch_n),
                            ("sb3", sb3, batch_n)):
        start = time.process_time()
        done = run(work)
        out[name] = round(done / (time.process_time() - start))
    print(json.dumps(out))


if __name__ == "__main__":
    main()
