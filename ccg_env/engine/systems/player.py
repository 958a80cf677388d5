"""Player system: drawing, with fatigue per missing card and overdraw burning what the hand cannot hold."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..actions import AddToHand, Damage, DrawCards, Fatigue, Hit, Overdraw, TurnStart
from ..events import EventBus, Phase
from ..vocabulary import GRAVEYARD_ZONE, HAND_ZONE

if TYPE_CHECKING:
    from ..game import Game


def install(bus: EventBus) -> None:
    bus.on(Phase.PERFORM, DrawCards, _draw)
    bus.on(Phase.PERFORM, Fatigue, _fatigue)
    bus.on(Phase.PERFORM, Overdraw, _overdraw)
    bus.on(Phase.PERFORM, AddToHand, _add_to_hand)
    bus.on(Phase.PERFORM, TurnStart, _draw_for_turn)


def _draw_for_turn(game: Game, action: TurnStart) -> None:
    game.add_reaction(DrawCards(action.player, game.state.rules.cards_per_turn))


def draw_split(amount: int, deck_count: int, hand_count: int, max_hand: int) -> tuple[int, int, int]:
    """Split a draw into (fatigue, overdraw, drawn) exactly as the Drawing Exceptions lesson computes it."""
    fatigue = max(amount - deck_count, 0)
    room = max_hand - hand_count
    overdraw = max(amount - fatigue - room, 0)
    return fatigue, overdraw, amount - fatigue - overdraw


def _draw(game: Game, action: DrawCards) -> None:
    player = game.state.players[action.player]
    fatigue, overdraw, drawn = draw_split(action.amount, len(player.deck), len(player.hand),
                                          game.state.rules.max_hand)
    for _ in range(fatigue):
        game.add_reaction(Fatigue(action.player))
    if overdraw:
        game.add_reaction(Overdraw(action.player, overdraw))
    for _ in range(drawn):
        card = player.deck.pop().copy()  # deck cards are shared with clones: copy before changing
        card.zone = HAND_ZONE
        player.hand.append(card)
        action.drawn.append(card)


def _overdraw(game: Game, action: Overdraw) -> None:
    player = game.state.players[action.player]
    for _ in range(min(action.amount, len(player.deck))):
        card = player.deck.pop().copy()
        card.zone = GRAVEYARD_ZONE
        player.graveyard.append(card)
        action.drawn.append(card)


def _fatigue(game: Game, action: Fatigue) -> None:
    player = game.state.players[action.player]
    player.fatigue += game.state.rules.fatigue_step
    game.add_reaction(Damage(action.player, [Hit(None, player.hero, player.fatigue)]))


def _add_to_hand(game: Game, action: AddToHand) -> None:
    player = game.state.players[action.player]
    card = action.card
    if len(player.hand) < game.state.rules.max_hand:
        card.zone = HAND_ZONE
        player.hand.append(card)
    else:
        card.zone = GRAVEYARD_ZONE
        player.graveyard.append(card)
