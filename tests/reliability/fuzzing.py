"""Loads ``benchmarks/fuzz.py`` (a script folder, not a package) so tests share the fuzzer's checks and replay."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]
FUZZ_PATH = ROOT / "benchmarks" / "fuzz.py"


def load_fuzz() -> ModuleType:
    """Import ``benchmarks/fuzz.py`` once per process under the name ``ccg_fuzz``."""
    name = "ccg_fuzz"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, FUZZ_PATH)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module  # dataclasses look their module up while the file runs
        spec.loader.exec_module(module)
    return sys.modules[name]


fuzz = load_fuzz()
