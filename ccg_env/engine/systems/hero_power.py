"""Hero power system: a hero power may be used on its owner's turn, within its uses per turn and the mana."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..actions import TurnStart, UseHeroPower
from ..events import EventBus, Phase
from ..targeting import declared_target_problem

if TYPE_CHECKING:
    from ..game import Game


def install(bus: EventBus) -> None:
    bus.on(Phase.VALIDATE, UseHeroPower, _validate_power)
    bus.on(Phase.VALIDATE_TARGET, UseHeroPower, _validate_target)
    bus.on(Phase.PERFORM, UseHeroPower, _count_use)
    bus.on(Phase.PERFORM, TurnStart, _refresh)


def _validate_power(game: Game, action: UseHeroPower) -> str | None:
    state = game.state
    if action.player != state.current:
        return f"player {action.player} cannot use a hero power on player {state.current}'s turn"
    player = state.players[action.player]
    card = action.card
    if card not in player.hero_power:
        return f"{card!r} is not player {action.player}'s hero power"
    limit = card.definition.uses_per_turn
    if player.hero_power_uses >= limit:
        return f"{card.definition.id} was already used {player.hero_power_uses} of {limit} times this turn"
    return None


def _validate_target(game: Game, action: UseHeroPower) -> str | None:
    return declared_target_problem(game.state, action.card, action.target)


def _count_use(game: Game, action: UseHeroPower) -> None:
    game.state.players[action.player].hero_power_uses += 1


def _refresh(game: Game, action: TurnStart) -> None:
    game.state.players[action.player].hero_power_uses = 0
