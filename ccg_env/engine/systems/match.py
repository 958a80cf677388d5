"""Match and turn system: starting the game, changing turns, start/end-of-turn events and the turn limit."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from ..actions import AddToHand, ChangeTurn, DrawCards, GameOver, StartGame, TurnEnd, TurnStart
from ..events import EventBus, Phase
from ..factory import new_card
from ..state import Result
from ..vocabulary import NO_ZONE

if TYPE_CHECKING:
    from ..game import Game

COIN_ID: Final = "the_coin"


def install(bus: EventBus) -> None:
    bus.on(Phase.PERFORM, StartGame, _start_game)
    bus.on(Phase.VALIDATE, ChangeTurn, _validate_change_turn)
    bus.on(Phase.PREPARE, ChangeTurn, _announce_turn_end)
    bus.on(Phase.PERFORM, ChangeTurn, _change_turn)
    bus.on(Phase.PERFORM, TurnStart, _refresh_characters)


def _start_game(game: Game, action: StartGame) -> None:
    rules = game.state.rules
    game.add_reaction(DrawCards(0, rules.opening_hand_first))
    game.add_reaction(DrawCards(1, rules.opening_hand_second))
    if rules.coin_for_second and COIN_ID in game.cards:
        coin = new_card(game.state, game.cards[COIN_ID], 1, NO_ZONE)
        game.add_reaction(AddToHand(1, coin, order_of_play=1))
    game.add_reaction(TurnStart(0, order_of_play=2))


def _validate_change_turn(game: Game, action: ChangeTurn) -> str | None:
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
