"""The mutation-testing tools: the report's score (equivalent mutants left out, timeouts counted as caught, mutants
not run yet left out) and its exit code, the equivalent-mutant list's format, and the CI sample's settings.

mutmut itself is not run here (``make mutation`` and ``benchmarks/mutation_sample.py`` do that); the report is fed
result files written the way mutmut 3 writes them.
"""

from __future__ import annotations

import importlib.util
import json
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def load(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


report = load("mutation_report")

KILLED, SURVIVED, NO_TESTS, TIMEOUT, NOT_RUN = 1, 0, 33, 36, None


def write_meta(folder: Path, module: str, codes: dict[str, int | None]) -> None:
    path = folder / f"{module}.meta"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"exit_code_by_key": codes, "hash_by_function_name": {}, "type_check_error_by_key": {},
                                "durations_by_key": {}, "estimated_durations_by_key": {}}))


@pytest.fixture
def results(tmp_path):
    mutants = tmp_path / "mutants"
    write_meta(mutants, "pkg/a.py", {"pkg.a.x_f__mutmut_1": KILLED, "pkg.a.x_f__mutmut_2": KILLED,
                                     "pkg.a.x_f__mutmut_3": TIMEOUT, "pkg.a.x_f__mutmut_4": SURVIVED,
                                     "pkg.a.x_f__mutmut_5": NOT_RUN})
    write_meta(mutants, "pkg/b.py", {"pkg.b.x_g__mutmut_1": SURVIVED, "pkg.b.x_g__mutmut_2": NO_TESTS,
                                     "pkg.b.x_g__mutmut_3": KILLED})
    write_meta(mutants, "pkg/empty.py", {})
    return mutants


def test_score_counts_timeouts_as_caught_and_leaves_out_mutants_not_run(results):
    by_module = {r.module: r for r in report.read_results(results, {})}
    assert set(by_module) == {"pkg/a.py", "pkg/b.py"}  # a file without mutants is not listed
    a, b = by_module["pkg/a.py"], by_module["pkg/b.py"]
    assert (a.checked, a.detected, a.score) == (4, 3, 75.0)
    assert (b.checked, b.detected) == (3, 1) and b.score == pytest.approx(100 / 3)
    assert b.survivors == ["pkg.b.x_g__mutmut_1 (survived)", "pkg.b.x_g__mutmut_2 (no tests)"]
    assert report.total([a, b]).score == pytest.approx(100 * 4 / 7)


def test_listed_equivalent_mutants_leave_the_denominator_and_the_survivor_list(results):
    equivalent = {"pkg.a.x_f__mutmut_4": "same behaviour", "pkg.a.x_f__mutmut_1": "listed but killed"}
    a = next(r for r in report.read_results(results, equivalent) if r.module == "pkg/a.py")
    assert (a.equivalent, a.score, a.survivors) == (1, 100.0, [])  # a killed mutant stays a kill


def test_not_run_names_the_mutants_without_a_verdict_or_tests_under_the_given_paths(results, capsys):
    write_meta(results, "pkg/sub/c.py", {"pkg.sub.c.x_h__mutmut_1": NOT_RUN, "pkg.sub.c.x_h__mutmut_2": KILLED})
    assert report.not_run(results, ["pkg/"], {}) == ["pkg.a.x_f__mutmut_5", "pkg.b.x_g__mutmut_2",
                                                     "pkg.sub.c.x_h__mutmut_1"]
    assert report.not_run(results, ["pkg/sub/"], {}) == ["pkg.sub.c.x_h__mutmut_1"]
    assert report.not_run(results, ["x/"], {}) == []
    assert report.main(["--mutants", str(results), "--not-run", "pkg/a.py", "pkg/sub/"]) == 0
    assert capsys.readouterr().out == "pkg.a.x_f__mutmut_5 pkg.sub.c.x_h__mutmut_1\n"


def test_a_mutant_killed_by_sigkill_has_no_verdict_and_is_named_to_run_again(results):
    write_meta(results, "pkg/c.py", {"pkg.c.x_k__mutmut_1": -9, "pkg.c.x_k__mutmut_2": KILLED})
    c = next(r for r in report.read_results(results, {}) if r.module == "pkg/c.py")
    assert (c.checked, c.detected, c.score) == (1, 1, 100.0)  # the SIGKILLed one is neither detected nor missed
    assert report.not_run(results, ["pkg/c.py"], {}) == ["pkg.c.x_k__mutmut_1"]
    listed = {"pkg.c.x_k__mutmut_1": "same behaviour"}  # a listed one is not run again and counts as equivalent
    c = next(r for r in report.read_results(results, listed) if r.module == "pkg/c.py")
    assert report.not_run(results, ["pkg/c.py"], listed) == [] and c.counts[report.LISTED_NOT_RUN] == 1


