"""pytest plugin for mutation runs only: each test starts with the engine's per-process caches empty.

mutmut learns which tests to run against a mutant by recording, once, which functions each test calls. The engine
builds its event bus (and so runs each system's ``install``), loads the packaged cards and reads the packaged rules
once per process; without this plugin those functions would be recorded for the first test only, and a mutant in
them would be checked against that one test. ``[tool.mutmut]`` loads it (``-p benchmarks.mutmut_plugin``); plain
test runs never do. Caches named here that a refactor removes are skipped.
"""

from __future__ import annotations

import sys

import pytest

#: Module globals holding a lazily built per-process value (reset to None), by module.
LAZY_GLOBALS = {"ccg_env.engine.game": ("_DEFAULT_BUS",), "ccg_env.engine.cards": ("_DEFAULT_CARDS",)}


def clear_engine_caches() -> None:
    """Empty every ``functools`` cache of the package's modules and reset the lazy globals above."""
    for name, module in list(sys.modules.items()):
        if module is None or not (name == "ccg_env" or name.startswith("ccg_env.")):
            continue
        for value in list(vars(module).values()):
            clear = getattr(value, "cache_clear", None)
            if callable(clear) and getattr(value, "__module__", None) == name:
                clear()
        for attribute in LAZY_GLOBALS.get(name, ()):
            if hasattr(module, attribute):
                setattr(module, attribute, None)


@pytest.fixture(autouse=True)
def _fresh_engine_caches():
    clear_engine_caches()
    yield
