"""Package list and compiled engine modules for setuptools; all other metadata lives in pyproject.toml.

The YAML data in the top-level ``configs/`` folder ships inside the package as ``ccg_env.configs``
(``package-dir`` in pyproject.toml maps it), so its packages are listed here by hand from that folder.

The engine, env and heuristic modules named in ``ccg_env/engine/native.py`` are compiled with mypyc (the same Python,
about 2.8 times as fast per engine decision). Where that cannot be done (no mypyc or no C compiler) the install
warns and keeps the pure-Python engine, unless ``CCG_ENV_REQUIRE_COMPILED=1`` (the Makefile sets it) makes that
an error. ``CCG_ENV_PURE_PYTHON=1`` skips compiling: the wheel is then pure Python, tagged ``py3-none-any``
(``make wheels`` builds the sdist, the compiled wheel and that one).
"""

import json
import os
import runpy
import sys
from pathlib import Path

from setuptools import find_namespace_packages, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
SKIP = ["*__pycache__*"]
CODE_PACKAGES = find_namespace_packages(include=["ccg_env", "ccg_env.*"], exclude=SKIP)
CONFIG_PACKAGES = ["ccg_env.configs"] + [
    f"ccg_env.configs.{name}" for name in find_namespace_packages(where="configs", exclude=SKIP)
]
NATIVE = runpy.run_path(str(HERE / "ccg_env" / "engine" / "native.py"))
REQUIRED = os.environ.get("CCG_ENV_REQUIRE_COMPILED", "") not in ("", "0")


def _give_up(reason: str) -> None:
    if REQUIRED:
        sys.exit(f"ccg-env: compiling the engine failed ({reason}) and CCG_ENV_REQUIRE_COMPILED is set")
    print(f"WARNING ccg-env: {reason}; installing the pure-Python engine (same games, slower)", file=sys.stderr)


def compiled_engine() -> list:
    """mypyc extension modules for the engine, or none (with a warning saying why)."""
    if NATIVE["pure_python_requested"]():
        print(f"ccg-env: {NATIVE['PURE_ENV_VAR']} is set; not compiling the engine", file=sys.stderr)
        return []
    try:
        from mypyc.build import mypycify
    except ImportError as error:
        _give_up(f"mypyc is not available ({error})")
        return []
    paths = [str(NATIVE["source_path"](m, Path("."))) for m in NATIVE["COMPILED_MODULES"]]
    try:
        return mypycify(paths, opt_level="3", group_name=NATIVE["SHARED_LIBRARY"])
    except (SystemExit, Exception) as error:  # mypyc exits on type errors after printing them
        _give_up(f"mypyc could not compile the engine ({error})")
        return []


class BuildEngine(build_ext):
    """Builds the compiled modules, then records the sources they were built from (or falls back).

    The record (``_compiled.json``) is written into the build, so it ships in the compiled wheel only: it is not
    package data, and neither the sdist nor the pure-Python wheel carries one.
    """

    def run(self) -> None:
        if not self.extensions:
            return
        try:
            super().run()
        except Exception as error:  # no C compiler, a compiler error...
            _give_up(f"the C build failed ({error})")
            return
        from mypy.version import __version__ as mypy_version

        sources = NATIVE["source_digests"](HERE)
        target = HERE if self.inplace else Path(self.build_lib)
        manifest = json.dumps({"compiler": f"mypyc {mypy_version}", "sources": sources}, indent=1)
        (target / "ccg_env" / "engine" / NATIVE["MANIFEST"]).write_text(manifest + "\n")


setup(packages=CODE_PACKAGES + CONFIG_PACKAGES, ext_modules=compiled_engine(), cmdclass={"build_ext": BuildEngine})
