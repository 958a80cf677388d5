"""Summarise a mutmut run (``make mutation``): the mutation score and the surviving mutants of each module.

Reads mutmut's per-file results (``mutants/**/*.py.meta``, written by ``mutmut run``) and the list of equivalent
mutants (``benchmarks/mutation_equivalent.txt``: one mutant name a line, then ``#`` and why it changes no
behaviour). The score of a module is ``detected / (checked - equivalent)``, where detected counts mutants killed
by a test or by a timeout (a mutant that makes a test loop forever is caught, not missed), and checked counts
every mutant with a verdict; survivors and mutants no test reaches count against it, mutants not run yet are left
out and reported as such.

Usage::

    python benchmarks/mutation_report.py                 # markdown table, then the survivors by module
    python benchmarks/mutation_report.py --min-score 95  # also exit 1 if the overall score is below 95%
    python benchmarks/mutation_report.py --not-run ccg_env/engine/systems/  # names of the mutants not run yet there
                                                                            # (listed equivalents left out)

``mutmut run`` given names or patterns runs every mutant they match again, verdict or not; to resume a part of the
run, give it the names ``--not-run`` prints (``make mutation MUTANTS="$(... --not-run PATH)"``).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EQUIVALENT_FILE = ROOT / "benchmarks" / "mutation_equivalent.txt"

#: mutmut 3's exit codes (mutmut.stats.status_by_exit_code), spelled out so the report needs no mutmut import.
STATUS = {1: "killed", 3: "killed", 0: "survived", 5: "no tests", 33: "no tests", 34: "skipped", 36: "timeout",
          24: "timeout", -24: "timeout", 152: "timeout", 255: "timeout", 37: "caught by type check",
          -11: "segfault", -9: "interrupted", 2: "interrupted", None: "not checked"}
# -9 (SIGKILL) is no verdict: with two workers (--max-children 2) mutmut's children were killed from outside mid-run,
# string mutants among them (2026-11-26); such a mutant is reported as not run, to be run again.
DETECTED = {"killed", "timeout", "caught by type check", "segfault"}
#: a listed equivalent mutant that was not run: shown among the equivalents, out of the score like them
LISTED_NOT_RUN = "equivalent, not run"
UNCHECKED = {"not checked", "skipped", "interrupted", LISTED_NOT_RUN}


def read_equivalents(path: Path = EQUIVALENT_FILE) -> dict[str, str]:
    """Mutant name -> the reason it is equivalent (blank lines and ``#`` comment lines are skipped)."""
    equivalents = {}
    if path.exists():
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            text = line.strip()
            if not text or text.startswith("#"):
                continue
            name, _, reason = text.partition("#")
            if not reason.strip():
                raise SystemExit(f"{path}:{number}: an equivalent mutant needs a reason after '#': {text!r}")
            equivalents[name.strip()] = reason.strip()
    return equivalents


@dataclass
class ModuleResult:
    """Verdict counts of one source file's mutants."""

    module: str
    counts: Counter = field(default_factory=Counter)
    survivors: list[str] = field(default_factory=list)
    equivalent: int = 0

    @property
    def checked(self) -> int:
        return sum(n for status, n in self.counts.items() if status not in UNCHECKED)

    @property
    def detected(self) -> int:
        return sum(self.counts[s] for s in DETECTED)

    @property
    def score(self) -> float | None:
        denominator = self.checked - self.equivalent
        return None if denominator <= 0 else 100.0 * self.detected / denominator


def read_results(mutants: Path, equivalents: dict[str, str]) -> list[ModuleResult]:
    """One result per mutated file under ``mutants`` (files without mutants are left out)."""
    results = []
    for meta in sorted(mutants.rglob("*.py.meta")):
        codes = json.loads(meta.read_text())["exit_code_by_key"]
        if not codes:
            continue
        module = str(meta.relative_to(mutants))[: -len(".meta")]
        result = ModuleResult(module)
        for name, code in codes.items():
            status = STATUS.get(code, "suspicious")
            if name in equivalents and status in ("survived", "no tests"):
                result.equivalent += 1
                status = "equivalent"
            elif name in equivalents and status in ("not checked", "interrupted"):  # listed, no verdict
                status = LISTED_NOT_RUN
            result.counts[status] += 1
            if status in ("survived", "no tests", "suspicious"):
                result.survivors.append(f"{name} ({status})")
        results.append(result)
    return results


def not_run(mutants: Path, prefixes: list[str], equivalents: dict[str, str]) -> list[str]:
    """Names of the mutants with no verdict yet (not run, or interrupted) or with no tests in the mutated files whose
    path starts with one of ``prefixes``, leaving out the listed equivalent mutants (a run could only show them
    surviving). A mutant that had no tests is named again because tests added since may reach it (mutmut maps
    tests to functions when it sees them first); if none does, its re-run takes no time."""
    names = []
    for meta in sorted(mutants.rglob("*.py.meta")):
        module = str(meta.relative_to(mutants))[: -len(".meta")]
        if any(module.startswith(prefix) for prefix in prefixes):
            codes = json.loads(meta.read_text())["exit_code_by_key"]
            names += [name for name, code in codes.items()
                      if (code is None or STATUS.get(code) in ("interrupted", "no tests")) and name not in equivalents]
    return names


def total(results: list[ModuleResult]) -> ModuleResult:
    whole = ModuleResult("all")
    for result in results:
        whole.counts.update(result.counts)
        whole.equivalent += result.equivalent
    return whole


def table(results: list[ModuleResult]) -> str:
    rows = ["| module | mutants | checked | killed | timeout | survived | no tests | equivalent | not run | score |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for r in [*results, total(results)]:
        c = r.counts
        score = "-" if r.score is None else f"{r.score:.1f}%"
        name = f"**{r.module}**" if r.module == "all" else f"`{r.module}`"
        equivalent, not_run_yet = r.equivalent + c[LISTED_NOT_RUN], c["not checked"] + c["interrupted"]
        rows.append(f"| {name} | {sum(c.values())} | {r.checked} | {c['killed']} | {c['timeout']} | {c['survived']} | "
                    f"{c['no tests']} | {equivalent} | {not_run_yet} | {score} |")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mutants", type=Path, default=ROOT / "mutants", help="mutmut's working folder")
    parser.add_argument("--all", action="store_true", help="list modules whose mutants were not run too")
    parser.add_argument("--min-score", type=float, help="exit 1 when the overall score (percent) is below this")
    parser.add_argument("--not-run", nargs="+", metavar="PATH",
                        help="only print the names of the mutants not run yet (or run with no tests) in files "
                             "under these paths")
    args = parser.parse_args(argv)
    if not args.mutants.is_dir():
        print(f"no mutmut results in {args.mutants}: run `make mutation` first", file=sys.stderr)
        return 2
    if args.not_run:
        print(" ".join(not_run(args.mutants, args.not_run, read_equivalents())))
        return 0
    results = read_results(args.mutants, read_equivalents())
    shown = results if args.all else [r for r in results if r.checked]
    print(table(shown))
    for r in shown:
        if r.survivors:
            print(f"\nsurvivors in {r.module} ({len(r.survivors)}; `mutmut show NAME` prints the change):")
            print("\n".join(f"  {name}" for name in r.survivors))
    score = total(results).score
    if args.min_score is not None and (score is None or score < args.min_score):
        print(f"\nmutation score {score if score is None else round(score, 1)}% is below {args.min_score}%")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
