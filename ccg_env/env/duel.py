"""One learner-versus-opponent game seen from the learner's seat: the env core's adapter for the Gymnasium envs.

A :class:`Duel` owns one engine game, the learner's seat and an opponent. ``step(action_id)`` applies the
learner's action, then lets the opponent play until the learner is on turn again or the game is over, and
writes the learner's observation and action mask into arrays the caller owns (bound once at construction).
Games, legal ids, masks, observations, rewards and the end flags all come from the env core
(:mod:`ccg_env.env.core`); the duel only adds the opponent's turns and the learner's point of view.
The single-agent env (:mod:`ccg_env.env.gym_env`) holds one duel over its own arrays; the batched env
(:mod:`ccg_env.env.vector`) holds N duels over the rows of shared ``(N, ...)`` arrays.

Opponents (:func:`make_opponent`) choose engine choices directly: ``"random"`` samples uniformly among the
legal choices (the same distribution as ``agents.RandomAgent``, without building an observation for it);
any other name, agent object or ``f(observation, mask, view) -> id`` is called through the agent protocol
(:mod:`ccg_env.agent_api`) with its own raw observation, int8 mask and a :class:`~ccg_env.engine.view.GameView`,
except that an agent with a ``choose_from_view(view) -> Choice`` method (one that reads only the game, such as
the heuristic) is asked that directly, with no observation or mask built for it. An opponent with a ``batched()``
method (a league, whose policy snapshots decide in batches) has its turns played together with the other duels' in
the batched env (:mod:`ccg_env.env.opponent_turns`); a lone duel asks its ``choose``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Iterable, Protocol

import gymnasium
import numpy as np

from ..agent_api import Agent, make_agent
from ..engine import CardSet, Choice, Game, Rules
from .codec import ActionCodec
from .core import EnvCore, check_flag, is_truncation, outcome_for, seat_rewards
from .masks import MaskWriter
from .draft_observation import DraftEncoder
from .observation import ObservationEncoder
from ..engine.view import GameView

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
              heroes: Any = None) -> DuelSetup:
        """Resolve and validate the configuration (see :class:`~ccg_env.env.gym_env.CcgDuelEnv` for each option;
        ``mode="draft"`` and ``heroes``: :class:`~ccg_env.env.draft_env.CcgDraftEnv`). The settings are annotated
        Any so that a wrong type reaches the checks that name it (as in :class:`~ccg_env.env.core.EnvCore`)."""
        if seat not in SEATS or isinstance(seat, bool):
            raise ValueError(f"seat: expected 'random', 0 or 1, got {seat!r}")
        normalize_observations = check_flag(normalize_observations, "normalize_observations")
        core = EnvCore(rules, cards, decks, turn_limit, illegal_action, illegal_reward, log, mode, heroes)
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
    """Calls an agent-protocol object with the seat's raw observation, int8 mask and game view.

    The observation is written by one writer kept for the opponent's lifetime into a buffer only it writes
    (so a decision rewrites just the rows that changed), and the agent gets a fresh copy it may keep or modify.
    An agent with ``choose_from_view(view) -> Choice`` gets only the view; the choice it returns must be legal.
    In draft mode the buffer is the whole draft-mode observation: the battle part is written per decision and the
    draft pieces once per battle (:meth:`show_draft`).
    """

    def __init__(self, agent: Agent, setup: DuelSetup) -> None:
        self.agent = agent
        self.name = getattr(agent, "name", type(agent).__name__)
        self._core = setup.core
        self._choose_from_view = getattr(agent, "choose_from_view", None)
        if self._choose_from_view is None:  # only agents asked through act() need an observation
            self._observation = self._core.observation_encoder.new_buffer()
            self._write_observation = self._core.observation_writer(
                self._observation[:self._core.encoder.size], exclusive=True)

    def show_draft(self, draft: Any, seat: int) -> None:
        """Draft mode: write the draft pieces of ``seat`` (its drafted deck) into the observation's draft part."""
        encoder = self._core.draft_encoder
        if encoder is not None and self._choose_from_view is None:
            encoder.write_draft(draft, seat, self._observation)

    def choose(self, game: Game, seat: int) -> Choice:
        core = self._core
        if self._choose_from_view is not None:
            choice = self._choose_from_view(GameView(game, seat, core.codec))
            if choice not in game.legal_actions():
                raise ValueError(f"opponent {self.name!r} chose {choice}, which is not legal now")
            return choice
        legal = core.legal(game)
        self._write_observation(game, seat, legal.values())
        action_id = int(self.agent.act(self._observation.copy(), core.mask(legal), GameView(game, seat, core.codec)))
        choice = legal.get(action_id)
        if choice is None:
            raise ValueError(f"opponent {self.name!r} chose action {action_id} "
                             f"({core.codec.layout.describe(action_id)}), which is not legal now")
        return choice

    def reset(self, seed: int) -> None:
        reset = getattr(self.agent, "reset", None)
        if reset is not None:
            reset(seed)


