"""Rule: every front-end plays its games under the rules it was configured with, not the packaged defaults.

A ``Rules`` object with a short turn limit and small heroes goes into the Gymnasium env, the batched vector env,
the SB3 VecEnv and the AEC env; both seats keep their opening hands (end turn in the mulligan) and then only end
their turns, so each game must be truncated at that limit (the default of 80 turns would take 41 learner steps) with
heroes of the configured health.
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import ccg_env
from ccg_env.engine import Rules
from ccg_env.env.gym_env import ENV_ID
from ccg_env.env.vector import CcgDuelVectorEnv

RULES = Rules(turn_limit=6, hero_health=7)
END_TURN = 0
#: The learner's steps until the turn limit: keep the opening hand, then end its 3 turns (seat 0 of 6 turns).
LEARNER_STEPS = 1 + 3
HERO_HEALTH = 0  # the first feature of the observation: the observer's hero's health (see ccg_env.env.aec)


def passive(observation, mask, view) -> int:
    """An opponent that only ends its turns."""
    return END_TURN


def steps_until_over(step) -> tuple[int, bool, bool]:
    """Call ``step()`` (which returns terminated, truncated) until the game ends; return the count and flags."""
    for count in range(1, 100):
        terminated, truncated = step()
        if terminated or truncated:
            return count, terminated, truncated
    raise AssertionError("the game did not end in 100 steps")


def test_gym_env_uses_the_configured_rules():
    env = gym.make(ENV_ID, seat=0, opponent=passive, rules=RULES)
    env.reset(seed=0)
    game = env.unwrapped.game
    assert [game.player(i).hero.health for i in (0, 1)] == [7, 7]
    count, terminated, truncated = steps_until_over(lambda: env.step(END_TURN)[2:4])
    assert (count, terminated, truncated) == (LEARNER_STEPS, False, True)


@pytest.mark.parametrize("make", ["constructor", "gym.make_vec"])
def test_vector_env_uses_the_configured_rules(make):
    env = (CcgDuelVectorEnv(num_envs=2, seat=0, opponent=passive, rules=RULES) if make == "constructor"
           else gym.make_vec(ENV_ID, num_envs=2, seat=0, opponent=passive, rules=RULES))
    observations, _ = env.reset(seed=0)
    assert observations[:, HERO_HEALTH].tolist() == [7.0, 7.0]

    def step():
        _, _, terminated, truncated, _ = env.step(np.zeros(2, dtype=np.int64))
        assert terminated[0] == terminated[1] and truncated[0] == truncated[1]
        return terminated[0], truncated[0]

    assert steps_until_over(step) == (LEARNER_STEPS, False, True)


def test_sb3_vec_env_uses_the_configured_rules():
    pytest.importorskip("stable_baselines3")
    from ccg_env.env.sb3_vec import CcgDuelSb3VecEnv

    env = CcgDuelSb3VecEnv(num_envs=2, seat=0, opponent=passive, rules=RULES)
    env.seed(0)
    assert env.reset()[:, HERO_HEALTH].tolist() == [7.0, 7.0]

    def step():
        _, _, dones, infos = env.step(np.zeros(2, dtype=np.int64))
        return False, bool(dones.all() and all(info.get("TimeLimit.truncated") for info in infos))

    assert steps_until_over(step) == (LEARNER_STEPS, False, True)


@pytest.mark.parametrize("make", [ccg_env.raw_env, ccg_env.env])
def test_aec_env_uses_the_configured_rules(make):
    env = make(rules=RULES)
    env.reset(seed=0)
    game = env.unwrapped.game
    assert [game.player(i).hero.health for i in (0, 1)] == [7, 7]
    actions = 0
    while env.agents:
        _, _, terminated, truncated, _ = env.last()
        if not (terminated or truncated):
            actions += 1
        env.step(None if terminated or truncated else END_TURN)
    assert actions == 2 + RULES.turn_limit and game.result.value == "turn_limit"  # two mulligan decisions first
