"""``CcgMultiAgentEnv``: the card game as an RLlib ``MultiAgentEnv`` for turn-based self-play, over the env core.

| Creation          | ``CcgMultiAgentEnv(env_config)``, or ``PPOConfig().environment(CcgMultiAgentEnv)``          |
|-------------------|-------------------------------------------------------------------------------------------|
| Agents            | ``player_0``, ``player_1`` by seat (``player_0`` moves first); against a scripted agent the |
|                   | learner is ``learner_0`` or ``learner_1`` (its seat)                                      |
| Action space      | ``Discrete(N)`` per agent: the env core's action layout (:mod:`ccg_env.env.codec`)        |
| Observation space | ``Dict(observations=Box(float32, [0, 1]), action_mask=Box(int8, (N,)))`` per agent        |

Only the agent on turn is in the observation dict of ``reset`` and of every ``step`` (it acts many times in a row
within its turn); its ``action_mask`` has ones exactly at the legal ids (the core's mask writer) and
``observations`` is the core's observation vector scaled into ``[0, 1]`` (``encoder.scale``). Every step returns a
reward for every agent in the game (0 until the end), as RLlib requires of agents that acted. At the end both
agents get their final observation (all-zero mask) and reward (+1 / -1, 0 for a draw, a truncation, or the
other side of a forfeit), and ``terminateds["__all__"]`` (or ``truncateds["__all__"]`` at the turn limit or a
stopped loop) is set. ``infos[agent]`` at the end holds ``outcome`` ("win", "loss", "draw", "turn_limit", "loop",
"illegal_action") and ``opponent``.

Each ``step`` plays the action through the core's :meth:`~ccg_env.env.core.EnvCore.step` (the scripted seat's
moves through :meth:`~ccg_env.env.core.EnvCore.play_until`) and translates the :class:`~ccg_env.env.core.Step` it
returns. Illegal ids (``illegal_action``, forfeit by default, which RLlib's env checker's unmasked random actions
rely on): as the core's module documentation (:mod:`ccg_env.env.core`) states for every front-end.

Scripted opponents (``opponents``): a mapping of who the learner meets to weights, drawn per episode. ``"self"``
is self-play (both agents in the game, each mapped to a module by the policy mapping function); any registered
agent name (``"heuristic"``, ``"random"``, ``"search"``) seats that agent, which the env plays itself inside
``reset`` and ``step``: then only the learner's agent appears, named ``learner_<seat>`` (its seat drawn per
episode), so that a policy mapping function can always map it to the trained module. :meth:`set_opponents`
changes the weights while training (the league callback does, on every env runner).

Configuration (``env_config`` keys): ``rules``, ``cards``, ``decks`` (two decks or ``"random"``), ``turn_limit``,
``illegal_action`` (``"forfeit"``), ``illegal_reward`` (-0.1), ``opponents`` (``{"self": 1.0}``), ``seed``, and
``version`` (the environment version, ``"v1"`` by default: :mod:`ccg_env.env.versions`).
"""

from __future__ import annotations

import random
from typing import Any, Mapping

import gymnasium
import numpy as np
from ray.rllib.env.multi_agent_env import MultiAgentEnv

from ..env.core import FORFEIT, EnvCore, Match, Step
from ..env.duel import DuelSetup, Opponent, make_opponent
from ..env.versions import check_version
from ..engine import Game

AGENTS = ("player_0", "player_1")
#: The learner's agent id by seat in a game against a scripted agent.
LEARNERS = ("learner_0", "learner_1")
SELF_PLAY = "self"
_CONFIG_KEYS = ("rules", "cards", "decks", "turn_limit", "illegal_action", "illegal_reward", "opponents", "seed",
                "version")
_MAX_SEED = 2**63 - 1


def observation_space(core: EnvCore) -> gymnasium.spaces.Dict:
    """One agent's observation space: the scaled observation vector and the int8 action mask."""
    return masked_space((core.encoder.high * core.encoder.scale).astype(np.float32), core.size)


