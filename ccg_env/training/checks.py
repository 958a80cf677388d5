"""One validation helper for the settings classes of a training config, every error naming the key at fault.

A settings class (the ``imitation:``, ``league:`` and ``rllib:`` mappings) is a frozen dataclass whose numeric fields
declare their bounds with :func:`whole` or :func:`number` and whose other fields are checked against their
annotations. :func:`settings_from_dict` builds it from a YAML mapping: options removed from the code are dropped at
their off value and refused by name otherwise (:func:`without_removed`), unknown keys are refused with the known
ones listed, every value is checked, and then the class's own ``check(where)``, if it has one, checks what bounds
and types cannot say.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from typing import Any, TypeVar, Union

from ..engine.errors import shown

Settings = TypeVar("Settings")


def whole(default: int | None, low: int = 1) -> Any:
    """A field holding a whole number of at least ``low`` (or None, where that is the default)."""
    return dataclasses.field(default=default, metadata={"whole": low})


def number(default: float, low: float = 0.0, high: float | None = None, above: bool = False) -> Any:
    """A field holding a number of at least ``low`` (above it with ``above``) and at most ``high``."""
    return dataclasses.field(default=default, metadata={"number": (low, high, above)})


def matches(value: Any, hint: Any) -> bool:
    """Whether a YAML value fits an annotation (ints count as floats; bools are not ints)."""
    origin = typing.get_origin(hint)
    if origin in (Union, types.UnionType):
        return any(matches(value, arg) for arg in typing.get_args(hint))
    if hint is type(None):
        return value is None
    if hint is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return hint is Any or isinstance(value, origin or hint)


def type_name(hint: Any) -> str:
    """A type as a person reads it: "int", "float or null", "list[str]" (not "<class 'int'>")."""
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        return " or ".join(type_name(arg) for arg in typing.get_args(hint))
    if hint is type(None):
        return "null"
    if typing.get_origin(hint) is None and isinstance(hint, type):
        return hint.__name__
    return str(hint).replace("typing.", "")


def check_keys(cls: type, values: dict[str, Any], where: str, *, key_word: str = "", bounded: bool = False) -> None:
    """Raise ValueError naming the first key of ``values`` that is not a field of ``cls``, or whose value does not
    fit the field's annotation (fields with declared bounds only with ``bounded``: else :func:`check_fields` names
    them); ``key_word`` goes before the key's name in the message."""
    fields = {field.name: field for field in dataclasses.fields(cls)}  # type: ignore[arg-type]
    hints = typing.get_type_hints(cls)
    for key, value in values.items():
        if key not in fields:
            raise ValueError(f"{where}: unknown key {shown(key)}; known keys: {', '.join(sorted(fields))}")
        skipped = not bounded and ("whole" in fields[key].metadata or "number" in fields[key].metadata)
        if not skipped and not matches(value, hints[key]):
            raise ValueError(f"{where}: {key_word}{shown(key) if key_word else key} expects "
                             f"{type_name(hints[key])}, got {shown(value)}")


def without_removed(values: dict[str, Any], removed: dict[str, Any], where: str) -> dict[str, Any]:
    """``values`` less the ``removed`` options that hold their "off" value; ValueError naming any other one."""
    for key, off in removed.items():
        if key in values and values[key] != off:
            raise ValueError(f"{where}: {key} was removed (it measured no gain; see docs/training.md), got "
                             f"{values[key]!r}: drop the key")
    return {key: value for key, value in values.items() if key not in removed}


def check_fields(settings: Any, where: str) -> None:
    """Raise ValueError naming the first field outside the bounds it declares (:func:`whole`, :func:`number`)."""
    for field in dataclasses.fields(settings):
        value = getattr(settings, field.name)
        if "whole" in field.metadata and not (value is None and field.default is None):
            low = field.metadata["whole"]
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                wanted = f"at least {low}" if isinstance(value, int) and not isinstance(value, bool) else \
                    f"a whole number of at least {low}"
                raise ValueError(f"{where}: {field.name} must be {wanted}, got {value!r}")
        if "number" in field.metadata:
            low, high, above = field.metadata["number"]
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value < low or \
                    (above and value == low) or (high is not None and value > high):
                bounds = f"{'above' if above else 'at least'} {low:g}" + (f" and at most {high:g}" if high is not None else "")
                raise ValueError(f"{where}: {field.name} must be {bounds}, got {value!r}")


def settings_from_dict(cls: type[Settings], values: Any, where: str,
                       removed: dict[str, Any] | None = None) -> Settings:
    """The settings dataclass ``cls`` from a mapping of a config, checked; every error starts with ``where``."""
    if not isinstance(values, dict):
        raise ValueError(f"{where}: expected a mapping of settings, got {type(values).__name__}")
    values = without_removed(values, removed or {}, where)
    check_keys(cls, values, where)
    settings = cls(**values)
    check_fields(settings, where)
    if hasattr(settings, "check"):
        settings.check(where)
    return settings
