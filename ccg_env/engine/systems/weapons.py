"""Weapon system: equipping gives the hero attack; each hero attack spends one durability."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from ..actions import Attack, Destroy, EquipWeapon
from ..events import EventBus, Phase
from ..vocabulary import GRAVEYARD_ZONE, HERO_ZONE, WEAPON_ZONE, Keyword

if TYPE_CHECKING:
    from ..game import Game
    from ..state import Card


#: Keywords a weapon lends its hero while equipped.
WEAPON_KEYWORDS: Final = int(Keyword.WINDFURY | Keyword.LIFESTEAL | Keyword.POISONOUS | Keyword.FREEZE)


def install(bus: EventBus) -> None:
    bus.on(Phase.PERFORM, EquipWeapon, _equip)
    bus.on(Phase.PERFORM, Attack, _spend_durability)


def _equip(game: Game, action: EquipWeapon) -> None:
    player = game.state.players[action.player]
    for old in player.weapon:
        retire_weapon(game, old)
    card = action.card
    card.zone = WEAPON_ZONE
    card.owner = action.player
    if not card.order_of_play:
        card.order_of_play = game.state.new_order()
    player.weapon.append(card)
    player.hero.attack = card.attack
    player.hero.keywords |= card.keywords & WEAPON_KEYWORDS  # the hero strikes with the weapon's keywords


def retire_weapon(game: Game, weapon: Card) -> None:
    """Move a weapon to the graveyard and take its attack away from the hero."""
    player = game.state.players[weapon.owner]
    if weapon in player.weapon:
        player.weapon.remove(weapon)
        weapon.zone = GRAVEYARD_ZONE
        player.graveyard.append(weapon)
        player.hero.attack = 0
        player.hero.keywords &= ~(weapon.keywords & WEAPON_KEYWORDS)


def _spend_durability(game: Game, action: Attack) -> None:
    attacker = action.attacker
    if attacker.zone is not HERO_ZONE or action.cancelled:
        return
    for weapon in game.state.players[attacker.owner].weapon:
        weapon.durability -= 1
        if weapon.durability <= 0:
            game.add_reaction(Destroy(weapon.owner, None, [weapon], order_of_play=weapon.order_of_play))
