"""Summon system: minions enter the battlefield where the summon puts them (at most the rules' size per side)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from ..actions import PlayCard, Summon, UseHeroPower
from ..events import EventBus, Phase
from ..vocabulary import BATTLEFIELD_ZONE, MINION, EffectKind, Keyword

if TYPE_CHECKING:
    from ..game import Game

_CHARGE: Final = int(Keyword.CHARGE)
_SUMMON: Final = EffectKind.SUMMON


def install(bus: EventBus) -> None:
    bus.on(Phase.VALIDATE, PlayCard, _validate_board_space_for_play)
    bus.on(Phase.VALIDATE, Summon, _validate_board_space)
    bus.on(Phase.VALIDATE, UseHeroPower, _validate_board_space_for_power)
    bus.on(Phase.PERFORM, Summon, _enter_battlefield)


def _validate_board_space_for_play(game: Game, action: PlayCard) -> str | None:
    if action.card.definition.card_type is MINION:
        state = game.state
        if len(state.players[action.player].battlefield) >= state.rules.max_battlefield:
            return f"player {action.player}'s battlefield is full"
    return None


def _validate_board_space_for_power(game: Game, action: UseHeroPower) -> str | None:
    """A hero power that summons (Reinforce) cannot be used with a full battlefield, as in Hearthstone."""
    for ability in action.card.definition.abilities:
        if ability.effect is _SUMMON:
            state = game.state
            if len(state.players[action.player].battlefield) >= state.rules.max_battlefield:
                return f"player {action.player}'s battlefield is full"
    return None


def _validate_board_space(game: Game, action: Summon) -> str | None:
    state = game.state
    if len(state.players[action.player].battlefield) >= state.rules.max_battlefield:
        return f"player {action.player}'s battlefield is full"
    return None


def _enter_battlefield(game: Game, action: Summon) -> None:
    card = action.card
    card.zone = BATTLEFIELD_ZONE
    card.owner = action.player
    card.sleeping = not card.keywords & _CHARGE
    if not action.played:
        card.order_of_play = game.state.new_order()
    board = game.state.players[action.player].battlefield
    beside = action.beside
    if beside is not None and beside.zone is BATTLEFIELD_ZONE and beside.owner == action.player:
        board.insert(board.index(beside) + (0 if action.left else 1), card)
    else:
        board.append(card)
