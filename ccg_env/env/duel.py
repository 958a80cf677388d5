"""One learner-versus-opponent game seen from the learner's seat: the core shared by the Gymnasium envs.

A :class:`Duel` owns one engine game, the learner's seat and an opponent. ``step(action_id)`` applies the
learner's action, then lets the opponent play until the learner is on turn again or the game is over, and
writes the learner's observation and action mask into arrays the caller owns (bound once at construction).
The single-agent env (:mod:`ccg_env.env.gym_env`) holds one duel over its own arrays; the batched env
(:mod:`ccg_env.env.vector`) holds N duels over the rows of shared ``(N, ...)`` arrays.

Opponents (:func:`make_opponent`) choose engine choices directly: ``"random"`` samples uniformly among the
legal choices (the same distribution as ``agents.RandomAgent``, without building an observation for it);
any other name, agent object or ``f(observation, mask, view) -> id`` is called through the agent protocol
(:mod:`ccg_env.agent_api`) with its own raw observation, int8 mask and a :class:`~ccg_env.env.view.GameView`,
except that an agent with a ``choose_from_view(view) -> Choice`` method (one that reads only the game, such as
the heuristic) is asked that directly, with no observation or mask built for it.
"""

from __future__ import annotations

import random
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Protocol, Sequence

import gymnasium
import numpy as np

from ..agent_api import Agent, make_agent
from ..engine import CardSet, Choice, ChoiceKind, Deck, Game, Result, Rules
from ..engine.state import TRUNCATING_RESULTS
from .aec import resolve_cards, resolve_decks, resolve_rules
from .codec import ActionCodec, ActionLayout
from .observation import ObservationEncoder
from .view import GameView

SEATS: Final = ("random", 0, 1)
ILLEGAL_ACTION_MODES: Final = ("lose", "ignore")
#: Learner outcome of a finished episode -> reward.
OUTCOME_REWARDS: Final = {"win": 1.0, "loss": -1.0, "draw": 0.0, "turn_limit": 0.0, "loop": 0.0,
                          "illegal_action": -1.0}
_MAX_SEED: Final = 2**63 - 1


@dataclass(frozen=True)
class DuelSetup:
    """Everything the duels of one env share: rules, cards, decks, codec, encoder, spaces and options.

    Build it with :meth:`build`, which validates every option and names the one at fault.
    """

    rules: Rules
    cards: CardSet
    decks: Sequence[Deck]
    random_decks: bool
    codec: ActionCodec
    encoder: ObservationEncoder
    seat: int | None
    illegal_action: str
    illegal_reward: float
    normalize_observations: bool
    log: bool
    observation_space: gymnasium.spaces.Box
    action_space: gymnasium.spaces.Discrete

    @classmethod
    def build(cls, *, seat: str | int = "random", illegal_action: str = "lose", illegal_reward: float = -0.1,
              normalize_observations: bool = False, rules: Rules | str | Path | None = None, cards: Any = None,
              decks: Any = None, turn_limit: int | None = None, log: bool = False) -> DuelSetup:
        """Resolve and validate the configuration (see :class:`~ccg_env.env.gym_env.CcgDuelEnv` for each option)."""
        if seat not in SEATS or isinstance(seat, bool):
            raise ValueError(f"seat: expected 'random', 0 or 1, got {seat!r}")
        if illegal_action not in ILLEGAL_ACTION_MODES:
            raise ValueError(f"illegal_action: expected one of {ILLEGAL_ACTION_MODES}, got {illegal_action!r}")
        rules = resolve_rules(rules, turn_limit)
        cards = resolve_cards(cards)
        encoder = ObservationEncoder(rules, cards)
        codec = ActionCodec(ActionLayout.for_rules(rules))
        return cls(rules, cards, resolve_decks(decks, cards, rules), decks == "random", codec, encoder,
                   None if seat == "random" else int(seat), illegal_action, float(illegal_reward),
                   bool(normalize_observations), bool(log), _observation_space(encoder, normalize_observations),
                   gymnasium.spaces.Discrete(codec.layout.size))

    def decks_for(self, seed: int) -> Sequence[Deck]:
        """The two decks of the game with this seed (drawn from the packaged pool when decks are random)."""
        if not self.random_decks:
            return self.decks
        picker = random.Random(f"decks-{seed}")
        return [picker.choice(self.decks), picker.choice(self.decks)]


