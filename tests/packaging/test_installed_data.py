"""The sdist and the pure-Python wheel built from it (``CCG_ENV_PURE_PYTHON=1``, as ``make wheels`` builds it): the
wheel is tagged ``py3-none-any``, installs the ``ccg_env`` package only, with its data (rules, cards, heroes, decks,
the shipped model) and no compiled file, and the installed package finds its data and plays without a checkout.

The compiled wheel and both wheels in fresh virtualenvs are checked by tests/packaging/wheel_smoke.py
(``make wheel-smoke``, run by CI), which needs the package index for the dependencies.
"""

import os
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _build(out: Path) -> tuple[Path, Path]:
    """The sdist and the pure-Python wheel, built with this virtualenv's setuptools (no index needed)."""
    env = {**os.environ, "CCG_ENV_PURE_PYTHON": "1"}
    subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(ROOT)], env=env,
                   check=True, capture_output=True, timeout=600)
    (sdist,), (wheel,) = out.glob("*.tar.gz"), out.glob("*.whl")
    return sdist, wheel


def test_the_pure_wheel_installs_ccg_env_alone_with_its_data_and_plays_outside_the_checkout(tmp_path):
    sdist, wheel = _build(tmp_path / "dist")
    assert wheel.name == "ccg_env-1.0.0-py3-none-any.whl"
    with tarfile.open(sdist) as archive:
        members = [name.split("/", 1)[1] for name in archive.getnames() if "/" in name]
    assert "configs/rules/default.yaml" in members and "ccg_env/models/ppo_vs_heuristic.ccgmodel" in members
    assert not [name for name in members if name.startswith("tests/") or name.endswith(("_compiled.json", ".so"))]
    with zipfile.ZipFile(wheel) as archive:
        files = archive.namelist()
        assert "Root-Is-Purelib: true" in archive.read("ccg_env-1.0.0.dist-info/WHEEL").decode()
    assert {name.split("/")[0] for name in files} == {"ccg_env", "ccg_env-1.0.0.dist-info"}
    assert not [name for name in files if name.endswith(("_compiled.json", ".so", ".c"))]

    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index", "--target",
                    str(target), str(wheel)], check=True, capture_output=True, timeout=300)
    assert (target / "ccg_env" / "configs" / "rules" / "default.yaml").is_file()
    assert list((target / "ccg_env" / "configs" / "cards").glob("*.yaml"))
    assert (target / "ccg_env" / "models" / "ppo_vs_heuristic.ccgmodel").is_file()  # `learned` with no path
    assert len(list((target / "ccg_env" / "configs" / "heroes").glob("*.yaml"))) == 7
    code = ("import ccg_env.engine.datafiles as d; from ccg_env.engine import Game, ENGINE_BUILD; g = Game.new(seed=1);"
            "print(d.config_dir()); print(len(g.player(0).deck));"
            "from ccg_env.engine.heroes import default_heroes; print(len(default_heroes())); print(ENGINE_BUILD)")
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env={"PYTHONPATH": str(target)},
                         capture_output=True, text=True, check=True).stdout.splitlines()
    assert Path(out[0]).is_relative_to(target), f"data found outside the installed package: {out[0]}"
    assert out[1] == "27" and out[2] == "7"  # deck: 30 less the first opening hand of 3 (mulligan, no draw yet)
    assert out[3] == "pure Python (not compiled)"