def masked_space(high: np.ndarray, actions: int) -> gymnasium.spaces.Dict:
    """``Dict(observations=Box([0, high]), action_mask=Box(int8, (actions,)))``."""
    return gymnasium.spaces.Dict({
        "observations": gymnasium.spaces.Box(np.zeros_like(high), high, dtype=np.float32),
        "action_mask": gymnasium.spaces.Box(0, 1, (actions,), dtype=np.int8),
    })


def check_opponents(opponents: Any, where: str = "opponents") -> dict[str, float]:
    """Validate a ``{name: weight}`` mapping (``"self"`` or agent names, weights >= 0, some > 0)."""
    from ..agent_api import available_agents, is_agent_name

    if not isinstance(opponents, Mapping) or not opponents:
        raise ValueError(f"{where}: expected a mapping of opponent names to weights, got {opponents!r}")
    checked = {}
    for name, weight in opponents.items():  # checked on every league update of every env: no entry-point scan
        if name != SELF_PLAY and not (isinstance(name, str) and is_agent_name(name)):
            known = (SELF_PLAY, *available_agents())
            raise ValueError(f"{where}: unknown opponent {name!r}; expected one of {', '.join(known)}")
        if isinstance(weight, bool) or not isinstance(weight, (int, float)) or not weight >= 0:
            raise ValueError(f"{where}: {name}: expected a weight >= 0, got {weight!r}")
        checked[str(name)] = float(weight)
    if sum(checked.values()) <= 0:
        raise ValueError(f"{where}: every weight is 0; give at least one a positive weight")
    return checked


