"""Mana system: a crystal per own turn up to the maximum, refilled for the player whose turn starts."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..actions import GainMana, PlayCard, TurnStart, UseHeroPower
from ..events import EventBus, Phase

if TYPE_CHECKING:
    from ..game import Game


def install(bus: EventBus) -> None:
    bus.on(Phase.PERFORM, TurnStart, _refill)
    bus.on(Phase.VALIDATE, PlayCard, _validate_cost)
    bus.on(Phase.PERFORM, PlayCard, _pay)
    bus.on(Phase.PERFORM, GainMana, _gain)
    bus.on(Phase.VALIDATE, UseHeroPower, _validate_power_cost)
    bus.on(Phase.PERFORM, UseHeroPower, _pay_for_power)


def _refill(game: Game, action: TurnStart) -> None:
    rules = game.state.rules
    player = game.state.players[action.player]  # the player whose turn starts, never "the other one"
    player.max_mana = min(player.max_mana + rules.mana_per_turn, rules.max_mana)
    player.mana = player.max_mana


def _validate_cost(game: Game, action: PlayCard) -> str | None:
    mana = game.state.players[action.player].mana
    if action.card.cost > mana:
        return f"{action.card.definition.id} costs {action.card.cost} but player {action.player} has {mana} mana"
    return None


def _pay(game: Game, action: PlayCard) -> None:
    game.state.players[action.player].mana -= action.card.cost


def _gain(game: Game, action: GainMana) -> None:
    player = game.state.players[action.player]
    player.mana = min(player.mana + action.amount, game.state.rules.max_mana)


def _validate_power_cost(game: Game, action: UseHeroPower) -> str | None:
    mana = game.state.players[action.player].mana
    if action.card.cost > mana:
        return f"{action.card.definition.id} costs {action.card.cost} but player {action.player} has {mana} mana"
    return None


def _pay_for_power(game: Game, action: UseHeroPower) -> None:
    game.state.players[action.player].mana -= action.card.cost
