"""OneCopyRolloutBuffer (ccg_env.training.buffers): sb3-contrib's minibatches, without aliasing the rollout."""

import pytest

np = pytest.importorskip("numpy")
torch = pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

from gymnasium import spaces  # noqa: E402
from sb3_contrib.common.maskable.buffers import MaskableRolloutBuffer  # noqa: E402

from ccg_env.training.buffers import OneCopyRolloutBuffer  # noqa: E402

STEPS, ENVS, OBS, ACTIONS = 8, 4, 5, 6


def filled(buffer_class):
    """A buffer of ``buffer_class`` with the same seeded rollout as every other one."""
    rng = np.random.default_rng(0)
    buffer = buffer_class(STEPS, spaces.Box(-1, 1, (OBS,)), spaces.Discrete(ACTIONS), n_envs=ENVS)
    for _ in range(STEPS):
        masks = rng.random((ENVS, ACTIONS)) < 0.5
        masks[:, 0] = True
        buffer.add(rng.random((ENVS, OBS)).astype(np.float32), rng.integers(0, ACTIONS, (ENVS, 1)),
                   rng.random(ENVS).astype(np.float32), np.zeros(ENVS, bool), torch.as_tensor(rng.random(ENVS)),
                   torch.as_tensor(rng.random(ENVS)), action_masks=masks)
    buffer.compute_returns_and_advantage(torch.as_tensor(rng.random(ENVS)), np.zeros(ENVS, bool))
    return buffer


def test_minibatches_hold_the_same_samples_as_sb3_contribs_buffer():
    ours, theirs = filled(OneCopyRolloutBuffer), filled(MaskableRolloutBuffer)
    np.random.seed(1)
    our_batches = list(ours.get(batch_size=10))
    np.random.seed(1)
    their_batches = list(theirs.get(batch_size=10))
    assert len(our_batches) == len(their_batches) == 4  # 32 samples in minibatches of 10
    for mine, other in zip(our_batches, their_batches):
        for name in mine._fields:
            assert torch.equal(getattr(mine, name), getattr(other, name)), name


def test_changing_a_minibatch_leaves_the_rollout_alone():
    buffer = filled(OneCopyRolloutBuffer)
    list(buffer.get(batch_size=16))  # the first pass flattens the rollout (envs x steps -> samples) in place
    before = buffer.observations.copy(), buffer.advantages.copy()
    for batch in buffer.get(batch_size=16):
        batch.observations.fill_(7.0)
        batch.advantages.fill_(7.0)
    assert np.array_equal(buffer.observations, before[0])
    assert np.array_equal(buffer.advantages, before[1])