class CcgMultiAgentEnv(MultiAgentEnv):
    """Two agents taking turns in one game; see the module documentation."""

    def __init__(self, config: Mapping[str, Any] | None = None) -> None:
        super().__init__()
        config = dict(config or {})
        unknown = sorted(set(config) - set(_CONFIG_KEYS))
        if unknown:
            raise ValueError(f"CcgMultiAgentEnv config: unknown keys {unknown}; known keys: {', '.join(_CONFIG_KEYS)}")
        check_version(config.get("version"))
        self.setup = DuelSetup.build(illegal_action=config.get("illegal_action", "forfeit"),
                                     illegal_reward=config.get("illegal_reward", -0.1), normalize_observations=True,
                                     rules=config.get("rules"), cards=config.get("cards"), decks=config.get("decks"),
                                     turn_limit=config.get("turn_limit"))
        self.core = self.setup.core
        self.possible_agents = [*AGENTS, *LEARNERS]
        self.agents = list(AGENTS)
        self._seat_agents: tuple[str, ...] = AGENTS
        space, actions = observation_space(self.core), gymnasium.spaces.Discrete(self.core.size)
        self.observation_spaces = {agent: space for agent in self.possible_agents}
        self.action_spaces = {agent: actions for agent in self.possible_agents}
        self._buffers = [self.core.encoder.new_buffer() for _ in AGENTS]
        self._writers = [self.core.observation_writer(buffer, normalize=True, exclusive=True)
                         for buffer in self._buffers]
        self._mask = np.zeros(self.core.size, dtype=np.int8)
        self._write_mask = self.core.mask_writer(self._mask)
        self._rng = random.Random(config.get("seed"))
        self._scripted: dict[str, Opponent] = {}
        self.set_opponents(config.get("opponents", {SELF_PLAY: 1.0}))
        self.match: Match | None = None
        self.opponent = SELF_PLAY
        self.scripted_seat: int | None = None

    @property
    def game(self) -> Game | None:
        """The engine game being played (None before the first reset)."""
        match = self.match
        return None if match is None else match.game

    # --- the league's view ---------------------------------------------------------------------------

    def set_opponents(self, opponents: Mapping[str, float]) -> None:
        """Set the weights of who the learner meets from the next episode on (see the module documentation)."""
        self.opponents = check_opponents(opponents)
        for name in self.opponents:
            if name != SELF_PLAY and name not in self._scripted:
                self._scripted[name] = make_opponent(name, self.setup)

    def _draw_opponent(self) -> str:
        names = list(self.opponents)
        return self._rng.choices(names, weights=[self.opponents[n] for n in names])[0]

    # --- episode -------------------------------------------------------------------------------------

    def reset(self, *, seed: int | None = None, options: dict | None = None
              ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Start a game (``seed`` reseeds the env's generator); return the observation of the agent on turn."""
        if seed is not None:
            self._rng.seed(seed)
        options = options or {}
        game_seed = self._rng.randrange(_MAX_SEED)
        match = self.match = self.core.new_match(game_seed, decks=options.get("decks"),
                                                 scenario=options.get("scenario"))
        self.opponent = options.get("opponent") or self._draw_opponent()
        if self.opponent != SELF_PLAY and self.opponent not in self._scripted:
            check_opponents({self.opponent: 1.0}, "reset options: opponent")
            self._scripted[self.opponent] = make_opponent(self.opponent, self.setup)
        self.scripted_seat = None if self.opponent == SELF_PLAY else self._rng.randrange(2)
        if self.scripted_seat is None:
            self._seat_agents = AGENTS
            step = self.core.position(match)
        else:
            self._seat_agents = (LEARNERS[0], "") if self.scripted_seat == 1 else ("", LEARNERS[1])
            scripted = self._scripted[self.opponent]
            scripted.reset(game_seed)
            step = self.core.play_until(match, 1 - self.scripted_seat, scripted.choose)
        self.agents = [agent for agent in self._seat_agents if agent]
        if step.result is not None:  # a described board can start over
            observations, rewards, terminateds, truncateds, infos = self._finish(step)
            return observations, infos
        return self._on_turn(step.current), {}

    def step(self, action_dict: dict[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        """Play the action of the agent on turn (the only key expected); see the module documentation."""
        match = self.match
        if match is None or match.is_over:
            raise RuntimeError("CcgMultiAgentEnv.step: the game is over (or never started); call reset() first")
        agent = self._seat_agents[match.current]
        if len(action_dict) != 1 or agent not in action_dict:
            raise ValueError(f"CcgMultiAgentEnv.step: expected an action for {agent} only (the agent on turn), "
                             f"got actions for {sorted(action_dict)}")
        core = self.core
        step = core.step(match, core.action_id(action_dict[agent]), agent)
        scripted = self.scripted_seat
        if scripted is not None and step.current == scripted:
            step = core.play_until(match, 1 - scripted, self._scripted[self.opponent].choose)
        if step.result is not None:
            return self._finish(step)
        return self._on_turn(step.current), self._rewards(step), {"__all__": False}, {"__all__": False}, {}

    def _on_turn(self, seat: int) -> dict[str, Any]:
        """The observation of the agent on turn: its view and the mask of its legal ids."""
        match = self.match
        assert match is not None
        legal = self.core.legal_ids(match)
        self._writers[seat](match.game, seat, legal.values())
        self._write_mask.write(legal)
        return {self._seat_agents[seat]: {"observations": self._buffers[seat].copy(), "action_mask": self._mask.copy()}}

    def _rewards(self, step: Step) -> dict[str, float]:
        """Every agent's reward of the core's step (0 but for an ignored illegal id's offender)."""
        rewards = step.rewards
        return {agent: rewards[seat] for seat, agent in enumerate(self._seat_agents) if agent}

    def _finish(self, step: Step) -> tuple[dict, dict, dict, dict, dict]:
        """Translate the core's final step: every agent's last observation, reward and outcome; the episode flags."""
        game = self.game
        observations, infos = {}, {}
        zeros = np.zeros(self.core.size, dtype=np.int8)
        for seat, agent in enumerate(self._seat_agents):
            if agent:
                self._writers[seat](game, seat)
                observations[agent] = {"observations": self._buffers[seat].copy(), "action_mask": zeros.copy()}
                infos[agent] = {"outcome": step.outcome(seat), "opponent": self.opponent}
        truncated = step.truncated
        flags = {agent: True for agent in self.agents}
        terminateds = {**({} if truncated else flags), "__all__": not truncated}
        truncateds = {**(flags if truncated else {}), "__all__": truncated}
        return observations, self._rewards(step), terminateds, truncateds, infos


__all__ = ["AGENTS", "FORFEIT", "LEARNERS", "SELF_PLAY", "CcgMultiAgentEnv", "check_opponents", "masked_space",
           "observation_space"]
