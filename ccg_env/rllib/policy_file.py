"""The RLlib policy file (``.ccgrllib``): a masked PPO module's weights and JSON metadata, read without running code.

An RLlib checkpoint folder holds pickles (the module's class and constructor arguments, states), so loading one
runs whatever code its author put there: the ``learned`` agent opens one only with ``trust=True``. Training also
writes the main module as a policy file, which is what to share: a zip archive with exactly

- ``metadata.json``: ``format`` (``"ccg-env-rllib-module"``), ``format_version``, the module class
  (``MaskedPPOTorchRLModule`` or ``SlotPPOTorchRLModule``), its layer sizes, activation and layer sharing (names
  from a fixed list, sizes bounded), for the slot module its ``slot`` sizes and the observation's pieces, the
  observation and action sizes, the rules and the card ids it was trained on (null for an observation without card
  ids), the observation's spec (its layout by name, :class:`~ccg_env.env.observation_spec.ObservationSpec`; absent
  from older files), the environment version and spec hash it was made for (:mod:`ccg_env.env.versions`, as a
  ``.ccgmodel`` records them: :func:`ccg_env.model_file.env_record_of`; absent from older files), and the weights'
  SHA-256;
- ``weights.pt``: the module's ``state_dict`` as plain tensors, read with ``torch.load(weights_only=True)``.

Every size is bounded before anything is allocated (the module is first built on torch's "meta" device to size it
against the weights limit); integer buffers (the slot module's feature indices) must equal
the ones the metadata builds; a file that does not fit the game (other rules or card set)
is refused with an error naming both sides, or what differs in the observation's spec
(:func:`ccg_env.model_file.check_fits`); so is a file made for another environment version or spec, naming both.
"""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from ..model_file import (MAX_ACTION_SIZE, MAX_ATTENTION_LAYERS, MAX_LAYER_SIZE, MAX_LAYERS, MAX_OBSERVATION_SIZE,
                          ModelFileError)
# one set of checks for both formats
from ..model_file import _check_card_ids, _check_env_version, _check_rules, _check_spec_hash, _read_member
from ..model_file import check_env_fields, check_env_spec, check_fits, check_spec_agrees, parse_metadata
from ..tensor_file import check_module_size, load_tensors

FORMAT = "ccg-env-rllib-module"
FORMAT_VERSION = 1
SUFFIX = ".ccgrllib"
METADATA_MEMBER = "metadata.json"
WEIGHTS_MEMBER = "weights.pt"
MODULE_CLASSES = ("MaskedPPOTorchRLModule", "SlotPPOTorchRLModule")
SLOT_CLASS = "SlotPPOTorchRLModule"
SLOT_SIZES = ("slot_dim", "global_dim", "head_dim")
#: The slot block's optional entry, written only when set, so files without it read as before.
SLOT_ATTENTION = "attention_layers"
MAX_PIECES = 64
ACTIVATIONS = ("tanh", "relu", "swish", "linear")
MAX_METADATA_BYTES = 4_000_000
MAX_WEIGHTS_BYTES = 256_000_000
_FIELDS = ("format", "format_version", "module_class", "fcnet_hiddens", "head_fcnet_hiddens", "fcnet_activation",
           "vf_share_layers", "observation_size", "action_size", "rules", "card_ids", "weights_sha256", "source",
           "slot", "observation_spec", "env_version", "spec_hash")
#: Files written before the slot module (or the spec, or environment versions) lack these.
_OPTIONAL = {"source", "slot", "observation_spec", "env_version", "spec_hash"}


def _layers(value: Any, where: str) -> list[int]:
    if not isinstance(value, list) or len(value) > MAX_LAYERS or not all(
            isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= MAX_LAYER_SIZE for n in value):
        raise ModelFileError(f"{where}: expected a list of at most {MAX_LAYERS} layer sizes from 1 to "
                             f"{MAX_LAYER_SIZE}, got {str(value)[:80]}")
    return value


