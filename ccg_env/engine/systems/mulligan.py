"""Mulligan system: marking opening-hand cards to put back, then replacing them and shuffling them into the deck.

The first player decides, then the second; each marks cards one at a time (:class:`MulliganMark`) and is done
with a :class:`Mulligan`. The marked cards are replaced by cards drawn from the deck (keeping their hand slots)
and only then shuffled into the deck with the game's generator, so a card put back cannot be drawn again in
its own replacement (Hearthstone's rule). After the second player, the battle begins (coin and turn 1).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from ..actions import Mulligan, MulliganMark
from ..events import EventBus, Phase
from ..state import GamePhase
from ..vocabulary import DECK_ZONE, HAND_ZONE
from .match import begin_battle

if TYPE_CHECKING:
    from ..game import Game

_MULLIGAN: Final = GamePhase.MULLIGAN


def install(bus: EventBus) -> None:
    bus.on(Phase.VALIDATE, MulliganMark, _validate_mark)
    bus.on(Phase.PERFORM, MulliganMark, _mark)
    bus.on(Phase.VALIDATE, Mulligan, _validate_done)
    bus.on(Phase.PERFORM, Mulligan, _put_back)


def _deciding(game: Game, player: int) -> str | None:
    """Why ``player`` cannot make a mulligan decision now, or None."""
    state = game.state
    if state.phase is not _MULLIGAN:
        return "the mulligan is over"
    if player != state.current:
        return f"player {player} cannot decide in player {state.current}'s mulligan"
    return None


def _validate_mark(game: Game, action: MulliganMark) -> str | None:
    reason = _deciding(game, action.player)
    if reason is not None:
        return reason
    player = game.state.players[action.player]
    card = action.card
    if not any(c is card for c in player.hand):
        return f"card #{card.uid} is not in player {action.player}'s opening hand"
    if card.uid in player.marked:
        return f"card #{card.uid} is already marked to be put back"
    if len(player.marked) >= len(player.deck):
        return f"the deck holds only {len(player.deck)} cards to replace the marked ones"
    return None


def _mark(game: Game, action: MulliganMark) -> None:
    game.state.players[action.player].marked.append(action.card.uid)


def _validate_done(game: Game, action: Mulligan) -> str | None:
    return _deciding(game, action.player)


def _put_back(game: Game, action: Mulligan) -> None:
    state = game.state
    player = state.players[action.player]
    marked, hand, deck = player.marked, player.hand, player.deck
    if marked:
        for slot, card in enumerate(hand):
            if card.uid in marked:
                drawn = deck.pop().copy()  # deck cards are shared with clones: copy before changing
                drawn.zone = HAND_ZONE
                hand[slot] = drawn
                card.zone = DECK_ZONE  # a live hand card, owned by this game alone
                action.returned.append(card)
                action.drawn.append(drawn)
        deck.extend(action.returned)
        state.rng.shuffle(deck)
        marked.clear()
    if action.player == 0:
        state.current = 1
    else:
        begin_battle(game)
