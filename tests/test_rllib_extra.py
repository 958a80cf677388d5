"""Without the 'rllib' extra, the RLlib support says which extra to install (run in the main virtualenv)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import pytest

import ccg_env.rllib
from ccg_env.rllib.settings import RLlibSettings
from ccg_env.training.train_config import TrainConfig

pytestmark = pytest.mark.skipif(importlib.util.find_spec("ray") is not None,
                                reason="ray is installed here; tests/rllib runs the RLlib support itself")


def test_using_the_rllib_support_names_the_extra():
    with pytest.raises(ImportError, match=r"pip install 'ccg-env\[rllib\]'"):
        ccg_env.rllib.CcgMultiAgentEnv
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        ccg_env.rllib.nothing


def test_train_backend_rllib_exits_2_naming_the_extra():
    done = subprocess.run([sys.executable, "-m", "ccg_env.cli", "train", "--backend", "rllib", "--config", "smoke"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "ccg-env[rllib]" in done.stderr


def test_rllib_config_keys_are_checked_without_ray():
    with pytest.raises(ValueError, match="rllib: num_env_runners must be at least 0, got -1"):
        TrainConfig(backend="rllib", rllib={"num_env_runners": -1})
    with pytest.raises(ValueError, match="rescale_inputs: backend rllib supports only False"):
        TrainConfig(backend="rllib", policy="mlp", rescale_inputs=True)
    with pytest.raises(ValueError, match="pairwise: backend rllib's slot module supports only true"):
        TrainConfig(backend="rllib", policy="slot", policy_kwargs={"pairwise": False})
    assert TrainConfig(backend="rllib", policy="slot", rescale_inputs=True).policy == "slot"
    with pytest.raises(ValueError, match="imitation: unknown key 'sampels'"):
        TrainConfig(backend="rllib", policy="slot", imitation={"sampels": 1000})
    with pytest.raises(ValueError, match="rllib: settings for backend rllib"):
        TrainConfig(rllib={"num_env_runners": 2})
    with pytest.raises(ValueError, match=r"league: heuristic was replaced by scripted: \{heuristic: <weight>\}"):
        TrainConfig(backend="rllib", opponent="league", league={"heuristic": 0.5})
    with pytest.raises(ValueError, match="league: checkpoints: backend rllib does not load model files"):
        TrainConfig(backend="rllib", opponent="league", league={"checkpoints": [__file__]})
    with pytest.raises(ValueError, match="rllib: share_encoder expects bool, got 'yes'"):
        TrainConfig(backend="rllib", rllib={"share_encoder": "yes"})
    with pytest.raises(ValueError, match="rllib: play_forced was removed .* got True: drop the key"):
        TrainConfig(backend="rllib", rllib={"play_forced": True})
    assert RLlibSettings.from_dict({"play_forced": False}) == RLlibSettings()  # its off value still loads
    with pytest.raises(ValueError, match=r"rllib: runner_resources expects dict or null, got \['node_a'\]"):
        TrainConfig(backend="rllib", rllib={"runner_resources": ["node_a"]})
    for resources in ({"node_a": 0}, {"node_a": True}):
        with pytest.raises(ValueError, match="runner_resources must be a mapping of resource names to amounts > 0"):
            TrainConfig(backend="rllib", rllib={"runner_resources": resources})
    assert TrainConfig(backend="rllib", rllib={"runner_resources": {"node_a": 0.5}}).rllib["runner_resources"]
    assert TrainConfig(backend="rllib", opponent="self").opponent == "self"
    with pytest.raises(ValueError, match="mode: backend rllib supports only 'duel', got 'draft'"):
        TrainConfig(backend="rllib", mode="draft", opponent="heuristic")
