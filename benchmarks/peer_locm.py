"""Benchmark: random-play steps/s of gym-locm (Legends of Code and Magic) beside ours, in one run, as a ratio.

gym-locm runs in its own virtual environment (``/tmp/locm-venv``, set up here from the recipe in
``../shared/peers/README.md`` if missing) as a separate process with its own interpreter: its two-player
battle env ``LOCM-battle-2p-v0`` plays uniformly random legal actions (from ``env.action_masks()``) for both
seats, resets included. The like-for-like figure on our side is the raw PettingZoo AEC env playing both seats
the same way (one step = one decision with its observation and mask, resets included); the single-agent
Gymnasium env and the batched env (N=64) are shown too, where one step is a learner decision plus the random
opponent's replies. The two sides run one after the other, never at the same time. Medians of repeats.

If the venv cannot be set up (no network to the package registry, no Python 3.11 venv module...), the script
prints why and exits with status 0 after measuring our side only.

Run: ``python benchmarks/peer_locm.py [--seconds 5] [--repeats 3] [--venv /tmp/locm-venv]``
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from ccg_env.env.aec import raw_env
from ccg_env.env.gym_env import CcgDuelEnv
from ccg_env.env.vector import CcgDuelVectorEnv

RESOURCES = Path(__file__).resolve().parents[2] / "shared" / "peers" / "gym-locm-resources"

LOCM_PROBE = "import gymnasium, gym_locm; gymnasium.make('LOCM-battle-2p-v0').reset()"

LOCM_BENCH = """
import json, random, statistics, sys, time, warnings
warnings.filterwarnings("ignore")
import gymnasium as gym, gym_locm, numpy as np
seconds, repeats = float(sys.argv[1]), int(sys.argv[2])
env = gym.make("LOCM-battle-2p-v0").unwrapped
rates, lengths = [], []
for repeat in range(repeats):
    rng = random.Random(repeat)
    env.reset(seed=repeat)
    steps = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        legal = np.flatnonzero(env.action_masks())
        terminated, truncated = env.step(int(legal[rng.randrange(legal.size)]))[2:4]
        steps += 1
        if terminated or truncated:
            env.reset()
            games += 1
    rates.append(steps / (time.perf_counter() - start))
    lengths.append(steps / max(games, 1))
print(json.dumps({"steps_per_s": statistics.median(rates), "steps_per_game": statistics.median(lengths)}))
"""


def setup_commands(venv: Path) -> list[list[str]]:
    """The recipe of ``shared/peers/README.md`` as commands."""
    pip, site = str(venv / "bin" / "pip"), venv / "lib" / "python3.11" / "site-packages"
    return [
        [sys.executable, "-m", "venv", str(venv)],
        [pip, "install", "-q", "torch==2.13.0", "numpy>=2", "gymnasium>=1.2", "stable-baselines3", "sb3-contrib"],
        [pip, "download", "-q", "gym-locm==2.0.0b1", "--no-deps", "--python-version", "3.12", "--only-binary=:all:",
         "-d", "/tmp/locm-dl"],
        ["sh", "-c", f"{pip} install -q --no-deps --ignore-requires-python /tmp/locm-dl/gym_locm-*.whl"],
        ["sh", "-c", f"mkdir -p {site}/gym_locm/engine/resources && "
                     f"cp {RESOURCES}/* {site}/gym_locm/engine/resources/"],
    ]


def ensure_locm(venv: Path) -> str | None:
    """Return None when gym-locm imports in ``venv`` (setting it up if needed), else the reason it cannot."""
    python = venv / "bin" / "python"
    if python.exists() and _runs([str(python), "-c", LOCM_PROBE]):
        return None
    if not RESOURCES.is_dir():
        return f"gym-locm's missing data files are not at {RESOURCES}"
    print(f"setting up gym-locm in {venv} (one time)...", flush=True)
    for command in setup_commands(venv):
        result = subprocess.run(command, capture_output=True, text=True, timeout=1800)
        if result.returncode != 0:
            return f"setup step failed: {' '.join(command)}\n{result.stderr.strip()[-800:]}"
    return None if _runs([str(python), "-c", LOCM_PROBE]) else "gym-locm still does not import after setup"


def _runs(command: list[str]) -> bool:
    return subprocess.run(command, capture_output=True, timeout=600).returncode == 0


def measure_locm(venv: Path, seconds: float, repeats: int) -> dict[str, float]:
    out = subprocess.run([str(venv / "bin" / "python"), "-c", LOCM_BENCH, str(seconds), str(repeats)],
                         capture_output=True, text=True, check=True, timeout=600).stdout
    return json.loads(out.strip().splitlines()[-1])


def aec_rate(seconds: float, seed: int) -> float:
    """Our AEC env, both seats random; counts decisions (not the dead steps after a game ends)."""
    env, rng = raw_env(), random.Random(seed)
    env.reset(seed=seed)
    decisions, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        if not env.agents:
            env.reset()
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        env.step(int(legal[rng.randrange(legal.size)]))
        decisions += 1
    return decisions / (time.perf_counter() - start)


def gym_rate(seconds: float, seed: int) -> float:
    env, rng = CcgDuelEnv(), random.Random(seed)
    _, info = env.reset(seed=seed)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        legal = np.flatnonzero(info["action_mask"])
        _, _, terminated, truncated, info = env.step(int(legal[rng.randrange(legal.size)]))
        steps += 1
        if terminated or truncated:
            _, info = env.reset()
    return steps / (time.perf_counter() - start)


def batched_rate(seconds: float, seed: int, num_envs: int = 64) -> float:
    env, rng = CcgDuelVectorEnv(num_envs, copy=False), random.Random(seed)
    _, infos = env.reset(seed=seed)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        actions = [0] * num_envs
        for i, row in enumerate(infos["action_mask"]):
            legal = np.flatnonzero(row)
            actions[i] = int(legal[rng.randrange(legal.size)]) if legal.size else 0
        infos = env.step(np.array(actions))[4]
        steps += num_envs
    return steps / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="duration of one repeat")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--venv", type=Path, default=Path("/tmp/locm-venv"))
    args = parser.parse_args()
    ours = {name: statistics.median(run(args.seconds, seed) for seed in range(args.repeats))
            for name, run in (("ccg_env raw AEC env, both seats random", aec_rate),
                              ("ccg_env CcgDuelEnv vs random (learner steps)", gym_rate),
                              ("ccg_env batched env N=64 (learner steps)", batched_rate))}
    problem = ensure_locm(args.venv)
    locm = None if problem else measure_locm(args.venv, args.seconds, args.repeats)
    print(f"random play, resets included, median of {args.repeats} x {args.seconds:g} s")
    if locm:
        print(f"  {'gym-locm LOCM-battle-2p-v0, both seats random':<48}{locm['steps_per_s']:>10,.0f} steps/s "
              f"({locm['steps_per_game']:.0f} steps per game)")
    for name, rate in ours.items():
        ratio = f"   x{rate / locm['steps_per_s']:.1f} gym-locm" if locm else ""
        print(f"  {name:<48}{rate:>10,.0f} steps/s{ratio}")
    if problem:
        print(f"SKIPPED gym-locm: {problem}")


if __name__ == "__main__":
    main()
