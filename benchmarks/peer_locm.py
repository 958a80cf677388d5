"""Benchmark: random-play steps/s of gym-locm (Legends of Code and Magic) beside ours, interleaved, as ratios.

gym-locm runs in its own virtual environment (``/tmp/locm-venv``, set up here from the recipe in
``../shared/peers/README.md`` if missing) as a separate process with its own interpreter: its two-player
battle env ``LOCM-battle-2p-v0`` plays uniformly random legal actions (from ``env.action_masks()``) for both
seats, resets included. Our side: the bare engine (decisions/s of random play through ``legal_actions`` and
``apply``), the raw PettingZoo AEC env playing both seats the same way (one step = one decision with its
observation and mask; the like-for-like figure), the single-agent Gymnasium env and the batched env (N=64),
where one step is a learner decision plus the random opponent's replies. Picking the random action is inside
the clock on both sides, as in gym-locm's loop, except in the last line: the batched env's own time (its
``step`` calls only), the figure the batched env's budget is about.

The machines are shared and their speed drifts by a factor of two or three over a day, so each repeat runs
gym-locm and then each of ours for the same number of seconds, and the figures that matter are the ratios
within a repeat (their median is printed). The last column rescales our figures to a machine on which
gym-locm makes 2,200 steps/s, the speed ``../shared/peers/README.md`` reports for these machines and against
which the issues' budgets were set: ``ours * 2200 / gym-locm`` from the same repeat.

If the venv cannot be set up (no network to the package registry, no Python 3.11 venv module...), the script
prints why and exits with status 0 after measuring our side only.

Run: ``python benchmarks/peer_locm.py [--seconds 5] [--repeats 5] [--venv /tmp/locm-venv]``
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

from ccg_env.agents.bench import random_play
from ccg_env.cli import positive_int, positive_seconds
from ccg_env.engine import ENGINE_BUILD
from ccg_env.env.aec import raw_env
from ccg_env.env.gym_env import CcgDuelEnv
from ccg_env.env.vector import CcgDuelVectorEnv

RESOURCES = Path(__file__).resolve().parents[2] / "shared" / "peers" / "gym-locm-resources"

LOCM_PROBE = "import gymnasium, gym_locm; gymnasium.make('LOCM-battle-2p-v0').reset()"

LOCM_BENCH = """
import json, random, statistics, sys, time, warnings
warnings.filterwarnings("ignore")
import gymnasium as gym, gym_locm, numpy as np
seconds, seed = float(sys.argv[1]), int(sys.argv[2])
env = gym.make("LOCM-battle-2p-v0").unwrapped
rates, lengths = [], []
for repeat in (seed,):
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


def measure_locm(venv: Path, seconds: float, seed: int) -> dict[str, float]:
    """One repeat of gym-locm's random play, in its own interpreter."""
    out = subprocess.run([str(venv / "bin" / "python"), "-c", LOCM_BENCH, str(seconds), str(seed)],
                         capture_output=True, text=True, check=True, timeout=600).stdout
    return json.loads(out.strip().splitlines()[-1])


def engine_rate(seconds: float, seed: int) -> float:
    """The bare engine: decisions per second of seeded random play, resets included."""
    return random_play(seconds, 1000 * seed)[0]


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


def batched_env_time_rate(seconds: float, seed: int, num_envs: int = 64) -> float:
    """The batched env (N=64) with only ``step`` inside the clock: the env's own steps/s, the issue's budget."""
    env, rng = CcgDuelVectorEnv(num_envs, copy=False), random.Random(seed)
    _, infos = env.reset(seed=seed)
    steps, inside, start = 0, 0.0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        actions = [0] * num_envs
        for i, row in enumerate(infos["action_mask"]):
            legal = np.flatnonzero(row)
            actions[i] = int(legal[rng.randrange(legal.size)]) if legal.size else 0
        picked = np.array(actions)
        before = time.perf_counter()
        infos = env.step(picked)[4]
        inside += time.perf_counter() - before
        steps += num_envs
    return steps / inside


OURS = {"ccg_env engine, random play (decisions)": engine_rate,
        "ccg_env raw AEC env, both seats random": aec_rate,
        "ccg_env CcgDuelEnv vs random (learner steps)": gym_rate,
        "ccg_env batched env N=64 (learner steps)": batched_rate,
        "ccg_env batched env N=64, env time only": batched_env_time_rate}
REFERENCE_LOCM = 2200.0  # gym-locm's steps/s on these machines per ../shared/peers/README.md


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=positive_seconds, default=5.0,
                        help="duration of each measurement in a repeat")
    parser.add_argument("--repeats", type=positive_int, default=5, help="repeats, each measuring gym-locm then ours")
    parser.add_argument("--venv", type=Path, default=Path("/tmp/locm-venv"),
                        help="virtualenv for gym-locm (created and installed on first use)")
    args = parser.parse_args()
    problem = ensure_locm(args.venv)
    locm: list[float] = []
    ours: dict[str, list[float]] = {name: [] for name in OURS}
    for seed in range(args.repeats):
        if not problem:
            locm.append(measure_locm(args.venv, args.seconds, seed)["steps_per_s"])
        for name, run in OURS.items():
            ours[name].append(run(args.seconds, seed))
        print(f"repeat {seed + 1}/{args.repeats} done" + (f" (gym-locm {locm[-1]:,.0f} steps/s)" if locm else ""),
              flush=True)
    _report(args, locm, ours, problem)


def _report(args: argparse.Namespace, locm: list[float], ours: dict[str, list[float]], problem: str | None) -> None:
    print(f"\nrandom play, resets included; medians of {args.repeats} interleaved repeats x {args.seconds:g} s; "
          f"engine build: {ENGINE_BUILD}")
    header = f"  {'':<48}{'per s':>10}{'min':>9}{'max':>9}"
    print(header + (f"{'x gym-locm':>12}{'at locm=2,200':>15}" if locm else ""))
    if locm:
        print(f"  {'gym-locm LOCM-battle-2p-v0, both seats random':<48}{_row(locm)}")
    for name, rates in ours.items():
        line = f"  {name:<48}{_row(rates)}"
        if locm:
            ratios = [rate / peer for rate, peer in zip(rates, locm)]
            line += f"{statistics.median(ratios):>12.1f}{statistics.median(ratios) * REFERENCE_LOCM:>15,.0f}"
        print(line)
    if problem:
        print(f"SKIPPED gym-locm: {problem}")


def _row(values: list[float]) -> str:
    return f"{statistics.median(values):>10,.0f}{min(values):>9,.0f}{max(values):>9,.0f}"


if __name__ == "__main__":
    main()
