"""One game between two agents, played over the env core (its games, legal ids, observation and mask per decision)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

import numpy as np

from ccg_env.engine import Choice, Deck, Game, IllegalActionError, Rules
from ccg_env.engine.decks import default_deck_paths
from ccg_env.engine.game_setup import DEFAULT_DECKS
from ccg_env.engine.draft import Draft
from ccg_env.env.core import EnvCore, Match

if TYPE_CHECKING:
    from ccg_env.agent_api import Agent
    from ccg_env.engine import CardSet

#: A game that takes more decisions than this is a bug in an agent or the engine, not a long game.
MAX_DECISIONS = 20_000


@dataclass(frozen=True)
class GameRecord:
    """The outcome of one game: seats, seed, winner seat (None for a draw or the turn limit), length and decks.

    ``decisions`` counts every choice the agents made, the picks of a draft included.

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
    """Plays games with one rules/card set over one env core, reusing its encoder, codec and buffers.

    Args:
        rules, cards: as the envs' options (None: the packaged ones).
        decks: the deck pair of every game (None: the defaults), or ``"random"`` (drawn with each game's seed);
            :meth:`play` and :meth:`new_game` also take a pair for one game.
        mode: ``"draft"``: each game (without a given game or decks) starts with a draft of both decks from the
            game's seed (``Game.new_draft``), each agent picking its seat's cards as it makes any other decision (a
            ``DraftView`` for the view), and agents get the draft mode's observation in both phases.
        card_features, card_ids: the observation's layout options, as the envs' (a learned agent's model must have
            been trained with the same).
    """

    def __init__(self, rules: Rules | None = None, cards: CardSet | None = None,
                 decks: Sequence[Any] | str | None = None, mode: str = "duel", card_features: bool = False,
                 card_ids: bool = True) -> None:
        self.core = EnvCore(rules, cards, decks, illegal_action="raise", mode=mode, card_features=card_features,
                            card_ids=card_ids)
        self.rules, self.cards, self.decks = self.core.rules, self.core.cards, decks
        self.encoder, self.codec = self.core.encoder, self.core.codec
        self.draft: Draft | None = None  # draft mode: the draft of the game being played
        self._observation = self.core.observation_encoder.new_buffer()
        self._write_observation = self.core.observation_writer(self._observation)
        self._mask = np.zeros(self.core.size, dtype=np.int8)
        self._write_mask = self.core.mask_writer(self._mask)

    def new_game(self, seed: int, *, log: bool = False, decks: Sequence[Any] | None = None) -> Game:
        """A game with this seed (and ``decks``, a pair of deck specs, if given; else the runner's decks)."""
        return self.core.new_game(seed, decks=decks, log=log)

    def play(self, agents: Sequence[Agent], seed: int, *, game: Game | None = None,
             decks: Sequence[Any] | None = None, choices: list[Choice] | None = None) -> GameRecord:
        """Play one game, ``agents[i]`` in seat ``i``; each agent is reset with a seed derived from ``seed``.

        ``decks`` (one per seat: packaged names, ``Deck`` objects or paths) replaces the runner's decks for this
        game; the record names the decks played (those of ``game`` when it is given: pass its decks too).
        ``choices``, when given, gets every applied choice appended in order (what a replay file holds).

        Raises:
            IllegalActionError: an agent picked an action outside its mask (named in the message).
        """
        for seat, agent in enumerate(agents):
            agent.reset(seed=seed * 2 + seat)
        match = Match(game, seed) if game is not None else self.core.new_match(seed, decks=decks)
        self.draft = match.game.draft
        decisions = 0

        def choose(game: Game, player: int) -> Choice:
            nonlocal decisions
            if decisions >= MAX_DECISIONS:
                raise RuntimeError(f"game seed {seed} exceeded {MAX_DECISIONS} decisions; an agent never ends turns")
            choice = self.decide(game, agents[player], seed)
            decisions += 1
            if choices is not None:
                choices.append(choice)
            return choice

        self.core.play_until(match, -1, choose)  # the env's one play loop, to the end
        game = match.game
        result = game.result.value if game.result is not None else "unfinished"
        if self.draft is not None:  # decks named by the hero class they were drafted for
            deck0, deck1 = (f"{side.hero.value}-draft" for side in self.draft.sides)
            return GameRecord(_name(agents[0]), _name(agents[1]), seed, game.winner, result, game.turn, decisions,
                              deck0, deck1)
        dealt = decks if decks is not None else self.decks
        if dealt is None or isinstance(dealt, str):  # the packaged pair, or "random": the pair the core dealt
            dealt = DEFAULT_DECKS if dealt is None else self.core.decks_for(seed)
        deck0, deck1 = (deck_label(spec) for spec in dealt)
        return GameRecord(_name(agents[0]), _name(agents[1]), seed, game.winner, result, game.turn, decisions,
                          deck0, deck1)

    def draft_game(self, agents: Sequence[Agent], seed: int) -> Game:
        """Draft mode: both agents draft (seat ``i`` by ``agents[i]``) from the seed; return the game, its battle
        just dealt.

        Raises:
            IllegalActionError: an agent picked a card that is not offered (named in the message).
        """
        game = self.core.new_game(seed)
        self.draft = game.draft
        while game.in_draft:
            self.step(game, agents[game.current_player], seed)
        return game

    def step(self, game: Game, agent: Agent, seed: int = -1) -> Choice:
        """Ask ``agent`` (the player on turn) for one action, check it against the mask, apply and return it."""
        choice = self.decide(game, agent, seed)
        game.apply(choice)
        return choice

    def decide(self, game: Game, agent: Agent, seed: int = -1) -> Choice:
        """Ask ``agent`` (the player on turn) for one action and return its choice, checked against the mask.

        Raises:
            IllegalActionError: the agent picked an action outside its mask (named in the message).
        """
        player = game.current_player
        legal = self.core.legal(game)
        self._write_observation(game, player, legal.values())
        self._write_mask(legal)
        action = int(agent.act(self._observation, self._mask, self.core.view(game, player)))
        choice = legal.get(action)
        if choice is None:
            raise IllegalActionError(
                f"agent {_name(agent)!r} (player {player}, game seed {seed}, turn {game.turn}) chose action "
                f"{action} ({self.codec.layout.describe(action)}), which its action mask forbids; legal ids: "
                f"{sorted(legal)}")
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
