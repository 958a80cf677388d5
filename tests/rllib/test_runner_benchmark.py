"""benchmarks/rllib_runner.py runs on a tiny budget and prints its figures (speed is never asserted here)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.rllib.ray_or_skip import require_rllib

require_rllib()

ROOT = Path(__file__).resolve().parents[2]


def test_the_runner_benchmark_prints_both_rates_and_the_profile():
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "rllib_runner.py"), "--steps", "64", "--envs",
                           "2", "--repeats", "1", "--compare", "--profile"], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    for line in ("env alone, random legal moves:", "one env runner, slot module sampling:", "runner / env alone:",
                 "RLlib's MultiAgentEnvRunner:", "runner / RLlib's runner:",
                 "RLlib episodes and metrics", "env and game (ccg_env)", "module forward (torch)"):
        assert line in done.stdout, f"no {line!r} in:\n{done.stdout}"
    bad = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "rllib_runner.py"), "--steps", "0"],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "--steps: must be at least 1" in bad.stderr