def _size(value: Any, limit: int, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= limit:
        raise ModelFileError(f"{where}: expected a whole number from 1 to {limit}, got {str(value)[:80]}")
    return value


def check_metadata(data: Any, where: str) -> dict[str, Any]:
    """Validate a parsed ``metadata.json`` field by field; a ModelFileError names ``where`` and the field."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ModelFileError(f"{where}: not a ccg-env RLlib policy file (format is "
                             f"{str(data.get('format'))[:80] if isinstance(data, dict) else type(data).__name__!r}, "
                             f"expected {FORMAT!r})")
    if data.get("format_version") != FORMAT_VERSION:
        raise ModelFileError(f"{where}: format_version {str(data.get('format_version'))[:80]} is not supported "
                             f"(this ccg-env reads version {FORMAT_VERSION})")
    unknown = sorted(set(data) - set(_FIELDS))
    missing = sorted(set(_FIELDS) - set(data) - _OPTIONAL)
    if unknown or missing:
        raise ModelFileError(f"{where}: unknown fields {str(unknown)[:200]}, missing fields {missing}")
    if data["module_class"] not in MODULE_CLASSES:
        raise ModelFileError(f"{where}: module_class: unknown {str(data['module_class'])[:80]}; known: "
                             f"{', '.join(MODULE_CLASSES)}")
    if data["fcnet_activation"] not in ACTIVATIONS:
        raise ModelFileError(f"{where}: fcnet_activation: unknown {str(data['fcnet_activation'])[:80]}; known: "
                             f"{', '.join(ACTIVATIONS)}")
    if not isinstance(data["vf_share_layers"], bool):
        raise ModelFileError(f"{where}: vf_share_layers: expected true or false, "
                             f"got {str(data['vf_share_layers'])[:80]}")
    _layers(data["fcnet_hiddens"], f"{where}: fcnet_hiddens")
    _layers(data["head_fcnet_hiddens"], f"{where}: head_fcnet_hiddens")
    _size(data["observation_size"], MAX_OBSERVATION_SIZE, f"{where}: observation_size")
    _size(data["action_size"], MAX_ACTION_SIZE, f"{where}: action_size")
    _check_rules(data["rules"], f"{where}: rules")
    _check_card_ids(data["card_ids"], f"{where}: card_ids")
    check_spec_agrees(data.get("observation_spec"), data["observation_size"], data["card_ids"], where)
    _check_env_version(data.get("env_version"), f"{where}: env_version")
    _check_spec_hash(data.get("spec_hash"), f"{where}: spec_hash")
    check_env_fields(data.get("env_version"), data.get("spec_hash"), where)
    slot = data.get("slot")
    if (data["module_class"] == SLOT_CLASS) != (slot is not None):
        raise ModelFileError(f"{where}: slot: expected the slot sizes for {SLOT_CLASS} and null otherwise, "
                             f"got {str(slot)[:80]} for {data['module_class']}")
    if slot is not None:
        _check_slot(slot, data["observation_size"], f"{where}: slot")
    sha = data["weights_sha256"]
    if not isinstance(sha, str) or len(sha) != 64 or any(c not in "0123456789abcdef" for c in sha):
        raise ModelFileError(f"{where}: weights_sha256: expected 64 lowercase hex digits")
    return data


def _check_slot(slot: Any, observation_size: int, where: str) -> None:
    """The slot module's sizes and the observation's pieces: keys, bounds, and pieces inside the observation."""
    keys = {*SLOT_SIZES, "pieces"}
    if not isinstance(slot, dict) or not keys <= set(slot) <= keys | {SLOT_ATTENTION}:
        raise ModelFileError(f"{where}: expected the keys {sorted(keys)} (and optionally {SLOT_ATTENTION!r}), "
                             f"got {sorted(slot) if isinstance(slot, dict) else type(slot).__name__}")
    for key in SLOT_SIZES:
        _size(slot[key], MAX_LAYER_SIZE, f"{where}: {key}")
    if SLOT_ATTENTION in slot:
        _size(slot[SLOT_ATTENTION], MAX_ATTENTION_LAYERS, f"{where}: {SLOT_ATTENTION}")
    pieces = slot["pieces"]
    if not isinstance(pieces, list) or not 1 <= len(pieces) <= MAX_PIECES:
        raise ModelFileError(f"{where}: pieces: expected a list of 1 to {MAX_PIECES} pieces")
    for index, piece in enumerate(pieces):
        ok = (isinstance(piece, list) and len(piece) == 4 and isinstance(piece[0], str) and len(piece[0]) <= 64
              and all(isinstance(n, int) and not isinstance(n, bool) for n in piece[1:3])
              and isinstance(piece[3], list) and 1 <= len(piece[3]) <= 2
              and all(isinstance(n, int) and not isinstance(n, bool) and n >= 1 for n in piece[3]))
        if not ok or not 0 <= piece[1] < piece[2] <= observation_size or \
                piece[2] - piece[1] != (piece[3][0] * (piece[3][1] if len(piece[3]) == 2 else 1)):
            raise ModelFileError(f"{where}: pieces[{index}]: expected [name, start, stop, shape] inside the "
                                 f"{observation_size} observation entries, got {str(piece)[:80]}")
    from ..training.slot_networks import HERO_PIECES, SLOT_PIECES  # torch only once a slot file is read

    shapes = {piece[0]: piece[3] for piece in pieces}
    for name in (*SLOT_PIECES, *HERO_PIECES):  # what the slot encoder reads: a zone's slots are rows of a table
        if name not in shapes or (name in SLOT_PIECES) != (len(shapes[name]) == 2):
            raise ModelFileError(f"{where}: pieces: expected {name!r} with a "
                                 f"{'(slots, features)' if name in SLOT_PIECES else '(features,)'} shape, got "
                                 f"{str(shapes.get(name, 'none'))[:40]}")


def save_policy_file(path: str | Path, module: Any, core: Any, source: dict | None = None) -> Path:
    """Write ``module`` (a masked PPO or slot module) and what it plays (``core``: rules, cards) to ``path``."""
    import dataclasses

    import torch

    from ..model_file import env_record_of

    config = module.model_config or {}
    spec = core.encoder.spec
    buffer = io.BytesIO()
    torch.save({k: v.detach().cpu().clone() for k, v in module.state_dict().items()}, buffer)
    weights = buffer.getvalue()
    metadata = {
        "format": FORMAT, "format_version": FORMAT_VERSION, "module_class": type(module).__name__,
        "fcnet_hiddens": list(config.get("fcnet_hiddens", [256, 256])),
        "head_fcnet_hiddens": list(config.get("head_fcnet_hiddens", [])),
        "fcnet_activation": config.get("fcnet_activation", "tanh"),
        "vf_share_layers": bool(config.get("vf_share_layers", True)), "observation_size": core.encoder.size,
        "action_size": core.size, "rules": dataclasses.asdict(core.rules),
        "card_ids": sorted(core.cards) if spec.card_ids else None,
        "weights_sha256": hashlib.sha256(weights).hexdigest(), "source": dict(source or {}),
        "observation_spec": spec.to_dict(), **env_record_of(spec, core.cards),
        "slot": ({**{key: int(config[key]) for key in SLOT_SIZES}, "pieces": config["pieces"]}
                 if type(module).__name__ == SLOT_CLASS else None),
    }
    if metadata["slot"] is not None and config.get(SLOT_ATTENTION):
        metadata["slot"][SLOT_ATTENTION] = int(config[SLOT_ATTENTION])
    if metadata["slot"] is not None:  # the slot module's value layers are its "fcnet_hiddens"
        metadata["fcnet_hiddens"] = [int(n) for n in config["value_hiddens"]]
    path = Path(path)
    check_metadata(json.loads(json.dumps(metadata)), str(path))  # what a reader will check
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_STORED) as archive:
        archive.writestr(METADATA_MEMBER, json.dumps(metadata, indent=1) + "\n")
        archive.writestr(WEIGHTS_MEMBER, weights)
    return path


def read_policy_file(path: str | Path) -> tuple[dict[str, Any], bytes]:
    """The validated metadata and the checksummed (not yet loaded) weights of a policy file."""
    where = str(path)
    try:
        with zipfile.ZipFile(path) as archive:
            names = set(archive.namelist())
            if names != {METADATA_MEMBER, WEIGHTS_MEMBER}:
                raise ModelFileError(f"{where}: not a ccg-env RLlib policy file (members {sorted(names)[:10]}, "
                                     f"expected {METADATA_MEMBER} and {WEIGHTS_MEMBER})")
            raw = _read_member(archive, METADATA_MEMBER, MAX_METADATA_BYTES, where)
            weights = _read_member(archive, WEIGHTS_MEMBER, MAX_WEIGHTS_BYTES, where)
    except (zipfile.BadZipFile, OSError, RuntimeError) as error:
        raise ModelFileError(f"{where}: cannot read the archive: {error}") from None
    metadata = check_metadata(parse_metadata(raw, where), where)
    if hashlib.sha256(weights).hexdigest() != metadata["weights_sha256"]:
        raise ModelFileError(f"{where}: {WEIGHTS_MEMBER} does not match the SHA-256 in {METADATA_MEMBER} "
                             f"(file damaged or edited)")
    return metadata, weights


def load_policy_file(path: str | Path) -> tuple[Any, dict[str, Any]]:
    """Build the module a policy file describes and load its weights (plain tensors only)."""
    import numpy as np
    import torch

    from .env import masked_space

    metadata, weights = read_policy_file(path)
    where = str(path)
    check_env_spec(SimpleNamespace(**metadata), where)
    state = load_tensors(weights, f"{where}: {WEIGHTS_MEMBER}")  # bounded before allocating, finite
    if not isinstance(state, dict) or not all(isinstance(k, str) and isinstance(v, torch.Tensor)
                                              for k, v in state.items()):
        raise ModelFileError(f"{where}: {WEIGHTS_MEMBER} is not a mapping of names to tensors")
    space = masked_space(np.ones(metadata["observation_size"], dtype=np.float32), metadata["action_size"])
    try:
        with torch.device("meta"):  # sized without allocating: the layers a hostile metadata asks for may be huge
            check_module_size(_build_module(metadata, space).state_dict(), where)
        module = _build_module(metadata, space)
    except ValueError as error:  # e.g. pieces without the hand or battlefield the slot encoder needs
        raise ModelFileError(f"{where}: the metadata describes no buildable module: {error}") from None
    derived = {key: value.clone() for key, value in module.state_dict().items() if not value.is_floating_point()}
    try:
        module.load_state_dict(state, strict=True)
    except RuntimeError as error:
        raise ModelFileError(f"{where}: the weights do not fit the layers the metadata describes: "
                             f"{' '.join(str(error).split())[:300]}") from None
    loaded = module.state_dict()
    changed = sorted(key for key, value in derived.items() if not torch.equal(loaded[key], value))
    if changed:
        raise ModelFileError(f"{where}: the weights change index buffers that the metadata fixes: {changed[:3]}")
    module.eval()
    return module, metadata


def check_policy_fits(metadata: dict[str, Any], where: str, **game: Any) -> None:
    """:func:`ccg_env.model_file.check_fits` for a policy file's metadata: its environment version and spec hash
    against this ccg-env's, its observation and action sizes and card set against the game's (keywords
    ``observation_size``, ``action_size``, ``card_ids`` and ``spec``, the game's observation spec; those not given
    are not checked)."""
    card_ids = metadata["card_ids"]
    check_fits(SimpleNamespace(observation_size=metadata["observation_size"], action_size=metadata["action_size"],
                               card_ids=None if card_ids is None else tuple(card_ids),
                               observation_spec=metadata.get("observation_spec"),
                               env_version=metadata.get("env_version"), spec_hash=metadata.get("spec_hash")),
               where, **game)


def load_fitting_policy(path: str | Path, core: Any) -> Any:
    """The module of a policy file that plays ``core``'s game (an env core: its observation, action ids and cards);
    a file made for another game is refused with a ModelFileError naming both sides."""
    module, metadata = load_policy_file(path)
    check_policy_fits(metadata, str(path), spec=core.encoder.spec, observation_size=core.encoder.size,
                      action_size=core.size, card_ids=sorted(core.cards))
    return module


def _build_module(metadata: dict[str, Any], space: Any) -> Any:
    """The (untrained) module a validated metadata describes."""
    import gymnasium

    actions = gymnasium.spaces.Discrete(metadata["action_size"])
    if metadata["module_class"] == SLOT_CLASS:
        from .slot_module import SlotPPOTorchRLModule

        slot = metadata["slot"]
        config = {**{key: slot[key] for key in SLOT_SIZES}, "pieces": slot["pieces"], "gain": None,
                  "value_hiddens": metadata["fcnet_hiddens"], SLOT_ATTENTION: slot.get(SLOT_ATTENTION, 0)}
        return SlotPPOTorchRLModule(observation_space=space, action_space=actions, inference_only=False,
                                    model_config=config)
    from .modules import MaskedPPOTorchRLModule

    return MaskedPPOTorchRLModule(observation_space=space, action_space=actions, inference_only=False,
                                  model_config={key: metadata[key] for key in
                                                ("fcnet_hiddens", "head_fcnet_hiddens", "fcnet_activation",
                                                 "vf_share_layers")})


__all__ = ["FORMAT", "SUFFIX", "check_metadata", "check_policy_fits", "load_fitting_policy", "load_policy_file",
           "read_policy_file", "save_policy_file"]
