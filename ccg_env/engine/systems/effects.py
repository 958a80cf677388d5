"""Effect system: healing, buffs, keywords, freezing, destroying and armor."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..actions import Buff, Destroy, Freeze, GainArmor, GiveKeyword, Heal
from ..events import EventBus, Phase
from ..vocabulary import BATTLEFIELD_ZONE, CHARACTER_ZONES, WEAPON_ZONE
from .weapons import retire_weapon

if TYPE_CHECKING:
    from ..game import Game



def install(bus: EventBus) -> None:
    bus.on(Phase.PERFORM, Heal, _heal)
    bus.on(Phase.PERFORM, Buff, _buff)
    bus.on(Phase.PERFORM, GiveKeyword, _give_keyword)
    bus.on(Phase.PERFORM, Freeze, _freeze)
    bus.on(Phase.PERFORM, Destroy, _destroy)
    bus.on(Phase.PERFORM, GainArmor, _gain_armor)


def _heal(game: Game, action: Heal) -> None:
    for card in action.targets:
        if card.zone in CHARACTER_ZONES and card.health > 0:
            card.health = min(card.health + action.amount, card.max_health)


def _buff(game: Game, action: Buff) -> None:
    for card in action.targets:
        if card.zone in CHARACTER_ZONES:
            card.attack = max(card.attack + action.attack, 0)
            card.max_health += action.health
            card.health += action.health


def _give_keyword(game: Game, action: GiveKeyword) -> None:
    for card in action.targets:
        if card.zone in CHARACTER_ZONES:
            card.keywords |= action.keyword


def _freeze(game: Game, action: Freeze) -> None:
    for card in action.targets:
        if card.zone in CHARACTER_ZONES:
            card.frozen_on_turn = game.state.turn


def _destroy(game: Game, action: Destroy) -> None:
    for card in action.targets:
        if card.zone is BATTLEFIELD_ZONE:
            card.health = min(card.health, 0)  # the reaper takes it when the current phase ends
        elif card.zone is WEAPON_ZONE:
            retire_weapon(game, card)


def _gain_armor(game: Game, action: GainArmor) -> None:
    hero = action.hero
    if hero.zone in CHARACTER_ZONES:  # a card's mark may select a card in a deck or graveyard: those never change
        hero.armor += action.amount
