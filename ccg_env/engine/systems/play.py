"""Play-card system: a played card leaves the hand, then becomes a summon, a spell, a secret or a weapon."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from ..actions import CastSpell, EquipWeapon, PlaceSecret, PlayCard, Summon
from ..events import EventBus, Phase
from ..targeting import validate_play_target
from ..vocabulary import GRAVEYARD_ZONE, HAND_ZONE, MINION, NO_ZONE, SECRET, SPELL, WEAPON

if TYPE_CHECKING:
    from ..game import Game

MINION_ENTERS_PRIORITY: Final = 1


def install(bus: EventBus) -> None:
    bus.on(Phase.VALIDATE, PlayCard, _validate_in_hand)
    bus.on(Phase.VALIDATE_TARGET, PlayCard, validate_play_target)
    bus.on(Phase.PERFORM, PlayCard, _leave_hand)
    bus.on(Phase.PERFORM, CastSpell, _spell_to_graveyard)


def _validate_in_hand(game: Game, action: PlayCard) -> str | None:
    state = game.state
    if action.player != state.current:
        return f"player {action.player} cannot play on player {state.current}'s turn"
    card = action.card
    if card.zone is not HAND_ZONE or card.owner != action.player:
        return f"{card!r} is not in player {action.player}'s hand"
    return None


def _leave_hand(game: Game, action: PlayCard) -> None:
    card = action.card
    game.state.players[action.player].hand.remove(card)
    card.zone = NO_ZONE
    card.order_of_play = game.state.new_order()
    game.add_reaction(_FOLLOW_UPS[card.definition.card_type](action.player, card, action.target,
                                                             card.order_of_play))


#: What a played card becomes, by type: (player, card, declared target, order of play) -> the next action.
#: A played minion takes the board slot its play was validated against before 'whenever you play a card'
#: triggers run (MINION_ENTERS_PRIORITY): a trigger that summons (Illidan Stormrage) must not fill that slot.
_FOLLOW_UPS: Final = {
    MINION: lambda player, card, target, order: Summon(player, card, True, target, priority=MINION_ENTERS_PRIORITY,
                                                       order_of_play=order),
    SPELL: lambda player, card, target, order: CastSpell(player, card, target, order_of_play=order),
    SECRET: lambda player, card, target, order: PlaceSecret(player, card, order_of_play=order),
    WEAPON: lambda player, card, target, order: EquipWeapon(player, card, target, order_of_play=order),
}


def _spell_to_graveyard(game: Game, action: CastSpell) -> None:
    card = action.card
    card.zone = GRAVEYARD_ZONE
    game.state.players[card.owner].graveyard.append(card)
