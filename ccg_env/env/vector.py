"""The batched env: N duels stepped in one process, writing into preallocated arrays, as a Gymnasium VectorEnv.

:class:`DuelBatch` is the engine-facing core: N :class:`~ccg_env.env.duel.Duel` objects, each bound to one
row of the shared ``observations (N, size) float32`` and ``masks (N, actions) int8`` arrays, plus ``rewards``,
``terminated`` and ``truncated`` vectors; a step is one Python loop over the duels with no per-env wrapper
stack (with opponents that decide in batches, a league's, the learners' moves first and then the opponents' turns
all together: :mod:`ccg_env.env.opponent_turns`). Two front ends share it: :class:`CcgDuelVectorEnv` here
(Gymnasium ``VectorEnv``, what ``gym.make_vec("ccg_env/Duel-v1", num_envs=N)`` returns) and
``ccg_env.env.sb3_vec.CcgDuelSb3VecEnv`` (stable-baselines3 ``VecEnv`` for ``MaskablePPO``).

Seeding matches Gymnasium's vector envs: ``reset(seed=s)`` seeds slot ``i`` with ``s + i`` (or a list of seeds),
each slot draws its games from its own generator exactly as :class:`~ccg_env.env.gym_env.CcgDuelEnv` does, so
the batched env and ``gym.make_vec(..., vectorization_mode="sync")`` with the same seed and actions play the
same games.

Autoreset (``autoreset_mode``, Gymnasium's :class:`~gymnasium.vector.AutoresetMode`):

- ``NEXT_STEP`` (default): the step that ends a game returns its final observation with ``terminated`` or
  ``truncated`` set; the next step ignores that slot's action, resets it and returns the first observation
  of the new game with reward 0 and both flags False.
- ``SAME_STEP``: the step that ends a game resets it at once and returns the new game's first observation;
  ``infos["final_obs"]`` (object array, ``None`` elsewhere, with the bool mask ``infos["_final_obs"]``)
  holds the final observation and ``infos["final_info"]`` the final info.
- ``DISABLED``: finished slots stay finished until ``reset(options={"reset_mask": bool array})``.

``infos["action_mask"]`` is the ``(N, actions)`` int8 mask (a finished game's row is all zeros: in
``NEXT_STEP`` mode its next action is ignored anyway); ``infos["outcome"]`` (object array with mask
``infos["_outcome"]``) is set for the slots whose game ended this step. With ``copy=False`` the returned
observations, rewards, flags and masks are the preallocated arrays themselves, overwritten by the next step;
the observations are read-only (each duel rewrites only what changed in its row, so nothing else may write there).

``step`` checks the whole action batch before stepping any slot (``EnvCore.action_batch``): a batch that is not
one id per env (shape ``(N,)``) or holds an entry outside the action space (a bool, a float, text, None, an id
out of range) raises ``ValueError`` naming the slot, and nothing changes. A masked-out id in range: the env core's
contract (:mod:`ccg_env.env.core`).
"""

from __future__ import annotations

from typing import Any, Container, Sequence

import numpy as np
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from .duel import Duel, DuelSetup, make_opponent
from .opponent_turns import play_opponent_turns


