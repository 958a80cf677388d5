"""Installs each built wheel into a fresh virtualenv outside the source tree, with no C compiler on PATH, and runs the
installed package there, so a missing package-data file, module or import fails (``make wheel-smoke``, run by CI).

For each wheel (``python -m tests.packaging.wheel_smoke dist/*.whl``, from the repository root):

1. a virtualenv in a temp folder (``python -m venv``); the wheel installed with its base dependencies only (no
   extras, so no torch), binaries only (``--only-binary=:all:``: nothing is built), with PATH holding the
   virtualenv's ``bin/`` and an empty folder: no ``gcc``, ``cc`` or ``clang`` to be found;
2. ``pip show -f ccg-env``: no top-level package besides ``ccg_env``, and the package data (rules, cards, heroes,
   decks, the shipped model; for the compiled wheel its extension modules and ``_compiled.json``);
3. from a folder outside the checkout: ``installed_checks.py`` (import, engine build, ``gymnasium.make`` of each
   registered id, PettingZoo ``api_test``), ``ccg-env --help``, a two-game arena in two worker processes, the refusal
   of ``learned`` (it needs the ``train`` extra, which this virtualenv lacks) in one line before any game, and the
   Python examples of :data:`PAGES`: all but README.md's blocks marked ``# no-test``, the docs blocks that
   tests/test_doc_commands.py does not run or runs with files of their own, and those listed in :data:`NOT_RUN_HERE`.

A ``py3-none-any`` wheel must run the pure-Python engine; any other wheel, the compiled one.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

from tests.test_doc_commands import Block, NotRun, fenced_blocks, python_plan

ROOT = Path(__file__).resolve().parents[2]
CHECKS = Path(__file__).with_name("installed_checks.py")
COMPILERS = ("gcc", "cc", "clang", "c++", "g++", "x86_64-linux-gnu-gcc")
#: The pages whose Python examples a newcomer runs first, on the base install.
PAGES = ("README.md", "docs/getting-started.md", "docs/versions.md")
#: Python examples of PAGES not run in the smoke virtualenv (base dependencies only, no extras): a text of the
#: block, and why (none today; a text that no block holds fails the smoke test).
NOT_RUN_HERE: dict[str, str] = {}
#: Files every wheel must install, relative to site-packages.
PACKAGE_DATA = ("ccg_env/configs/rules/default.yaml", "ccg_env/configs/cards/basic.yaml",
                "ccg_env/configs/heroes/mage.yaml", "ccg_env/configs/decks/aggro.yaml",
                "ccg_env/models/ppo_vs_heuristic.ccgmodel")
LEARNED_REFUSAL = "needs the optional extra 'train' (torch, stable_baselines3, sb3_contrib not installed): " \
                  "pip install 'ccg-env[train]'"


class Smoke:
    """One wheel's virtualenv, the environment its commands run with, and the checks run in it."""

    def __init__(self, wheel: Path, folder: Path) -> None:
        self.wheel = wheel
        self.pure = wheel.name.endswith("-py3-none-any.whl")
        self.venv = folder / "venv"
        self.work = folder / "work"  # the cwd of every command: outside the checkout, holding no ccg_env
        self.work.mkdir()
        without_compiler = folder / "bin-without-compiler"
        without_compiler.mkdir()
        path = os.pathsep.join([str(self.venv / "bin"), str(without_compiler)])
        self.env = {key: value for key, value in os.environ.items() if not key.startswith("CCG_ENV_")
                    and key not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "CC", "CXX", "LDSHARED")}
        self.env["PATH"] = path
        found = {name: shutil.which(name, path=path) for name in COMPILERS}
        _require(not any(found.values()), f"no C compiler on the smoke PATH (found {found})")

    def run(self, args: list[str], what: str, expect_rc: int = 0, timeout: float = 600) -> subprocess.CompletedProcess:
        """Run a command in the virtualenv's environment from the work folder; fail unless it exits ``expect_rc``."""
        started = time.perf_counter()
        done = subprocess.run(args, cwd=self.work, env=self.env, capture_output=True, text=True, timeout=timeout)
        _require(done.returncode == expect_rc, f"{what}: exit {done.returncode} (expected {expect_rc})\n"
                                               f"{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
        print(f"ok ({time.perf_counter() - started:.1f} s): {what}", flush=True)
        return done

    def install(self) -> None:
        subprocess.run([sys.executable, "-m", "venv", str(self.venv)], check=True, env=self.env)
        self.run(["python", "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-compile",
                  "--only-binary=:all:", str(self.wheel)],
                 f"pip install {self.wheel.name} (binaries only, no compiler on PATH)")

    def check_files(self) -> None:
        shown = self.run(["python", "-m", "pip", "show", "-f", "ccg-env"], "pip show -f ccg-env").stdout
        files = [line.strip() for line in shown.split("Files:", 1)[1].splitlines() if line.strip()]
        top = {name.split("/")[0] for name in files if not name.startswith("..") and ".dist-info/" not in name}
        _require(top == {"ccg_env"}, f"the wheel installs top-level names besides ccg_env: {sorted(top)}")
        missing = [name for name in PACKAGE_DATA if name not in files]
        _require(not missing, f"package data missing from the install: {missing}")
        compiled = [name for name in files if name.endswith(".so") or name.endswith("_compiled.json")]
        if self.pure:
            _require(not compiled, f"a pure-Python wheel installs compiled files: {compiled[:5]}")
        else:
            _require("ccg_env/engine/_compiled.json" in files and len(compiled) > 1,
                     f"the compiled wheel lacks its extension modules or _compiled.json ({len(compiled)} files)")
        print(f"ok: {len(files)} files, top-level package ccg_env only, package data present", flush=True)

    def check_package(self) -> None:
        script = self.work / CHECKS.name
        shutil.copy(CHECKS, script)
        checks = self.run(["python", str(script), "pure" if self.pure else "compiled"], "installed_checks.py")
        print("".join(f"    {line}\n" for line in checks.stdout.splitlines()), end="")
        help_text = self.run(["ccg-env", "--help"], "ccg-env --help").stdout
        _require("arena" in help_text and "train" in help_text, f"ccg-env --help lists no commands:\n{help_text}")
        arena = self.run(["ccg-env", "arena", "--agents", "random", "heuristic", "--games", "2", "--workers", "2",
                          "--no-progress", "--out-dir", "arena_out"], "ccg-env arena --agents random heuristic")
        _require("results written to" in arena.stdout and (self.work / "arena_out" / "results.json").is_file(),
                 f"the arena wrote no results:\n{arena.stdout}")
        self.check_missing_extra()

    def check_missing_extra(self) -> None:
        no_torch = "import importlib.util, sys; sys.exit(importlib.util.find_spec('torch') is not None)"
        self.run(["python", "-c", no_torch], "torch is not installed (the 'train' extra is left out)")
        refused = self.run(["ccg-env", "arena", "--agents", "learned", "heuristic", "--games", "2", "--no-progress",
                            "--out-dir", "refused_out"], "ccg-env arena --agents learned heuristic is refused",
                           expect_rc=2)
        lines = refused.stderr.splitlines()
        _require(len(lines) == 1 and lines[0].endswith(LEARNED_REFUSAL) and not (self.work / "refused_out").exists(),
                 f"expected one line ending {LEARNED_REFUSAL!r} and no games, got:\n{refused.stderr}")

    def run_examples(self) -> None:
        listed = set()
        for page in PAGES:
            for block in fenced_blocks(ROOT / page):
                if block.language != "python":
                    continue
                listed.update(text for text in NOT_RUN_HERE if text in block.text)
                reason = skip_reason(block)
                if reason:
                    print(f"skipped: {page} line {block.line}: {reason}")
                else:
                    self.run(["python", "-c", block.text], f"{page} line {block.line}")
        _require(listed == set(NOT_RUN_HERE), f"NOT_RUN_HERE names no example: {set(NOT_RUN_HERE) - listed}")


def skip_reason(block: Block) -> str | None:
    """Why an example is not run in the smoke virtualenv, or None to run it."""
    for text, reason in NOT_RUN_HERE.items():
        if text in block.text:
            return reason
    if block.file == "README.md":
        return "marked # no-test" if "# no-test" in block.text else None
    found = python_plan(block)
    if found is None:
        return None
    plan = found[1]
    if isinstance(plan, NotRun):
        return plan.reason
    return "runs with files of its own (tests/test_doc_commands.py)" if plan.needs or plan.files else None


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise SystemExit(f"wheel smoke test failed: {message}")


def smoke(wheel: Path) -> None:
    """Install ``wheel`` into a fresh virtualenv in a temp folder and run every check there."""
    with zipfile.ZipFile(wheel) as archive:
        _require(archive.testzip() is None, f"{wheel} is damaged")
    with tempfile.TemporaryDirectory(prefix="ccg-env-wheel-smoke-") as folder:
        _require(not Path(folder).resolve().is_relative_to(ROOT), "the temp folder lies inside the checkout")
        print(f"== {wheel.name} in {folder}", flush=True)
        check = Smoke(wheel.resolve(), Path(folder))
        check.install()
        check.check_files()
        check.check_package()
        check.run_examples()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("wheels", nargs="+", type=Path, help="wheel files (dist/*.whl)")
    args = parser.parse_args(argv)
    for wheel in args.wheels:
        _require(wheel.suffix == ".whl" and wheel.is_file(), f"not a wheel file: {wheel}")
        smoke(wheel)
    print(f"wheel smoke test passed: {', '.join(wheel.name for wheel in args.wheels)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
