"""The start of the scripts the reliability tests run in a child process: imports and the child's own peak memory."""

import json
import textwrap

#: Prepended to a child script: ``json``, ``resource``, ``sys``, ``time`` imported and ``peak_mb()`` defined.
PEAK_MB_PRELUDE = textwrap.dedent("""
    import json, resource, sys, time

    def peak_mb():  # this process's peak resident memory: VmHWM (ru_maxrss keeps the parent's peak across exec)
        try:
            with open("/proc/self/status") as status:
                return next(int(line.split()[1]) for line in status if line.startswith("VmHWM")) / 1024
        except (OSError, StopIteration):
            return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
""")

#: Prepended to a capped child script: its address space limited to ``sys.argv[1]`` MB before anything is imported,
#: ``json``, ``resource``, ``sys``, ``time`` and ``peak_mb()`` as above, and ``report(call)`` printing the one-line
#: outcome of ``call()`` (its error, if any) with the seconds it took and the child's peak memory.
CAPPED_PRELUDE = textwrap.dedent("""
    import resource, sys
    _limit = int(sys.argv[1]) * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (_limit, _limit))
    del sys.argv[1]
""") + PEAK_MB_PRELUDE + textwrap.dedent("""
    def report(call):
        start = time.perf_counter()
        try:
            call()
            error = None
        except Exception as exc:
            error = f"{type(exc).__name__}: {exc}"
        print(json.dumps({"error": error, "seconds": time.perf_counter() - start, "peak_mb": peak_mb()}))
""")


def run_capped(script: str, *args: str, memory_mb: int, timeout: float = 120, cwd: str | None = None) -> list[dict]:
    """Run ``script`` (after :data:`CAPPED_PRELUDE`) in a child Python with its address space capped at ``memory_mb``
    and its time at ``timeout`` seconds; return the reports it printed, one per line (the child must exit cleanly,
    not be killed)."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "OMP_NUM_THREADS": "1", "CCG_ENV_PURE_PYTHON": "1"}
    done = subprocess.run([sys.executable, "-c", CAPPED_PRELUDE + textwrap.dedent(script), str(memory_mb), *args],
                          capture_output=True, text=True, timeout=timeout, env=env, cwd=cwd)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Traceback" not in done.stdout, done.stdout[-3000:]
    return [json.loads(line) for line in done.stdout.strip().splitlines() if line.startswith("{")]


def run_cli_capped(args: list[str], *, memory_mb: int = 1000, timeout: float = 60, stdin: bytes = b"",
                   cwd: str | None = None) -> tuple[int, bytes, bytes, float]:
    """Run ``ccg-env ARGS`` in a child Python with its address space capped; return its exit status, stdout and
    stderr (bytes, as a terminal would receive them) and the seconds it took."""
    import os
    import subprocess
    import sys
    import time

    script = CAPPED_PRELUDE + "from ccg_env.cli import main\nsys.exit(main(sys.argv[1:]))\n"
    env = {**os.environ, "OMP_NUM_THREADS": "1", "CCG_ENV_PURE_PYTHON": "1"}
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", script, str(memory_mb), *args], input=stdin, capture_output=True,
                          timeout=timeout, env=env, cwd=cwd)
    return done.returncode, done.stdout, done.stderr, time.perf_counter() - start
