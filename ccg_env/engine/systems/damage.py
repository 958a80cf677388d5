"""Damage system: armor first, then health; all hits of one damage action land at the same time."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..actions import Damage
from ..events import EventBus, Phase
from ..vocabulary import CHARACTER_ZONES

if TYPE_CHECKING:
    from ..game import Game



def install(bus: EventBus) -> None:
    bus.on(Phase.PERFORM, Damage, _apply)


def _apply(game: Game, action: Damage) -> None:
    """Apply every hit; a hit's ``amount`` becomes what was actually dealt (0 if its target left play)."""
    for hit in action.hits:
        target = hit.target
        if hit.amount <= 0 or target.zone not in CHARACTER_ZONES:
            hit.amount = 0
            continue
        absorbed = min(target.armor, hit.amount)
        target.armor -= absorbed
        target.health -= hit.amount - absorbed
