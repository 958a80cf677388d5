"""Errors the engine raises, each naming what was wrong and where."""

from __future__ import annotations

import reprlib

_SHORT = reprlib.Repr()
_SHORT.maxstring, _SHORT.maxother, _SHORT.maxlong, _SHORT.maxlevel = 60, 60, 40, 2
_SHORT.maxlist = _SHORT.maxtuple = _SHORT.maxdict = _SHORT.maxset = 5
_LONGEST = 200


def shown(value: object) -> str:
    """A value as an error message quotes it: its repr, cut short (a hostile file's values can be huge)."""
    try:
        text = _SHORT.repr(value)
    except Exception:  # noqa: BLE001 - a value whose repr fails is still named by its type
        return f"<{type(value).__name__}>"
    return text if len(text) <= _LONGEST else text[:_LONGEST - 3] + "..."


class EngineError(Exception):
    """Base class of the engine's errors."""


class IllegalActionError(EngineError, ValueError):
    """A choice that is not among the legal actions; the game state is left exactly as it was."""


class EngineBusyError(EngineError, RuntimeError):
    """A new root action was started while another one was resolving."""


class GameOverError(IllegalActionError):
    """An action was attempted after the game ended."""


class DataError(EngineError, ValueError):
    """A card, deck, rules or scenario file (or dict) is invalid; the message names file, item and field."""

    def __init__(self, message: str, *, source: str = "<data>", item: str | None = None, field: str | None = None):
        where = source
        if item:
            where += f", {item}"
        if field:
            where += f", field '{field}'"
        super().__init__(f"{where}: {message}")
        self.source, self.item, self.field, self.reason = source, item, field, message


class StateError(EngineError, ValueError):
    """A JSON state that cannot be loaded (corrupt, foreign or inconsistent)."""
