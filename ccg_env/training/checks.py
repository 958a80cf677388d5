"""One validation helper for the settings mappings of a training config, every error naming the key at fault.

A settings class (the ``imitation:`` and ``league:`` mappings) is a frozen dataclass whose numeric fields declare
their bounds with :func:`whole` or :func:`number`. :func:`settings_from_dict` builds it from a YAML mapping: options
removed from the code are dropped at their off value and refused by name otherwise (:func:`without_removed`),
unknown keys are refused with the known ones listed, every bounded field is checked, and then the class's own
``check(where)``, if it has one, checks what bounds cannot say.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

Settings = TypeVar("Settings")


def whole(default: int, low: int = 1) -> Any:
    """A field holding a whole number of at least ``low``."""
    return dataclasses.field(default=default, metadata={"whole": low})


def number(default: float, low: float = 0.0, high: float | None = None, above: bool = False) -> Any:
    """A field holding a number of at least ``low`` (above it with ``above``) and at most ``high``."""
    return dataclasses.field(default=default, metadata={"number": (low, high, above)})


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
        if "whole" in field.metadata:
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
    known = {field.name for field in dataclasses.fields(cls)}  # type: ignore[arg-type]
    for key in values:
        if key not in known:
            raise ValueError(f"{where}: unknown key {key!r}; known keys: {', '.join(sorted(known))}")
    settings = cls(**values)
    check_fields(settings, where)
    if hasattr(settings, "check"):
        settings.check(where)
    return settings
