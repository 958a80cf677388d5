"""Secret system: secrets wait face down in their owner's secrets zone until their condition happens."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..actions import PlaceSecret, PlayCard
from ..events import EventBus, Phase
from ..vocabulary import SECRET, SECRETS_ZONE

if TYPE_CHECKING:
    from ..game import Game


def install(bus: EventBus) -> None:
    bus.on(Phase.VALIDATE, PlayCard, _validate_secret)
    bus.on(Phase.PERFORM, PlaceSecret, _place)


def _validate_secret(game: Game, action: PlayCard) -> str | None:
    card = action.card
    if card.definition.card_type is not SECRET:
        return None
    secrets = game.state.players[action.player].secrets
    if len(secrets) >= game.state.rules.max_secrets:
        return f"player {action.player} already has {len(secrets)} secrets"
    if any(s.definition is card.definition for s in secrets):
        return f"{card.definition.id} is already an active secret"
    return None


def _place(game: Game, action: PlaceSecret) -> None:
    action.card.zone = SECRETS_ZONE
    game.state.players[action.player].secrets.append(action.card)
