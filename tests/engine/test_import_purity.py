"""The engine layer imports no numpy, gymnasium or pettingzoo."""

import subprocess
import sys


def test_engine_imports_no_numeric_or_rl_libraries():
    code = (
        "import sys, ccg_env.engine, ccg_env.engine.game;"
        "from ccg_env.engine import Game; Game.new(seed=0);"
        "bad = [m for m in ('numpy', 'gymnasium', 'pettingzoo', 'torch') if m in sys.modules];"
        "print(','.join(bad))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == "", f"ccg_env.engine pulled in: {out}"
