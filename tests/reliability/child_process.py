"""The start of the scripts the reliability tests run in a child process: imports and the child's own peak memory."""

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
