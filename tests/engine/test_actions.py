"""The written-out ``__init__`` of every action class (and of Card) takes exactly its dataclass fields.

They replace what ``@dataclass`` would generate (see :mod:`ccg_env.engine.actions`), so each must keep its
fields' order, defaults and keyword-only marks, and build fresh lists for the fields that default to one.
"""

import dataclasses
import inspect

import pytest

from ccg_env.engine import actions
from ccg_env.engine.actions import GameAction, Hit
from ccg_env.engine.definitions import HERO, Ability
from ccg_env.engine.state import Card, Result
from ccg_env.engine.vocabulary import EffectKind, Selector, Trigger, Zones

CLASSES = [Card, Hit] + sorted((c for c in vars(actions).values() if isinstance(c, type)
                                and issubclass(c, GameAction)), key=lambda c: c.__name__)


def _expected_parameters(cls: type) -> list[tuple[str, object, object]]:
    """(name, kind, default) of each parameter, as @dataclass would write its __init__ (a list default: None)."""
    fields = dataclasses.fields(cls)
    ordered = [f for f in fields if not f.kw_only] + [f for f in fields if f.kw_only]
    expected = []
    for f in ordered:
        kind = inspect.Parameter.KEYWORD_ONLY if f.kw_only else inspect.Parameter.POSITIONAL_OR_KEYWORD
        if f.default_factory is not dataclasses.MISSING:
            default = None
        elif f.default is not dataclasses.MISSING:
            default = f.default
        else:
            default = inspect.Parameter.empty
        expected.append((f.name, kind, default))
    return expected


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_init_takes_exactly_the_fields_in_dataclass_order(cls):
    parameters = list(inspect.signature(cls.__init__).parameters.values())[1:]  # self
    if any(p.kind is inspect.Parameter.VAR_POSITIONAL for p in parameters):
        pytest.skip("a compiled __init__ shows only (*args, **kwargs); the pure-Python tier checks this")
    assert [(p.name, p.kind, p.default) for p in parameters] == _expected_parameters(cls)


CARD_FIELDS = {"card", "attacker", "defender", "hero", "source", "target", "trigger_card", "unplayed", "beside",
               "left_of"}
CARD_LIST_FIELDS = {"targets", "cards", "drawn", "returned"}
FLAG_FIELDS = {"cancelled", "played", "sleeping", "fizzled", "left"}


def _value_for(name: str, number: int) -> object:
    """A distinct value of the field's declared type, by field name (the compiled build checks types, and its
    dataclass annotations do not keep unions)."""
    card = Card(100 + number, HERO, 0, Zones.HAND, number, number, number, number, 0)
    special = {"definition": HERO, "zone": Zones.HAND, "result": Result.DRAW, "hits": [Hit(None, card, number)],
               "ability": Ability(Trigger.BATTLECRY, EffectKind.DAMAGE, Selector.CHOSEN), "reason": f"reason {number}",
               "right_neighbours": [None, card]}
    if name in special:
        return special[name]
    if name in CARD_FIELDS:
        return card
    if name in CARD_LIST_FIELDS:
        return [card]
    return True if name in FLAG_FIELDS else number


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_init_sets_every_field_and_fresh_lists(cls):
    """Built by keyword from distinct values, each field holds its own; list fields left out start empty and new."""
    fields = dataclasses.fields(cls)
    values = {f.name: _value_for(f.name, number) for number, f in enumerate(fields, 1)}
    built = cls(**values)
    for f in fields:
        held = getattr(built, f.name)
        assert held == values[f.name] and (held is values[f.name] or not isinstance(held, list)), f.name
    required = {f.name: values[f.name] for f in fields
                if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING}
    first, second = cls(**required), cls(**required)
    for f in fields:
        if f.default_factory is not dataclasses.MISSING:
            assert getattr(first, f.name) == [] and getattr(first, f.name) is not getattr(second, f.name)
        elif f.default is not dataclasses.MISSING:
            assert getattr(first, f.name) == f.default
