"""The action system: validate, prepare and perform each action, resolve reactions depth-first, reap the dead."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import GameAction
from .errors import EngineBusyError, GameOverError
from .events import Event, Phase
from .log import LogEntry

if TYPE_CHECKING:
    from .game import Game


def _reaction_order(action: GameAction) -> tuple[int, int]:
    return (-action.priority, action.order_of_play)


class ActionSystem:
    """Runs one root action at a time, synchronously, to completion.

    Sequence of an action: validate (any validator may refuse it: it is cancelled and logged as such), then
    the prepare phase, then the perform phase. Each phase notifies the handlers registered for the action's
    own class; reactions they add are sorted by priority (descending) then order of play (ascending), stably,
    and each is resolved as its own full sequence before the next sibling (depth-first). After the root
    action, the death-reaper event is posted again and again while it produces reactions.
    """

    __slots__ = ("game", "_open", "active", "_validate", "_validate_target", "_prepare", "_perform")

    def __init__(self, game: Game) -> None:
        self.game = game
        self._open: list[GameAction] | None = None
        self.active = False
        tables = game.bus.tables  # the bus edits these dicts in place, so holding them stays current
        self._validate, self._validate_target = tables[Phase.VALIDATE], tables[Phase.VALIDATE_TARGET]
        self._prepare, self._perform = tables[Phase.PREPARE], tables[Phase.PERFORM]

    def perform(self, action: GameAction, *, validated: bool = False) -> None:
        """Perform a root action and everything it sets off. Refuses to start while another one runs.

        ``validated`` skips the validators for a root action the caller has just checked with :meth:`refusal`.
        """
        if self.active:
            raise EngineBusyError(
                f"cannot perform {action.kind} while another action is resolving; "
                "handlers must use add_reaction() instead"
            )
        if self.game.state.result is not None:
            raise GameOverError(f"cannot perform {action.kind}: the game is over ({self.game.state.result.value})")
        self.active = True
        try:
            self._sequence(action, 0, validated)
            self._death_phase(action)
        finally:
            self.active = False
            self._open = None

    def add_reaction(self, action: GameAction) -> None:
        """Queue an action as a reaction to the phase being notified right now."""
        if self._open is None:
            raise EngineBusyError(f"{action.kind} added as a reaction outside of an action's phase")
        self._open.append(action)

    def refusal(self, action: GameAction) -> str | None:
        """Return the first validator's reason to refuse the action, or None if all accept it."""
        game = self.game
        cls = type(action)
        for validator in self._validate.get(cls, ()):
            reason = validator(game, action)
            if reason is not None:
                return reason
        for validator in self._validate_target.get(cls, ()):
            reason = validator(game, action)
            if reason is not None:
                return reason
        return None

    def _sequence(self, action: GameAction, depth: int, validated: bool = False) -> None:
        state = self.game.state
        log = state.log
        if state.result is not None:
            reason: str | None = "the game is over"
        else:
            reason = None if validated else self.refusal(action)
        if reason is not None:
            action.cancel()
            if log is not None:
                log.append(LogEntry(depth, action, reason))
            return
        if log is not None:
            log.append(LogEntry(depth, action))
        cls = type(action)
        self._main_phase(action, self._prepare.get(cls), depth)
        self._main_phase(action, self._perform.get(cls), depth)

    def _main_phase(self, action: GameAction, handlers: tuple | None, depth: int) -> None:
        if not handlers or action.cancelled:
            return
        reactions: list[GameAction] = []
        game = self.game
        for handler in handlers:
            self._open = reactions
            handler(game, action)
        self._open = None
        self._resolve(reactions, depth + 1)

    def _resolve(self, reactions: list[GameAction], depth: int) -> None:
        if len(reactions) > 1:
            reactions.sort(key=_reaction_order)
        for reaction in reactions:
            self._sequence(reaction, depth)

    def _death_phase(self, root: GameAction) -> None:
        game = self.game
        handlers = game.bus.events[Event.DEATH_REAPER]
        while True:
            reactions: list[GameAction] = []
            for handler in handlers:
                self._open = reactions
                handler(game, root)
            self._open = None
            if not reactions:
                return
            self._resolve(reactions, 0)
