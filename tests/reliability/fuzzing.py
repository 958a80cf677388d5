"""Loads the fuzzers of ``benchmarks/`` (a script folder, not a package) so tests share their checks and replay."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]


def load_script(file_name: str, module_name: str) -> ModuleType:
    """Import ``benchmarks/<file_name>`` once per process under ``module_name``."""
    if module_name not in sys.modules:
        spec = importlib.util.spec_from_file_location(module_name, ROOT / "benchmarks" / file_name)
        module = importlib.util.module_from_spec(spec)
        sys.modules[module_name] = module  # dataclasses look their module up while the file runs
        spec.loader.exec_module(module)
    return sys.modules[module_name]


fuzz = load_script("fuzz.py", "ccg_fuzz")
