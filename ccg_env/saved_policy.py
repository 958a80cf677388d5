"""Policies to and from model files: save a MaskablePPO policy safely, load one without or (trusted) with pickle.

:func:`load_model` is the one loader every part of the project uses. A ccg-env model file (``.ccgmodel``,
:mod:`ccg_env.model_file`) is rebuilt from its metadata through fixed tables of classes (nothing named in the
file is imported) and filled from ``torch.load(weights_only=True)``; a stable-baselines3 ``.zip`` is refused
unless ``trust=True``, because ``MaskablePPO.load`` unpickles it. :func:`convert` turns a trusted zip into a
model file once; :func:`save_policy` writes one from a live policy (``ccg-env train`` does beside its zips).

torch, gymnasium and sb3-contrib are imported when a function runs, not with the module.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import numpy as np

from . import __version__
from .model_file import (ACTIVATIONS, SUFFIX, ModelFileError, ModelMetadata, UntrustedModelError, check_env_spec,
                         check_fits, env_record_of, model_kind, read_model_file, untrusted_zip_message,
                         write_model_file)
from .tensor_file import check_module_size, load_tensors

#: Keys of the ``weights.pt`` payload: the policy's state dict and the observation space's bounds.
PAYLOAD_KEYS = ("policy", "observation_low", "observation_high")


def _tables() -> tuple[dict[str, type], dict[str, type], dict[str, type]]:
    """Name -> class for policies, activation functions and features extractors (the only names a file may use)."""
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
    from stable_baselines3.common.torch_layers import FlattenExtractor
    from torch import nn

    from ccg_env.training.policy import ScaledFlattenExtractor, SlotEncoderExtractor, SlotPolicy

    policies = {"MaskableActorCriticPolicy": MaskableActorCriticPolicy, "SlotPolicy": SlotPolicy}
    activations = {name: getattr(nn, name) for name in ACTIVATIONS}
    extractors = {"FlattenExtractor": FlattenExtractor, "ScaledFlattenExtractor": ScaledFlattenExtractor,
                  "SlotEncoderExtractor": SlotEncoderExtractor}
    return policies, activations, extractors


def _name_of(cls: type, table: dict[str, type], what: str) -> str:
    for name, known in table.items():
        if known is cls:
            return name
    raise ModelFileError(f"cannot write a model file for {what} {cls.__module__}.{cls.__qualname__}: it is not "
                         f"one of {', '.join(table)}")


def _plain(value: Any) -> Any:
    """Constructor option values as JSON data (numpy numbers and arrays, tuples -> lists)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, np.ndarray)):
        return [_plain(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    return value


def policy_spec(policy: Any) -> tuple[str, dict[str, Any]]:
    """The class name and JSON-ready constructor options of a live policy (only classes from the tables)."""
    policies, activations, extractors = _tables()
    name = _name_of(type(policy), policies, "policy class")
    params = policy._get_constructor_parameters()
    kwargs = {"net_arch": _plain(params["net_arch"]), "ortho_init": bool(params["ortho_init"]),
              "normalize_images": bool(params["normalize_images"]),
              "share_features_extractor": bool(policy.share_features_extractor),
              "activation_fn": _name_of(params["activation_fn"], activations, "activation function"),
              "features_extractor_class": _name_of(params["features_extractor_class"], extractors,
                                                   "features extractor"),
              "features_extractor_kwargs": _plain(params["features_extractor_kwargs"] or {})}
    if name == "SlotPolicy":
        kwargs.update(head_dim=int(params["head_dim"]), pairwise=bool(params["pairwise"]))
        if params.get("pooled_value"):  # written only when set, so files of the older layout stay as they were
            kwargs["pooled_value"] = True
    return name, kwargs


def metadata_of(policy: Any, rules: Any = None, cards: Any = None, source: dict | None = None) -> ModelMetadata:
    """The metadata describing ``policy``; ``rules`` (a ``Rules``) and ``cards`` (a ``CardSet``) if known, and then
    the spec of the observation they make (the duel's, or the draft mode's when that is the policy's size) and the
    card ids it reads (none when that observation has no card ids); the environment version and spec hash
    (:func:`ccg_env.model_file.env_record_of`: without the card set for a model not bound to the packaged cards)."""
    import dataclasses

    name, kwargs = policy_spec(policy)
    high = np.asarray(policy.observation_space.high)
    size = int(policy.observation_space.shape[0])
    spec = observation_spec_of(rules, cards, size) if rules is not None and cards is not None else None
    reads_ids = cards is not None and (spec is None or bool(spec.card_ids))
    return ModelMetadata(policy_class=name, policy_kwargs=kwargs, observation_size=size,
                         observation_normalized=bool(np.all(high <= 1.0)), action_size=int(policy.action_space.n),
                         rules=dataclasses.asdict(rules) if rules is not None else None,
                         card_ids=tuple(sorted(cards)) if reads_ids else None, weights_sha256="0" * 64,
                         ccg_env_version=__version__, source=dict(source or {}),
                         observation_spec=spec.to_dict() if spec is not None else None, **env_record_of(spec, cards))


#: The observation layout options a saved policy's observation is matched against, in order.
LAYOUT_OPTIONS: tuple[dict[str, bool], ...] = ({}, {"card_features": True}, {"card_features": True, "card_ids": False})


def observation_spec_of(rules: Any, cards: Any, size: int) -> Any:
    """The spec of the observation of ``size`` entries that ``rules`` and ``cards`` make: the duel's or the draft
    mode's, with the default layout or one of the card-feature layouts (:data:`LAYOUT_OPTIONS`); ModelFileError
    when none has that size."""
    from .env.draft_observation import DraftEncoder
    from .env.observation import ObservationEncoder

    sizes = []
    for options in LAYOUT_OPTIONS:
        try:
            battle = ObservationEncoder(rules, cards, **options)
        except ValueError:  # a card set the card features refuse
            continue
        layouts = [battle, DraftEncoder(battle, rules)] if battle.card_ids else [battle]
        for layout in layouts:
            if layout.size == size:
                return layout.spec
        sizes.append(" or ".join(str(layout.size) for layout in layouts))
    raise ModelFileError(f"the policy reads observations of {size} entries, but its rules and card set make "
                         f"{sizes[0]} (duel or draft; with card features {', '.join(sizes[1:])}): pass the rules "
                         f"and cards it was trained on")


def weights_bytes(policy: Any) -> bytes:
    """``torch.save`` of the policy's tensors and its observation bounds (plain tensors only)."""
    import torch

    space = policy.observation_space
    payload = {"policy": {key: value.detach().cpu() for key, value in policy.state_dict().items()},
               "observation_low": torch.as_tensor(np.asarray(space.low, dtype=np.float32)),
               "observation_high": torch.as_tensor(np.asarray(space.high, dtype=np.float32))}
    buffer = io.BytesIO()
    torch.save(payload, buffer)
    return buffer.getvalue()


def save_policy(path: str | Path, policy: Any, rules: Any = None, cards: Any = None,
                source: dict | None = None) -> Path:
    """Write ``policy`` (a MaskablePPO policy of a known class) as a model file; return its path."""
    return write_model_file(path, metadata_of(policy, rules, cards, source), weights_bytes(policy))


# --- loading -----------------------------------------------------------------------------------------------


class LoadedPolicy:
    """A policy loaded from a model file (or a trusted SB3 zip), with the parts of MaskablePPO's API agents use.

    Attributes:
        policy: the ``MaskableActorCriticPolicy`` (in evaluation mode).
        metadata: the file's :class:`~ccg_env.model_file.ModelMetadata` (None for an SB3 zip).
        path: where it was loaded from.
    """

    def __init__(self, policy: Any, metadata: ModelMetadata | None, path: Path) -> None:
        self.policy, self.metadata, self.path = policy, metadata, path
        policy.set_training_mode(False)

    @property
    def observation_space(self) -> Any:
        return self.policy.observation_space

    @property
    def action_space(self) -> Any:
        return self.policy.action_space

    def predict(self, observation: np.ndarray, action_masks: np.ndarray | None = None,
                deterministic: bool = False) -> tuple[np.ndarray, None]:
        """The action for an observation, as ``MaskablePPO.predict`` returns it."""
        return self.policy.predict(observation, deterministic=deterministic, action_masks=action_masks)

    @property
    def normalized(self) -> bool:
        """Whether it was trained on normalized observations (its observation space's bounds within ``[0, 1]``)."""
        return bool(np.all(np.asarray(self.observation_space.high) <= 1.0))

    def logits(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """The policy's action logits for a batch of observations, shape ``(n, size)`` (``masks`` are not read)."""
        from .training.greedy import batch_logits

        return batch_logits(self.policy, observations)

    def check_fits(self, *, observation_size: int | None = None, action_size: int | None = None,
                   card_ids: Any = None, spec: Any = None) -> None:
        """Raise ModelFileError naming both values if the game's sizes or cards differ from the model's, and what
        differs if the game's observation ``spec`` is given and differs from the one the file records."""
        metadata = self.metadata
        if metadata is None:  # an SB3 zip records no card set; compare sizes with its spaces
            metadata = ModelMetadata("MaskableActorCriticPolicy", {}, int(self.observation_space.shape[0]), False,
                                     int(self.action_space.n), None, None, "0" * 64)
        check_fits(metadata, str(self.path), observation_size=observation_size, action_size=action_size,
                   card_ids=card_ids, spec=spec)


def _unpickle_weights(data: bytes, metadata: ModelMetadata, where: str) -> dict[str, Any]:
    """The weights read by :func:`ccg_env.tensor_file.load_tensors` (bounded, finite), checked to be the expected
    plain tensors."""
    import torch

    payload = load_tensors(data, f"{where}: weights.pt")
    if not isinstance(payload, dict) or set(payload) != set(PAYLOAD_KEYS):
        raise ModelFileError(f"{where}: weights.pt must hold exactly {list(PAYLOAD_KEYS)}")
    state = payload["policy"]
    if not isinstance(state, dict) or not all(isinstance(k, str) and isinstance(v, torch.Tensor)
                                              for k, v in state.items()):
        raise ModelFileError(f"{where}: weights.pt: policy must map parameter names to tensors")
    for key in ("observation_low", "observation_high"):
        bound = payload[key]
        if not isinstance(bound, torch.Tensor) or tuple(bound.shape) != (metadata.observation_size,):
            raise ModelFileError(f"{where}: weights.pt: {key} must be a tensor of {metadata.observation_size} "
                                 f"numbers (the metadata's observation_size)")
    return payload


def _build_policy(metadata: ModelMetadata, low: np.ndarray, high: np.ndarray, where: str,
                  ortho_init: bool | None = None) -> Any:
    """A fresh policy of the metadata's class and options, mapped through the tables."""
    import gymnasium

    policies, activations, extractors = _tables()
    kwargs = dict(metadata.policy_kwargs)
    if "activation_fn" in kwargs:
        kwargs["activation_fn"] = activations[kwargs["activation_fn"]]
    if "features_extractor_class" in kwargs:
        kwargs["features_extractor_class"] = extractors[kwargs["features_extractor_class"]]
    if ortho_init is not None:
        kwargs["ortho_init"] = ortho_init
    observation_space = gymnasium.spaces.Box(low, high, dtype=np.float32)
    action_space = gymnasium.spaces.Discrete(metadata.action_size)
    try:
        return policies[metadata.policy_class](observation_space, action_space, _no_learning, **kwargs)
    except (ValueError, TypeError, RuntimeError, KeyError, IndexError, NotImplementedError) as error:
        raise ModelFileError(f"{where}: cannot build {metadata.policy_class} from the metadata: {error}") from None


def _check_shapes(metadata: ModelMetadata, low: np.ndarray, high: np.ndarray, state: dict[str, Any],
                  where: str) -> None:
    """Build the policy on torch's meta device (no memory) and refuse weights whose names or shapes differ.

    So a file whose metadata asks for a huge network is refused before anything of that size is allocated:
    the real policy is built only once its tensors match the weights (bounded by the file size limit).
    """
    import torch
    from torch.overrides import TorchFunctionMode

    class StayOnMeta(TorchFunctionMode):
        """Keeps ``module.to("cpu")`` calls inside SB3's constructors from copying out of meta tensors."""

        def __torch_function__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
            if func is torch.Tensor.to and args and isinstance(args[0], torch.Tensor) and args[0].is_meta:
                return args[0]
            return func(*args, **(kwargs or {}))

    with torch.device("meta"), StayOnMeta():
        policy = _build_policy(metadata, low, high, where, ortho_init=False)
    check_module_size(policy.state_dict(), where)
    shapes = {key: tuple(value.shape) for key, value in policy.state_dict().items()}
    given = {key: tuple(value.shape) for key, value in state.items()}
    if shapes == given:
        return
    missing, unexpected = sorted(set(shapes) - set(given)), sorted(set(given) - set(shapes))
    differing = [f"{key}: {given[key]} in the weights, {shapes[key]} in the policy"
                 for key in sorted(set(shapes) & set(given)) if shapes[key] != given[key]]
    raise ModelFileError(f"{where}: the weights do not fit the policy its metadata describes: "
                         f"missing {missing[:3]}, unexpected {[key[:100] for key in unexpected[:3]]}, size "
                         f"mismatch {differing[:3]}")


def _no_learning(progress_remaining: float) -> float:
    """The learning rate of a policy loaded to play (its optimizer is never stepped)."""
    return 0.0


def load_policy_file(path: str | Path, device: str = "cpu") -> LoadedPolicy:
    """Load a ccg-env model file without executing anything from it; ModelFileError says what is wrong (a model
    made for another environment version or spec is refused naming both)."""
    where = str(path)
    metadata, data = read_model_file(path)
    check_env_spec(metadata, where)
    payload = _unpickle_weights(data, metadata, where)
    low, high = (payload[key].numpy().astype(np.float32) for key in ("observation_low", "observation_high"))
    _check_shapes(metadata, low, high, payload["policy"], where)
    policy = _build_policy(metadata, low, high, where, ortho_init=False)  # every parameter is replaced below
    derived = {key: value.clone() for key, value in policy.state_dict().items() if not value.is_floating_point()}
    try:
        policy.load_state_dict(payload["policy"], strict=True)
    except RuntimeError as error:  # e.g. a dtype that cannot be copied
        detail = " ".join(str(error).split())
        raise ModelFileError(f"{where}: the weights do not fit the policy its metadata describes: "
                             f"{detail[:400]}") from None
    _check_derived_buffers(policy, derived, where)
    return LoadedPolicy(policy.to(device), metadata, Path(path))


def _check_derived_buffers(policy: Any, derived: dict[str, Any], where: str) -> None:
    """Refuse a file whose integer buffers (feature indices, which the architecture fixes) differ from the ones its
    metadata builds: edited indices would fail, or read other features, only once the policy plays."""
    import torch

    state = policy.state_dict()
    changed = sorted(key for key, value in derived.items() if not torch.equal(state[key], value))
    if changed:
        raise ModelFileError(f"{where}: the weights change index buffers that the policy's metadata fixes: "
                             f"{changed[:3]}")


def load_model(path: str | Path, *, trust: bool = False, device: str = "cpu") -> LoadedPolicy:
    """Load a policy: a ccg-env model file always; a stable-baselines3 zip only with ``trust=True``.

    Raises:
        UntrustedModelError: ``path`` is an SB3 zip and ``trust`` is false (loading it unpickles it).
        ModelFileError: the file is damaged, names unknown classes or options, or its weights do not fit.
        FileNotFoundError: no file at ``path``.
    """
    if model_kind(path) == "ccg-env":
        return load_policy_file(path, device)
    if not trust:
        raise UntrustedModelError(untrusted_zip_message(path))
    from sb3_contrib import MaskablePPO

    model = MaskablePPO.load(str(path), device=device)
    return LoadedPolicy(model.policy, None, Path(path))


def convert(source: str | Path, destination: str | Path, *, trust: bool = False, rules: Any = None,
            cards: Any = None) -> Path:
    """Turn a trusted stable-baselines3 zip into a model file, recording the rules and cards it plays under.

    Args:
        source: the SB3 ``.zip`` (unpickled: ``trust=True`` is required).
        destination: the model file to write (``.ccgmodel`` is added when it has no suffix).
        rules, cards: the rules and card set the model was trained on (as the env's options; default packaged);
            the observation of one of their layouts (:data:`LAYOUT_OPTIONS`) and their action ids must have the
            model's sizes.
    """
    from .env.aec import resolve_cards, resolve_rules
    from .env.codec import ActionLayout
    from .env.observation import ObservationEncoder

    if model_kind(source) == "ccg-env":
        raise ModelFileError(f"{str(source)!r} is already a ccg-env model file; convert takes a stable-baselines3 .zip")
    loaded = load_model(source, trust=trust)
    rules, cards = resolve_rules(rules), resolve_cards(cards)
    try:  # the default layout or a card-feature one (a model without card ids records no card set)
        observation_spec_of(rules, cards, int(loaded.observation_space.shape[0]))
    except ModelFileError:
        loaded.check_fits(observation_size=ObservationEncoder(rules, cards).size)  # names both sizes
    loaded.check_fits(action_size=ActionLayout.for_rules(rules).size)
    metadata = metadata_of(loaded.policy, rules, cards, {"converted_from": Path(source).name})
    destination = Path(destination)
    if not destination.suffix:
        destination = destination.with_suffix(SUFFIX)
    return write_model_file(destination, metadata, weights_bytes(loaded.policy))
