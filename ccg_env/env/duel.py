"""One learner-versus-opponent game seen from the learner's seat: the env core's adapter for the Gymnasium envs.

A :class:`Duel` owns one engine game, the learner's seat and an opponent. ``step(action_id)`` applies the
learner's action, then lets the opponent play until the learner is on turn again or the game is over, and
writes the learner's observation and action mask into arrays the caller owns (bound once at construction).
The learner's action is the env core's step (:meth:`~ccg_env.env.core.EnvCore.step`) and the opponent's turns its
:meth:`~ccg_env.env.core.EnvCore.play_until`; games, legal ids, masks, observations, rewards and the end flags all
come from the core (:mod:`ccg_env.env.core`), and the duel only translates its Step to the learner's point of view.
The single-agent env (:mod:`ccg_env.env.gym_env`) holds one duel over its own arrays; the batched env
(:mod:`ccg_env.env.vector`) holds N duels over the rows of shared ``(N, ...)`` arrays.

Opponents (:func:`make_opponent`) choose engine choices directly: ``"random"`` samples uniformly among the
legal choices (the same distribution as ``agents.RandomAgent``, without building an observation for it);
any other name, agent object or ``f(observation, mask, view) -> id`` is called through the agent protocol
(:mod:`ccg_env.agent_api`) with its own raw observation, int8 mask and view (:meth:`EnvCore.view
<ccg_env.env.core.EnvCore.view>`: a :class:`~ccg_env.engine.view.GameView`, in a draft a
:class:`~ccg_env.engine.draft.DraftView`), except that an agent with a ``choose_from_view(view) -> Choice`` method
(one that reads only the game, such as the heuristic) is asked that directly in the battle, and one with
``draft_pick(view) -> int`` (an offer index) in the draft, with no observation or mask built for it. In draft mode
``make_opponent``'s ``draft`` spec, when given, makes the opponent's picks (:class:`DraftingOpponent`). An opponent
with a ``batched()`` method (a league, whose policy snapshots decide in batches) has its turns played together with
the other duels' in the batched env (:mod:`ccg_env.env.opponent_turns`); a lone duel asks its ``choose``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Protocol

import gymnasium
import numpy as np

from ..agent_api import Agent, make_agent
from ..engine import CardSet, Choice, ChoiceKind, Game, Rules
from .codec import ActionCodec
from .core import EnvCore, Match, Step, check_flag
from .masks import MaskWriter
from .draft_observation import DraftEncoder
from .observation import ObservationEncoder

SEATS: Final = ("random", 0, 1)
_MAX_SEED: Final = 2**63 - 1


@dataclass(frozen=True)
class DuelSetup:
    """Everything the duels of one env share: the env core, the learner's seat, spaces and options.

    Build it with :meth:`build`, which validates every option and names the one at fault.
    """

    core: EnvCore
    seat: int | None
    normalize_observations: bool
    observation_space: gymnasium.spaces.Box
    action_space: gymnasium.spaces.Discrete

    @classmethod
    def build(cls, *, seat: Any = "random", illegal_action: Any = "forfeit", illegal_reward: Any = -0.1,
              normalize_observations: Any = False, rules: Rules | str | Path | None = None, cards: Any = None,
              decks: Any = None, turn_limit: Any = None, log: Any = False, mode: Any = "duel",
              heroes: Any = None, card_features: Any = False, card_ids: Any = True) -> DuelSetup:
        """Resolve and validate the configuration (see :class:`~ccg_env.env.gym_env.CcgDuelEnv` for each option;
        ``mode="draft"`` and ``heroes``: :class:`~ccg_env.env.draft_env.CcgDraftEnv`). The settings are annotated
        Any so that a wrong type reaches the checks that name it (as in :class:`~ccg_env.env.core.EnvCore`)."""
        if seat not in SEATS or isinstance(seat, bool):
            raise ValueError(f"seat: expected 'random', 0 or 1, got {seat!r}")
        normalize_observations = check_flag(normalize_observations, "normalize_observations")
        core = EnvCore(rules, cards, decks, turn_limit, illegal_action, illegal_reward, log, mode, heroes,
                       card_features=card_features, card_ids=card_ids)
        return cls(core, None if seat == "random" else int(seat), normalize_observations,
                   _observation_space(core.observation_encoder, normalize_observations),
                   gymnasium.spaces.Discrete(core.size))

    @property
    def rules(self) -> Rules:
        return self.core.rules

    @property
    def cards(self) -> CardSet:
        return self.core.cards

    @property
    def codec(self) -> ActionCodec:
        return self.core.codec

    @property
    def encoder(self) -> ObservationEncoder | DraftEncoder:
        """The encoder of the whole observation (the battle's, or in draft mode battle and draft pieces)."""
        return self.core.observation_encoder


def _observation_space(encoder: Any, normalize: bool) -> gymnasium.spaces.Box:
    if not normalize:
        return encoder.space
    high = (encoder.high * encoder.scale).astype(np.float32)
    return gymnasium.spaces.Box(np.zeros_like(high), high, dtype=np.float32)


# --- opponents ----------------------------------------------------------------------------------


class Opponent(Protocol):
    """Picks the engine choice of the seat it plays; reseeded before each game."""

    name: str

    def choose(self, game: Game, seat: int) -> Choice: ...

    def reset(self, seed: int) -> None: ...


class RandomOpponent:
    """Uniform over the legal choices, from a generator reseeded with each game's seed."""

    name = "random"

    def __init__(self) -> None:
        self._rng = random.Random(0)

    def choose(self, game: Game, seat: int) -> Choice:
        choices = game.legal_actions()
        return choices[int(self._rng.random() * len(choices))]

    def reset(self, seed: int) -> None:
        self._rng.seed(seed)


class AgentOpponent:
    """Calls an agent-protocol object with the seat's raw observation, int8 mask and view (``EnvCore.view``).

    The observation is written by one writer kept for the opponent's lifetime into a buffer only it writes
    (so a decision rewrites just the rows that changed), and the agent gets a fresh copy it may keep or modify.
    An agent with ``choose_from_view(view) -> Choice`` gets only the view in the battle, one with
    ``draft_pick(view) -> int`` only the view in a draft; what it returns must be legal.
    """

    def __init__(self, agent: Agent, setup: DuelSetup) -> None:
        self.agent = agent
        self.name = getattr(agent, "name", type(agent).__name__)
        self._core = setup.core
        self._from_view: Any = getattr(agent, "choose_from_view", None)
        pick: Any = getattr(agent, "draft_pick", None)
        self._pick_from_view: Any = None if pick is None else (lambda view: Choice(ChoiceKind.PICK, pick(view), None))
        self._observation: np.ndarray | None = None  # made at the first decision asked through act()
        self._write_observation: Any = None

    def choose(self, game: Game, seat: int) -> Choice:
        core = self._core
        view: Any = core.view(game, seat)  # a GameView, or in a draft a DraftView
        from_view = self._pick_from_view if game.in_draft else self._from_view
        if from_view is not None:
            choice = from_view(view)
            if choice not in game.legal_actions():
                raise ValueError(f"opponent {self.name!r} chose {choice}, which is not legal now")
            return choice
        legal = core.legal(game)
        observation = self._observation
        if observation is None:
            observation = self._observation = core.observation_encoder.new_buffer()
            self._write_observation = core.observation_writer(observation, exclusive=True)
        self._write_observation(game, seat, legal.values())
        action_id = int(self.agent.act(observation.copy(), core.mask(legal), view))
        choice = legal.get(action_id)
        if choice is None:
            raise ValueError(f"opponent {self.name!r} chose action {action_id} "
                             f"({core.codec.layout.describe(action_id)}), which is not legal now")
        return choice

    def reset(self, seed: int) -> None:
        reset = getattr(self.agent, "reset", None)
        if reset is not None:
            reset(seed)


class DraftingOpponent:
    """An opponent whose draft picks another opponent makes (``opponent_draft``)."""

    def __init__(self, battle: Opponent, drafter: Opponent) -> None:
        self.battle, self.drafter = battle, drafter
        self.name = battle.name

    def choose(self, game: Game, seat: int) -> Choice:
        return (self.drafter if game.in_draft else self.battle).choose(game, seat)

    def reset(self, seed: int) -> None:
        self.battle.reset(seed)
        self.drafter.reset(seed)


def make_opponent(spec: Any, setup: DuelSetup, draft: Any = None) -> Opponent:
    """Return the opponent for ``"random"``, a registered agent name, an agent object or a callable; in draft mode
    ``draft`` (such a spec too), when given, makes its draft picks."""
    opponent = _opponent(spec, setup, "opponent")
    if draft is None or setup.core.mode != "draft":
        return opponent
    return DraftingOpponent(opponent, _opponent(draft, setup, "opponent_draft"))


def _opponent(spec: Any, setup: DuelSetup, setting: str) -> Opponent:
    if spec == "random":
        return RandomOpponent()
    if isinstance(spec, str):
        try:
            return AgentOpponent(make_agent(spec), setup)
        except (ImportError, ValueError) as error:
            raise ValueError(f"{setting}: agent {spec!r} could not be made: {error}") from error
    try:
        return AgentOpponent(make_agent(spec), setup)
    except TypeError as error:
        raise TypeError(f"{setting}: {error}") from error


# --- the duel -----------------------------------------------------------------------------------


class Duel:
    """One game between the learner and an opponent, writing the learner's view into bound arrays.

    Args:
        setup: the shared configuration.
        opponent: plays the other seat inside :meth:`step` and :meth:`reset`.
        observation: float32 array of shape ``(setup.encoder.size,)`` to write observations into: the duel's
            alone to write (others only read or copy it), so each step rewrites only what changed.
        mask: int8 array of shape ``(action count,)`` to write the action mask into.
    """

    __slots__ = ("setup", "core", "opponent", "match", "game", "seat", "game_seed", "outcome", "length",
                 "episode_return", "_write_observation", "_write_mask")

    def __init__(self, setup: DuelSetup, opponent: Opponent, observation: np.ndarray, mask: np.ndarray) -> None:
        self.setup = setup
        self.core = setup.core
        self.opponent = opponent
        self.match: Match | None = None
        self.game: Game | None = None
        self.seat = 0
        self.game_seed = 0
        self.outcome: str | None = None
        self.length = 0
        self.episode_return = 0.0
        self._write_observation = self.core.observation_writer(
            observation, normalize=setup.normalize_observations, exclusive=True)
        self._write_mask: MaskWriter = self.core.mask_writer(mask)

    def reset(self, rng: np.random.Generator, options: dict[str, Any] | None = None) -> None:
        """Start a game whose seed (and seat, if random) come from ``rng``; the opponent moves if it starts.

        ``options={"scenario": {...}}`` starts from a described board (:mod:`ccg_env.engine.scenario`),
        ``options={"seat": 0 | 1}`` fixes the learner's seat for this game and ``options={"decks": [a, b]}``
        deals this game that deck pair.
        """
        setup = self.setup
        seed = int(rng.integers(_MAX_SEED))
        seat = setup.seat if setup.seat is not None else int(rng.integers(2))
        options = options or {}
        seat = int(options.get("seat", seat))
        if seat not in (0, 1):
            raise ValueError(f"reset options: seat must be 0 or 1, got {options.get('seat')!r}")
        match = self.core.new_match(seed, decks=options.get("decks"), scenario=options.get("scenario"))
        self.match, self.game, self.seat, self.game_seed = match, match.game, seat, seed
        self.outcome, self.length, self.episode_return = None, 0, 0.0
        self.opponent.reset(seed)
        self._settle(self.core.play_until(match, seat, self.opponent.choose))

    def step(self, action: int) -> tuple[float, bool, bool]:
        """Play the learner's action id (in the action space: see ``EnvCore.action_id``), then the opponent's
        turn if the learner ended its turn (a masked-out id: see :mod:`ccg_env.env.core`).

        Returns:
            ``(reward, terminated, truncated)`` from the learner's point of view.
        """
        step = self.play_learner(action)
        if step.current == 1 - self.seat:
            match = self.match
            assert match is not None
            step = self.core.play_until(match, self.seat, self.opponent.choose)
        return self._settle(step)

    def play_learner(self, action: int) -> Step:
        """The first half of :meth:`step`: play the learner's action id and return the core's :class:`Step`. The
        opponent then plays while :meth:`opponent_to_move`, and :meth:`settle` ends the step (how a batch of duels
        plays their opponents' turns together)."""
        match = self.match
        if self.outcome is not None or match is None:
            raise RuntimeError("Duel.step: the episode is over (or never started); call reset() first")
        step = self.core.step(match, action, "learner")
        self.length += 1
        return step

    def opponent_to_move(self) -> bool:
        """Whether the game goes on with the opponent's seat to move."""
        match = self.match
        assert match is not None
        return match.current == 1 - self.seat

    def settle(self, step: Step) -> tuple[float, bool, bool]:
        """The second half of :meth:`step`, once the opponent has moved: write the learner's observation and
        mask; return the reward and end flags (an illegal ``step``'s own, else the position's)."""
        if not step.illegal:
            match = self.match
            assert match is not None
            step = self.core.position(match)
        return self._settle(step)

    def _settle(self, step: Step) -> tuple[float, bool, bool]:
        """Translate the core's step for the learner: write its observation and mask; return reward and flags."""
        game, match = self.game, self.match
        assert game is not None and match is not None
        reward = step.rewards[self.seat]
        if step.result is None:
            legal = self.core.legal_ids(match)
            self._write_observation(game, self.seat, legal.values())
            self._write_mask.write(legal)
            if reward:
                self.episode_return += reward
            return reward, False, False
        self.outcome = step.outcome(self.seat)
        self._write_observation(game, self.seat, None)
        self._write_mask.write(())
        self.episode_return += reward
        return reward, step.terminated, step.truncated

    def render_names(self) -> tuple[str, str]:
        """Seat display names: ``("learner", "opponent")`` in seat order."""
        return ("learner", "opponent") if self.seat == 0 else ("opponent", "learner")
