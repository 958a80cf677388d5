"""Creating card instances and players from definitions."""

from __future__ import annotations

from .definitions import HERO, CardDef, HeroDef
from .state import Card, GameState, Player
from .vocabulary import Zones


def new_card(state: GameState, definition: CardDef, owner: int, zone: Zones) -> Card:
    """Create a card instance with a fresh uid and its printed stats."""
    return Card(state.new_uid(), definition, owner, zone, definition.cost, definition.attack, definition.health,
                definition.health, definition.keywords, 0, 0, definition.durability)


def new_deck(state: GameState, definitions: list[CardDef], owner: int) -> list[Card]:
    """Create the deck cards of one player, in list order, with consecutive fresh uids (as :func:`new_card`)."""
    first = state.next_uid
    state.next_uid = first + len(definitions)
    deck = Zones.DECK
    return [Card(uid, d, owner, deck, d.cost, d.attack, d.health, d.health, d.keywords, 0, 0, d.durability)
            for uid, d in enumerate(definitions, first)]


def new_player(state: GameState, index: int, hero_def: HeroDef | None = None) -> Player:
    """Create a player with a full-health hero (the plain one by default), its hero power and empty zones."""
    hero = new_card(state, HERO if hero_def is None else hero_def.card, index, Zones.HERO)
    hero.health = hero.max_health = state.rules.hero_health
    hero.order_of_play = -2 + index  # heroes are in play before any card
    player = Player(index=index, hero_zone=[hero])
    if hero_def is not None and hero_def.power is not None:
        power = new_card(state, hero_def.power, index, Zones.NONE)
        power.order_of_play = hero.order_of_play  # its effects sort as their hero's
        player.hero_power.append(power)
    return player
