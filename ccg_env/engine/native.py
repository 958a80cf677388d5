"""Whether the engine runs its mypyc-compiled modules or their Python sources, and which one is running.

Installing the package compiles the engine, env and heuristic modules listed here with mypyc when it can (setting
``CCG_ENV_PURE_PYTHON=1`` at install time skips that) and records a hash of every source it compiled in
``_compiled.json``. At import, the compiled modules are used only if all of them are present and match their
sources; otherwise, or with ``CCG_ENV_PURE_PYTHON=1`` at run time, the sources themselves are imported, so an
edited engine never runs stale compiled code. Both builds play identical games (tests/engine/test_native.py).

This module imports nothing from the package: ``setup.py`` reads the module list from it before building.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from dataclasses import fields
from pathlib import Path
from types import ModuleType
from typing import Sequence

#: Modules compiled by the install, by their full names: the ones every decision and env step runs through.
#: The engine's action system, actions, state, targeting, legal-move generation and systems run on every decision
#: (2.8x the decisions per second compiled, benchmarks/README.md); ``engine.attacks`` answers the observation's
#: "can attack" columns; ``env.codec``, ``env.masks``, ``env.observation_writer``, ``env.core`` and ``env.duel``
#: run on every env step (2.2x the batched env's steps). The heuristic (``ccg_env.agents.heuristic``, its
#: ``ccg_env.agents.board_value`` and the ``engine.view`` it reads the game through) decides for the opponent on every env
#: step of training against it and for both players on every step of a search rollout (1.37x the batched env's
#: steps with the heuristic as opponent, 1.7x the search agent's decisions per second). Everything else (card and
#: rules loading, scenarios, JSON, the AEC and Gymnasium adapters, training, the other agents) is plain Python: it
#: runs once per game or less, where compiling gains nothing measurable.
COMPILED_MODULES = tuple(f"ccg_env.{m}" for m in (
    "engine.action_system", "engine.actions", "engine.attacks", "engine.choices", "engine.definitions",
    "engine.events", "engine.factory", "engine.game", "engine.rng", "engine.rules", "engine.state",
    "engine.targeting", "engine.view", "engine.vocabulary", "engine.systems.abilities", "engine.systems.combat",
    "engine.systems.damage", "engine.systems.death", "engine.systems.effects", "engine.systems.hero_power",
    "engine.systems.keywords", "engine.systems.mana", "engine.systems.match", "engine.systems.mulligan",
    "engine.systems.play", "engine.systems.player", "engine.systems.secrets", "engine.systems.summon",
    "engine.systems.victory", "engine.systems.weapons",
    "env.codec", "env.core", "env.duel", "env.masks", "env.observation_writer",
)) + ("ccg_env.agents.board_value", "ccg_env.agents.heuristic")
#: The shared library mypyc builds for all of them (a module of the package).
SHARED_LIBRARY = "ccg_env.engine._native"
#: What the install writes beside this file after compiling: the compiler and each source's hash.
MANIFEST = "_compiled.json"
#: Set to anything but "" or "0" to skip compiling at install time, or to run the sources at run time.
PURE_ENV_VAR = "CCG_ENV_PURE_PYTHON"

_HERE = Path(__file__).resolve().parent
_ROOT = _HERE.parent.parent  # the folder holding the ccg_env package


def source_path(module: str, root: Path = _ROOT) -> Path:
    """The ``.py`` file of a module given by its full name, under ``root`` (the folder holding its package)."""
    return root.joinpath(*module.split(".")).with_suffix(".py")


def source_digests(root: Path = _ROOT) -> dict[str, str]:
    """SHA-256 of every compiled module's source, by module name (modules without a source left out)."""
    paths = {m: source_path(m, root) for m in COMPILED_MODULES}
    return {m: hashlib.sha256(path.read_bytes()).hexdigest() for m, path in paths.items() if path.exists()}


def pure_python_requested() -> bool:
    return os.environ.get(PURE_ENV_VAR, "") not in ("", "0")


def _extension_of(module: str) -> Path | None:
    stem = _ROOT.joinpath(*module.split("."))
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = stem.parent / (stem.name + suffix)
        if path.exists():
            return path
    return None


def _manifest() -> dict:
    """What the install recorded after compiling (empty when it did not compile, or the file is unreadable)."""
    try:
        manifest = json.loads((_HERE / MANIFEST).read_text())
    except (OSError, ValueError):
        return {}
    return manifest if isinstance(manifest, dict) else {}


def out_of_date(manifest: dict | None = None) -> list[str]:
    """The compiled modules that are missing or do not match their sources (all of them when none was built).

    A module with neither a source nor a compiled file is not part of this tree and does not count.
    """
    recorded = (manifest if manifest is not None else _manifest()).get("sources")
    recorded = recorded if isinstance(recorded, dict) else {}
    current = source_digests()
    present = [m for m in COMPILED_MODULES if m in current or _extension_of(m) is not None]
    return [m for m in present if _extension_of(m) is None or recorded.get(m) != current.get(m)]


def _choose(built: bool) -> tuple[bool, str]:
    """Return (run the compiled modules?, a one-line description of the engine build that runs)."""
    if pure_python_requested():
        return False, f"pure Python ({PURE_ENV_VAR} is set)"
    if not built:
        return False, "pure Python (not compiled)"
    manifest = _manifest()
    stale = out_of_date(manifest)
    if stale:
        shown = ", ".join(stale[:4]) + (f" and {len(stale) - 4} more" if len(stale) > 4 else "")
        warnings.warn(
            f"ccg_env: the compiled engine does not match its sources ({shown}); running the pure-Python engine "
            f"instead (same games, slower). Rebuild with `make build` or `pip install -e .`, or set "
            f"{PURE_ENV_VAR}=1 to silence this.", RuntimeWarning, stacklevel=3)
        return False, "pure Python (compiled modules out of date)"
    return True, f"compiled ({manifest.get('compiler', 'mypyc')})"


class _SourcesFirst(importlib.abc.MetaPathFinder):
    """Imports the listed modules from their ``.py`` files even where a compiled module sits beside them."""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = frozenset(names)

    def find_spec(self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None):
        if fullname not in self.names:
            return None
        return importlib.util.spec_from_file_location(fullname, source_path(fullname))


def select_build() -> tuple[bool, str]:
    """Decide between compiled modules and sources; called once, before any of them is imported.

    ``ccg_env.engine`` calls it first thing, and ``ccg_env.env`` imports the engine before its own modules.
    """
    built = any(_extension_of(m) is not None for m in COMPILED_MODULES)
    compiled, description = _choose(built)
    if built and not compiled:  # compiled modules sit beside the sources: import the sources instead
        sys.meta_path.insert(0, _SourcesFirst(COMPILED_MODULES))
    return compiled, description


def allow_slotted_subclasses(cls: type) -> None:
    """Give a compiled dataclass the ``__slots__`` its Python version has.

    A compiled class keeps its fields in its native layout and has no ``__slots__``; a plain-Python subclass
    declared with ``@dataclass(slots=True)`` would then re-declare every inherited field as a slot of its own,
    hiding the values from the compiled code that reads them.
    """
    if "__slots__" not in vars(cls):
        cls.__slots__ = tuple(f.name for f in fields(cls))  # type: ignore[attr-defined]


if __name__ == "__main__":  # `python -m ccg_env.engine.native`: exit 0 when the compiled modules are current
    sys.exit(1 if out_of_date() else 0)
