"""pytest plugin for mutation runs only: fresh engine caches for each test, and a fork server that preloads the project.

mutmut learns which tests to run against a mutant by recording, once, which functions each test calls. The engine
builds its event bus (and so runs each system's ``install``), loads the packaged cards and reads the packaged rules
once per process; without :func:`clear_engine_caches` before every test, those functions would be recorded for the
first test only, and a mutant in them would be checked against that one test (and would reuse a bus or card set
built before the test, by whatever code ran first). ``[tool.mutmut]`` loads this plugin (``-p
benchmarks.mutmut_plugin``) in every run mutmut makes: recording, the clean run, the fork server and each mutant's
run. Plain test runs never load it.

The fork server (``forkserver_warmup = "collect"``) imports the project and collects the tests once; each mutant's
process is forked from it with all of that in memory, instead of compiling and importing the mutated package (every
mutant's copy of every function, 14 MB of source) and the test modules afresh. mutmut's trampolines pick the mutant
when a function is called, so preloaded code runs the mutant. What the preload cannot give a mutant is a value
computed while importing and collecting (a module constant such as ``targeting.ATTACKABLE``, a test module's
``CARDS = load_cards()``, a parametrization): the server computed it with the original code. So the server records
which mutated functions run while it imports and collects (mutmut's own call recording, the one ``mutmut run`` uses
to map tests to functions), and a mutant of one of those functions gets the old treatment: its process forgets every
project and test module and imports them afresh, with the mutant in place. Either way a mutant meets exactly the
state a fresh process would have built with it. The module-level code of a mutated module is not mutated (mutmut 3
mutates inside functions only), so nothing else differs.

Each mutant's tests run quickest first (by the time mutmut recorded for each), except that the tests which killed
earlier mutants of the same function go first (mutants of one function run one after another, and a test that
caught one bug in a function often catches the next): a killed mutant stops at its first failing test (``-x``), a
surviving one runs them all either way, so only the time to a verdict changes.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
from pathlib import Path

import pytest

#: Module globals holding a lazily built per-process value (reset to None), by module.
LAZY_GLOBALS = {"ccg_env.engine.game": ("_DEFAULT_BUS",), "ccg_env.engine.cards": ("_DEFAULT_CARDS",)}
#: Top-level packages of the project and its tests: the modules a mutant's process forgets to import them afresh.
PROJECT_PACKAGES = frozenset({"ccg_env", "tests"})
#: Third-party modules the fork server imports besides what collecting the tests imports (one a line, '#' comments).
PRELOAD_FILE = Path("benchmarks") / "mutation_preload.txt"
#: mutmut's record of how long each test took (``mutmut run`` writes it in ``mutants/``, the tests' working folder).
STATS_FILE = Path("mutmut-stats.json")

#: The tests that killed a mutant, a file per mutated function, a node id a line (in ``mutants/``, beside the stats).
KILLERS_DIR = Path("mutmut-killers")

#: Mutated functions (as mutmut names them: ``module.x_function``, ``module.xǁClassǁmethod``) that ran while the fork
#: server imported the project and collected the tests; None until the server has recorded them (every mutant is
#: then run in a fresh import).
called_while_loading: frozenset[str] | None = None
#: Seconds each test took when mutmut recorded them, by node id.
test_durations: dict[str, float] = {}
_recording = False


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


def mutant_under_test() -> str:
    """The mutant this process runs (``""`` for the original code, ``"stats"`` while mutmut records calls)."""
    return os.environ.get("MUTANT_UNDER_TEST", "")


def is_project_module(name: str) -> bool:
    return name.partition(".")[0] in PROJECT_PACKAGES


def function_of(mutant: str) -> str:
    """``pkg.mod.x_f__mutmut_3`` -> ``pkg.mod.x_f``, the name mutmut records calls under."""
    return mutant.rpartition("__mutmut_")[0]


def recorded_calls() -> set[str]:
    """mutmut's record of the mutated functions called while ``MUTANT_UNDER_TEST`` is ``"stats"`` (its
    ``state()._stats``, internal to mutmut 3.8.1, which the dev extra pins; read by name, as it is mutmut's and no
    engine internal)."""
    from mutmut.state import state

    return getattr(state(), "_stats")


def start_recording() -> None:
    """In the fork server, before the tests are collected: import the third-party preload list, then record which
    mutated functions run while the project is imported and the tests are collected."""
    global _recording, called_while_loading, test_durations
    from mutmut.mutation.trampoline import set_mutant_under_test

    if PRELOAD_FILE.exists():
        for line in PRELOAD_FILE.read_text().splitlines():
            name = line.partition("#")[0].strip()
            if name:
                importlib.import_module(name)
    if STATS_FILE.exists():
        test_durations = json.loads(STATS_FILE.read_text())["duration_by_test"]
    called_while_loading = None
    if any(is_project_module(name) for name in sys.modules):
        return  # loaded before anything could be recorded: every mutant then imports the project afresh
    recorded_calls().clear()
    set_mutant_under_test("stats")
    _recording = True


def stop_recording() -> None:
    global _recording, called_while_loading
    from mutmut.mutation.trampoline import set_mutant_under_test

    called_while_loading = frozenset(recorded_calls())
    recorded_calls().clear()
    set_mutant_under_test("")
    _recording = False


def forget_project() -> None:
    """Drop every project and test module, so that this process imports them afresh (with its mutant in place)."""
    for name in [name for name in sys.modules if is_project_module(name)]:
        del sys.modules[name]


def pin_mutant(mutant: str) -> None:
    """Make mutmut's trampolines take this process's mutant from a constant instead of reading ``os.environ`` at
    every call of a mutated function (0.8 of the 1.2 us each call costs; a mutant's process runs that one mutant).

    The trampolines (``mutmut.mutation.trampoline.wrap_in_trampoline``, mutmut 3.8.1, pinned by the dev extra) look
    ``get_mutant_under_test`` up in their module at every call, so replacing it there reaches every trampoline."""
    import mutmut.mutation.trampoline as trampoline

    trampoline.get_mutant_under_test = lambda: mutant


def pytest_configure(config: pytest.Config) -> None:
    mutant = mutant_under_test()
    if config.option.collectonly and mutant == "":
        start_recording()  # the fork server's warm-up: mutmut collects the tests with no mutant in place
    elif "__mutmut_" in mutant:
        pin_mutant(mutant)
        if called_while_loading is None or function_of(mutant) in called_while_loading:
            forget_project()


def pytest_collection_finish(session: pytest.Session) -> None:
    if _recording:
        stop_recording()


def killers_of(function: str, folder: Path = KILLERS_DIR) -> set[str]:
    """The tests that killed earlier mutants of ``function`` (empty if none did, or none was recorded)."""
    path = folder / function
    return set(path.read_text().split("\n")) - {""} if path.exists() else set()


def record_killer(function: str, nodeid: str, folder: Path = KILLERS_DIR) -> None:
    """Note that ``nodeid`` killed a mutant of ``function`` (one short append: two workers may write at once)."""
    folder.mkdir(exist_ok=True)
    with open(folder / function, "a", encoding="utf-8") as out:
        out.write(nodeid + "\n")


def run_order(nodeids: list[str], durations: dict[str, float], killers: set[str]) -> list[str]:
    """The order to run a mutant's tests in: the known killers of its function, then the rest, each quickest first."""
    return sorted(nodeids, key=lambda nodeid: (nodeid not in killers, durations.get(nodeid, 0.0)))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    mutant = mutant_under_test()
    if "__mutmut_" in mutant:
        order = run_order([item.nodeid for item in items], test_durations, killers_of(function_of(mutant)))
        position = {nodeid: index for index, nodeid in enumerate(order)}
        items.sort(key=lambda item: position[item.nodeid])


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    mutant = mutant_under_test()
    if report.failed and "__mutmut_" in mutant:
        record_killer(function_of(mutant), report.nodeid)


@pytest.fixture(autouse=True)
def _fresh_engine_caches():
    clear_engine_caches()
    yield