class DuelBatch:
    """N duels over shared arrays; :meth:`step` loops over them once per batched step.

    Args:
        num_envs: number of duels.
        opponent: the opponent spec of every duel (each duel gets its own opponent instance when it is a name).
        opponent_draft: in draft mode, the spec of the opponent's drafter (``ccg_env/Draft-v1``'s option).
        **config: :meth:`DuelSetup.build` options (seat, illegal_action, rules, cards, decks, mode...).
    """

    def __init__(self, num_envs: int, opponent: Any = "random", opponent_draft: Any = "heuristic",
                 **config: Any) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs: expected a positive integer, got {num_envs!r}")
        self.num_envs = num_envs
        self.setup = DuelSetup.build(**config)
        size, actions = self.setup.encoder.size, self.setup.action_space.n
        self.observations = np.zeros((num_envs, size), dtype=np.float32)
        self.masks = np.zeros((num_envs, actions), dtype=np.int8)
        self.rewards = np.zeros(num_envs, dtype=np.float32)
        self.terminated = np.zeros(num_envs, dtype=np.bool_)
        self.truncated = np.zeros(num_envs, dtype=np.bool_)
        self.duels = [Duel(self.setup, make_opponent(opponent, self.setup, opponent_draft), self.observations[i],
                           self.masks[i]) for i in range(num_envs)]
        self.observations.flags.writeable = False  # only the duels write their rows (through their own views)
        self.rngs: list[np.random.Generator | None] = [None] * num_envs

    def reset(self, seeds: Sequence[int | None], options: dict[str, Any] | None = None,
              only: Sequence[int] | None = None) -> None:
        """Start new games in every slot (or in the slots ``only``); a seed reseeds its slot's generator."""
        if len(seeds) != self.num_envs:
            raise ValueError(f"expected {self.num_envs} seeds (one per env), got {len(seeds)}")
        for i in range(self.num_envs) if only is None else only:
            if seeds[i] is not None or self.rngs[i] is None:
                self.rngs[i] = seeding.np_random(seeds[i])[0]
            self.duels[i].reset(self.rngs[i], options)
            self.rewards[i] = 0.0
            self.terminated[i] = self.truncated[i] = False

    def step(self, actions: list[int]) -> list[int]:
        """Step every duel with its action id (checked by ``EnvCore.action_batch``); return the slots that ended."""
        if self._opponents_batch():
            return self._record(self._step_together(actions, ()), ())
        results = [duel.step(action) for duel, action in zip(self.duels, actions)]
        return self._record(results, ())

    def step_with_next_step_reset(self, actions: list[int], pending: list[int]) -> list[int]:
        """Reset the ``pending`` slots (ignoring their actions) and step the others; return the ended slots."""
        if not pending:
            return self.step(actions)
        skip = set(pending)
        if self._opponents_batch():
            for i in pending:
                self.duels[i].reset(self.rngs[i])
            return self._record(self._step_together(actions, skip), skip)
        results = []
        for i, (duel, action) in enumerate(zip(self.duels, actions)):
            if i in skip:
                duel.reset(self.rngs[i])
                results.append(_FRESH)
            else:
                results.append(duel.step(action))
        return self._record(results, skip)

    def _opponents_batch(self) -> bool:
        """Whether the opponents decide in batches (``batched()``, as a league's do): then the duels' opponent turns
        are played together (:func:`~ccg_env.env.opponent_turns.play_opponent_turns`)."""
        return hasattr(self.duels[0].opponent, "batched")

    def _step_together(self, actions: list[int], skip: Container[int]) -> list[tuple[float, bool, bool]]:
        """Step the duels not in ``skip``: every learner's action, then all the opponents' turns together."""
        duels = self.duels
        steps = [None if i in skip else duel.play_learner(action)
                 for i, (duel, action) in enumerate(zip(duels, actions))]
        play_opponent_turns([duel for duel, step in zip(duels, steps) if step is not None and duel.opponent_to_move()])
        return [_FRESH if step is None else duel.settle(step) for duel, step in zip(duels, steps)]

    def _record(self, results: list[tuple[float, bool, bool]], skip: Container[int]) -> list[int]:
        """Store each slot's (reward, terminated, truncated); return the slots that ended (not the ``skip`` ones)."""
        rewards, terminated, truncated = zip(*results)
        self.rewards[:], self.terminated[:], self.truncated[:] = rewards, terminated, truncated
        return [i for i, (_, term, trunc) in enumerate(results) if (term or trunc) and i not in skip]

    def outcomes(self, slots: Sequence[int]) -> np.ndarray:
        """Object array of the outcomes of ``slots`` (None elsewhere)."""
        outcome = np.full(self.num_envs, None, dtype=object)
        for i in slots:
            outcome[i] = self.duels[i].outcome
        return outcome


_FRESH = (0.0, False, False)  # the step result of a slot that was just reset


