"""The action system: validate, prepare and perform each action, resolve reactions depth-first, reap the dead."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from .actions import PROBE_CARD, Attack, GameAction, PlayCard, StopLoop, UseHeroPower
from .errors import EngineBusyError, GameOverError
from .events import Event, EventBus
from .log import LogEntry
from .state import Card
from .vocabulary import NO_ZONE

if TYPE_CHECKING:
    from .game import Game


_DEATH_REAPER: Final = Event.DEATH_REAPER  # a plain name: enum lookups through the class are slow on Python 3.11

# Bounds on what one root action may set off. Cards are user data, and a card can react to itself without end
# (a minion that damages itself whenever it is damaged; a deathrattle that summons itself beside a minion that
# damages every summoned minion). Past a bound the game ends as a draw with Result.LOOP (see StopLoop).
# Seeded random play of 9,800 games over all 49 ordered pairs of packaged decks (831,483 root actions with deaths
# resolved per phase of a play; `python benchmarks/loop_bounds.py --games-per-pair 200`) reached depth 7, 4
# death-phase rounds and 26 actions per root action at most: the bounds are 12x to 385x that, so no normal game
# meets them. The depth bound also keeps the recursion far from the end of the C stack in the compiled build
# (a level is two native frames) and from Python's recursion limit in the pure build (two Python frames a level).
#: Reactions nested deeper than this in one root action end the game as a loop.
MAX_REACTION_DEPTH: Final = 100
#: Death-phase rounds (reaper posts that produced reactions) in one root action, between its steps and after it.
MAX_DEATH_ROUNDS: Final = 50
#: Actions (reactions included) one root action may set off in all.
MAX_ACTIONS_PER_ROOT: Final = 10_000


class _LoopBound(Exception):
    """Raised inside the action system when a bound is passed; :meth:`ActionSystem.perform` ends the game."""

    def __init__(self, reason: str, action: GameAction) -> None:
        super().__init__(reason)
        self.reason = reason
        self.action = action


def _reaction_order(action: GameAction) -> tuple[int, int]:
    return (-action.priority, action.order_of_play)


class ActionSystem:
    """Runs one root action at a time, synchronously, to completion.

    Sequence of an action: validate (any validator may refuse it: it is cancelled and logged as such), then
    the prepare phase, then the perform phase, then the later steps of a play (``events.STEPS``: battlecry,
    after play, after summon) that the action's class has handlers for. Each phase notifies the handlers
    registered for the action's own class; reactions they add are sorted by priority (descending) then order of
    play (ascending), stably, and each is resolved as its own full sequence before the next sibling
    (depth-first). Deaths are resolved (the death-reaper event is posted again and again while it produces
    reactions) before each later step and after the last, as Hearthstone does at the end of each phase of a
    play, and after the root action.

    It keeps no reference to its game (the game passes itself in), so a game and its action system form no
    reference cycle: a finished game is freed at once instead of waiting for the cycle collector.
    """

    __slots__ = ("_open", "active", "_bus", "_plans", "play_probe", "attack_probe", "hero_power_probe",
                 "_actions_left", "_death_rounds_left", "_settled_at")

    def __init__(self, bus: EventBus) -> None:
        #: the reactions list of the phase being notified (handlers append to it), None between phases
        self._open: list[GameAction] | None = None
        self.active = False
        self._bus = bus
        self._plans = bus.plans  # the bus clears this dict in place on registration: holding it stays current
        #: actions that legal-move generation points at each possible source to ask the validators (never performed)
        self.play_probe, self.attack_probe = PlayCard(0, PROBE_CARD), Attack(0, PROBE_CARD, PROBE_CARD)
        self.hero_power_probe = UseHeroPower(0, PROBE_CARD)
        #: actions the running root action may still set off (see MAX_ACTIONS_PER_ROOT)
        self._actions_left = MAX_ACTIONS_PER_ROOT
        #: death-phase rounds the running root action may still have (see MAX_DEATH_ROUNDS)
        self._death_rounds_left = MAX_DEATH_ROUNDS
        #: _actions_left when the last death phase found no one to reap (-1: none yet in this root action). State
        #: changes only through actions, so while it equals _actions_left a death phase would find no one either.
        self._settled_at = -1

    def perform(self, game: Game, action: GameAction, *, validated: bool = False) -> None:
        """Perform a root action of ``game`` and everything it sets off. Refuses to start while another one runs.

        ``validated`` skips the validators for a root action the caller has just checked with :meth:`refusal`.
        A root action that passes a bound (MAX_REACTION_DEPTH, MAX_DEATH_ROUNDS, MAX_ACTIONS_PER_ROOT) is
        broken off where it is, and the game ends as a draw with ``Result.LOOP`` (see :class:`StopLoop`).
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
        self._actions_left = MAX_ACTIONS_PER_ROOT
        self._death_rounds_left = MAX_DEATH_ROUNDS
        self._settled_at = -1
        try:
            try:
                self._sequence(game, action, 0, validated)
                self._death_phase(game, action, 0)
            except _LoopBound as bound:
                self._stop_loop(game, action, bound)
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

    def _stop_loop(self, game: Game, root: GameAction, bound: _LoopBound) -> None:
        """End the game as a loop: perform a StopLoop naming the card that looped, as a root-level action."""
        self._open = None
        self._actions_left = MAX_ACTIONS_PER_ROOT
        self._death_rounds_left = MAX_DEATH_ROUNDS
        self._settled_at = -1
        unplayed = root.card if isinstance(root, PlayCard) and root.card.zone is NO_ZONE else None
        culprit = looping_card(bound.action)
        named = f", card {culprit.definition.id}" if culprit is not None else ""
        stop = StopLoop(game.state.current, culprit, f"{bound.reason} (at {bound.action.kind}{named})", unplayed)
        self._sequence(game, stop, 0, True)

    def _sequence(self, game: Game, action: GameAction, depth: int, validated: bool = False) -> None:
        self._actions_left -= 1
        if self._actions_left < 0:
            raise _LoopBound(f"more than {MAX_ACTIONS_PER_ROOT} actions set off by one action", action)
        state = game.state
        cls = type(action)
        validators, prepare, perform, steps = self._plans.get(cls) or self._bus.plan(cls)
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
        if steps:
            self._steps(game, action, steps, depth)

    def _steps(self, game: Game, action: GameAction, steps: tuple, depth: int) -> None:
        """Run the later steps of a play, each opened by a death phase, with one more death phase after the last.

        A death phase that ends the game (a hero died) ends the play there: the remaining steps do not run.
        """
        state = game.state
        for handlers in steps:
            if action.cancelled:
                return
            self._death_phase(game, action, depth + 1)
            if state.result is not None:
                return
            self._phase(game, action, handlers, depth)
        self._death_phase(game, action, depth + 1)

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
            if depth > MAX_REACTION_DEPTH:
                raise _LoopBound(f"reactions nested more than {MAX_REACTION_DEPTH} deep", reactions[0])
            for reaction in reactions:
                self._sequence(game, reaction, depth)

    def _death_phase(self, game: Game, action: GameAction, depth: int) -> None:
        """Post the death reaper after (a step of) ``action`` while it produces reactions, resolved at ``depth``.

        Skipped when no action has been performed since the last death phase that found no one to reap.
        """
        if self._actions_left == self._settled_at:
            return
        handlers = game.bus.events[_DEATH_REAPER]
        while True:
            reactions: list[GameAction] = []
            self._open = reactions
            for handler in handlers:
                handler(game, action)
            self._open = None
            if not reactions:
                self._settled_at = self._actions_left
                return
            self._death_rounds_left -= 1
            if self._death_rounds_left < 0:
                raise _LoopBound(f"more than {MAX_DEATH_ROUNDS} death-phase rounds", reactions[0])
            if depth > MAX_REACTION_DEPTH:
                raise _LoopBound(f"reactions nested more than {MAX_REACTION_DEPTH} deep", reactions[0])
            if len(reactions) > 1:
                reactions.sort(key=_reaction_order)
            for reaction in reactions:
                self._sequence(game, reaction, depth)


def looping_card(action: GameAction) -> Card | None:
    """The card most likely behind a loop stopped at ``action``.

    That is the card the action fires, plays, summons or reaps, else its source or attacker, else the first of
    its hits' sources (or targets), cards or targets.
    """
    for name in ("card", "source", "attacker"):
        value = getattr(action, name, None)
        if isinstance(value, Card) and value.uid > 0:
            return value
    for name in ("hits", "cards", "targets"):
        values = getattr(action, name, None)
        if values:
            first = values[0]
            if isinstance(first, Card):
                return first
            hit_card = getattr(first, "source", None) or getattr(first, "target", None)
            if isinstance(hit_card, Card):
                return hit_card
    return None
