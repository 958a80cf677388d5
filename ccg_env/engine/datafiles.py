"""Finding and reading the YAML data files (rules, cards, decks) that ship with the package or a user gives."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from .errors import DataError

try:  # the C loader is several times faster when PyYAML was built with it
    _Loader: type = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - depends on the PyYAML build
    _Loader = yaml.SafeLoader


@lru_cache(maxsize=1)
def config_dir() -> Path:
    """Return the directory holding the default ``rules/``, ``cards/`` and ``decks/`` data.

    An installed package carries it as ``ccg_env/configs``; a source checkout has it at the top level.
    """
    packaged = Path(__file__).resolve().parent.parent / "configs"
    if (packaged / "rules").is_dir():
        return packaged
    checkout = Path(__file__).resolve().parents[2] / "configs"
    if (checkout / "rules").is_dir():
        return checkout
    try:
        from importlib.resources import files

        resource = Path(str(files("ccg_env.configs")))
        if (resource / "rules").is_dir():
            return resource
    except (ModuleNotFoundError, TypeError):
        pass
    raise DataError("cannot find the default configs directory (rules/, cards/, decks/)", source=str(packaged))


def default_path(kind: str, name: str) -> Path:
    """Return the packaged file ``<kind>/<name>.yaml``."""
    return config_dir() / kind / f"{name}.yaml"


def read_yaml(path: str | Path) -> Any:
    """Parse one YAML file, turning read and syntax errors into a :class:`DataError` naming the file."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise DataError(f"cannot read file: {exc.strerror or exc}", source=str(path)) from None
    try:
        return yaml.load(text, Loader=_Loader)
    except yaml.YAMLError as exc:
        raise DataError(f"not valid YAML: {exc}", source=str(path)) from None


def check_keys(data: Any, allowed: set[str], required: set[str], *, source: str, item: str | None) -> dict:
    """Check that ``data`` is a mapping with only known keys and all required keys."""
    if not isinstance(data, dict):
        raise DataError(f"expected a mapping, got {type(data).__name__}", source=source, item=item)
    for key in data:
        if key not in allowed:
            raise DataError(f"unknown field (allowed: {', '.join(sorted(allowed))})", source=source, item=item,
                            field=str(key))
    for key in sorted(required):
        if key not in data:
            raise DataError("missing required field", source=source, item=item, field=key)
    return data


def get_int(data: dict, key: str, default: int | None, *, source: str, item: str | None,
            minimum: int = 0, maximum: int = 1000) -> int:
    """Read an integer field within bounds."""
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise DataError(f"expected an integer, got {value!r}", source=source, item=item, field=key)
    if not minimum <= value <= maximum:
        raise DataError(f"must be between {minimum} and {maximum}, got {value}", source=source, item=item,
                        field=key)
    return value
