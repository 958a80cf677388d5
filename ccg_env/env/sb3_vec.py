"""The batched duel env as a stable-baselines3 ``VecEnv`` for sb3-contrib ``MaskablePPO`` (needs the train extra).

SB3 conventions: a finished game is reset in the same step; its final observation is in
``infos[i]["terminal_observation"]``, ``infos[i]["TimeLimit.truncated"]`` is True when the turn limit (or a
looping card stopped by the engine) ended it, ``infos[i]["episode"] = {"r": return, "l": length, "t": seconds}``
feeds SB3's episode statistics (no ``VecMonitor`` needed) and ``infos[i]["outcome"]`` says ``"win"``, ``"loss"``,
``"draw"``, ``"turn_limit"``, ``"loop"`` or ``"illegal_action"``. Seeds come from ``env.seed(s)`` (slot ``i``
gets ``s + i``) and apply at the next ``reset()``, as in SB3's own vec envs.

``action_masks()`` returns the preallocated ``(N, actions)`` int8 mask array itself; MaskablePPO's
``get_action_masks`` calls ``env_method("action_masks")``, which returns that same array (``np.stack`` then
copies it once), so masks cost no per-env call. Observations are returned as a copy, because SB3 stores
the previous observation in its rollout buffer after the next ``step``.
"""

from __future__ import annotations

import time
from typing import Any, Sequence

import gymnasium
import numpy as np
from stable_baselines3.common.vec_env import VecEnv
from stable_baselines3.common.vec_env.base_vec_env import VecEnvIndices, VecEnvStepReturn

from .vector import DuelBatch


class CcgDuelSb3VecEnv(VecEnv):
    """N duels as one SB3 ``VecEnv`` with ``action_masks()``; options as :class:`~ccg_env.env.gym_env.CcgDuelEnv`.

    Args:
        num_envs: number of games played side by side.
        opponent: ``"random"``, an agent name, an agent object or a callable.
        **config: seat, illegal_action, illegal_reward, normalize_observations, rules, cards, decks, turn_limit.
    """

    def __init__(self, num_envs: int = 8, opponent: Any = "random", **config: Any) -> None:
        self.batch = DuelBatch(num_envs, opponent, **config)
        self.render_mode = None
        setup = self.batch.setup
        super().__init__(num_envs, setup.observation_space, setup.action_space)
        self._actions: list[int] = []
        self._started = time.perf_counter()

    def reset(self) -> np.ndarray:
        """Start new games in every slot, with the seeds given to :meth:`seed` if any (used once)."""
        self.batch.reset(self._seeds, self._options[0] or None)
        self._reset_seeds()
        self._reset_options()
        return self.batch.observations.copy()

    def step_async(self, actions: np.ndarray) -> None:
        """Check the ids (one per env, shape ``(N,)`` or ``(N, 1)``) before stepping anything."""
        array = np.asarray(actions)
        if array.size == self.num_envs:
            array = array.reshape(self.num_envs)
        self._actions = self.batch.setup.core.action_batch(array, self.num_envs)

    def step_wait(self) -> VecEnvStepReturn:
        batch = self.batch
        ended = batch.step(self._actions)
        rewards, dones = batch.rewards.copy(), batch.terminated | batch.truncated
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for i in ended:
            infos[i] = self._final_info(i)
        if ended:
            batch.reset([None] * self.num_envs, None, ended)
        return batch.observations.copy(), rewards, dones, infos

    def _final_info(self, i: int) -> dict[str, Any]:
        duel, batch = self.batch.duels[i], self.batch
        info = {"terminal_observation": batch.observations[i].copy(), "outcome": duel.outcome,
                "episode": {"r": duel.episode_return, "l": duel.length,
                            "t": round(time.perf_counter() - self._started, 6)}}
        if batch.truncated[i]:
            info["TimeLimit.truncated"] = True
        return info

    def action_masks(self) -> np.ndarray:
        """The ``(N, actions)`` int8 mask array of the current positions (preallocated; copy to keep it)."""
        return self.batch.masks

    def close(self) -> None:
        """Nothing to release (the engine holds no external resources)."""

    # --- the VecEnv attribute protocol: one env object serves every index -----------------------

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        value = getattr(self, attr_name)
        return [value for _ in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        raise AttributeError(f"CcgDuelSb3VecEnv: setting {attr_name!r} per env is not supported")

    def env_method(self, method_name: str, *method_args: Any, indices: VecEnvIndices = None,
                   **method_kwargs: Any) -> Sequence[Any]:
        """``"action_masks"`` returns the mask rows (an array, one row per env); other methods are refused."""
        if method_name != "action_masks":
            raise AttributeError(f"CcgDuelSb3VecEnv has no per-env method {method_name!r}")
        if indices is None:
            return self.batch.masks
        return self.batch.masks[list(self._get_indices(indices))]

    def env_is_wrapped(self, wrapper_class: type[gymnasium.Wrapper], indices: VecEnvIndices = None) -> list[bool]:
        return [False for _ in self._get_indices(indices)]
