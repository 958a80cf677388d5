"""Potential-based reward shaping for the batched duel env: a denser signal than the final +-1, same optimum.

:class:`ShapedRewardVecEnv` wraps :class:`~ccg_env.env.sb3_vec.CcgDuelSb3VecEnv` and adds
``weight * (gamma * phi(next) - phi(now))`` to every reward, with ``phi = 0`` once a game has ended. The
potential ``phi`` is the learner's material edge read from its observation: own hero health and armor plus
own minions' attack and health, minus the same for the enemy, divided by the rules' hero health. Shaping by
a potential leaves the optimal policy unchanged (Ng, Harada and Russell, 1999). Episode returns in
``infos[i]["episode"]`` and outcomes stay those of the unshaped game.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from stable_baselines3.common.vec_env import VecEnvWrapper
from stable_baselines3.common.vec_env.base_vec_env import VecEnvStepReturn


def material_coefficients(setup: Any) -> np.ndarray:
    """Weights ``c`` with ``phi(observation) = observation @ c`` for an env built from ``setup`` (a DuelSetup)."""
    encoder = setup.encoder
    coefficients = np.zeros(encoder.size, dtype=np.float32)
    views = encoder.view(coefficients)
    views["own_hero"][:2], views["enemy_hero"][:2] = 1.0, -1.0  # health, armor
    views["own_battlefield"][:, 1:3], views["enemy_battlefield"][:, 1:3] = 1.0, -1.0  # attack, health
    if setup.normalize_observations:
        coefficients *= encoder.high  # normalized value * high = raw game number
    return coefficients / setup.rules.hero_health


class ShapedRewardVecEnv(VecEnvWrapper):
    """The duel VecEnv with the material-edge shaping bonus added to its rewards.

    Args:
        venv: a ``CcgDuelSb3VecEnv`` (its ``batch.setup`` gives the observation layout).
        weight: scale of the bonus (0.1-1 keeps a whole game's shaping below the final reward).
        gamma: the learner's discount factor (the potential difference is discounted like the return).
    """

    def __init__(self, venv: Any, weight: float, gamma: float) -> None:
        super().__init__(venv)
        self.coefficients = material_coefficients(venv.batch.setup) * np.float32(weight)
        self.gamma = float(gamma)
        self.potential = np.zeros(venv.num_envs, dtype=np.float32)

    def reset(self) -> np.ndarray:
        observations = self.venv.reset()
        self.potential = observations @ self.coefficients
        return observations

    def step_wait(self) -> VecEnvStepReturn:
        observations, rewards, dones, infos = self.venv.step_wait()
        potential = observations @ self.coefficients
        following = np.where(dones, np.float32(0.0), potential)
        rewards = (rewards + self.gamma * following - self.potential).astype(np.float32)
        self.potential = potential
        return observations, rewards, dones, infos

    def action_masks(self) -> np.ndarray:
        """The wrapped env's ``(N, actions)`` mask array."""
        return self.venv.action_masks()
