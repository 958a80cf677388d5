"""The masked modules never choose a masked-out action; the policy file round-trips and refuses damage."""

from __future__ import annotations

import hashlib
import io
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
from ccg_env.rllib.config import main_module_spec, slot_module_spec  # noqa: E402
from ccg_env.rllib.env import CcgMultiAgentEnv  # noqa: E402
from ccg_env.rllib.modules import MaskedRandomRLModule  # noqa: E402
from ccg_env.rllib.policy_file import load_policy_file, save_policy_file  # noqa: E402

ENV = CcgMultiAgentEnv()
SPACE, ACTIONS = ENV.observation_spaces["player_0"], ENV.action_spaces["player_0"]
SMALL_SLOTS = {"slot_dim": 8, "global_dim": 16, "head_dim": 8}


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


@pytest.mark.parametrize("spec", [main_module_spec((32, 32)), slot_module_spec(None, SMALL_SLOTS, (16,)),
                                  RLModuleSpec(module_class=MaskedRandomRLModule)], ids=["ppo", "slot", "random"])
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
                                  ("fcnet_hiddens", [4096] * 8, "MB of weights, more than"),
                                  ("weights_sha256", "0" * 64, "SHA-256")):
        bad = tmp_path / f"bad_{field}.ccgrllib"
        with zipfile.ZipFile(bad, "w") as archive:
            archive.writestr("metadata.json", json.dumps({**document, field: value}))
            archive.writestr("weights.pt", weights)
        with pytest.raises(ModelFileError, match=message):
            load_policy_file(bad)


def test_the_slot_module_reads_the_observation_as_the_sb3_slot_policy_does():
    """Same networks as the SB3 backend's slot policy: equal weights give equal logits and values."""
    from ccg_env.training.slot_networks import SlotEncoder

    module = _build(slot_module_spec(None, SMALL_SLOTS, (16,)))
    assert isinstance(module.encoder, SlotEncoder) and module.pi.size == ACTIONS.n
    masks, batch = _batch(6, seed=2)
    with torch.no_grad():
        train = module.forward_train(batch)
        values = module.compute_values(batch)
        logits = module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS]
    features = module.encoder(batch[Columns.OBS]["observations"])
    assert torch.allclose(train[Columns.EMBEDDINGS], features)
    assert torch.allclose(module.compute_values(batch, train[Columns.EMBEDDINGS]), values) and values.shape == (6,)
    assert torch.allclose(logits, train[Columns.ACTION_DIST_INPUTS])
    assert torch.allclose(logits[masks == 1], module.pi(features)[masks == 1])  # the mask only touches the rest


@pytest.mark.parametrize("options", [SMALL_SLOTS, {**SMALL_SLOTS, "attention_layers": 2}],
                         ids=["slots", "attention"])
def test_the_slot_module_policy_file_round_trips_and_refuses_edited_indices(tmp_path, options):
    module = _build(slot_module_spec(None, options, (16,)))
    path = save_policy_file(tmp_path / "slot.ccgrllib", module, ENV.core)
    loaded, metadata = load_policy_file(path)
    assert metadata["module_class"] == "SlotPPOTorchRLModule" and metadata["fcnet_hiddens"] == [16]
    assert {key: metadata["slot"][key] for key in options} == options  # no attention_layers key unless set
    assert set(metadata["slot"]) == {*options, "pieces"}
    assert len(getattr(loaded.encoder, "attention", ())) == options.get("attention_layers", 0)
    for name, tensor in module.state_dict().items():  # the input gain too, which the metadata does not hold
        assert torch.equal(tensor, loaded.state_dict()[name]), name
    masks, batch = _batch(4, seed=3)
    with torch.no_grad():
        assert torch.equal(module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS],
                           loaded.forward_inference(batch)[Columns.ACTION_DIST_INPUTS])
    with zipfile.ZipFile(path) as archive:
        document, weights = json.loads(archive.read("metadata.json")), archive.read("weights.pt")
    state = torch.load(io.BytesIO(weights), weights_only=True)
    state["encoder.global_index"] = state["encoder.global_index"].flip(0)  # reads other features
    edited = io.BytesIO()
    torch.save(state, edited)
    pieces = document["slot"]["pieces"]
    cases = {"indices": (document, edited.getvalue(), "index buffers"),
             "pieces": ({**document, "slot": {**document["slot"], "pieces": [[*pieces[0][:2], 10**7, [1]]]}},
                        weights, r"pieces\[0\]"),
             "flat_hand": ({**document, "slot": {**document["slot"], "pieces": [
                 [name, start, stop, [stop - start] if name == "own_hand" else shape]
                 for name, start, stop, shape in pieces]}}, weights, "'own_hand' with a \\(slots, features\\) shape"),
             "slot_for_mlp": ({**document, "module_class": "MaskedPPOTorchRLModule"}, weights, "slot: expected"),
             "slot_dim": ({**document, "slot": {**document["slot"], "slot_dim": 10**6}}, weights, "slot_dim"),
             "attention": ({**document, "slot": {**document["slot"], "attention_layers": 9}}, weights,
                           "attention_layers: expected a whole number from 1 to 8"),
             "unknown": ({**document, "slot": {**document["slot"], "layers": 1}}, weights,
                         "optionally 'attention_layers'")}
    for name, (meta, data, message) in cases.items():
        bad = tmp_path / f"bad_{name}.ccgrllib"
        meta = {**meta, "weights_sha256": hashlib.sha256(data).hexdigest()}
        with zipfile.ZipFile(bad, "w") as archive:
            archive.writestr("metadata.json", json.dumps(meta))
            archive.writestr("weights.pt", data)
        with pytest.raises(ModelFileError, match=message):
            load_policy_file(bad)
