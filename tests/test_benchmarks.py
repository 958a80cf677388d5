"""The benchmark scripts run end to end on tiny budgets and print their figures; bad arguments exit 2 with one line.

Speed itself is never asserted here (benchmarks/README.md holds the measured figures); these tests only keep the
scripts from rotting as the code under them changes. gym-locm's side of ``peer_locm.py`` needs its own virtualenv,
so only its argument checking is run.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: (script and tiny arguments, lines its output must contain)
RUNS = [
    (["engine_random_play.py", "--seconds", "0.2", "--repeats", "1", "--all-decks"],
     ["decks: all 49 ordered pairs", "decisions/s (random play)", "games/s (resets included)",
      "clone() microseconds"]),
    (["env_aec.py", "--steps", "200", "--repeats", "1"], ["engine only", "raw_env", "env (wrapped)"]),
    (["card_features.py", "--rounds", "1", "--aec-steps", "100", "--batched-steps", "128"],
     ["engine build:", "| default |", "| card_features |", "| card_features, no ids |"]),
    (["gym_vec.py", "--steps", "256", "--repeats", "1", "--profile"],
     ["single env (CcgDuelEnv)", "make_vec async, N=8", "batched, N=256", "batched SB3 VecEnv, N=64",
      "observation encoder", "action codec and mask"]),
    (["game_breadth.py", "--seconds", "0.1", "--repeats", "1"],
     ["engine decisions/s", "AEC env steps/s", "today", "hero powers", "mulligan", "both"]),
    (["agent_speed.py", "--games", "2", "--env-steps", "256", "--search-games", "1", "--repeats", "1"],
     ["engine build:", "heuristic, its own games", "training env, heuristic opponent",
      "search (48 iterations) vs heuristic", "choices digest"]),
    (["loop_bounds.py", "--games-per-pair", "1"], ["49 games", "max depth per root action", "(bound 100,"]),
    (["memory_soak.py", "--games", "2", "--every", "1"], ["[engine]", "[aec]", "[gym]", "[vector]", "growth:"]),
    (["train_throughput.py", "--config", "smoke", "--timesteps", "512", "--repeats", "1", "--profile"],
     ["MaskablePPO on the batched env", "MaskablePPO on the no-op env", "env share of training time",
      "policy while collecting rollouts", "PPO update", "features extractor", "masked distribution", "whole step"]),
    (["train_throughput.py", "--config", "smoke", "--set", "async_rollouts=true", "--timesteps", "1024", "--repeats",
      "1", "--profile"],
     ["rollouts played by the async_rollouts worker", "waiting for the worker's rollout", "PPO update", "whole step"]),
    (["train_throughput.py", "--config", "smoke", "--timesteps", "512", "--repeats", "2", "--against", "n_epochs=1"],
     ["(A) against A with n_epochs=1 (B)", "A: ", "B: ", "B / A: "]),
]


def run_script(arguments: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(ROOT / "benchmarks" / arguments[0]), *arguments[1:]], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)


@pytest.mark.parametrize("arguments, expected", RUNS, ids=[run[0][0] for run in RUNS])
def test_benchmark_runs_on_a_tiny_budget(arguments, expected):
    done = run_script(arguments)
    assert done.returncode == 0, done.stderr[-2000:]
    missing = [line for line in expected if line not in done.stdout]
    assert not missing, f"{arguments[0]} printed no {missing}:\n{done.stdout}"


@pytest.mark.parametrize("arguments, complaint", [
    (["engine_random_play.py", "--repeats", "0"], "--repeats: must be at least 1"),
    (["env_aec.py", "--steps", "many"], "--steps: expected a whole number"),
    (["gym_vec.py", "--repeats", "-2"], "--repeats: must be at least 1"),
    (["memory_soak.py", "--games", "0"], "--games: must be at least 1"),
    (["agent_speed.py", "--env-steps", "0"], "--env-steps: must be at least 1"),
    (["peer_locm.py", "--seconds", "0"], "--seconds: must be a finite number of seconds above 0"),
    (["train_throughput.py", "--config", "smoke", "--timesteps", "100"], "need at least one rollout of 512 steps"),
    (["train_throughput.py", "--config", "selfplay_league"], "league self-play is not measured here"),
    (["train_throughput.py", "--config", "smoke", "--against", "n_epochs=0"], "n_epochs must be at least 1"),
    (["fuzz.py", "--workers", "0"], "--workers: must be at least 1"),
    (["game_breadth.py", "--seconds", "0"], "--seconds: must be a finite number of seconds above 0"),
], ids=lambda value: value[0] if isinstance(value, list) else None)
def test_benchmark_rejects_bad_arguments_in_one_line(arguments, complaint):
    done = run_script(arguments)
    assert done.returncode == 2
    assert complaint in done.stderr.splitlines()[-1], done.stderr
    assert "Traceback" not in done.stderr
