"""Finding and reading the YAML data files (rules, cards, decks) that ship with the package or a user gives."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from .errors import DataError, shown

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


#: Largest data file read (bytes): the packaged card files are under 20 KB.
MAX_FILE_BYTES = 2_000_000
#: Deepest nesting of lists and mappings in a data file (a card file needs 5).
MAX_NESTING = 20


def read_yaml(path: str | Path) -> Any:
    """Parse one YAML file, turning read and syntax errors into a :class:`DataError` naming the file.

    Data files from others are hostile: anchors and aliases (``&name``, ``*name``, which can make a small file
    expand to gigabytes), files over ``MAX_FILE_BYTES`` and nesting deeper than ``MAX_NESTING`` are refused.
    """
    path = Path(path)
    try:
        with path.open("rb") as handle:
            raw = handle.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise DataError(f"cannot read file: {exc.strerror or exc}", source=str(path)) from None
    if len(raw) > MAX_FILE_BYTES:
        raise DataError(f"file larger than {MAX_FILE_BYTES:,} bytes", source=str(path))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DataError(f"not UTF-8 text: {exc.reason} at byte {exc.start}", source=str(path)) from None
    return parse_yaml(text, str(path))


def parse_yaml(text: str, source: str) -> Any:
    """Parse YAML text under the limits of :func:`read_yaml` (size, no anchors or aliases, bounded nesting); a
    :class:`DataError` names ``source``."""
    if len(text) > MAX_FILE_BYTES:
        raise DataError(f"text longer than {MAX_FILE_BYTES:,} characters", source=source)
    try:
        _check_structure(text, source)
        return yaml.load(text, Loader=_Loader)
    except yaml.YAMLError as exc:
        raise DataError(f"not valid YAML: {shown_error(exc)}", source=source) from None
    except RecursionError:
        raise DataError(f"nested more than {MAX_NESTING} levels deep", source=source) from None


def _check_structure(text: str, source: str) -> None:
    """Refuse anchors, aliases and deep nesting from the parser's events, before anything is built."""
    depth = 0
    for event in yaml.parse(text, Loader=_Loader):
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None) is not None:
            mark = event.start_mark
            raise DataError(f"YAML anchors and aliases (&name, *name) are not allowed in data files (line "
                            f"{mark.line + 1}, column {mark.column + 1})", source=source)
        if isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            if depth > MAX_NESTING:
                mark = event.start_mark
                raise DataError(f"nested more than {MAX_NESTING} levels deep (line {mark.line + 1}, column "
                                f"{mark.column + 1})", source=source)
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1


def shown_error(exc: Exception) -> str:
    """A parser's error message on one line, cut short (it may quote a long line of the file)."""
    text = " ".join(str(exc).split())
    return text if len(text) <= 500 else text[:497] + "..."


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
        raise DataError(f"expected an integer, got {shown(value)}", source=source, item=item, field=key)
    if not minimum <= value <= maximum:
        raise DataError(f"must be between {minimum} and {maximum}, got {shown(value)}", source=source, item=item,
                        field=key)
    return value
