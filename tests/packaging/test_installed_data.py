"""A non-editable install carries the default rules, cards and decks and plays without a checkout."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_installed_package_finds_its_data_outside_the_checkout(tmp_path):
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
                    "--target", str(target), str(ROOT)], check=True, capture_output=True)
    assert (target / "ccg_env" / "configs" / "rules" / "default.yaml").is_file()
    assert list((target / "ccg_env" / "configs" / "cards").glob("*.yaml"))
    assert (target / "ccg_env" / "models" / "ppo_vs_heuristic.ccgmodel").is_file()  # `learned` with no path
    assert len(list((target / "ccg_env" / "configs" / "heroes").glob("*.yaml"))) == 7
    code = ("import ccg_env.engine.datafiles as d; from ccg_env.engine import Game; g = Game.new(seed=1);"
            "print(d.config_dir()); print(len(g.player(0).deck));"
            "from ccg_env.engine.heroes import default_heroes; print(len(default_heroes()))")
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env={"PYTHONPATH": str(target)},
                         capture_output=True, text=True, check=True).stdout.split()
    assert Path(out[0]).is_relative_to(target), f"data found outside the installed package: {out[0]}"
    assert out[1] == "27" and out[2] == "7"  # deck: 30 less the first opening hand of 3 (mulligan, no draw yet)