class CcgDuelVectorEnv(VectorEnv):
    """N duels as one Gymnasium ``VectorEnv`` (see the module documentation for autoreset and infos).

    Args:
        num_envs: number of games played side by side.
        opponent: as :class:`~ccg_env.env.gym_env.CcgDuelEnv` (``"random"``, an agent name or object...).
        autoreset_mode: ``"NextStep"`` (default), ``"SameStep"`` or ``"Disabled"``, or the enum.
        copy: return copies of the batched arrays (True) or the preallocated arrays themselves (False).
        **config: the single env's options (seat, illegal_action, normalize_observations, rules, cards...).
    """

    def __init__(self, num_envs: int = 8, opponent: Any = "random",
                 autoreset_mode: str | AutoresetMode = AutoresetMode.NEXT_STEP, copy: bool = True,
                 **config: Any) -> None:
        config.pop("max_episode_steps", None)  # passed by gym.make_vec; games end by the rules' turn limit
        self.batch = DuelBatch(num_envs, opponent, **config)
        self.num_envs = num_envs
        self.autoreset_mode = AutoresetMode(autoreset_mode)
        self.copy = bool(copy)
        self.metadata = {"autoreset_mode": self.autoreset_mode, "render_modes": []}
        self.single_observation_space = self.batch.setup.observation_space
        self.single_action_space = self.batch.setup.action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._pending: list[int] = []
        self._all_true = np.ones(num_envs, dtype=np.bool_)

    def reset(self, *, seed: int | Sequence[int | None] | None = None, options: dict[str, Any] | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        """Reset every slot (or ``options["reset_mask"]``'s slots); ``seed`` as Gymnasium's vector envs."""
        if isinstance(seed, int) and not isinstance(seed, bool):
            self._np_random, self._np_random_seed = seeding.np_random(seed)
        seeds = _slot_seeds(seed, self.num_envs)
        options = dict(options or {})
        reset_mask = options.pop("reset_mask", None)
        only = None if reset_mask is None else np.flatnonzero(_check_reset_mask(reset_mask, self.num_envs))
        self.batch.reset(seeds, options, only)
        self._pending = [] if only is None else [i for i in self._pending if i not in set(only.tolist())]
        return self._out(self.batch.observations), {"action_mask": self._out(self.batch.masks),
                                                     "_action_mask": self._all_true.copy()}

    def step(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Step all slots with ``actions`` (shape ``(N,)``) under the configured autoreset mode."""
        batch = self.batch
        action_list = batch.setup.core.action_batch(actions, self.num_envs)
        if self.autoreset_mode is AutoresetMode.NEXT_STEP:
            ended = batch.step_with_next_step_reset(action_list, self._pending)
            self._pending = ended
        else:
            ended = batch.step(action_list)
        infos: dict[str, Any] = {}
        if ended:
            infos["outcome"], infos["_outcome"] = batch.outcomes(ended), self._slot_mask(ended)
        if ended and self.autoreset_mode is AutoresetMode.SAME_STEP:
            infos.update(self._reset_same_step(ended, infos))
        infos["action_mask"], infos["_action_mask"] = self._out(batch.masks), self._all_true.copy()
        return (self._out(batch.observations), self._out(batch.rewards), self._out(batch.terminated),
                self._out(batch.truncated), infos)

    def _reset_same_step(self, ended: list[int], infos: dict[str, Any]) -> dict[str, Any]:
        batch = self.batch
        final_obs = np.full(self.num_envs, None, dtype=object)
        for i in ended:
            final_obs[i] = batch.observations[i].copy()
        final_info = {"outcome": infos["outcome"], "_outcome": infos["_outcome"]}
        batch_terminated, batch_truncated = batch.terminated.copy(), batch.truncated.copy()
        rewards = batch.rewards.copy()
        batch.reset([None] * self.num_envs, None, ended)
        batch.terminated[:], batch.truncated[:], batch.rewards[:] = batch_terminated, batch_truncated, rewards
        mask = self._slot_mask(ended)
        return {"final_obs": final_obs, "_final_obs": mask, "final_info": final_info, "_final_info": mask.copy()}

    def action_masks(self) -> np.ndarray:
        """The ``(N, actions)`` int8 mask array of the current positions (the preallocated array itself)."""
        return self.batch.masks

    def _slot_mask(self, slots: list[int]) -> np.ndarray:
        mask = np.zeros(self.num_envs, dtype=np.bool_)
        mask[slots] = True
        return mask

    def _out(self, array: np.ndarray) -> np.ndarray:
        return array.copy() if self.copy else array

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release (the engine holds no external resources)."""


def _slot_seeds(seed: int | Sequence[int | None] | None, num_envs: int) -> list[int | None]:
    if seed is None:
        return [None] * num_envs
    if isinstance(seed, int) and not isinstance(seed, bool):
        return [seed + i for i in range(num_envs)]
    seeds = list(seed)
    if len(seeds) != num_envs:
        raise ValueError(f"reset: a list of seeds must have num_envs={num_envs} entries, got {len(seeds)}")
    return seeds


def _check_reset_mask(reset_mask: Any, num_envs: int) -> np.ndarray:
    if not isinstance(reset_mask, np.ndarray) or reset_mask.dtype != np.bool_ or reset_mask.shape != (num_envs,):
        raise ValueError(f"reset options: reset_mask must be a bool numpy array of shape ({num_envs},), "
                         f"got {reset_mask!r}")
    return reset_mask
