"""The action system: validate, prepare and perform each action, resolve reactions depth-first, reap the dead."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from .actions import PROBE_CARD, Attack, GameAction, PlayCard
from .errors import EngineBusyError, GameOverError
from .events import Event, EventBus
from .log import LogEntry

if TYPE_CHECKING:
    from .game import Game


_DEATH_REAPER: Final = Event.DEATH_REAPER  # a plain name: enum lookups through the class are slow on Python 3.11


def _reaction_order(action: GameAction) -> tuple[int, int]:
    return (-action.priority, action.order_of_play)


class ActionSystem:
    """Runs one root action at a time, synchronously, to completion.

    Sequence of an action: validate (any validator may refuse it: it is cancelled and logged as such), then
    the prepare phase, then the perform phase. Each phase notifies the handlers registered for the action's
    own class; reactions they add are sorted by priority (descending) then order of play (ascending), stably,
    and each is resolved as its own full sequence before the next sibling (depth-first). After the root
    action, the death-reaper event is posted again and again while it produces reactions.

    It keeps no reference to its game (the game passes itself in), so a game and its action system form no
    reference cycle: a finished game is freed at once instead of waiting for the cycle collector.
    """

    __slots__ = ("_open", "active", "_bus", "_plans", "play_probe", "attack_probe")

    def __init__(self, bus: EventBus) -> None:
        #: the reactions list of the phase being notified (handlers append to it), None between phases
        self._open: list[GameAction] | None = None
        self.active = False
        self._bus = bus
        self._plans = bus.plans  # the bus clears this dict in place on registration: holding it stays current
        #: actions that legal-move generation points at each possible source to ask the validators (never performed)
        self.play_probe, self.attack_probe = PlayCard(0, PROBE_CARD), Attack(0, PROBE_CARD, PROBE_CARD)

    def perform(self, game: Game, action: GameAction, *, validated: bool = False) -> None:
        """Perform a root action of ``game`` and everything it sets off. Refuses to start while another one runs.

        ``validated`` skips the validators for a root action the caller has just checked with :meth:`refusal`.
        """
        if self.active:
            raise EngineBusyError(
                f"cannot perform {action.kind} while another action is resolving; "
                "handlers must use add_reaction() instead"
            )
        if game.state.result is not None:
            raise GameOverError(f"cannot perform {action.kind}: the game is over ({game.state.result.value})")
        game.moves = None  # the legal moves listed for the state before this action no longer hold
        self.active = True
        try:
            self._sequence(game, action, 0, validated)
            self._death_phase(game, action)
        finally:
            self.active = False
            self._open = None

    def refusal(self, game: Game, action: GameAction) -> str | None:
        """Return the first validator's reason to refuse the action in ``game``, or None if all accept it."""
        cls = type(action)
        for validator in (self._plans.get(cls) or self._bus.plan(cls))[0]:
            reason = validator(game, action)
            if reason is not None:
                return reason
        return None

    def _sequence(self, game: Game, action: GameAction, depth: int, validated: bool = False) -> None:
        state = game.state
        cls = type(action)
        validators, prepare, perform = self._plans.get(cls) or self._bus.plan(cls)
        reason: str | None = None
        if state.result is not None:
            reason = "the game is over"
        elif not validated:
            for validator in validators:
                reason = validator(game, action)
                if reason is not None:
                    break
        log = state.log
        if reason is not None:
            action.cancel()
            if log is not None:
                log.append(LogEntry(depth, action, reason))
            return
        if log is not None:
            log.append(LogEntry(depth, action))
        if prepare and not action.cancelled:
            self._phase(game, action, prepare, depth)
        if perform and not action.cancelled:
            self._phase(game, action, perform, depth)

    def _phase(self, game: Game, action: GameAction, handlers: tuple, depth: int) -> None:
        """Notify the handlers of one phase, then resolve the reactions they queued, depth-first."""
        reactions: list[GameAction] = []
        self._open = reactions
        for handler in handlers:
            handler(game, action)
        self._open = None
        if reactions:
            if len(reactions) > 1:
                reactions.sort(key=_reaction_order)
            depth += 1
            for reaction in reactions:
                self._sequence(game, reaction, depth)

    def _death_phase(self, game: Game, root: GameAction) -> None:
        handlers = game.bus.events[_DEATH_REAPER]
        while True:
            reactions: list[GameAction] = []
            self._open = reactions
            for handler in handlers:
                handler(game, root)
            self._open = None
            if not reactions:
                return
            if len(reactions) > 1:
                reactions.sort(key=_reaction_order)
            for reaction in reactions:
                self._sequence(game, reaction, 0)
