"""Death system: after each phase of a play and each root action the reaper takes minions at 0 or less health."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..actions import GameAction, Reap
from ..events import Event, EventBus, Phase
from ..vocabulary import GRAVEYARD_ZONE
from .weapons import retire_weapon

if TYPE_CHECKING:
    from ..game import Game
    from ..state import Card


def install(bus: EventBus) -> None:
    bus.on_event(Event.DEATH_REAPER, _reaper)
    bus.on(Phase.PREPARE, Reap, _note_places)
    bus.on(Phase.PERFORM, Reap, _reap)


def dying_minions(game: Game) -> list[Card]:
    """Minions on either battlefield at 0 or less health, in order of play."""
    dying = [c for p in game.state.players for c in p.battlefield if c.health <= 0]
    if len(dying) > 1:
        dying.sort(key=_order_of_play)
    return dying


def _order_of_play(card: Card) -> int:
    return card.order_of_play


def _reaper(game: Game, root: GameAction) -> None:
    dying = dying_minions(game)
    if dying:
        game.add_reaction(Reap(game.state.current, dying))


def _note_places(game: Game, action: Reap) -> None:
    """Record where each dying minion stands, before any leaves: left of the nearest minion to its right that
    lives on (None: the right end). A deathrattle summons there, in the dead minion's place."""
    players = game.state.players
    reaped = action.cards
    places: list[Card | None] = []
    action.right_neighbours = places
    for card in reaped:
        board = players[card.owner].battlefield
        places.append(_right_neighbour(board, board.index(card), reaped))


def _right_neighbour(board: list[Card], index: int, reaped: list[Card]) -> Card | None:
    """The first minion right of ``board[index]`` that is not being reaped, or None."""
    for card in board[index + 1:]:
        if card not in reaped:
            return card
    return None


def _reap(game: Game, action: Reap) -> None:
    for card in action.cards:
        player = game.state.players[card.owner]
        if card in player.battlefield:
            player.battlefield.remove(card)
            card.zone = GRAVEYARD_ZONE
            player.graveyard.append(card)


def bury_the_dead(game: Game) -> None:
    """Move dying minions and spent weapons to their graveyards at once, without triggers: the game is over.

    Once a result is recorded every action is cancelled, the reaper's too, so a game that ends with minions still
    dying (a turn-end effect on the last turn, a loop stopped mid-way) buries them here.
    """
    for player in game.state.players:
        for card in [c for c in player.battlefield if c.health <= 0]:
            player.battlefield.remove(card)
            card.zone = GRAVEYARD_ZONE
            player.graveyard.append(card)
        for weapon in [w for w in player.weapon if w.durability <= 0]:
            retire_weapon(game, weapon)
