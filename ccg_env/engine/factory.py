"""Creating card instances and players from definitions."""

from __future__ import annotations

from .cards import HERO, CardDef
from .state import Card, GameState, Player
from .vocabulary import Zones


def new_card(state: GameState, definition: CardDef, owner: int, zone: Zones) -> Card:
    """Create a card instance with a fresh uid and its printed stats."""
    return Card(state.new_uid(), definition, owner, zone, definition.cost, definition.attack, definition.health,
                definition.health, definition.keywords, 0, 0, definition.durability)


def new_player(state: GameState, index: int) -> Player:
    """Create a player with a full-health hero and empty zones."""
    hero = new_card(state, HERO, index, Zones.HERO)
    hero.health = hero.max_health = state.rules.hero_health
    hero.order_of_play = -2 + index  # heroes are in play before any card
    return Player(index=index, hero_zone=[hero])