def make_opponent(spec: Any, setup: DuelSetup) -> Opponent:
    """Return the opponent for ``"random"``, a registered agent name, an agent object or a callable."""
    if spec == "random":
        return RandomOpponent()
    if isinstance(spec, str):
        try:
            return AgentOpponent(make_agent(spec), setup)
        except (ImportError, ValueError) as error:
            raise ValueError(f"opponent: agent {spec!r} could not be made: {error}") from error
    try:
        return AgentOpponent(make_agent(spec), setup)
    except TypeError as error:
        raise TypeError(f"opponent: {error}") from error


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

    __slots__ = ("setup", "core", "opponent", "game", "seat", "game_seed", "legal", "outcome", "length",
                 "episode_return", "_write_observation", "_write_mask")

    def __init__(self, setup: DuelSetup, opponent: Opponent, observation: np.ndarray, mask: np.ndarray) -> None:
        self.setup = setup
        self.core = setup.core
        self.opponent = opponent
        self.game: Game | None = None
        self.seat = 0
        self.game_seed = 0
        self.legal: dict[int, Choice] = {}
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
        game = self.core.new_game(seed, decks=options.get("decks"), scenario=options.get("scenario"))
        self.game, self.seat, self.game_seed = game, seat, seed
        self.outcome, self.length, self.episode_return = None, 0, 0.0
        self.opponent.reset(seed)
        self._play_opponent(game)
        self._settle(game)

    def step(self, action: int) -> tuple[float, bool, bool]:
        """Play the learner's action id (in the action space: see ``EnvCore.action_id``), then the opponent's
        turn if the learner ended its turn.

        Returns:
            ``(reward, terminated, truncated)`` from the learner's point of view.

        Raises:
            ValueError: a masked-out id with ``illegal_action="raise"`` (nothing changes).
        """
        settled = self.play_learner(action)
        if settled is not None:
            return settled
        game = self.game
        assert game is not None
        self._play_opponent(game)
        return self._settle(game)

    def play_learner(self, action: int) -> tuple[float, bool, bool] | None:
        """The first half of :meth:`step`: play the learner's action id. Returns the step's result when that
        settles it (a masked-out id), else None: then the opponent plays while :meth:`opponent_to_move`, and
        :meth:`settle` ends the step (how a batch of duels plays their opponents' turns together)."""
        game = self.game
        if self.outcome is not None or game is None:
            raise RuntimeError("Duel.step: the episode is over (or never started); call reset() first")
        choice = self.legal.get(action)
        if choice is None:
            return self._illegal(game, action)
        self.length += 1
        game.apply(choice)
        return None

    def opponent_to_move(self) -> bool:
        """Whether the game goes on with the opponent's seat to move."""
        game = self.game
        assert game is not None
        state = game.state
        return state.result is None and state.current != self.seat

    def settle(self) -> tuple[float, bool, bool]:
        """The second half of :meth:`step`, once the opponent has moved: write the learner's observation and
        mask; return the reward and end flags."""
        game = self.game
        assert game is not None
        return self._settle(game)

    def _play_opponent(self, game: Game) -> None:
        opponent, seat = self.opponent, 1 - self.seat
        while self.opponent_to_move():
            game.apply(opponent.choose(game, seat))

    def _settle(self, game: Game) -> tuple[float, bool, bool]:
        """Write the learner's observation and mask; return the reward and end flags of the position."""
        state = game.state
        if state.result is None:
            legal = self.legal = self.core.legal(game)
            self._write(game, legal.values())
            return 0.0, False, False
        return self._finish(game, None)

    def _illegal(self, game: Game, action: int) -> tuple[float, bool, bool]:
        core = self.core
        mode = core.illegal_action
        if mode == "raise":
            raise ValueError(core.refusal("learner", game, action))
        self.length += 1
        if mode == "ignore":
            self.episode_return += core.illegal_reward
            return core.illegal_reward, False, False
        return self._finish(game, self.seat)

    def _finish(self, game: Game, forfeit: int | None) -> tuple[float, bool, bool]:
        self.outcome = outcome_for(game, self.seat, forfeit)
        self.legal = {}
        self._write(game)
        reward = seat_rewards(game, forfeit)[self.seat]
        self.episode_return += reward
        truncated = forfeit is None and is_truncation(game.state.result)
        return reward, not truncated, truncated

    def _write(self, game: Game, legal: Iterable[Choice] | None = None) -> None:
        """Encode the learner's observation and write ones at the legal ids (all zeros once finished)."""
        self._write_observation(game, self.seat, legal)
        self._write_mask.write(self.legal)

    def clear_observation(self) -> None:
        """Zero the learner's observation (the part the duel writes) and forget what it showed."""
        self._write_observation.clear()

    def render_names(self) -> tuple[str, str]:
        """Seat display names: ``("learner", "opponent")`` in seat order."""
        return ("learner", "opponent") if self.seat == 0 else ("opponent", "learner")