def test_a_listed_equivalent_not_run_yet_is_not_named_to_run_and_is_shown_among_the_equivalents(results):
    equivalent = {"pkg.a.x_f__mutmut_5": "same behaviour"}
    assert report.not_run(results, ["pkg/a.py"], equivalent) == []
    a = next(r for r in report.read_results(results, equivalent) if r.module == "pkg/a.py")
    assert (a.checked, a.score, a.counts["not checked"]) == (4, 75.0, 0)  # out of the score, as when not run
    row = next(line for line in report.table([a]).splitlines() if "pkg/a.py" in line)
    assert row.split(" | ")[7:9] == ["1", "0"]  # equivalent 1, not run 0


def test_report_exits_1_below_the_minimum_and_0_at_or_above(results, capsys, monkeypatch):
    monkeypatch.setattr(report, "EQUIVALENT_FILE", results / "none.txt")
    assert report.main(["--mutants", str(results), "--min-score", "57.1"]) == 0  # 4 of 7 = 57.14%
    assert report.main(["--mutants", str(results), "--min-score", "57.2"]) == 1
    out = capsys.readouterr().out
    assert "| **all** | 8 | 7 | 3 | 1 | 2 | 1 | 0 | 1 | 57.1% |" in out and "pkg.b.x_g__mutmut_2 (no tests)" in out
    assert report.main(["--mutants", str(results / "missing")]) == 2


def test_equivalent_list_needs_a_reason_for_each_mutant(tmp_path):
    listed = tmp_path / "equivalent.txt"
    listed.write_text("# comment\n\npkg.a.x_f__mutmut_4  # the same value either way\n")
    assert report.read_equivalents(listed) == {"pkg.a.x_f__mutmut_4": "the same value either way"}
    listed.write_text("pkg.a.x_f__mutmut_4\n")
    with pytest.raises(SystemExit, match="needs a reason"):
        report.read_equivalents(listed)


def test_the_projects_equivalent_list_reads_and_names_only_mutated_modules():
    configured = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mutmut"]
    for name in report.read_equivalents():
        module = name.split(".x")[0].replace(".", "/") + ".py"
        assert (ROOT / module).exists(), f"{name}: no module {module}"
        assert any(Path(module).match(pattern) or module.startswith(pattern.rstrip("*"))
                   for pattern in configured["only_mutate"]), f"{name} is not in a mutated module"


def test_ci_sample_settings_name_existing_modules_and_tests():
    sample = load("mutation_sample")
    assert 0 < sample.MIN_SCORE <= 100 and sample.SIZE >= 10
    assert sum((ROOT / m).exists() for m in sample.MODULES) >= 5
    assert all((ROOT / t).exists() for t in sample.TESTS), [t for t in sample.TESTS if not (ROOT / t).exists()]
    assert sample.SIZE >= len(sample.MODULES)  # room for one mutant of each module
    configured = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mutmut"]["only_mutate"]
    assert all(any(Path(m).match(p) or m.startswith(p.rstrip("*")) for p in configured) for m in sample.MODULES)


def test_ci_sample_draws_one_mutant_of_each_module_then_the_rest_from_the_pool_the_same_each_time():
    sample = load("mutation_sample")
    modules = ["pkg/a.py", "pkg/b.py", "pkg/sub/c.py"]
    pool = [f"pkg.a.x_f__mutmut_{i}" for i in range(1, 30)] + ["pkg.b.x_g__mutmut_1"] \
        + [f"pkg.sub.c.x_h__mutmut_{i}" for i in range(1, 5)]
    drawn = sample.draw(pool, modules, 6, seed=19)
    assert drawn == sorted(drawn) and len(set(drawn)) == 6 and set(drawn) <= set(pool)
    assert "pkg.b.x_g__mutmut_1" in drawn and any(name.startswith("pkg.sub.c.") for name in drawn)
    assert drawn == sample.draw(pool, modules, 6, seed=19) and drawn != sample.draw(pool, modules, 6, seed=20)
    assert len(sample.draw(pool, modules, 2, seed=19)) == 2  # a size below the module count: the first modules
    assert sample.draw(pool, modules, 100, seed=0) == sorted(pool)


def test_a_mutants_tests_run_its_functions_known_killers_first_then_quickest_first(tmp_path):
    plugin = load("mutmut_plugin")
    function = "ccg_env.engine.invariants.x_check_stats"
    assert plugin.killers_of(function, tmp_path) == set()
    plugin.record_killer(function, "tests/a.py::slow_killer", tmp_path)
    plugin.record_killer(function, "tests/a.py::quick_killer", tmp_path)
    plugin.record_killer(function, "tests/a.py::slow_killer", tmp_path)
    killers = plugin.killers_of(function, tmp_path)
    assert killers == {"tests/a.py::slow_killer", "tests/a.py::quick_killer"}
    durations = {"t::quick": 0.01, "t::slow": 9.0, "tests/a.py::slow_killer": 5.0, "tests/a.py::quick_killer": 0.5}
    assert plugin.run_order(["t::slow", "tests/a.py::slow_killer", "t::quick", "tests/a.py::quick_killer", "t::new"],
                            durations, killers) == [
        "tests/a.py::quick_killer", "tests/a.py::slow_killer", "t::new", "t::quick", "t::slow"]
