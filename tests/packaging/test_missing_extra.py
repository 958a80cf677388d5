"""An agent whose optional extra is not installed is refused before any game, in one line naming the extra; the
extras' module table agrees with pyproject.toml.

The missing extra is simulated in a subprocess by an import hook that refuses torch (the installed-wheel smoke test,
tests/packaging/wheel_smoke.py, checks the same refusal in a virtualenv that really has no torch)."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from ccg_env.extras import EXTRA_MODULES, MissingExtraError, missing_modules, require_extra

ROOT = Path(__file__).resolve().parents[2]

#: Makes ``import torch`` (and ``importlib.util.find_spec("torch")``) fail, as in an install without the extra.
WITHOUT_TORCH = """
import sys

class NoTorch:
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] == "torch":
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

sys.meta_path.insert(0, NoTorch())
"""


def _cli_without_torch(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    code = WITHOUT_TORCH + f"from ccg_env.cli import main\nsys.exit(main({args!r}))\n"
    return subprocess.run([sys.executable, "-c", code], cwd=cwd, capture_output=True, text=True, timeout=300,
                          env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "CCG_ENV_PURE_PYTHON": "1"})


def test_the_arena_refuses_a_learned_agent_without_the_train_extra_before_any_game(tmp_path):
    done = _cli_without_torch(["arena", "--agents", "learned", "heuristic", "--games", "2", "--workers", "2",
                               "--out-dir", str(tmp_path / "out"), "--no-progress"], tmp_path)
    assert done.returncode == 2, done.stderr
    assert done.stderr.splitlines() == [
        "ccg-env arena: error: agent 'learned:ppo_vs_heuristic' needs the optional extra 'train' (torch not "
        "installed): pip install 'ccg-env[train]'"]
    assert not (tmp_path / "out").exists() and done.stdout == ""  # refused before any game was played


def test_the_refusal_names_every_missing_module_and_the_command(monkeypatch):
    import ccg_env.extras as extras

    monkeypatch.setattr(extras, "_installed", lambda name: name == "torch")
    assert missing_modules("train") == ["stable_baselines3", "sb3_contrib"]
    with pytest.raises(MissingExtraError, match=r"^training needs the optional extra 'train' \(stable_baselines3, "
                                                r"sb3_contrib not installed\): pip install 'ccg-env\[train\]'$"):
        require_extra("train", "training")
    monkeypatch.setattr(extras, "_installed", lambda name: True)
    require_extra("train", "training")  # everything installed: nothing raised


def _requirement_name(requirement: str) -> str:
    return re.split(r"[\[<>=!~;\s]", requirement, maxsplit=1)[0].lower().replace("_", "-")


#: The distribution that installs each module, where the names differ.
DISTRIBUTION = {"stable_baselines3": "stable-baselines3", "sb3_contrib": "sb3-contrib"}


@pytest.mark.parametrize("extra", sorted(EXTRA_MODULES))
def test_each_extra_installs_the_modules_its_refusal_checks(extra):
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    listed = {_requirement_name(requirement) for requirement in extras[extra]}
    for module in EXTRA_MODULES[extra]:
        assert DISTRIBUTION.get(module, module) in listed, f"{module} is not installed by the extra {extra!r}"
