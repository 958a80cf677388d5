"""Plain slotted game state: card instances, players with their zones, and the match."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Final, Iterator

from .definitions import CardDef
from .log import LogEntry
from .rng import Rng
from .rules import Rules
from .vocabulary import ZONE_ATTRS, CardType, Zones


@dataclass(slots=True, eq=False)
class Card:
    """One card instance. Its ``uid`` is stable for the whole game and unique within it.

    Cards in the deck and the graveyard are never mutated (clones share them); a card leaving those zones
    is copied first. ``keywords`` is an int bitmask of :class:`Keyword` values. Its ``__init__`` is written out,
    as the actions' are (see :mod:`ccg_env.engine.actions`), so that compiled code builds cards natively.
    """

    uid: int
    definition: CardDef
    owner: int
    zone: Zones
    cost: int
    attack: int
    health: int
    max_health: int
    keywords: int
    order_of_play: int = 0
    armor: int = 0
    durability: int = 0
    attacks_made: int = 0
    sleeping: bool = False
    frozen_on_turn: int = 0  # turn number the character was frozen on; 0 = not frozen

    def __init__(self, uid: int, definition: CardDef, owner: int, zone: Zones, cost: int, attack: int, health: int,
                 max_health: int, keywords: int, order_of_play: int = 0, armor: int = 0, durability: int = 0,
                 attacks_made: int = 0, sleeping: bool = False, frozen_on_turn: int = 0) -> None:
        self.uid, self.definition, self.owner, self.zone, self.cost = uid, definition, owner, zone, cost
        self.attack, self.health, self.max_health, self.keywords = attack, health, max_health, keywords
        self.order_of_play, self.armor, self.durability = order_of_play, armor, durability
        self.attacks_made, self.sleeping, self.frozen_on_turn = attacks_made, sleeping, frozen_on_turn

    @property
    def name(self) -> str:
        return self.definition.name

    @property
    def card_type(self) -> CardType:
        return self.definition.card_type

    @property
    def is_frozen(self) -> bool:
        return self.frozen_on_turn > 0

    def copy(self) -> Card:
        """Return an independent copy (same uid)."""
        return Card(
            self.uid, self.definition, self.owner, self.zone, self.cost, self.attack, self.health,
            self.max_health, self.keywords, self.order_of_play, self.armor, self.durability,
            self.attacks_made, self.sleeping, self.frozen_on_turn,
        )

    def __repr__(self) -> str:
        return f"<{self.definition.id}#{self.uid} p{self.owner} {self.attack}/{self.health}>"


@dataclass(slots=True, eq=False)
class Player:
    """A seat: its hero and zones, mana crystals and fatigue counter, its hero power, and the cards it marked in
    the mulligan.

    ``hero_power`` holds the hero's power card (none for the plain hero); it is in no zone (its ``zone`` is
    ``NONE``), never moves and is never mutated. ``hero_power_uses`` counts its uses this turn. ``marked`` holds
    the uids of opening-hand cards the player chose to put back, in the order chosen; it is empty outside the
    player's own mulligan decision.
    """

    index: int
    hero_zone: list[Card]
    weapon: list[Card] = field(default_factory=list)
    deck: list[Card] = field(default_factory=list)
    hand: list[Card] = field(default_factory=list)
    battlefield: list[Card] = field(default_factory=list)
    secrets: list[Card] = field(default_factory=list)
    graveyard: list[Card] = field(default_factory=list)
    mana: int = 0
    max_mana: int = 0
    fatigue: int = 0
    hero_power: list[Card] = field(default_factory=list)
    hero_power_uses: int = 0
    marked: list[int] = field(default_factory=list)

    @property
    def hero(self) -> Card:
        return self.hero_zone[0]

    def zone(self, zone: Zones) -> list[Card]:
        """Return the list holding one zone's cards."""
        return getattr(self, ZONE_ATTRS[zone])

    def zones(self) -> Iterator[tuple[Zones, list[Card]]]:
        """Yield every (zone, cards) pair in the canonical zone order."""
        for zone, attr in ZONE_ATTRS.items():
            yield zone, getattr(self, attr)


_SEARCH_ORDER: Final = ("hero_zone", "battlefield", "hand", "weapon", "secrets", "graveyard", "deck", "hero_power")

#: Zones whose cards can change, so a clone must copy them; deck and graveyard cards are shared.
LIVE_ZONE_ATTRS: Final = ("hero_zone", "weapon", "hand", "battlefield", "secrets")


class GamePhase(str, Enum):
    """What the game is doing: the draft of both decks, the opening mulligan decisions, or the battle of turns."""

    DRAFT = "draft"  # the seats pick their decks one offered card at a time (Game.new_draft)
    MULLIGAN = "mulligan"  # the player on turn decides which opening cards to put back
    BATTLE = "battle"


class Result(str, Enum):
    """How a game ended."""

    WIN = "win"
    DRAW = "draw"
    TURN_LIMIT = "turn_limit"
    LOOP = "loop"  # a card set off reactions without end: stopped at a bound, a draw (see action_system)


#: Results that cut a game short rather than decide it: envs report them as truncations, not terminations.
TRUNCATING_RESULTS: Final = (Result.TURN_LIMIT, Result.LOOP)


@dataclass(slots=True, eq=False)
class GameState:
    """Everything that defines a game in progress; the game's systems hold no state of their own."""

    rules: Rules
    players: list[Player]
    rng: Rng
    current: int = 0
    turn: int = 0
    next_uid: int = 1
    next_order: int = 1
    result: Result | None = None
    winner: int | None = None
    log: list[LogEntry] | None = field(default_factory=list)
    phase: GamePhase = GamePhase.BATTLE

    def new_uid(self) -> int:
        """Hand out the next card id."""
        uid = self.next_uid
        self.next_uid += 1
        return uid

    def new_order(self) -> int:
        """Hand out the next order-of-play number."""
        order = self.next_order
        self.next_order += 1
        return order

    def all_cards(self) -> Iterator[Card]:
        """Yield every card of both players, zone by zone."""
        for player in self.players:
            for _, cards in player.zones():
                yield from cards

    def find(self, uid: int) -> Card | None:
        """Return the card with this id from any zone, or None (cards in play are searched first)."""
        for attr in _SEARCH_ORDER:
            for player in self.players:
                for card in getattr(player, attr):
                    if card.uid == uid:
                        return card
        return None
