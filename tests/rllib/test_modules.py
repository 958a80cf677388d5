"""The masked modules never choose a masked-out action; the policy file round-trips and refuses damage."""

from __future__ import annotations

import json
import zipfile

import numpy as np
import pytest
import torch

from tests.rllib.ray_or_skip import require_rllib

require_rllib()

from ray.rllib.core.columns import Columns  # noqa: E402
from ray.rllib.core.rl_module.rl_module import RLModuleSpec  # noqa: E402

from ccg_env.model_file import ModelFileError  # noqa: E402
from ccg_env.rllib.config import main_module_spec  # noqa: E402
from ccg_env.rllib.env import CcgMultiAgentEnv  # noqa: E402
from ccg_env.rllib.modules import MaskedRandomRLModule  # noqa: E402
from ccg_env.rllib.policy_file import load_policy_file, save_policy_file  # noqa: E402

ENV = CcgMultiAgentEnv()
SPACE, ACTIONS = ENV.observation_spaces["player_0"], ENV.action_spaces["player_0"]


def _build(spec: RLModuleSpec):
    spec.observation_space, spec.action_space = SPACE, ACTIONS
    return spec.build()


def _batch(rows: int, seed: int):
    rng = np.random.default_rng(seed)
    masks = (rng.random((rows, ACTIONS.n)) < 0.05).astype(np.int8)
    masks[:, 0] = 1  # end turn is always legal
    observations = rng.random((rows, SPACE["observations"].shape[0]), dtype=np.float32)
    observation = {"observations": torch.from_numpy(observations), "action_mask": torch.from_numpy(masks)}
    return masks, {Columns.OBS: observation}


@pytest.mark.parametrize("spec", [main_module_spec((32, 32)), RLModuleSpec(module_class=MaskedRandomRLModule)],
                         ids=["ppo", "random"])
def test_masked_out_actions_are_never_sampled_nor_chosen(spec):
    module = _build(spec)
    masks, batch = _batch(16, seed=0)
    with torch.no_grad():
        logits = module.forward_exploration(batch)[Columns.ACTION_DIST_INPUTS]
        greedy = module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS].argmax(dim=1).numpy()
    dist = module.get_exploration_action_dist_cls().from_logits(logits)
    samples = torch.stack([dist.sample() for _ in range(300)]).numpy()  # (draws, rows)
    rows = np.arange(masks.shape[0])
    assert masks[rows, greedy].all()
    assert masks[rows[None, :].repeat(300, 0), samples].all(), "a masked-out action was sampled"


def test_the_random_module_is_uniform_over_the_legal_actions():
    module = _build(RLModuleSpec(module_class=MaskedRandomRLModule))
    masks, batch = _batch(1, seed=1)
    logits = module.forward_exploration(batch)[Columns.ACTION_DIST_INPUTS]
    dist = module.get_exploration_action_dist_cls().from_logits(logits)
    counts = np.bincount(torch.cat([dist.sample() for _ in range(4000)]).numpy(), minlength=ACTIONS.n)
    legal = np.flatnonzero(masks[0])
    assert set(np.flatnonzero(counts)) == set(legal)
    assert counts[legal].min() > 0.5 * 4000 / legal.size


def test_policy_file_round_trips_and_refuses_edits(tmp_path):
    module = _build(main_module_spec((32, 16)))
    path = save_policy_file(tmp_path / "p.ccgrllib", module, ENV.core, {"run": "test"})
    loaded, metadata = load_policy_file(path)
    assert metadata["fcnet_hiddens"] == [32, 16] and metadata["action_size"] == ENV.core.size
    for name, tensor in module.state_dict().items():
        assert torch.equal(tensor, loaded.state_dict()[name]), name
    with zipfile.ZipFile(path) as archive:
        document, weights = json.loads(archive.read("metadata.json")), archive.read("weights.pt")
    for field, value, message in (("module_class", "os.system", "unknown"), ("fcnet_hiddens", [10**9], "layer"),
                                  ("weights_sha256", "0" * 64, "SHA-256")):
        bad = tmp_path / f"bad_{field}.ccgrllib"
        with zipfile.ZipFile(bad, "w") as archive:
            archive.writestr("metadata.json", json.dumps({**document, field: value}))
            archive.writestr("weights.pt", weights)
        with pytest.raises(ModelFileError, match=message):
            load_policy_file(bad)