def _observation_space(encoder: ObservationEncoder, normalize: bool) -> gymnasium.spaces.Box:
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


class PlaceholderHeuristic:
    """A stand-in used only when the registry cannot load ``"heuristic"``: play cards, hit face, end turn.

    Plays the first card that targets nothing or an enemy, then attacks (the enemy hero when it may), then
    ends the turn. It is not the project's heuristic agent (``agents/heuristic.py``).
    """

    name = "placeholder_heuristic"

    def choose(self, game: Game, seat: int) -> Choice:
        choices = game.legal_actions()
        enemy = game.state.players[1 - seat]
        enemy_uids = {enemy.hero.uid, *(card.uid for card in enemy.battlefield)}
        plays = [c for c in choices if c.kind is ChoiceKind.PLAY and (c.target is None or c.target in enemy_uids)]
        attacks = [c for c in choices if c.kind is ChoiceKind.ATTACK]
        face = [c for c in attacks if c.target == enemy.hero.uid]
        return (plays or face or attacks or choices)[0]

    def reset(self, seed: int) -> None:
        """Deterministic: nothing to reseed."""


class AgentOpponent:
    """Calls an agent-protocol object with the seat's raw observation, int8 mask and game view.

    The observation is written by one writer kept for the opponent's lifetime into a buffer only it writes
    (so a decision rewrites just the rows that changed), and the agent gets a fresh copy it may keep or modify.
    An agent with ``choose_from_view(view) -> Choice`` gets only the view; the choice it returns must be legal.
    """

    def __init__(self, agent: Agent, setup: DuelSetup) -> None:
        self.agent = agent
        self.name = getattr(agent, "name", type(agent).__name__)
        self._setup = setup
        self._choose_from_view = getattr(agent, "choose_from_view", None)
        if self._choose_from_view is None:  # only agents asked through act() need an observation
            self._observation = setup.encoder.new_buffer()
            self._write_observation = setup.encoder.writer(self._observation, exclusive=True)

    def choose(self, game: Game, seat: int) -> Choice:
        setup = self._setup
        if self._choose_from_view is not None:
            choice = self._choose_from_view(GameView(game, seat, setup.codec))
            if choice not in game.legal_actions():
                raise ValueError(f"opponent {self.name!r} chose {choice}, which is not legal now")
            return choice
        choices = game.legal_actions()
        self._write_observation(game, seat, choices)
        observation = self._observation.copy()
        ids = setup.codec.encode_all(game, choices)
        mask: np.ndarray = np.zeros(setup.codec.layout.size, dtype=np.int8)
        mask[ids] = 1
        action_id = int(self.agent.act(observation, mask, GameView(game, seat, setup.codec)))
        for candidate, choice in zip(ids, choices):
            if candidate == action_id:
                return choice
        raise ValueError(f"opponent {self.name!r} chose action {action_id} "
                         f"({setup.codec.layout.describe(action_id)}), which is not legal now")

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
            if spec != "heuristic":
                raise ValueError(f"opponent: agent {spec!r} could not be made: {error}") from error
            warnings.warn(f"opponent 'heuristic' could not be loaded ({error}); using PlaceholderHeuristic",
                          stacklevel=3)
            return PlaceholderHeuristic()
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

    __slots__ = ("setup", "opponent", "game", "seat", "game_seed", "legal", "outcome", "length",
                 "episode_return", "_write_observation", "_mask_bytes", "_zero_mask")

    def __init__(self, setup: DuelSetup, opponent: Opponent, observation: np.ndarray, mask: np.ndarray) -> None:
        self.setup = setup
        self.opponent = opponent
        self.game: Game | None = None
        self.seat = 0
        self.game_seed = 0
        self.legal: dict[int, Choice] = {}
        self.outcome: str | None = None
        self.length = 0
        self.episode_return = 0.0
        self._write_observation = setup.encoder.writer(observation, normalize=setup.normalize_observations,
                                                       exclusive=True)
        self._mask_bytes = memoryview(mask).cast("B")  # type: ignore[arg-type]  # numpy arrays are buffers
        self._zero_mask = bytes(mask.nbytes)

    def reset(self, rng: np.random.Generator, options: dict[str, Any] | None = None) -> None:
        """Start a game whose seed (and seat, if random) come from ``rng``; the opponent moves if it starts.

        ``options={"scenario": {...}}`` starts from a described board (:mod:`ccg_env.engine.scenario`) and
        ``options={"seat": 0 | 1}`` fixes the learner's seat for this game.
        """
        setup = self.setup
        seed = int(rng.integers(_MAX_SEED))
        seat = setup.seat if setup.seat is not None else int(rng.integers(2))
        options = options or {}
        seat = int(options.get("seat", seat))
        if seat not in (0, 1):
            raise ValueError(f"reset options: seat must be 0 or 1, got {options.get('seat')!r}")
        scenario = options.get("scenario")
        if scenario is not None:
            game = Game.from_scenario(scenario, seed, rules=setup.rules, cards=setup.cards, log=setup.log)
        else:
            game = Game.new(seed, decks=setup.decks_for(seed), rules=setup.rules, cards=setup.cards, log=setup.log)
        self.game, self.seat, self.game_seed = game, seat, seed
        self.outcome, self.length, self.episode_return = None, 0, 0.0
        self.opponent.reset(seed)
        self._play_opponent(game)
        self._settle(game)

    def step(self, action: int) -> tuple[float, bool, bool]:
        """Play the learner's action id, then the opponent's turn if the learner ended its turn.

        Returns:
            ``(reward, terminated, truncated)`` from the learner's point of view.
        """
        game = self.game
        if self.outcome is not None or game is None:
            raise RuntimeError("Duel.step: the episode is over (or never started); call reset() first")
        choice = self.legal.get(action)
        self.length += 1
        if choice is None:
            return self._illegal(game)
        game.apply(choice)
        self._play_opponent(game)
        return self._settle(game)

    def _play_opponent(self, game: Game) -> None:
        seat, opponent = self.seat, self.opponent
        state = game.state
        while state.result is None and state.current != seat:
            game.apply(opponent.choose(game, 1 - seat))

    def _settle(self, game: Game) -> tuple[float, bool, bool]:
        """Write the learner's observation and mask; return the reward and end flags of the position."""
        state = game.state
        if state.result is None:
            choices = game.legal_actions()
            self.legal = dict(zip(self.setup.codec.encode_all(game, choices), choices))
            self._write(game, choices)
            return 0.0, False, False
        if state.result is Result.WIN:
            outcome = "win" if state.winner == self.seat else "loss"
        else:
            outcome = state.result.value  # "draw", "turn_limit" or "loop"
        return self._finish(game, outcome, state.result in TRUNCATING_RESULTS)

    def _illegal(self, game: Game) -> tuple[float, bool, bool]:
        if self.setup.illegal_action == "ignore":
            self.episode_return += self.setup.illegal_reward
            return self.setup.illegal_reward, False, False
        return self._finish(game, "illegal_action", False)

    def _finish(self, game: Game, outcome: str, truncated: bool) -> tuple[float, bool, bool]:
        self.outcome = outcome
        self.legal = {}
        self._write(game)
        reward = OUTCOME_REWARDS[outcome]
        self.episode_return += reward
        return reward, not truncated, truncated

    def _write(self, game: Game, legal: list[Choice] | None = None) -> None:
        """Encode the learner's observation and write ones at the legal ids (all zeros once finished)."""
        self._write_observation(game, self.seat, legal)
        mask_bytes = self._mask_bytes
        mask_bytes[:] = self._zero_mask
        for action_id in self.legal:
            mask_bytes[action_id] = 1

    def render_names(self) -> tuple[str, str]:
        """Seat display names: ``("learner", "opponent")`` in seat order."""
        return ("learner", "opponent") if self.seat == 0 else ("opponent", "learner")
