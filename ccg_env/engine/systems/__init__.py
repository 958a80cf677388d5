"""The game's systems, one module per rule area; each ``install(bus)`` registers its handlers on a game's bus."""

from __future__ import annotations

from ..events import EventBus
from . import abilities, combat, damage, death, effects, hero_power, keywords, mana, match, mulligan, play, player
from . import secrets, summon, victory, weapons

#: Installation order is registration order, which orders handlers within one phase.
SYSTEMS = (match, mulligan, mana, player, play, hero_power, summon, secrets, combat, weapons, damage, effects, keywords,
           abilities, death, victory)


def build_bus() -> EventBus:
    """Return a new bus with every system's handlers registered."""
    bus = EventBus()
    for system in SYSTEMS:
        system.install(bus)
    return bus
