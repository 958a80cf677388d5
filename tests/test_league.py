"""League opponents (ccg_env.training.league): settings validation, per-game sampling, frozen snapshots, a league run."""

import csv
from collections import Counter

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from ccg_env.env.duel import Duel  # noqa: E402
from ccg_env.env.sb3_vec import CcgDuelSb3VecEnv  # noqa: E402
from ccg_env.training.league import LeagueOpponent, LeaguePool, LeagueSettings  # noqa: E402


@pytest.fixture(scope="module")
def setup():
    return CcgDuelSb3VecEnv(1, normalize_observations=True).batch.setup


@pytest.fixture(scope="module")
def policy():
    from sb3_contrib import MaskablePPO

    env = CcgDuelSb3VecEnv(2, normalize_observations=True)
    return MaskablePPO("MlpPolicy", env, policy_kwargs={"net_arch": [16]}, seed=0).policy


@pytest.mark.parametrize("values, message", [
    ({"heuristc": 1.0}, r"unknown key 'heuristc'"),
    ({"random": -0.5}, r"random must be a weight of 0 or more, got -0.5"),
    ({"heuristic": 0, "random": 0}, r"heuristic and random weights are both 0"),
    ({"snapshot_every": 0}, r"snapshot_every must be a positive integer, got 0"),
    ({"max_snapshots": 2.5}, r"max_snapshots must be a positive integer, got 2.5"),
    ({"checkpoints": ["no/such/model.zip"]}, r"checkpoints: no model file at 'no/such/model.zip'"),
])
def test_bad_league_settings_are_named(values, message):
    with pytest.raises(ValueError, match=f"^my league: {message}"):
        LeagueSettings.from_dict(values, "my league")


def _kinds(pool, games=200):
    opponent = LeagueOpponent(pool)
    kinds = Counter()
    for seed in range(games):
        opponent.reset(seed)
        kinds[opponent.member_kind] += 1
    return kinds


def test_members_are_drawn_per_game_with_the_configured_weights(setup, policy):
    pool = LeaguePool(LeagueSettings(heuristic=3.0, random=1.0, snapshots=4.0), setup)
    before = _kinds(pool)
    assert set(before) == {"heuristic", "random"}, "no snapshot can be drawn before the first one is taken"
    assert 120 < before["heuristic"] < 180
    pool.add_snapshot(policy, "step_0")
    after = _kinds(pool)
    assert set(after) == {"heuristic", "random", "snapshot"}
    assert 70 < after["snapshot"] < 130
    assert _kinds(pool) == after, "the draw is seeded by the game seed"


def test_old_snapshots_are_dropped_and_copies_are_frozen(setup, policy):
    import torch

    pool = LeaguePool(LeagueSettings(max_snapshots=2), setup)
    for step in range(3):
        pool.add_snapshot(policy, f"step_{step}")
    assert [s.name for s in pool.snapshots] == ["step_1", "step_2"]
    frozen = pool.snapshots[-1].policy
    assert policy.optimizer is not None and frozen.optimizer is None
    weight = next(frozen.parameters())
    assert not weight.requires_grad
    with torch.no_grad():
        next(policy.parameters()).add_(1.0)
    assert not torch.equal(weight, next(policy.parameters()))


def test_a_snapshot_plays_whole_games_legally(setup, policy):
    pool = LeaguePool(LeagueSettings(heuristic=0.0, random=1e-9, snapshots=1.0), setup)
    pool.add_snapshot(policy, "step_0")
    observation = np.zeros(setup.encoder.size, dtype=np.float32)
    mask = np.zeros(setup.action_space.n, dtype=np.int8)
    duel = Duel(setup, LeagueOpponent(pool), observation, mask)
    rng, actions = np.random.default_rng(0), np.random.default_rng(1)
    for _ in range(3):
        duel.reset(rng)
        assert duel.opponent.member_kind == "snapshot"
        while duel.outcome is None:  # an illegal opponent choice would raise inside the engine
            duel.step(int(actions.choice(np.flatnonzero(mask))))
        assert duel.outcome in ("win", "loss", "draw", "turn_limit")


def test_league_training_logs_win_rates_per_member(tmp_path):
    from ccg_env.training.train import load_config, train

    result = train(load_config("smoke", {"runs_dir": str(tmp_path), "opponent": "league", "total_timesteps": 2048,
                                         "eval_every": 0, "eval_games": 8,
                                         "league": {"heuristic": 1.0, "random": 1.0, "snapshot_every": 512}}))
    assert [e.opponent for e in result.evaluations] == ["heuristic"], "a league evaluates against the heuristic"
    rows = list(csv.DictReader((tmp_path / "smoke" / "progress.csv").open()))
    logged = {key for row in rows for key, value in row.items() if value}
    assert {"league/win_rate_vs_heuristic", "league/win_rate_vs_random", "league/win_rate_vs_snapshot",
            "league/snapshots"} <= logged
    assert max(float(row["league/snapshots"]) for row in rows if row["league/snapshots"]) >= 2
