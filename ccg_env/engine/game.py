"""The Game facade: new games and scenarios, legal actions, apply, clone, JSON, log and result."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Final, Sequence, SupportsIndex, cast

from .action_system import ActionSystem
from .actions import Attack, ChangeTurn, GameAction, Mulligan, MulliganMark, PlayCard, StartGame, UseHeroPower
from .cards import CardSet, default_cards
from .choices import Choice, ChoiceKind, Move, as_choice, legal_moves, why_illegal
from .decks import Deck, default_deck_paths
from .draft import Draft
from .errors import EngineBusyError, GameOverError, IllegalActionError, StateError
from .events import EventBus, all_subclasses
from .game_setup import resolve_deck_pair, resolve_rules
from .heroes import HeroSet, check_hero_cards, default_heroes
from .factory import new_deck, new_player
from .log import LogEntry
from .rng import Rng
from .rules import Rules
from .state import LIVE_ZONE_ATTRS, Card, GamePhase, GameState, Player, Result
from .systems import build_bus
from .vocabulary import Zones

_DEFAULT_BUS: EventBus | None = None


def _fresh_bus() -> EventBus:
    global _DEFAULT_BUS
    if _DEFAULT_BUS is None:
        _DEFAULT_BUS = build_bus()
        for action_class in all_subclasses(GameAction):  # plans are copied with the bus: build them once here
            _DEFAULT_BUS.plan(action_class)
    return _DEFAULT_BUS.copy()  # every game owns its bus; the template is never handed out


_PLAY: Final = ChoiceKind.PLAY
_ATTACK: Final = ChoiceKind.ATTACK
_HERO_POWER: Final = ChoiceKind.HERO_POWER
_END_TURN: Final = ChoiceKind.END_TURN
_MULLIGAN: Final = ChoiceKind.MULLIGAN
_BATTLE: Final = GamePhase.BATTLE
_DRAFT: Final = GamePhase.DRAFT


class Game:
    """One game: its state, its own event bus and action system, the card set it plays with, and its draft if it
    started with one (:meth:`new_draft`)."""

    __slots__ = ("state", "bus", "actions", "cards", "moves", "draft", "battle_seed")

    def __init__(self, state: GameState, cards: CardSet, bus: EventBus | None = None) -> None:
        self.state = state
        self.cards = cards
        self.bus = bus if bus is not None else _fresh_bus()
        self.actions = ActionSystem(self.bus)
        #: the legal moves of the current state, as listed by legal_actions() (None until listed; every
        #: performed action clears it), so that apply() finds a listed choice's cards without re-validating
        self.moves: dict[Choice, Move] | None = None
        #: the draft the decks came from (finished once the battle is dealt), or None for a game of given decks
        self.draft: Draft | None = None
        #: the seed the battle is dealt with when the draft ends
        self.battle_seed = 0

    # --- creation ------------------------------------------------------------------------------

    @classmethod
    def new(cls, seed: object = 0, *, decks: Sequence[Deck | str | Path] | None = None, rules: object = None,
            cards: object = None, heroes: object = None, log: object = True) -> Game:
        """Start a game: shuffle both decks with the seeded generator, deal opening hands, then begin the mulligan
        (``rules.mulligan``, the default: the first player decides, then the second) or turn 1.

        Args:
            seed: an integer that seeds the game's only random generator; same seed and choices, same game.
            decks: two decks (Deck objects, packaged deck names or YAML paths); defaults to
                ``game_setup.DEFAULT_DECKS``.
            rules: a ``Rules``, or the path of a rules YAML file; defaults to ``configs/rules/default.yaml``.
            cards: card set; defaults to every file in ``configs/cards``.
            heroes: hero set; defaults to every file in ``configs/heroes``. Each seat plays the hero of its
                deck's class (``Deck.hero``; the plain hero for a neutral deck).
            log: keep ``game.log`` (turn off for speed).

        The arguments a caller types are ``object`` so that a wrong type meets a check naming the argument in the
        compiled build too (not the compiled code's bare TypeError).
        """
        seed, log = _checked_seed_and_log(seed, log)
        rules = resolve_rules(rules)
        cards, heroes = _card_and_hero_sets(cards, heroes)
        resolved = resolve_deck_pair(decks, cards, rules)
        hero_defs = [heroes.for_class(deck.hero) for deck in resolved]
        check_hero_cards(hero_defs, cards, ", ".join(heroes.sources))
        state = GameState(rules=rules, players=[], rng=Rng(seed), log=[] if log else None)
        state.players = [new_player(state, 0, hero_defs[0]), new_player(state, 1, hero_defs[1])]
        for player, deck in zip(state.players, resolved):
            player.deck = new_deck(state, [cards.get_card(card_id) for card_id in deck.cards], player.index)
            state.rng.shuffle(player.deck)
        game = cls(state, cards)
        state.turn = 1
        game.actions.perform(game, StartGame(0))
        return game

    @classmethod
    def new_draft(cls, seed: object = 0, *, rules: object = None, cards: object = None, hero_classes: Any = None,
                  log: object = True, battle_seed: object = None) -> Game:
        """Start a game with its draft (:mod:`ccg_env.engine.draft`): ``legal_actions`` lists the picks of the seat
        picking (``ChoiceKind.PICK``, ``source`` the offer index) until both decks are full; the last pick deals the
        battle in place, exactly as ``Game.new(battle_seed, decks=draft.decks(), ...)`` would, mulligan included.

        Args:
            seed: seeds the draft (heroes and offers).
            hero_classes: the two seats' hero classes (``CardClass`` or names); None draws each from the seed.
            battle_seed: the battle's seed; None: ``seed``.
            rules, cards, log: as :meth:`new`.
        """
        seed, log = _checked_seed_and_log(seed, log)
        battle = seed if battle_seed is None else _checked_seed_and_log(battle_seed, log)[0]
        rules = resolve_rules(rules)
        card_set = _card_and_hero_sets(cards, None)[0]
        draft = Draft(card_set, rules, seed, hero_classes)
        game = cls(GameState(rules=rules, players=[], rng=Rng(seed), log=[] if log else None, phase=_DRAFT), card_set)
        game.draft, game.battle_seed = draft, battle
        return game

    @classmethod
    def from_scenario(cls, scenario: object, seed: object = 0, *, rules: object = None, cards: object = None,
                      heroes: object = None, log: object = True) -> Game:
        """Build a board described as data (see :mod:`ccg_env.engine.scenario` for the format).

        A player's hero is the plain one unless the scenario names a class (``"hero": "mage"``). The other
        arguments are checked as :meth:`new` checks them.
        """
        from .scenario import build_scenario

        seed, log = _checked_seed_and_log(seed, log)
        card_set, hero_set = _card_and_hero_sets(cards, heroes)
        return build_scenario(cls, scenario, seed, rules=resolve_rules(rules), cards=card_set, heroes=hero_set,
                              log=log)

    # --- playing -------------------------------------------------------------------------------

    def legal_actions(self) -> list[Choice]:
        """Every legal choice for the player on turn, in a stable order (empty once the game is over)."""
        choices, self.moves = legal_moves(self)
        return choices

    def apply(self, choice: object) -> None:
        """Perform a legal choice and everything it sets off.

        A choice is legal exactly when :meth:`legal_actions` lists it in the current state. The list made by
        the last call is reused when no action has been performed since (change the state only through
        actions: a direct edit of ``state`` does not refresh it).

        Raises:
            IllegalActionError: the choice is not legal now; the state is left exactly as it was.
            GameOverError: the game is over (a subclass of IllegalActionError).
        """
        checked = as_choice(choice)
        if isinstance(checked, str):
            raise IllegalActionError(checked)
        choice = checked
        state = self.state
        if state.result is not None:
            raise GameOverError(f"{choice} is illegal: the game is over ({state.result.value})")
        moves = self.moves
        if moves is None:
            moves = self.moves = legal_moves(self)[1]
        cards = moves.get(choice)  # as_choice left only a ChoiceKind and ints or None: always hashable
        if cards is None:
            raise IllegalActionError(f"{choice} is illegal: {why_illegal(self, choice)}")
        me = state.current
        kind = choice.kind
        if kind is _PLAY:
            action: GameAction = PlayCard(me, cast(Card, cards[0]), cards[1])
        elif kind is _ATTACK:
            action = Attack(me, cast(Card, cards[0]), cast(Card, cards[1]))
        elif kind is _HERO_POWER:
            action = UseHeroPower(me, cast(Card, cards[0]), cards[1])
        elif kind is _END_TURN:
            action = ChangeTurn(me, 1 - me) if state.phase is _BATTLE else Mulligan(me)
        elif kind is _MULLIGAN:
            action = MulliganMark(me, cast(Card, cards[0]))
        else:
            self._pick(cast(int, choice.source))
            return
        self.actions.perform(self, action, validated=True)

    def _pick(self, index: int) -> None:
        """Take offered card ``index`` for the seat picking; once both decks are full, deal the battle in place."""
        draft = self.draft
        assert draft is not None
        draft.pick(index)
        self.moves = None
        if not draft.is_over:
            self.state.current = draft.current
            return
        battle = Game.new(self.battle_seed, decks=draft.decks(), rules=self.state.rules, cards=self.cards,
                          log=self.state.log is not None)
        self.state, self.bus, self.actions = battle.state, battle.bus, battle.actions

    def perform(self, action: GameAction) -> None:
        """Perform any action as a root action (for scenarios and tests; players use :meth:`apply`)."""
        self.actions.perform(self, action)

    def add_reaction(self, action: GameAction) -> None:
        """Queue a reaction to the phase being notified (for handlers)."""
        reactions = self.actions._open
        if reactions is None:
            raise EngineBusyError(f"{action.kind} added as a reaction outside of an action's phase")
        reactions.append(action)

    def reactions_pending(self) -> bool:
        """Whether a handler already queued a reaction in the phase being notified."""
        return bool(self.actions._open)

    # --- reading -------------------------------------------------------------------------------

    @property
    def log(self) -> list[LogEntry]:
        """Every performed (or cancelled) action with its depth in the reaction tree (empty if logging is off)."""
        return self.state.log if self.state.log is not None else []

    @property
    def is_over(self) -> bool:
        return self.state.result is not None

    @property
    def winner(self) -> int | None:
        return self.state.winner

    @property
    def result(self) -> Result | None:
        return self.state.result

    @property
    def in_draft(self) -> bool:
        """Whether the seats are still drafting their decks (:meth:`new_draft`)."""
        return self.state.phase is _DRAFT

    @property
    def in_mulligan(self) -> bool:
        """Whether the player on turn is deciding its mulligan (which opening cards to put back)."""
        return self.state.phase is GamePhase.MULLIGAN

    @property
    def current_player(self) -> int:
        return self.state.current

    @property
    def turn(self) -> int:
        return self.state.turn

    def player(self, index: SupportsIndex) -> Player:
        """Player 0 or 1 (any integer type, numpy's included)."""
        return self.state.players[index]

    # --- copying -------------------------------------------------------------------------------

    def clone(self) -> Game:
        """Return an independent game in the same state that plays on identically.

        Deck and graveyard cards are immutable and shared; live cards are copied. The log list is copied.
        """
        state = self.state
        players = []
        for p in state.players:
            q = Player.__new__(Player)
            for attr in LIVE_ZONE_ATTRS:
                setattr(q, attr, [c.copy() for c in getattr(p, attr)])
            q.index, q.deck, q.graveyard = p.index, list(p.deck), list(p.graveyard)
            q.mana, q.max_mana, q.fatigue, q.marked = p.mana, p.max_mana, p.fatigue, list(p.marked)
            q.hero_power, q.hero_power_uses = list(p.hero_power), p.hero_power_uses  # the power is never mutated
            players.append(q)
        new_state = GameState(state.rules, players, state.rng.clone(), state.current, state.turn, state.next_uid,
                              state.next_order, state.result, state.winner,
                              list(state.log) if state.log is not None else None, state.phase)
        copy = Game(new_state, self.cards, self.bus.copy())
        draft = self.draft
        if draft is not None:  # a finished draft never changes again: shared
            copy.draft, copy.battle_seed = draft.clone() if state.phase is _DRAFT else draft, self.battle_seed
        return copy

    def to_json(self) -> str:
        """Serialise the whole state (not the log) to a JSON string (not during a draft: StateError)."""
        from .serialize import state_to_json

        if self.state.phase is _DRAFT:
            raise StateError("a game in its draft cannot be saved: save it once the battle is dealt")

        return state_to_json(self.state)

    @classmethod
    def from_json(cls, text: object, *, cards: object = None, heroes: object = None) -> Game:
        """Load a state written by :meth:`to_json` (str, bytes or bytearray); a corrupt or foreign document, or
        anything else, raises ``StateError`` (typed ``object`` so that the compiled build's own type check does not
        answer first with a bare TypeError)."""
        from .serialize import state_from_json

        card_set, hero_set = _card_and_hero_sets(cards, heroes)
        return cls(state_from_json(text, card_set, hero_set), card_set)

    def __repr__(self) -> str:
        status = self.state.result.value if self.state.result else "in progress"
        return f"<Game turn {self.state.turn}, player {self.state.current} to act, {status}>"


def _checked_seed_and_log(seed: object, log: object) -> tuple[int, bool]:
    """The ``seed`` and ``log`` arguments of a new game, or a TypeError naming the one of the wrong type."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"seed must be an integer, got {seed!r}")
    if log not in (True, False):
        raise TypeError(f"log must be True or False, got {log!r}")
    return seed, bool(log)


def _card_and_hero_sets(cards: object, heroes: object) -> tuple[CardSet, HeroSet]:
    """The card and hero sets a game uses (the packaged ones for None), or a TypeError naming the wrong one."""
    if cards is None:
        cards = default_cards()
    elif not isinstance(cards, CardSet):
        raise TypeError(f"cards must be a CardSet (load_cards(paths)), got {cards!r}")
    if heroes is None:
        heroes = default_heroes()
    elif not isinstance(heroes, HeroSet):
        raise TypeError(f"heroes must be a HeroSet (load_heroes(paths)), got {heroes!r}")
    return cards, heroes


def default_decks() -> list[str]:
    """Names of the packaged decks."""
    return list(default_deck_paths())
