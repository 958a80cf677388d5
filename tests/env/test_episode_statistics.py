"""Rule: the episode statistics the SB3 VecEnv reports (``info["episode"]``: return ``r`` and length ``l``) are the
sum of the rewards it returned over the episode and the number of steps, ignored illegal actions and their
penalties included, in every slot and over several episodes.
"""

from __future__ import annotations

import numpy as np
import pytest


@pytest.mark.parametrize("seat", [0, 1])
def test_episode_return_and_length_add_up_the_steps_with_illegal_penalties(seat):
    pytest.importorskip("stable_baselines3")
    from ccg_env.env.sb3_vec import CcgDuelSb3VecEnv

    env = CcgDuelSb3VecEnv(num_envs=2, seat=seat, illegal_action="ignore", illegal_reward=-0.25, turn_limit=12)
    env.seed(2)
    env.reset()
    rng = np.random.default_rng(seat)
    returns, lengths, episodes, penalties = np.zeros(2), np.zeros(2, dtype=int), [], 0
    while len(episodes) < 3:
        masks = env.action_masks()
        actions = []
        for row in masks:
            illegal = rng.random() < 0.3
            actions.append(int(rng.choice(np.flatnonzero(row == 0 if illegal else row))))
            penalties += illegal
        _, rewards, dones, infos = env.step(np.array(actions))
        returns += rewards
        lengths += 1
        for i in np.flatnonzero(dones):
            episode = infos[i]["episode"]
            assert episode["r"] == pytest.approx(returns[i]) and episode["l"] == lengths[i]
            episodes.append(episode["r"])
            returns[i], lengths[i] = 0.0, 0
    assert penalties > 0 and any(r != round(r) for r in episodes), "some episodes should include penalties"
