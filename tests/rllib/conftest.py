"""Shared fixtures of the RLlib tests: one small local Ray session per test module, one torch thread."""

from __future__ import annotations

import pytest

#: Object store of the test sessions: the tests move a few small modules' weights, nothing more.
OBJECT_STORE_BYTES = 80 * 1024 * 1024


@pytest.fixture(scope="module")
def ray_session():
    """A local Ray with 2 CPUs, no dashboard and a small object store, shut down after the module."""
    import ray
    import torch

    torch.set_num_threads(1)
    ray.shutdown()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, object_store_memory=OBJECT_STORE_BYTES,
             configure_logging=False)
    yield ray
    ray.shutdown()


def tiny_config(**overrides):
    """A PPO config small enough for a test: 4 envs, 32-step rollouts, one epoch, a 32x32 network."""
    from ccg_env.rllib import ppo_config

    settings = dict(envs_per_runner=4, rollout_length=32, minibatch_size=64, num_epochs=1, hidden=(32, 32))
    return ppo_config(**{**settings, **overrides})
