"""One game between two agents, played on the engine directly (observation, mask and view per decision)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

import numpy as np

from ccg_env.engine import Deck, Game, IllegalActionError, Rules, default_cards
from ccg_env.engine.decks import default_deck_paths
from ccg_env.engine.game import DEFAULT_DECKS
from ccg_env.env.codec import ActionCodec, ActionLayout
from ccg_env.env.observation import ObservationEncoder
from ccg_env.env.view import GameView

if TYPE_CHECKING:
    from ccg_env.agent_api import Agent
    from ccg_env.engine import CardSet, Choice

#: A game that takes more decisions than this is a bug in an agent or the engine, not a long game.
MAX_DECISIONS = 20_000


@dataclass(frozen=True)
class GameRecord:
    """The outcome of one game: seats, seed, winner seat (None for a draw or the turn limit), length and decks.

    ``deck0`` and ``deck1`` name the decks dealt to seat 0 and seat 1: a packaged deck's name (``"aggro"``), a
    deck file's stem, or a ``Deck`` object's ``name``.
    """

    seat0: str
    seat1: str
    seed: int
    winner: int | None
    result: str
    turns: int
    decisions: int
    deck0: str = ""
    deck1: str = ""

    @property
    def winner_name(self) -> str | None:
        return None if self.winner is None else (self.seat0, self.seat1)[self.winner]

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


class MatchRunner:
    """Plays games with one rules/card set, reusing its encoder, codec and buffers between games."""

    def __init__(self, rules: Rules | None = None, cards: CardSet | None = None,
                 decks: Sequence[Any] | None = None) -> None:
        self.rules = rules or Rules.load()
        self.cards = cards if cards is not None else default_cards()
        self.decks = decks
        self.encoder = ObservationEncoder(self.rules, self.cards)
        self.codec = ActionCodec(ActionLayout.for_rules(self.rules))
        self._observation = self.encoder.new_buffer()
        self._mask = np.zeros(self.codec.layout.size, dtype=np.int8)

    def new_game(self, seed: int, *, log: bool = False, decks: Sequence[Any] | None = None) -> Game:
        """A new game; ``decks`` (one per seat) replaces the runner's decks for this game."""
        return Game.new(seed, decks=self.decks if decks is None else decks, rules=self.rules, cards=self.cards,
                        log=log)

    def play(self, agents: Sequence[Agent], seed: int, *, game: Game | None = None,
             decks: Sequence[Any] | None = None) -> GameRecord:
        """Play one game, ``agents[i]`` in seat ``i``; each agent is reset with a seed derived from ``seed``.

        ``decks`` (one per seat: packaged names, ``Deck`` objects or paths) replaces the runner's decks for this
        game; the record names the decks played (those of ``game`` when it is given: pass its decks too).

        Raises:
            IllegalActionError: an agent picked an action outside its mask (named in the message).
        """
        decks = self.decks if decks is None else decks
        game = game if game is not None else self.new_game(seed, decks=decks)
        for seat, agent in enumerate(agents):
            agent.reset(seed=seed * 2 + seat)
        decisions = 0
        while not game.is_over:
            if decisions >= MAX_DECISIONS:
                raise RuntimeError(f"game seed {seed} exceeded {MAX_DECISIONS} decisions; an agent never ends turns")
            self.step(game, agents[game.current_player], seed)
            decisions += 1
        result = game.result.value if game.result is not None else "unfinished"
        deck0, deck1 = (deck_label(spec) for spec in (DEFAULT_DECKS if decks is None else decks))
        return GameRecord(_name(agents[0]), _name(agents[1]), seed, game.winner, result, game.turn, decisions,
                          deck0, deck1)

    def step(self, game: Game, agent: Agent, seed: int = -1) -> Choice:
        """Ask ``agent`` (the player on turn) for one action, check it against the mask, apply and return it."""
        player = game.current_player
        legal = game.legal_actions()
        ids = self.codec.encode_all(game, legal)
        self.encoder.encode(game, player, self._observation, legal)
        self._mask.fill(0)
        self._mask[ids] = 1
        action = int(agent.act(self._observation, self._mask, GameView(game, player, self.codec)))
        if not 0 <= action < self._mask.size or not self._mask[action]:
            raise IllegalActionError(
                f"agent {_name(agent)!r} (player {player}, game seed {seed}, turn {game.turn}) chose action "
                f"{action} ({self.codec.layout.describe(action)}), which its action mask forbids; legal ids: "
                f"{sorted(ids)}")
        choice = legal[ids.index(action)]
        game.apply(choice)
        return choice


def deck_label(spec: Deck | str | Path) -> str:
    """The name a game record gives a deck: a packaged name as given, a file's stem, a ``Deck``'s name."""
    if isinstance(spec, Deck):
        return spec.name
    if isinstance(spec, str) and spec in default_deck_paths():
        return spec
    return Path(spec).stem


def _name(agent: Any) -> str:
    return str(getattr(agent, "name", type(agent).__name__))
