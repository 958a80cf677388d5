"""Malformed training configs (``ccg_env.training.train.load_config``): the error names the file and the key."""

from __future__ import annotations

from pathlib import Path

import pytest

train = pytest.importorskip("ccg_env.training.train", reason="ccg_env/training/train.py is not importable")

BAD_CONFIGS = {
    "unknown key": ("learnin_rate: 0.1\n",
                    r"unknown key 'learnin_rate'; known keys: async_rollouts, backend, batch_size"),
    "text for a number": ("total_timesteps: lots\n", r"key 'total_timesteps' expects int, got 'lots'"),
    "fraction for a count": ("num_envs: 2.5\n", r"key 'num_envs' expects int, got 2.5"),
    "bool for a count": ("num_envs: true\n", r"key 'num_envs' expects int, got True"),
    "negative timesteps": ("total_timesteps: -5\n", r"total_timesteps must be at least 1, got -5"),
    "no envs": ("num_envs: 0\n", r"num_envs must be at least 1, got 0"),
    "negative eval interval": ("eval_every: -1\n", r"eval_every must be 0 or more, got -1"),
    "network as text": ("net_arch: big\n", r"key 'net_arch' expects list, got 'big'"),
    "negative layer": ("net_arch: [64, -1]\n", r"net_arch must be a list of 1 to 8 layer sizes from 1 to 4096"),
    "a list, not a mapping": ("- 1\n", r"expected a mapping of settings, got list"),
}


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "my_run.yaml"
    path.write_text(text)
    return path


@pytest.mark.parametrize("name", sorted(BAD_CONFIGS))
def test_bad_training_configs_name_the_file_and_key(name, tmp_path):
    text, message = BAD_CONFIGS[name]
    path = _write(tmp_path, text)
    with pytest.raises(ValueError, match=message) as info:
        train.load_config(path)
    assert str(info.value).startswith(str(path))


def test_a_missing_training_config_is_named():
    with pytest.raises(FileNotFoundError, match="no_such_run"):
        train.load_config("no_such_run")


@pytest.mark.parametrize("name", sorted(p.stem for p in (Path(train.__file__).parents[2] / "configs" / "train")
                                        .glob("*.yaml")))
def test_the_packaged_configs_load(name):
    assert train.load_config(name).name == name  # every key checked; backend rllib's without importing Ray


def test_broken_yaml_names_the_file(tmp_path):
    path = _write(tmp_path, "num_envs: [1,\n")
    with pytest.raises(ValueError, match="my_run.yaml"):
        train.load_config(path)


@pytest.mark.parametrize("line, key", [
    ("learning_rate: -0.1", "learning_rate"), ("gamma: 2.0", "gamma"), ("clip_range: -1", "clip_range"),
    ("seat: left", "seat"), ("seat: 2", "seat"), ("opponent: nobody", "opponent"), ("decks: aggro", "decks"),
    ("device: tpu", "device"), ("progress: maybe", "progress"), ("progress: 1", "progress"),
])
def test_out_of_range_settings_are_refused_at_load(line, key, tmp_path):
    with pytest.raises(ValueError, match=key):
        train.load_config(_write(tmp_path, line + "\n"))


def test_a_failed_run_leaves_no_run_directory(tmp_path):
    path = _write(tmp_path, f"total_timesteps: 64\nnum_envs: 2\nruns_dir: {tmp_path / 'runs'}\nseat: left\n")
    with pytest.raises(ValueError, match="seat"):
        train.train(path)
    assert not (tmp_path / "runs").exists()
