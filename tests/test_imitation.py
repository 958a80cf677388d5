"""The imitation warm start: what is recorded, that the fit learns the teacher, settings errors, the train stage;
and the teacher's moves kept in the loss during PPO."""

import csv

import numpy as np
import pytest

from ccg_env.agent_api import make_agent
from ccg_env.engine import Game
from ccg_env.engine.view import GameView
from ccg_env.training.imitation import ImitationSettings, fit, record
from ccg_env.training.train import load_config, make_model, make_vec_env, train

GAMMA = 0.9


@pytest.fixture(scope="module")
def recorded():
    config = load_config("smoke", {"decks": "random", "policy": "slot", "rescale_inputs": True,
                                   "opponent": "heuristic"})
    env = make_vec_env(config, 4, "heuristic")
    data = record(env, "heuristic", 1_500, GAMMA, seed=3)
    return config, env, data


def test_every_recorded_move_is_legal_in_the_recorded_mask(recorded):
    _, _, data = recorded
    assert len(data) == 1_500 and data.games >= 4
    assert data.masks[np.arange(len(data)), data.actions].all()


def test_returns_are_the_final_reward_discounted_by_the_decisions_left():
    config = load_config("smoke", {"decks": "random", "opponent": "heuristic", "seat": 1})
    env = make_vec_env(config, 1, "heuristic")
    data = record(env, "heuristic", 1, GAMMA, seed=5)  # the first decision of the first finished game
    env.seed(5)
    env.reset()
    duel = env.batch.duels[0]
    game = Game.from_json(duel.game.to_json())  # replay the same game with the heuristic in both seats
    teacher, decisions = make_agent("heuristic"), 0
    while not game.is_over:
        decisions += game.state.current == 1
        game.apply(teacher.choose_from_view(GameView(game, game.state.current, env.batch.setup.codec)))
    final = 0.0 if game.winner is None else (1.0 if game.winner == 1 else -1.0)
    assert data.returns[0] == pytest.approx(final * GAMMA ** (decisions - 1))


def test_fitting_makes_the_policy_pick_the_teachers_move_more_often(recorded):
    config, env, data = recorded
    model = make_model(config, env)
    before = fit(model.policy, data, ImitationSettings(epochs=1, learning_rate=1e-12), seed=0)[0]
    after = fit(model.policy, data, ImitationSettings(epochs=4, batch_size=128, learning_rate=3e-3), seed=0)
    assert [r.epoch for r in after] == [1, 2, 3, 4]
    assert after[-1].held_out_policy_loss < before.held_out_policy_loss - 0.3
    assert after[-1].held_out_accuracy > before.held_out_accuracy + 0.2
    assert after[-1].value_loss < after[0].value_loss


@pytest.mark.parametrize("values, named", [
    ({"teachr": "heuristic"}, "unknown key 'teachr'"),
    ({"teacher": "nobody"}, "teacher must be a registered agent"),
    ({"samples": 0}, "samples must be at least 1, got 0"),
    ({"epochs": True}, "epochs must be a whole number of at least 1, got True"),
    ({"learning_rate": 0}, "learning_rate must be above 0"),
    ({"value_coef": -1}, "value_coef must be at least 0"),
    ({"keep_coef": 0.5}, r"keep_coef was removed \(it measured no gain; see docs/training\.md\), got 0\.5"),
    ({"keep_batches": 2}, r"keep_batches was removed \(it measured no gain; see docs/training\.md\), got 2"),
])
def test_bad_settings_name_the_key(values, named):
    with pytest.raises(ValueError, match=named):
        ImitationSettings.from_dict(values, "x")
    with pytest.raises(ValueError, match="imitation: " + named):
        load_config("smoke", {"imitation": values})


def test_imitation_is_refused_where_it_does_not_apply():
    with pytest.raises(ValueError, match="imitation: a warm start is for mode duel"):
        load_config("smoke", {"imitation": {"samples": 10}, "mode": "draft"})
    with pytest.raises(ValueError, match="imitation and init_model are both set"):
        load_config("smoke", {"imitation": {"samples": 10}, "init_model": "README.md"})


def test_the_removed_keep_options_at_their_off_values_still_load():
    settings = ImitationSettings.from_dict({"samples": 10, "keep_coef": 0.0, "keep_batches": 1}, "x")
    assert settings == ImitationSettings(samples=10)


def test_a_warm_started_run_logs_the_fit_and_evaluates_before_ppo(tmp_path):
    config = load_config("smoke", {"runs_dir": str(tmp_path), "total_timesteps": 512, "eval_every": 0,
                                   "eval_games": 8, "opponent": "heuristic",
                                   "imitation": {"samples": 400, "epochs": 2, "batch_size": 64}})
    result = train(config)
    assert [e.timesteps for e in result.evaluations][0] == 0 and result.evaluations[-1].timesteps >= 512
    rows = list(csv.DictReader((result.run_dir / "imitation.csv").open()))
    assert [int(r["epoch"]) for r in rows] == [1, 2] and all(int(r["decisions"]) == 400 for r in rows)
    assert all(0.0 <= float(r["held_out_accuracy"]) <= 1.0 for r in rows)
    evaluated = list(csv.DictReader((result.run_dir / "eval.csv").open()))
    assert int(evaluated[0]["timesteps"]) == 0


def test_ctrl_c_during_the_warm_start_still_saves_the_model(tmp_path, monkeypatch):
    import ccg_env.training.imitation as imitation

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(imitation, "fit", interrupted)
    config = load_config("smoke", {"runs_dir": str(tmp_path), "total_timesteps": 512, "eval_every": 0,
                                   "eval_games": 4, "imitation": {"samples": 200, "epochs": 1}})
    result = train(config)
    assert result.interrupted and result.timesteps == 0 and result.evaluations == []
    assert (result.run_dir / "model.zip").is_file() and result.policy_path.is_file()


def test_a_recording_too_large_for_memory_is_refused_before_anything_is_allocated(recorded):
    _, env, _ = recorded
    with pytest.raises(ValueError, match=r"imitation: 10,000,000 decisions would take .* GiB .*lower samples"):
        record(env, "heuristic", 10_000_000, GAMMA, seed=0)
