"""Hostile training configs, loaded in a capped child process: card data's YAML limits, run names that stay inside
``runs_dir``, sizes a model file would refuse caught at load, and ``trust`` that nested options can only narrow.

Before, a few hundred bytes of YAML aliases exhausted memory, ``name: ../x`` wrote outside ``runs_dir``, a layer of
5,000 units trained for an hour and then could not be saved, and an evaluation opponent's ``trust: true`` loaded a
crafted zip under ``trust_model: false``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from .child_process import run_capped
from .test_hostile_files import alias_bomb

pytestmark = pytest.mark.subprocess_bounds  # child processes timed and measured

CAP_MB = 1000

LOAD_ALL = """
    from ccg_env.training.train_config import load_config
    for path in sys.argv[1:]:
        report(lambda: load_config(path))
"""

CASES = {
    "a YAML alias bomb": (alias_bomb(), r"YAML anchors and aliases \(&name, \*name\) are not allowed"),
    "nesting 30 deep": ("league: " + "[" * 30 + "]" * 30 + "\n", "nested more than 20 levels deep"),
    "nesting 10,000 deep": ("league: " + "[" * 10_000 + "]" * 10_000 + "\n", "exceeded maximum nesting depth"),
    "a 3 MB config": ("seed: 1\n" + "#" * 3_000_000 + "\n", "file larger than 2,000,000 bytes"),
    "a run name leading out of runs_dir": ("name: ../escaped\n", "name must be a folder name inside runs_dir"),
    "an absolute run name": ("name: /tmp/escaped\n", "name must be a folder name inside runs_dir"),
    "a run name with a folder": ("name: a/b\n", "name must be a folder name inside runs_dir"),
    "the run name ..": ("name: ..\n", "name must be a folder name inside runs_dir"),
    "a layer a model file refuses": ("net_arch: [5000]\n", r"layer sizes from 1 to 4096 \(what a model file holds\)"),
    "more layers than a model file holds": ("net_arch: [8, 8, 8, 8, 8, 8, 8, 8, 8]\n", "a list of 1 to 8 layer sizes"),
    "a network larger than a model file holds": ("net_arch: [4096, 4096, 4096, 4096, 4096, 4096]\n",
                                                 r"needs 336 MB of weights between its hidden layers alone, more "
                                                 r"than the 256 MB a model file holds"),
    "a slot size a model file refuses": ("policy: slot\npolicy_kwargs: {slot_dim: 5000}\n",
                                         r"slot_dim must be at most 4096 \(what a model file holds\)"),
    "a long key quoted short": ("x" * 1000 + ": 1\n", r"unknown key 'x+\.\.\.x+'; known keys"),
}


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory):
    """Every hostile config loaded in one capped child: name -> its report; and the folder's files before and after."""
    folder = tmp_path_factory.mktemp("hostile_configs")
    paths = []
    for number, (text, _) in enumerate(CASES.values()):
        path = folder / f"case{number}.yaml"
        path.write_text(text)
        paths.append(str(path))
    before = sorted(p.name for p in folder.iterdir())
    reports = run_capped(LOAD_ALL, *paths, memory_mb=CAP_MB, timeout=120, cwd=str(folder))
    assert len(reports) == len(CASES)
    return dict(zip(CASES, reports)), before == sorted(p.name for p in folder.iterdir())


@pytest.mark.parametrize("name", list(CASES))
def test_a_hostile_training_config_is_refused_in_one_line_quickly_and_small(outcomes, name):
    reports, unchanged = outcomes
    report = reports[name]
    assert report["error"] is not None and re.search(CASES[name][1], report["error"]), report
    assert "\n" not in report["error"] and len(report["error"]) < 1000  # the file, the key, the known keys
    assert report["seconds"] < 30 and report["peak_mb"] < 300, report  # bounded: a hang, not a slow machine, fails
    assert unchanged


def test_an_override_with_aliases_is_refused_like_a_file():
    from ccg_env.training.train_config import parse_overrides

    with pytest.raises(ValueError, match=r"--set net_arch.*anchors and aliases"):
        parse_overrides(["net_arch=[&a [1, 2], *a, *a]"])


def test_a_run_named_out_of_runs_dir_writes_nothing(tmp_path):
    from ccg_env.training.train import train

    config = tmp_path / "configs" / "run.yaml"
    config.parent.mkdir()
    config.write_text(f"name: ../../outside\nruns_dir: {tmp_path / 'runs'}\ntotal_timesteps: 64\nnum_envs: 2\n")
    with pytest.raises(ValueError, match="name must be a folder name inside runs_dir"):
        train(config)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["configs"]


@pytest.fixture(scope="module")
def crafted_zip(tmp_path_factory) -> tuple[Path, Path]:
    """An SB3 zip whose data unpickles into code writing a marker file; and the marker's path."""
    pytest.importorskip("sb3_contrib")
    import torch
    from sb3_contrib import MaskablePPO

    from ccg_env.env.gym_env import CcgDuelEnv
    from tests.test_model_files import hostile_zip

    torch.set_num_threads(1)
    folder = tmp_path_factory.mktemp("crafted")
    model = MaskablePPO("MlpPolicy", CcgDuelEnv(), n_steps=32, batch_size=32, n_epochs=1, seed=0,
                        policy_kwargs={"net_arch": [8]}, device="cpu")
    model.save(folder / "honest.zip")
    return hostile_zip(folder / "honest.zip", folder / "crafted.zip", folder / "marker"), folder / "marker"


def _config_with_opponent(tmp_path: Path, zip_path: Path, trust_model: bool) -> Path:
    path = tmp_path / "run.yaml"
    path.write_text(f"trust_model: {str(trust_model).lower()}\n"
                    f"eval_opponents: [{{name: learned, path: '{zip_path}', trust: true}}]\n")
    return path


def test_an_opponents_own_trust_cannot_widen_the_configs(crafted_zip, tmp_path):
    from ccg_env.training.train_config import load_config

    zip_path, marker = crafted_zip
    with pytest.raises(ValueError, match=r"eval_opponents: .*trust: an opponent cannot trust more than the config "
                                         r"does \(trust_model is false\)"):
        load_config(_config_with_opponent(tmp_path, zip_path, trust_model=False))
    assert not marker.exists()


def test_the_crafted_zip_is_live_when_trusted(crafted_zip):
    """Loaded with trust, the zip runs its payload: so the refusal above is what kept the marker from being written."""
    from ccg_env.saved_policy import load_model

    zip_path, marker = crafted_zip
    with pytest.raises(Exception):  # the payload replaced the policy class: the load fails after it ran
        load_model(zip_path, trust=True)
    assert marker.read_text() == "the payload ran"
    marker.unlink()
