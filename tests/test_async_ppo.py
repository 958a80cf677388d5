"""async_rollouts: rollouts played on a worker process, one update ahead of the learner (training.async_ppo)."""

import contextlib
import multiprocessing

import numpy as np
import pytest
import torch

from ccg_env.training.async_ppo import AsyncRolloutPPO, RolloutWorkerError, _WorkerCallback
from ccg_env.training.train import load_config, make_model, make_training_env, train


def smoke(tmp_path, **overrides):
    return load_config("smoke", {"runs_dir": str(tmp_path), "async_rollouts": True, **overrides})


def workers() -> list:
    return [p for p in multiprocessing.active_children() if p.name == "ccg-env rollout worker"]


@contextlib.contextmanager
def first_rollout_handed_over(tmp_path, **overrides):
    """(env, model) of an async smoke config whose worker has handed over rollout 0 and plays rollout 1; afterwards
    the worker is stopped, and checked gone."""
    config = smoke(tmp_path, **overrides)
    env, _ = make_training_env(config)
    model = make_model(config, env)
    assert isinstance(model, AsyncRolloutPPO)
    model._setup_learn(config.total_timesteps)
    try:
        model.collect_rollouts(env, _WorkerCallback(), model.rollout_buffer, model.n_steps)
        yield env, model
    finally:
        model.close_worker()
    assert workers() == []


def test_an_async_run_trains_evaluates_saves_and_stops_its_worker(tmp_path):
    result = train(smoke(tmp_path, total_timesteps=2048))
    assert result.timesteps == 2048
    assert [e.timesteps for e in result.evaluations] == [1024, 2048]
    assert (result.run_dir / "model.ccgmodel").is_file()
    assert workers() == [], "the worker ends with learn()"


def log_probs(policy, buffer) -> np.ndarray:
    """``policy``'s log-probabilities of the rollout's actions, in the buffer's (n_steps, n_envs) layout."""
    n_steps, n_envs = buffer.log_probs.shape
    with torch.no_grad():
        _, logp, _ = policy.evaluate_actions(
            torch.as_tensor(buffer.observations.reshape(n_steps * n_envs, -1)),
            torch.as_tensor(buffer.actions.reshape(-1)),
            action_masks=buffer.action_masks.reshape(n_steps * n_envs, -1))
    return logp.numpy().reshape(n_steps, n_envs)


def test_each_rollout_is_played_by_the_weights_sent_before_the_previous_update(tmp_path):
    with first_rollout_handed_over(tmp_path, policy="slot", net_arch=[32, 32]) as (env, model):
        buffer, quiet = model.rollout_buffer, _WorkerCallback()  # rollout 0: played by the initial weights
        initial = {k: v.clone() for k, v in model.policy.state_dict().items()}
        chosen = buffer.actions.reshape(-1).astype(int)
        masks = buffer.action_masks.reshape(len(chosen), -1)
        assert masks[np.arange(len(chosen)), chosen].all(), "every recorded action is legal under its mask"
        assert np.allclose(buffer.log_probs, log_probs(model.policy, buffer), atol=1e-5)
        assert model.num_timesteps == model.n_steps * env.num_envs and len(model.ep_info_buffer) > 0

        model.train()  # the update on rollout 0; the worker meanwhile plays rollout 1 with the initial weights
        updated = {k: v.clone() for k, v in model.policy.state_dict().items()}
        model.collect_rollouts(env, quiet, buffer, model.n_steps)
        assert not np.allclose(buffer.log_probs, log_probs(model.policy, buffer), atol=1e-5), "the update changed it"
        model.policy.load_state_dict(initial)
        assert np.allclose(buffer.log_probs, log_probs(model.policy, buffer), atol=1e-5), "one update behind"

        model.policy.load_state_dict(updated)
        model.collect_rollouts(env, quiet, buffer, model.n_steps)  # rollout 2: played by the updated weights
        assert np.allclose(buffer.log_probs, log_probs(model.policy, buffer), atol=1e-5)

def test_a_failure_in_the_worker_is_raised_in_the_learner_with_its_traceback(tmp_path):
    with first_rollout_handed_over(tmp_path) as (_, model):
        model._worker.receive()  # the rollout it played ahead
        model._worker.request(0, torch.nn.Linear(2, 2))  # weights of another network
        with pytest.raises(RolloutWorkerError, match="(?s)the rollout worker failed.*load_state_dict"):
            model._worker.receive()


def test_async_rollouts_is_refused_for_rllib_which_has_its_own_env_runners(tmp_path):
    with pytest.raises(ValueError, match="async_rollouts: is for backend sb3"):
        smoke(tmp_path, backend="rllib")


def test_an_async_run_is_reproducible_from_its_seed(tmp_path):
    from ccg_env.saved_policy import load_model

    weights = []
    for name in ("first", "second"):
        result = train(smoke(tmp_path, name=name, total_timesteps=2048, eval_every=0))
        weights.append(load_model(result.run_dir / "model.ccgmodel").policy.state_dict())
    assert weights[0].keys() == weights[1].keys()
    assert all(torch.equal(weights[0][k], weights[1][k]) for k in weights[0])


def test_learning_again_starts_a_new_worker_with_rollouts_of_the_right_shape(tmp_path):
    config = smoke(tmp_path, eval_every=0)
    env, _ = make_training_env(config)
    model = make_model(config, env)
    model.learn(1024)
    model.learn(1024, reset_num_timesteps=False)
    assert model.num_timesteps == 2048
    assert workers() == []


def test_a_worker_that_dies_without_a_word_is_named_with_its_exit_code(tmp_path):
    with first_rollout_handed_over(tmp_path) as (_, model):
        model._worker._process.kill()
        with pytest.raises(RolloutWorkerError, match="the rollout worker stopped \\(exit code -9\\)"):
            model._worker.receive()  # returns only if the rollout ahead was sent before the kill; then the next fails
            model._worker.request(0, model.policy)
            model._worker.receive()
