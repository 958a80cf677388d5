"""Match and turn system: starting the game and the battle, changing turns, start/end-of-turn events and the turn
limit."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from ..actions import AddToHand, ChangeTurn, DrawCards, GameOver, StartGame, TurnEnd, TurnStart
from ..events import EventBus, Phase
from ..factory import new_card
from ..state import GamePhase, Result
from ..vocabulary import NO_ZONE

if TYPE_CHECKING:
    from ..game import Game

COIN_ID: Final = "the_coin"
_MULLIGAN: Final = GamePhase.MULLIGAN


def install(bus: EventBus) -> None:
    bus.on(Phase.PERFORM, StartGame, _start_game)
    bus.on(Phase.VALIDATE, ChangeTurn, _validate_change_turn)
    bus.on(Phase.PREPARE, ChangeTurn, _announce_turn_end)
    bus.on(Phase.PERFORM, ChangeTurn, _change_turn)
    bus.on(Phase.PERFORM, TurnStart, _refresh_characters)


def _start_game(game: Game, action: StartGame) -> None:
    state = game.state
    rules = state.rules
    game.add_reaction(DrawCards(0, rules.opening_hand_first))
    game.add_reaction(DrawCards(1, rules.opening_hand_second))
    if rules.mulligan:  # the coin and the first turn wait until both players are done (systems/mulligan.py)
        state.phase = _MULLIGAN
        state.current = 0
    else:
        begin_battle(game)


def begin_battle(game: Game) -> None:
    """Queue the coin for the second player (if the rules give it) and the first player's first turn."""
    state = game.state
    state.phase = GamePhase.BATTLE
    state.current = 0
    if state.rules.coin_for_second and COIN_ID in game.cards:
        coin = new_card(state, game.cards[COIN_ID], 1, NO_ZONE)
        game.add_reaction(AddToHand(1, coin, order_of_play=1))
    game.add_reaction(TurnStart(0, order_of_play=2))


def _validate_change_turn(game: Game, action: ChangeTurn) -> str | None:
    if game.state.phase is _MULLIGAN:
        return "the mulligan is not over (end_turn in the mulligan means: done, keep the rest of the hand)"
    if action.player != game.state.current:
        return f"player {action.player} cannot end player {game.state.current}'s turn"
    return None


def _announce_turn_end(game: Game, action: ChangeTurn) -> None:
    game.add_reaction(TurnEnd(action.player))


def _change_turn(game: Game, action: ChangeTurn) -> None:
    state = game.state
    state.current = action.next_player
    state.turn += 1
    if state.turn > state.rules.turn_limit:
        game.add_reaction(GameOver(action.player, result=Result.TURN_LIMIT, winner=None))
    else:
        game.add_reaction(TurnStart(action.next_player))


def _refresh_characters(game: Game, action: TurnStart) -> None:
    player = game.state.players[action.player]
    for card in player.hero_zone:
        card.attacks_made = 0
    for card in player.battlefield:
        card.attacks_made = 0
        card.sleeping = False
