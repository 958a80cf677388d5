"""The league (ccg_env.training.league) and its MaskablePPO opponents (ccg_env.training.sb3_league): settings
validation, the draw per game, frozen snapshots, a league run."""

import csv
from collections import Counter

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from ccg_env.env.duel import Duel  # noqa: E402
from ccg_env.env.sb3_vec import CcgDuelSb3VecEnv  # noqa: E402
from ccg_env.training.league import PFSP_FLOOR, League, LeagueSettings  # noqa: E402
from ccg_env.training.sb3_league import LeagueOpponent, LeaguePool  # noqa: E402


@pytest.fixture(scope="module")
def setup():
    return CcgDuelSb3VecEnv(1, normalize_observations=True).batch.setup


@pytest.fixture(scope="module")
def policy():
    from sb3_contrib import MaskablePPO

    env = CcgDuelSb3VecEnv(2, normalize_observations=True)
    return MaskablePPO("MlpPolicy", env, policy_kwargs={"net_arch": [16]}, seed=0).policy


@pytest.mark.parametrize("values, message", [
    ({"scriptd": {}}, r"unknown key 'scriptd'"),
    ({"scripted": {"random": -0.5}}, r"scripted: random: expected a weight >= 0, got -0.5"),
    ({"scripted": {"nobody": 1.0}}, r"scripted: unknown agent 'nobody'; known: "),
    ({"scripted": ["heuristic"]}, r"scripted expects dict, got \['heuristic'\]"),
    ({"scripted": {"heuristic": 0, "random": 0}}, r"the scripted weights and self_play are all 0"),
    ({"snapshots": -1}, r"snapshots must be at least 0, got -1"),
    ({"self_play": 1.5}, r"self_play must be at least 0 and at most 1, got 1.5"),
    ({"pfsp_power": -1}, r"pfsp_power must be at least 0 and at most 10, got -1"),
    ({"pfsp_power": "hard"}, r"pfsp_power must be at least 0 and at most 10, got 'hard'"),
    ({"snapshot_every": 0}, r"snapshot_every must be at least 1, got 0"),
    ({"max_snapshots": 2.5}, r"max_snapshots must be a whole number of at least 1, got 2.5"),
    ({"checkpoints": ["no/such/model.zip"]}, r"checkpoints: no model file at 'no/such/model.zip'"),
    ({"heuristic": 0.5}, r"heuristic was replaced by scripted: \{heuristic: <weight>\}"),
    ({"search": 0.15}, r"search was replaced by nothing: the search member measured no gain"),
    ({"scripted_share": 0.5}, r"scripted_share was replaced by the scripted agents' weights beside snapshots"),
    ({"win_rate_smoothing": 0.3}, r"win_rate_smoothing was replaced by nothing"),
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
    pool = LeaguePool(LeagueSettings(scripted={"heuristic": 3.0, "random": 1.0}, snapshots=4.0), setup)
    before = _kinds(pool)
    assert set(before) == {"heuristic", "random"}, "no snapshot can be drawn before the first one is taken"
    assert 120 < before["heuristic"] < 180
    pool.add_snapshot(policy, "step_0")
    after = _kinds(pool)
    assert set(after) == {"heuristic", "random", "snapshot"}
    assert 70 < after["snapshot"] < 130
    assert _kinds(pool) == after, "the draw is seeded by the game seed"


def test_pfsp_moves_games_within_each_group_towards_the_members_the_learner_still_loses_to():
    league = League(LeagueSettings(scripted={"heuristic": 1.0, "random": 1.0}, snapshots=2.0, pfsp_power=2.0))
    league.add_snapshot("step_0")
    league.add_snapshot("step_1")
    assert league.chances() == pytest.approx({"heuristic": 0.25, "random": 0.25, "step_0": 0.25, "step_1": 0.25})
    for outcome in ["loss"] * 3 + ["win"]:
        league.record("heuristic", outcome)  # the learner won 1 of 4: factor (3/4)^2
    league.record("random", "win", 4)  # won every game: the floor
    league.record("step_0", "draw")  # a draw is not a win: factor 1; step_1 never met: (1/2)^2
    scripted = {"heuristic": 0.75 ** 2, "random": PFSP_FLOOR}
    expected = {name: 0.5 * w / sum(scripted.values()) for name, w in scripted.items()}
    expected.update({"step_0": 0.5 * 1.0 / 1.25, "step_1": 0.5 * 0.25 / 1.25})
    assert league.chances() == pytest.approx(expected)
    assert {row["member"]: (row["games"], row["learner_win_rate"]) for row in league.standings()} == {
        "heuristic": (4, 0.25), "random": (4, 1.0), "step_0": (1, 0.0), "step_1": (0, None)}


def test_pfsp_in_a_pool_of_opponents_meets_most_the_member_the_learner_loses_to(setup):
    pool = LeaguePool(LeagueSettings(scripted={"heuristic": 1.0, "random": 1.0}, pfsp_power=2.0), setup)
    for _ in range(4):
        pool.record("random", "win", "random")
        pool.record("heuristic", "loss", "heuristic")
    drawn = _kinds(pool, 400)
    assert drawn["random"] < 20 < drawn["heuristic"]
    report = pool.take_report()
    assert report.win_rates == {"random": 1.0, "heuristic": 0.0} and pool.take_report().win_rates == {}
    assert {row["member"]: row["games"] for row in report.standings} == {"heuristic": 4, "random": 4}


def test_without_pfsp_the_configured_weights_hold_whatever_the_results():
    league = League(LeagueSettings(scripted={"heuristic": 3.0, "random": 1.0}, snapshots=4.0))
    league.record("heuristic", "win", 10)
    assert league.chances() == pytest.approx({"heuristic": 0.75, "random": 0.25})


SNAPSHOTS = ["snapshot_10", "snapshot_20", "snapshot_30"]


def test_self_play_keeps_its_share_and_the_groups_theirs_whatever_the_results():
    league = League(LeagueSettings(self_play=0.1, scripted={"heuristic": 0.5}, snapshots=0.4, pfsp_power=2.0))
    assert league.chances() == pytest.approx({"self": 0.1, "heuristic": 0.9}), "before the first snapshot"
    for name in SNAPSHOTS:
        league.add_snapshot(name)
    for name, wins in {"heuristic": 6, "snapshot_10": 8, "snapshot_20": 5, "snapshot_30": 4}.items():
        league.record(name, "win", wins)
        league.record(name, "loss", 10 - wins)
    chances = league.chances()
    assert chances["self"] == pytest.approx(0.1) and chances["heuristic"] == pytest.approx(0.5)
    assert sum(chances[name] for name in SNAPSHOTS) == pytest.approx(0.4)
    assert chances["snapshot_30"] > chances["snapshot_20"] > chances["snapshot_10"]


def test_old_snapshots_leave_the_league_oldest_first():
    league = League(LeagueSettings(max_snapshots=2))
    assert [league.add_snapshot(name) for name in SNAPSHOTS] == [[], [], ["snapshot_10"]]
    assert league.snapshots == SNAPSHOTS[1:]


def test_backend_sb3_refuses_self_play(setup):
    with pytest.raises(ValueError, match="^league: self_play: backend sb3 plays the learner's past snapshots"):
        LeaguePool(LeagueSettings(self_play=0.2), setup)


def test_old_snapshots_are_dropped_and_copies_are_frozen(setup, policy):
    import torch

    pool = LeaguePool(LeagueSettings(max_snapshots=2), setup)
    for step in range(3):
        pool.add_snapshot(policy, f"step_{step}")
    assert [s.name for s in pool.snapshots] == ["step_1", "step_2"] == pool.league.snapshots
    frozen = pool.snapshots[-1].policy
    assert policy.optimizer is not None and frozen.optimizer is None
    weight = next(frozen.parameters())
    assert not weight.requires_grad
    with torch.no_grad():
        next(policy.parameters()).add_(1.0)
    assert not torch.equal(weight, next(policy.parameters()))


def test_a_snapshot_plays_whole_games_legally(setup, policy):
    pool = LeaguePool(LeagueSettings(scripted={"random": 1e-9}, snapshots=1.0), setup)
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


@pytest.mark.parametrize("async_rollouts", [False, True], ids=["one process", "async rollouts"])
def test_league_training_logs_win_rates_per_member(tmp_path, async_rollouts):
    """With async rollouts the league lives in the worker, and its reports reach the learner's log."""
    from ccg_env.training.train import load_config, train

    result = train(load_config("smoke", {"runs_dir": str(tmp_path), "opponent": "league", "total_timesteps": 2048,
                                         "eval_every": 0, "eval_games": 8, "async_rollouts": async_rollouts,
                                         "league": {"scripted": {"heuristic": 1.0, "random": 1.0},
                                                    "snapshot_every": 512}}))
    assert [e.opponent for e in result.evaluations] == ["heuristic"], "a league evaluates against the heuristic"
    rows = list(csv.DictReader((tmp_path / "smoke" / "progress.csv").open()))
    logged = {key for row in rows for key, value in row.items() if value}
    assert {"league/win_rate_vs_heuristic", "league/win_rate_vs_random", "league/win_rate_vs_snapshot",
            "league/snapshots"} <= logged
    assert max(float(row["league/snapshots"]) for row in rows if row["league/snapshots"]) >= 2
    standings = list(csv.DictReader((tmp_path / "smoke" / "league.csv").open()))
    last = max(int(row["timesteps"]) for row in standings)
    final = {row["member"]: row for row in standings if int(row["timesteps"]) == last}
    assert {"heuristic", "random"} <= set(final) and any(name.startswith("step_") for name in final)
    assert sum(int(row["games"]) for row in final.values()) > 0
    assert sum(float(row["chance"]) for row in final.values()) == pytest.approx(1.0, abs=1e-3)


def test_a_snapshot_chooses_for_many_games_what_it_chooses_for_each(setup, policy):
    from ccg_env.training.sb3_league import PolicyOpponent, frozen_policy_copy

    snapshot = PolicyOpponent(frozen_policy_copy(policy), setup, "step_0")
    games = []
    for seed in range(12):
        game = setup.core.new_game(seed)
        rng = np.random.default_rng(seed)
        for _ in range(seed * 3):  # positions some way into the game, some with a single legal choice
            if game.state.result is not None:
                break
            game.apply(game.legal_actions()[int(rng.integers(len(game.legal_actions())))])
        if game.state.result is None:
            games.append(game)
    requests = [(game, game.state.current) for game in games]
    assert len(requests) > 6
    assert snapshot.choose_many(requests) == [snapshot.choose(game, seat) for game, seat in requests]
    assert snapshot.batched() is snapshot


def test_a_league_batch_plays_the_same_games_with_snapshot_turns_played_together(setup, policy):
    from ccg_env.env.vector import DuelBatch

    def play(together):
        batch = DuelBatch(6, normalize_observations=True)
        pool = LeaguePool(LeagueSettings(scripted={"heuristic": 1.0}, snapshots=2.0), batch.setup)
        pool.add_snapshot(policy, "step_0")
        for duel in batch.duels:
            duel.opponent = LeagueOpponent(pool)
        if not together:
            batch._opponents_batch = lambda: False
        batch.reset(list(range(6)))
        rng, trace = np.random.default_rng(0), []
        for _ in range(250):
            ended = batch.step([int(rng.choice(np.flatnonzero(mask))) for mask in batch.masks])
            trace.append((batch.observations.copy(), ended, batch.outcomes(ended).tolist(),
                          [duel.opponent.member_kind for duel in batch.duels]))
            batch.reset([None] * 6, None, ended)
        return trace

    together, alone = play(True), play(False)
    kinds = {kind for *_, members in together for kind in members}
    assert kinds == {"heuristic", "snapshot"} and sum(len(ended) for _, ended, _, _ in together) > 6
    for (obs_a, ended_a, outcomes_a, members_a), (obs_b, ended_b, outcomes_b, members_b) in zip(together, alone):
        assert np.array_equal(obs_a, obs_b) and ended_a == ended_b and outcomes_a == outcomes_b
        assert members_a == members_b


def test_league_settings_that_are_not_a_mapping_are_named():
    with pytest.raises(ValueError, match="^my league: expected a mapping of settings, got list$"):
        LeagueSettings.from_dict(["scripted"], "my league")
