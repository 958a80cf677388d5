"""A bounded run of the file fuzzer (``benchmarks/fuzz_files.py``) in the test suite: hostile model files, replays
and training configs are each loaded or refused in one line, never a crash, a hang or a memory blow-up."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .fuzzing import ROOT, load_script

SCRIPT = ROOT / "benchmarks" / "fuzz_files.py"

pytest.importorskip("sb3_contrib")
pytestmark = pytest.mark.subprocess_bounds  # child processes timed and measured


def test_a_bounded_file_fuzz_run_has_no_crash(tmp_path):
    env = {**os.environ, "OMP_NUM_THREADS": "1", "CCG_ENV_PURE_PYTHON": "1"}
    done = subprocess.run([sys.executable, str(SCRIPT), "--cases", "360", "--seed", "7", "--json", "--memory-mb",
                           "3000", "--out", str(tmp_path / "crashes")], capture_output=True, text=True, timeout=600,
                          env=env, cwd=tmp_path)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    totals = json.loads(done.stdout.strip().splitlines()[-1])
    assert totals["crashes"] == [] and totals["cases"] == {"model": 120, "replay": 120, "config": 120}
    for target in ("model", "replay", "config"):  # both ends reached: some edits load, most are refused
        assert totals["outcomes"].get(f"{target} refused", 0) > 60, totals
    assert list(tmp_path.iterdir()) == []  # nothing written: no crash input, no scratch left behind


class BrokenDestructor:
    """Raises where Python cannot pass the error on (it goes to ``sys.unraisablehook``)."""

    def __del__(self) -> None:
        raise RuntimeError("in a destructor")


def test_the_fuzzer_counts_an_unexpected_exception_a_timeout_and_a_long_message_as_crashes(tmp_path, monkeypatch):
    fuzz_files = load_script("fuzz_files.py", "ccg_fuzz_files")

    def raises(error):
        def load(path: Path) -> None:
            raise error
        return load

    import signal

    previous = signal.signal(signal.SIGALRM, fuzz_files._alarm)
    cases = {TypeError("unhashable"): "crash: TypeError: unhashable",
             ValueError("two\nlines"): "crash: ValueError with a message that is not one line",
             ValueError("one line"): "refused: ValueError"}
    try:
        for error, outcome in cases.items():
            monkeypatch.setitem(fuzz_files.LOADERS, "config", raises(error))
            assert fuzz_files.run_case("config", b"seed: 1\n", tmp_path, 1.0).startswith(outcome)
        monkeypatch.setitem(fuzz_files.LOADERS, "config", lambda path: BrokenDestructor())
        assert fuzz_files.run_case("config", b"seed: 1\n", tmp_path, 1.0).startswith(
            "crash: an error Python could not raise: RuntimeError('in a destructor')")
        monkeypatch.setitem(fuzz_files.LOADERS, "config", lambda path: time.sleep(10))
        assert fuzz_files.run_case("config", b"seed: 1\n", tmp_path, 0.2) == "crash: no answer within 0.2 s"
    finally:
        signal.signal(signal.SIGALRM, previous)
