"""Victory system: once the dead are reaped, a dead hero ends the game (both at once is a draw)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..actions import GameAction, GameOver, StopLoop
from ..events import Event, EventBus, Phase
from ..state import Result
from ..vocabulary import GRAVEYARD_ZONE
from .death import bury_the_dead

if TYPE_CHECKING:
    from ..game import Game


def install(bus: EventBus) -> None:
    bus.on_event(Event.DEATH_REAPER, _check_heroes)
    bus.on(Phase.PERFORM, GameOver, _record)
    bus.on(Phase.PERFORM, StopLoop, _stop_loop)


def _check_heroes(game: Game, root: GameAction) -> None:
    state = game.state
    first, second = state.players
    if first.hero.health > 0 and second.hero.health > 0:
        return
    if state.result is not None or game.reactions_pending():
        return  # let the reaper finish first: deathrattles may still kill the other hero
    dead = [p.index for p in state.players if p.hero.health <= 0]
    if len(dead) == 2:
        game.add_reaction(GameOver(state.current, result=Result.DRAW, winner=None))
    elif dead:
        game.add_reaction(GameOver(state.current, result=Result.WIN, winner=1 - dead[0]))


def _record(game: Game, action: GameOver) -> None:
    bury_the_dead(game)
    game.state.result = action.result
    game.state.winner = action.winner


def _stop_loop(game: Game, action: StopLoop) -> None:
    card = action.unplayed
    if card is not None:  # played, but broken off before it reached the battlefield, weapon slot or graveyard
        card.zone = GRAVEYARD_ZONE
        game.state.players[card.owner].graveyard.append(card)
    bury_the_dead(game)
    game.state.result = Result.LOOP
    game.state.winner = None
