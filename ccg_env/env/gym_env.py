"""
# ccg_env/Duel-v1: the single-agent Gymnasium env (the learner against a built-in opponent)

The learner plays one seat of a duel; an opponent policy plays the other seat inside ``step`` (and inside
``reset`` when the opponent moves first), so every observation the learner sees is one where it is on turn.
Importing this module registers the id; ``ccg_env/__init__.py`` registers it as soon as Gymnasium is imported
(see :mod:`ccg_env.env.registration`), and ``gym.make("ccg_env.env.gym_env:ccg_env/Duel-v1")`` always works.

| Creation          | ``gym.make("ccg_env/Duel-v1", opponent="random", seat="random", ...)``, ``CcgDuelEnv(...)`` |
|-------------------|----------------------------------------------------------------------------------------|
| Action space      | ``Discrete(N)``: the AEC env's layout (262 ids with default rules, see :mod:`ccg_env.env.aec`) |
| Observation space | ``Box(float32, (size,))``: the AEC env's observation vector for the learner's seat       |
| Action mask       | ``env.action_masks()`` (bool, for sb3-contrib ``MaskablePPO``) and ``info["action_mask"]`` (int8) |
| Vectorized        | ``gym.make_vec(id, num_envs=N)`` gives the batched :class:`~ccg_env.env.vector.CcgDuelVectorEnv`; ``vectorization_mode="sync"`` or ``"async"`` give Gymnasium's own |

``gym.make`` returns the env itself, without Gymnasium's order-enforcing and passive-checker wrappers, so
``action_masks()`` is a plain method call (both checkers pass; see ``tests/env/test_gym_env.py``).

## The mulligan

With ``rules.mulligan`` (the default) every episode starts with the learner's mulligan decision (see
:mod:`ccg_env.env.aec`): ids ``M + h`` put back hand slot ``h``, ``0`` keeps the rest. When the learner sits in
seat 1, the opponent's mulligan is played inside ``reset`` (the first player decides first), so the first
observation is always one where the learner decides; the coin and turn 1 follow the second player's decision.

## Episode, rewards and info

The episode is one game. The reward is 0 on every step except the last: +1 if the learner wins, -1 if it
loses, 0 for a draw (``terminated``) and 0 when the turn limit ends the game or the engine stops a looping
card (``truncated``). The mask is all zeros once the episode is over. ``info`` always holds ``action_mask`` (a
copy of the int8 mask) and ``seat``; the final step adds ``outcome``: ``"win"``, ``"loss"``, ``"draw"``,
``"turn_limit"``, ``"loop"`` or ``"illegal_action"``, and ``turn``. Which results are truncations is decided in
one place for every front-end (``ccg_env.engine.state.TRUNCATING_RESULTS``).

## Illegal actions

The env core's contract (:mod:`ccg_env.env.core`); a forfeit ends the episode with the outcome
``"illegal_action"``.

## Configuration

| argument               | default            | meaning                                                              |
|------------------------|--------------------|----------------------------------------------------------------------|
| opponent               | ``"random"``       | ``"random"`` (uniform legal choices), a registered agent name (``"heuristic"``, ``"search"``...), an agent object (``act(obs, mask, view)``) or a callable ``f(obs, mask, view) -> id`` |
| seat                   | ``"random"``       | the learner's seat: drawn per episode from the env's generator, or fixed ``0`` (moves first) / ``1`` |
| illegal_action         | ``"forfeit"``      | ``"forfeit"``, ``"raise"`` or ``"ignore"`` (:mod:`ccg_env.env.core`) |
| illegal_reward         | ``-0.1``           | reward of an ignored illegal action                                 |
| normalize_observations | ``False``          | multiply the observation by ``encoder.scale`` (Box bounds ``[0, 1]``) |
| rules, cards, decks, turn_limit | as the AEC env | see :mod:`ccg_env.env.aec` (``decks="random"`` draws both decks per game) |
| card_features, card_ids | ``False``, ``True`` | card slots carry what each card does; ``card_ids=False`` drops the card-id one-hots (:mod:`ccg_env.env.observation`, docs/observation.md) |
| render_mode            | None               | ``"ansi"``: ``render()`` returns the learner's view as text         |

Seeding: ``reset(seed=s)`` seeds the env's generator (``np_random``); each game's engine seed and, with
``seat="random"``, the learner's seat are drawn from it, and the opponent is reseeded with the game's seed,
so the same seed and the same actions replay the same episodes. ``reset(options={"scenario": {...}})``
starts from a board described as data, ``options={"seat": 0 | 1}`` fixes the seat of one episode and
``options={"decks": [a, b]}`` deals that deck pair to seats 0 and 1 for one episode.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import gymnasium
import numpy as np

from ..engine import Game, Rules
from .duel import Duel, DuelSetup, make_opponent
from .registration import ENV_ID, register_duel_env
from .render import render_text

__all__ = ["ENV_ID", "CcgDuelEnv"]


class CcgDuelEnv(gymnasium.Env):
    """The learner's side of a duel against a built-in opponent; see the module documentation."""

    metadata = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(self, opponent: Any = "random", seat: str | int = "random", illegal_action: str = "forfeit",
                 illegal_reward: float = -0.1, normalize_observations: bool = False,
                 rules: Rules | str | Path | None = None, cards: Any = None, decks: Any = None,
                 turn_limit: int | None = None, render_mode: str | None = None, card_features: bool = False,
                 card_ids: bool = True) -> None:
        self._bind(render_mode, seat=seat, illegal_action=illegal_action, illegal_reward=illegal_reward,
                   normalize_observations=normalize_observations, rules=rules, cards=cards, decks=decks,
                   turn_limit=turn_limit, card_features=card_features, card_ids=card_ids)
        self.duel: Any = Duel(self.setup, make_opponent(opponent, self.setup), self._observation, self._mask)

    def _bind(self, render_mode: str | None, **config: Any) -> None:
        """Check the render mode; build the setup (:meth:`DuelSetup.build`), spaces and the arrays the duel writes."""
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode: expected one of {self.metadata['render_modes']} or None, "
                             f"got {render_mode!r}")
        self.render_mode = render_mode
        self.setup = DuelSetup.build(log=render_mode is not None, **config)
        self.observation_space = self.setup.observation_space
        self.action_space = self.setup.action_space
        self._observation = np.zeros(self.observation_space.shape, dtype=np.float32)
        self._mask = np.zeros(self.action_space.n, dtype=np.int8)

    @property
    def game(self) -> Game | None:
        """The engine game of the current episode (clone it, don't mutate it)."""
        return self.duel.game

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        """Start a new game (see the module documentation for seeding and options)."""
        super().reset(seed=seed)
        self.duel.reset(self.np_random, options)
        return self._observation.copy(), self._info()

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Play the learner's action and the opponent's replies (an illegal one: :mod:`ccg_env.env.core`)."""
        if self.duel.match is None:
            raise RuntimeError(f"{type(self).__name__}.step called before reset()")
        reward, terminated, truncated = self.duel.step(self.setup.core.action_id(action))
        return self._observation.copy(), reward, terminated, truncated, self._info()

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions as a bool vector (all False once the episode is over)."""
        return self._mask.astype(bool)

    def _info(self) -> dict[str, Any]:
        info = {"action_mask": self._mask.copy(), "seat": self.duel.seat}
        if self.duel.outcome is not None:
            game = self.duel.game
            info["outcome"], info["turn"] = self.duel.outcome, game.state.turn if game is not None else 0
        return info

    def render(self) -> str | None:
        """Return the board as the learner sees it (``render_mode="ansi"``)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode; pass render_mode='ansi'")
            return None
        if self.duel.game is None:
            return "(no game yet: call reset() first)"
        return render_text(self.duel.game, self.duel.seat, names=self.duel.render_names())


register_duel_env()
