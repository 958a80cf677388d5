"""The per-game notification bus: validators and phase handlers keyed by action class, in registration order."""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from .actions import GameAction
    from .game import Game

Handler = Callable[["Game", "GameAction"], None]
Validator = Callable[["Game", "GameAction"], "str | None"]


class Phase(str, Enum):
    """Where in an action's sequence a handler runs."""

    VALIDATE = "validate"  # may return a reason to refuse the action; never mutates state
    VALIDATE_TARGET = "validate_target"  # the same, for checks of an action's declared target
    PREPARE = "prepare"  # 'will' happen: reactions resolve before the perform phase
    PERFORM = "perform"  # 'did' happen: the owning system changes state here, others react
    # Hearthstone's later phases of a play, after the perform phase, each opened by a death phase (see STEPS)
    BATTLECRY = "battlecry"  # a played minion's battlecry, a cast spell's text
    AFTER_PLAY = "after_play"  # 'after your opponent plays / casts' secrets
    AFTER_SUMMON = "after_summon"  # 'after you summon' triggers for a played minion


#: The phases that follow an action's perform phase, in order. Before each one, and after the last, the action
#: system resolves deaths (posts the death reaper until no one dies), so that a minion killed in one phase (by a
#: battlecry, say) is gone before the next (its 'after you summon' trigger does not fire).
STEPS = (Phase.BATTLECRY, Phase.AFTER_PLAY, Phase.AFTER_SUMMON)


class Event(str, Enum):
    """Notifications that are not tied to one action class."""

    DEATH_REAPER = "death_reaper"  # posted after each root action and play phase until it produces no reactions


def all_subclasses(cls: type) -> list[type]:
    """Every subclass of ``cls`` defined so far, at any depth."""
    out: list[type] = []
    subs: list[type] = cls.__subclasses__()
    for sub in subs:
        out.append(sub)
        out.extend(all_subclasses(sub))
    return out


#: What the action system runs for one action class: its validators (target checks last), its prepare and perform
#: handlers, then the handlers of each later step (:data:`STEPS`) that has any, in order (empty for most classes).
Plan = tuple[tuple, tuple, tuple, tuple]


class EventBus:
    """Per-game handler tables. Handlers are plain functions of ``(game, action)``.

    Dispatch is by the action's exact class, so an ``Overdraw`` does not reach ``DrawCards`` handlers unless
    they were registered with ``subclasses=True``. Tables hold tuples that are replaced on registration, so
    a clone copies only the dictionaries and later registrations on one game never reach another. ``plans``
    caches each class's :data:`Plan` (one lookup per action); every registration clears it in place.
    """

    __slots__ = ("tables", "events", "plans")

    def __init__(self) -> None:
        self.tables: dict[Phase, dict[type, tuple]] = {phase: {} for phase in Phase}
        self.events: dict[Event, tuple] = {event: () for event in Event}
        self.plans: dict[type, Plan] = {}

    def on(self, phase: Phase, action_class: type, handler: Callable, *, subclasses: bool = False) -> None:
        """Register ``handler`` for one phase of ``action_class`` (and its subclasses if asked)."""
        table = self.tables[phase]
        for cls in [action_class, *(all_subclasses(action_class) if subclasses else [])]:
            table[cls] = table.get(cls, ()) + (handler,)
        self.plans.clear()

    def on_event(self, event: Event, handler: Handler) -> None:
        """Register ``handler`` for a notification such as the death reaper."""
        self.events[event] = self.events[event] + (handler,)

    def off(self, phase: Phase, action_class: type, handler: Callable) -> None:
        """Remove a handler registered with :meth:`on`."""
        table = self.tables[phase]
        table[action_class] = tuple(h for h in table.get(action_class, ()) if h is not handler)
        self.plans.clear()

    def plan(self, action_class: type) -> Plan:
        """Return (validators, prepare handlers, perform handlers, later steps' handlers) of exactly this class,
        cached; the last holds one tuple of handlers per step of :data:`STEPS` that has any."""
        plan = self.plans.get(action_class)
        if plan is None:
            tables = self.tables
            validators = tables[Phase.VALIDATE].get(action_class, ()) + tables[Phase.VALIDATE_TARGET].get(
                action_class, ())
            steps: tuple = ()
            for step in STEPS:
                handlers = tables[step].get(action_class, ())
                if handlers:
                    steps += (handlers,)
            plan = self.plans[action_class] = (validators, tables[Phase.PREPARE].get(action_class, ()),
                                               tables[Phase.PERFORM].get(action_class, ()), steps)
        return plan

    def handlers(self, phase: Phase, action_class: type) -> tuple:
        """Return the handlers of one phase for exactly this class."""
        return self.tables[phase].get(action_class, ())

    def phase_handlers(self, phase: Phase) -> dict[type, tuple]:
        """Action class -> handlers of one phase (read-only: register through :meth:`on`)."""
        return self.tables[phase]

    def copy(self) -> EventBus:
        """Return a bus with the same registrations that can diverge from this one."""
        bus = EventBus.__new__(EventBus)
        bus.tables = {phase: dict(table) for phase, table in self.tables.items()}
        bus.events = dict(self.events)
        bus.plans = dict(self.plans)
        return bus
