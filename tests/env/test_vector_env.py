"""Vector envs: make_vec (batched, sync, async), autoreset modes, seeding, masks, final observations, SB3 VecEnv."""

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

from ccg_env.env.gym_env import ENV_ID, CcgDuelEnv
from ccg_env.env.masks import legal_mask
from ccg_env.env.sb3_vec import CcgDuelSb3VecEnv
from ccg_env.env.vector import CcgDuelVectorEnv


def random_actions(masks, rng):
    """One uniformly random legal id per row (0 for an all-zero row: a finished game's ignored action)."""
    return np.array([rng.choice(np.flatnonzero(row)) if row.any() else 0 for row in masks], dtype=np.int64)


def rollout(env, seed, steps):
    rng = np.random.default_rng(seed)
    observations, infos = env.reset(seed=seed)
    trace = [observations.copy()]
    for _ in range(steps):
        observations, rewards, terminated, truncated, infos = env.step(random_actions(infos["action_mask"], rng))
        trace.append((observations.copy(), rewards.copy(), terminated.copy(), truncated.copy()))
    return trace


def assert_same_trace(first, second):
    np.testing.assert_array_equal(first[0], second[0])
    for a, b in zip(first[1:], second[1:]):
        for x, y in zip(a, b):
            np.testing.assert_array_equal(x, y)


def test_make_vec_default_is_the_batched_env_and_sync_async_work():
    batched = gym.make_vec(ENV_ID, num_envs=3)
    assert isinstance(batched.unwrapped, CcgDuelVectorEnv)
    for mode in ("sync", "async"):
        env = gym.make_vec(ENV_ID, num_envs=2, vectorization_mode=mode)
        try:
            observations, infos = env.reset(seed=0)
            assert observations.shape == (2, env.single_observation_space.shape[0])
            assert infos["action_mask"].shape == (2, env.single_action_space.n)
            trace = rollout(env, 0, 60)
            assert any(step[2].any() or step[3].any() for step in trace[1:])  # games ended and autoreset
        finally:
            env.close()


def test_batched_env_replays_make_vec_sync_exactly():
    """Same seeds and actions: the one-process batched env and Gymnasium's SyncVectorEnv play the same games."""
    batched = CcgDuelVectorEnv(3)
    sync = gym.make_vec(ENV_ID, num_envs=3, vectorization_mode="sync")
    assert_same_trace(rollout(batched, 7, 150), rollout(sync, 7, 150))


def test_same_seed_same_trajectories_other_seed_differs():
    first, second, other = (rollout(CcgDuelVectorEnv(4), seed, 100) for seed in (1, 1, 2))
    assert_same_trace(first, second)
    assert not np.array_equal(first[0], other[0])


def test_masks_match_each_games_legal_actions():
    env = CcgDuelVectorEnv(4, copy=False)
    codec = env.batch.setup.codec
    rng = np.random.default_rng(0)
    _, infos = env.reset(seed=3)
    expected = np.zeros(env.single_action_space.n, dtype=np.int8)
    for _ in range(150):
        for duel, row in zip(env.batch.duels, infos["action_mask"]):
            if duel.outcome is None:
                legal_mask(duel.game, codec, duel.seat, expected)
                np.testing.assert_array_equal(row, expected)
            else:
                assert not row.any()
        infos = env.step(random_actions(infos["action_mask"], rng))[4]


def test_next_step_autoreset_ignores_the_action_and_starts_a_new_game():
    env = CcgDuelVectorEnv(2, turn_limit=8)
    rng = np.random.default_rng(0)
    _, infos = env.reset(seed=0)
    for _ in range(200):
        _, rewards, terminated, truncated, infos = env.step(random_actions(infos["action_mask"], rng))
        ended = terminated | truncated
        if ended.any():
            break
    i = int(np.flatnonzero(ended)[0])
    assert infos["_outcome"][i] and infos["outcome"][i] in ("win", "loss", "draw", "turn_limit")
    actions = random_actions(infos["action_mask"], rng)
    actions[i] = env.single_action_space.n - 1  # ignored (masked out, but in the space): the slot resets
    observations, rewards, terminated, truncated, infos = env.step(actions)
    assert (rewards[i], terminated[i], truncated[i]) == (0.0, False, False)
    assert env.batch.duels[i].game.turn <= 2 and infos["action_mask"][i].any()


