"""PPO self-play through RLlib: a smoke run, the league's snapshots on the env runners, checkpoints and the agent."""

from __future__ import annotations

import csv

import numpy as np
import torch
import pytest

from tests.rllib.ray_or_skip import require_rllib

require_rllib()

from ccg_env.agents.match import MatchRunner  # noqa: E402
from ccg_env.agents.random_agent import RandomAgent  # noqa: E402
from ccg_env.agents.learned import LearnedAgent  # noqa: E402
from ccg_env.model_file import UntrustedModelError  # noqa: E402
from ccg_env.rllib.league import LeagueCallback  # noqa: E402
from ccg_env.rllib.policy_file import read_policy_file  # noqa: E402
from ccg_env.training.league import LeagueSettings  # noqa: E402
from ccg_env.training.train_config import TrainConfig  # noqa: E402
from tests.rllib.conftest import tiny_config  # noqa: E402


def _weights(state: dict) -> dict:
    """The policy's weights of a module state (the value function's are not pushed: snapshots only play)."""
    return {name: np.asarray(value) for name, value in state.items() if not name.startswith(("vf", "encoder.critic"))}


def _same(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(np.array_equal(a[name], b[name]) for name in a)


def test_ppo_smoke_run_of_two_iterations(ray_session):
    algo = tiny_config().build_algo()
    before = _weights(algo.get_module("main").get_state())
    for _ in range(2):
        result = algo.train()
    sampled = result["env_runners"]["num_env_steps_sampled_lifetime"]
    assert sampled >= 2 * 4 * 32
    assert np.isfinite(result["learners"]["main"]["total_loss"])
    assert not _same(before, _weights(algo.get_module("main").get_state())), "training changed no weight"
    algo.stop()


def test_snapshot_weights_reach_every_env_runner(ray_session):
    """A snapshot plays with main's weights at snapshot time on every runner (RLlib alone leaves them at init)."""
    config = tiny_config(num_env_runners=1, league=LeagueSettings(snapshot_every=1, max_snapshots=4))
    algo = config.build_algo()
    algo.train()
    main_then = _weights(algo.get_module("main").get_state())

    def states(runner):
        return {mid: runner.module[mid].get_state() for mid in runner.module.keys()}

    (remote,) = algo.env_runner_group.foreach_env_runner(states, local_env_runner=False)
    assert "snapshot_1" in remote
    assert _same(_weights(remote["snapshot_1"]), main_then), "the snapshot's weights did not reach the env runner"
    algo.train()
    (remote,) = algo.env_runner_group.foreach_env_runner(states, local_env_runner=False)
    assert _same(_weights(remote["snapshot_1"]), main_then), "a frozen snapshot changed"
    assert not _same(_weights(remote["main"]), main_then), "main did not move on"
    assert _same(_weights(remote["snapshot_2"]), _weights(remote["main"]))
    # what the push is for: a module added with add_module alone keeps its initial weights on the runners
    spec = algo.get_module("main")
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    algo.add_module(module_id="bare", module_spec=RLModuleSpec.from_module(spec), new_should_module_be_updated=["main"])
    algo.get_module("bare").set_state(algo.get_module("main").get_state())  # the driver's copy only
    (remote,) = algo.env_runner_group.foreach_env_runner(states, local_env_runner=False)
    assert not _same(_weights(remote["bare"]), _weights(remote["main"]))
    algo.stop()


def _train_config(tmp_path, **overrides) -> TrainConfig:
    settings = dict(name="tiny", backend="rllib", runs_dir=str(tmp_path), total_timesteps=600, num_envs=4, n_steps=32,
                    batch_size=64, n_epochs=1, net_arch=[32, 32], eval_every=300, eval_games=4, eval_envs=2,
                    opponent="league", league={"snapshot_every": 1, "max_snapshots": 2}, progress=False)
    return TrainConfig(**{**settings, **overrides})


def test_a_linear_learning_rate_falls_to_zero_at_its_end_step(ray_session):
    from ccg_env.rllib.train import build_config

    assert build_config(TrainConfig(backend="rllib", lr_schedule="linear", learning_rate=1e-3,
                                    total_timesteps=5000)).lr == [[0, 1e-3], [5000, 0.0]]
    with pytest.raises(ValueError, match="lr_end_step must be a whole number"):
        tiny_config(lr_end_step=0)
    algo = tiny_config(lr=1e-3, lr_end_step=256).build_algo()  # 128 env steps an iteration

    def rate() -> float:
        return algo.learner_group._learner.get_optimizer("main").param_groups[0]["lr"]

    rates = []
    for _ in range(3):
        algo.train()
        rates.append(float(rate()))
    algo.stop()
    assert rates == pytest.approx([5e-4, 0.0, 0.0], abs=1e-9)  # halfway after 128 steps; 0 from step 256 on


@pytest.fixture(scope="module")
def tiny_run(ray_session, tmp_path_factory):
    """A tiny league run's folder: evaluations against the heuristic, random play and the best model so far."""
    from ccg_env.rllib.train import train

    return train(_train_config(tmp_path_factory.mktemp("runs"), eval_opponents=["random", "best"])).run_dir


def test_train_checkpoint_restore_and_the_rllib_agent(ray_session, tiny_run, tmp_path):
    from ccg_env.rllib.train import build_config, restore

    run = tiny_run
    for name in ("config.yaml", "eval.csv", "progress.csv", "learning_curve.png", "model.ccgrllib",
                 "best_model.ccgrllib"):
        assert (run / name).is_file(), name
    every_row = list(csv.DictReader((run / "eval.csv").open()))
    rows = [row for row in every_row if row["opponent"] == "heuristic"]  # what the best model follows
    best = max(rows, key=lambda row: float(row["win_rate"]))  # the earliest of equals, as best_evaluation
    assert read_policy_file(run / "best_model.ccgrllib")[0]["source"]["timesteps"] == int(best["timesteps"])
    assert len(rows) >= 2 and all(int(row["games"]) == 4 for row in every_row)
    steps = [row["timesteps"] for row in rows]  # the others at every evaluation; the best model from the second on
    assert [row["timesteps"] for row in every_row if row["opponent"] == "random"] == steps
    assert [row["timesteps"] for row in every_row if row["opponent"] == "best"] == steps[1:]
    checkpoints = sorted((run / "checkpoints").glob("iter_*"))
    assert checkpoints and (checkpoints[-1] / "league.npz").is_file()

    # restore: main's weights and the league's snapshots come back
    resumed = build_config(_train_config(tmp_path, rllib={"resume_from": str(run / "model")})).build_algo()
    restore(resumed, run / "model")
    (league,) = [c for c in resumed.callbacks if isinstance(c, LeagueCallback)]
    assert league.league.snapshots and len(league.league.snapshots) <= 2
    assert sum(sum(counts.values()) for counts in league.league.results.values()) > 0, "the results came back"
    agent = LearnedAgent(run / "model", trust=True)
    trusted_main = agent._load().module
    restored = resumed.get_module("main").get_state()
    assert _same(_weights({k: v.numpy() for k, v in trusted_main.state_dict().items()}), _weights(restored))
    resumed.stop()

    # the agent: a checkpoint folder needs trust; the policy file plays an arena game with legal moves only
    with pytest.raises(UntrustedModelError, match="trust=True"):
        LearnedAgent(run / "model")
    record = MatchRunner().play([LearnedAgent(run / "model.ccgrllib"), RandomAgent()], seed=5)
    assert record.result in ("win", "draw", "turn_limit")
    record = MatchRunner(decks="random").play([RandomAgent(), LearnedAgent(run / "model", trust=True)], seed=6)
    assert record.decisions > 0
    sampling = LearnedAgent(run / "model.ccgrllib", deterministic=False)  # draws from the masked policy
    assert MatchRunner().play([sampling, RandomAgent()], seed=8).result in ("win", "draw", "turn_limit")


def test_ccg_env_evaluate_replays_the_checkpoints_of_an_rllib_run(tiny_run):
    from ccg_env.model_file import ModelFileError
    from ccg_env.rllib.policy_file import check_policy_fits
    from ccg_env.training.checkpoint_eval import evaluate_checkpoints
    from ccg_env.training.train_config import load_config

    config = load_config(tiny_run / "config.yaml")
    with open(tiny_run / "eval.csv", newline="") as file:
        rows = list(csv.DictReader(file))
    for opponent in ("heuristic", "random"):  # training's own games again (in batches of training's size)
        results = evaluate_checkpoints(tiny_run, games=config.eval_games, seed=config.eval_seed, envs=config.eval_envs,
                                       opponent=opponent)
        trained = {int(row["timesteps"]): (int(row["wins"]), int(row["losses"])) for row in rows
                   if row["opponent"] == opponent}
        assert len(results) >= 2
        assert {r.timesteps: (r.wins, r.outcomes.get("loss", 0)) for r in results} == trained
        assert all(r.training_games == config.eval_games for r in results)
    assert (tiny_run / "checkpoint_eval.csv").is_file() and (tiny_run / "checkpoint_eval.png").is_file()

    metadata = read_policy_file(tiny_run / "model.ccgrllib")[0]
    with pytest.raises(ModelFileError, match="trained on a card set of .* cards but the game's has 2"):
        check_policy_fits(metadata, "step.ccgrllib", card_ids=["a", "b"])
    with pytest.raises(ModelFileError, match="the game's layout has 7"):
        check_policy_fits(metadata, "step.ccgrllib", action_size=7)


SMALL_SLOTS = {"slot_dim": 8, "global_dim": 16, "head_dim": 8}


def test_the_warm_start_weights_reach_every_learner_and_env_runner(ray_session):
    from ccg_env.rllib.imitation import set_main_weights, trainable_copy

    algo = tiny_config(num_env_runners=1, module="slot", slot_options=SMALL_SLOTS, hidden=(16,)).build_algo()
    module = trainable_copy(algo)
    with torch.no_grad():
        for parameter in module.parameters():
            parameter.add_(0.5)  # stands in for the fit
    fitted = {name: value.numpy() for name, value in module.state_dict().items()}
    set_main_weights(algo, module)

    def states(runner):
        return runner.module["main"].get_state()

    (remote,) = algo.env_runner_group.foreach_env_runner(states, local_env_runner=False)
    local = algo.env_runner_group.foreach_env_runner(states, local_env_runner=True)[0]
    learner = algo.learner_group.get_weights(["main"])["main"]
    for where, state in (("learner", learner), ("remote runner", remote), ("local runner", local)):
        assert _same({k: np.asarray(v) for k, v in state.items()}, fitted), where
    algo.stop()


def test_a_slot_module_run_warm_starts_logs_the_fit_and_evaluates_before_ppo(ray_session, tmp_path):
    from ccg_env.rllib.policy_file import load_policy_file
    from ccg_env.rllib.train import train

    config = _train_config(tmp_path, name="warm", policy="slot", policy_kwargs=SMALL_SLOTS, rescale_inputs=True,
                           net_arch=[16], imitation={"samples": 300, "epochs": 2, "batch_size": 64})
    result = train(config)
    rows = list(csv.DictReader((result.run_dir / "imitation.csv").open()))
    assert [int(row["epoch"]) for row in rows] == [1, 2] and all(int(row["decisions"]) == 300 for row in rows)
    assert float(rows[1]["policy_loss"]) < float(rows[0]["policy_loss"])  # the fit moved the module
    evaluations = list(csv.DictReader((result.run_dir / "eval.csv").open()))
    assert int(evaluations[0]["timesteps"]) == 0 and int(evaluations[-1]["timesteps"]) >= 600
    module, metadata = load_policy_file(result.run_dir / "model.ccgrllib")
    assert metadata["module_class"] == "SlotPPOTorchRLModule"
    record = MatchRunner().play([LearnedAgent(result.run_dir / "model.ccgrllib"), RandomAgent()], seed=7)
    assert record.decisions > 0