def test_same_step_final_observations_match_the_single_env():
    env = CcgDuelVectorEnv(2, autoreset_mode="SameStep", turn_limit=10)
    singles = [CcgDuelEnv(turn_limit=10) for _ in range(2)]
    rng = np.random.default_rng(0)
    observations, infos = env.reset(seed=4)
    for i, single in enumerate(singles):
        np.testing.assert_array_equal(single.reset(seed=4 + i)[0], observations[i])
    finals = 0
    for _ in range(120):
        actions = random_actions(infos["action_mask"], rng)
        observations, rewards, terminated, truncated, infos = env.step(actions)
        for i, single in enumerate(singles):
            single_obs, single_reward, single_term, single_trunc, _ = single.step(int(actions[i]))
            assert (rewards[i], terminated[i], truncated[i]) == (single_reward, single_term, single_trunc)
            if single_term or single_trunc:
                assert infos["_final_obs"][i]
                np.testing.assert_array_equal(infos["final_obs"][i], single_obs)
                single_obs = single.reset()[0]
                finals += 1
            np.testing.assert_array_equal(observations[i], single_obs)
    assert finals >= 2


def test_disabled_autoreset_resets_only_the_masked_slots():
    env = CcgDuelVectorEnv(2, autoreset_mode=AutoresetMode.DISABLED, turn_limit=4)
    rng = np.random.default_rng(0)
    _, infos = env.reset(seed=0)
    while not env.batch.duels[0].outcome:
        actions = random_actions(infos["action_mask"], rng)
        if env.batch.duels[1].outcome:
            _, infos = env.reset(options={"reset_mask": np.array([False, True])})
            continue
        infos = env.step(actions)[4]
    game_one = env.batch.duels[1].game
    _, infos = env.reset(options={"reset_mask": np.array([True, False])})
    assert env.batch.duels[0].outcome is None and env.batch.duels[1].game is game_one
    with pytest.raises(ValueError, match="reset_mask"):
        env.reset(options={"reset_mask": [True, False]})


def test_copy_false_returns_the_preallocated_arrays():
    env = CcgDuelVectorEnv(2, copy=False)
    observations, infos = env.reset(seed=0)
    assert observations is env.batch.observations and infos["action_mask"] is env.action_masks()


def test_copy_false_observations_are_read_only_and_still_change_each_step():
    """The duels rewrite only what changed in their rows, so nobody else may write into them."""
    env = CcgDuelVectorEnv(2, copy=False)
    observations, infos = env.reset(seed=0)
    first = observations.copy()
    with pytest.raises(ValueError, match="read-only"):
        observations[0, 0] = 1.0
    observations, *_ = env.step(random_actions(infos["action_mask"], np.random.default_rng(0)))
    assert not np.array_equal(observations, first)


def test_sb3_vec_env_final_observations_truncation_and_masks():
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported

    env = CcgDuelSb3VecEnv(3, turn_limit=6)
    assert is_masking_supported(env)
    assert env.action_masks() is env.batch.masks
    env.seed(0)
    env.reset()
    rng = np.random.default_rng(0)
    truncations = 0
    for _ in range(80):
        masks = get_action_masks(env)
        np.testing.assert_array_equal(masks, env.batch.masks)
        _, rewards, dones, infos = env.step(random_actions(masks, rng))
        for i in np.flatnonzero(dones):
            info = infos[i]
            assert info["terminal_observation"].shape == env.observation_space.shape
            assert info["episode"]["l"] >= 1 and info["outcome"] in ("win", "loss", "draw", "turn_limit")
            assert rewards[i] == {"win": 1, "loss": -1, "draw": 0, "turn_limit": 0}[info["outcome"]]
            assert info.get("TimeLimit.truncated", False) == (info["outcome"] == "turn_limit")
            truncations += info["outcome"] == "turn_limit"
            assert env.batch.duels[i].outcome is None  # already restarted
    assert truncations >= 1


def test_sb3_vec_env_seeding_is_reproducible():
    def trace(seed):
        env = CcgDuelSb3VecEnv(2)
        env.seed(seed)
        observations, rng, out = env.reset(), np.random.default_rng(0), []
        for _ in range(50):
            observations, rewards, dones, _ = env.step(random_actions(env.action_masks(), rng))
            out.append((observations, rewards, dones))
        return out

    for a, b in zip(trace(3), trace(3)):
        for x, y in zip(a, b):
            np.testing.assert_array_equal(x, y)
