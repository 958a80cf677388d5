"""The ccg-env model file (``.ccgmodel``): a policy's weights and JSON metadata, read without running its code.

A model file is a zip archive with exactly two members:

- ``metadata.json``: what the policy is and what it was trained on (:class:`ModelMetadata`): the policy class
  and its constructor options (names from fixed lists, numbers within bounds), the observation and action
  sizes, the rules and the card ids of the observation's one-hots (none for an observation without card ids, which
  fits any card set whose observation spec fits), the observation's spec (its layout by name:
  :class:`~ccg_env.env.observation_spec.ObservationSpec`; absent from files written before it was recorded), the
  ccg-env version, the environment version and spec hash it was made for (:mod:`ccg_env.env.versions`, without the
  card set for a model not bound to the packaged cards: :func:`env_record_of`; absent from files written before
  versions were recorded), and the SHA-256 of the weights;
- ``weights.pt``: ``torch.save`` of plain tensors (the policy's ``state_dict`` and the observation bounds),
  read back with ``torch.load(weights_only=True)``, which refuses any other pickled object.

Nothing in the file is imported, called or unpickled as code: class names and activation functions map to
Python objects through tables in :mod:`ccg_env.saved_policy`. A stable-baselines3 ``.zip`` is different:
``MaskablePPO.load`` unpickles (cloudpickle) the objects stored in its ``data`` member, which can run any
code its author wrote, so loading one needs an explicit ``trust=True`` (``--trust-model``).

This module is plain Python (no torch): it reads, writes and validates the container and the metadata.
"""

from __future__ import annotations

import copy
import hashlib
import itertools
import json
import math
import re
import zipfile
import zlib
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Any, Callable

FORMAT = "ccg-env-model"
FORMAT_VERSION = 1
SUFFIX = ".ccgmodel"
METADATA_MEMBER = "metadata.json"
WEIGHTS_MEMBER = "weights.pt"
#: Bounds that keep a hostile file from exhausting memory before anything is checked.
MAX_METADATA_BYTES = 4_000_000
MAX_WEIGHTS_BYTES = 256_000_000
MAX_OBSERVATION_SIZE = 1_000_000
MAX_ACTION_SIZE = 1_000_000
MAX_LAYER_SIZE = 4096
MAX_LAYERS = 8
MAX_ATTENTION_LAYERS = 8  # RLlib policy files (ccg_env.rllib.policy_file)
MAX_CARDS = 100_000
#: Deepest nesting of lists and objects in ``metadata.json`` (a policy's needs 4).
MAX_METADATA_NESTING = 16

#: Policy classes a model file may name (``MlpPolicy`` is sb3-contrib's name for the first).
POLICY_CLASSES = ("MaskableActorCriticPolicy", "SlotPolicy")
POLICY_ALIASES = {"MlpPolicy": "MaskableActorCriticPolicy"}
#: Activation functions, by the name of their ``torch.nn`` class.
ACTIVATIONS = ("Tanh", "ReLU", "LeakyReLU", "ELU", "GELU", "SiLU", "Sigmoid")
#: Features extractors (SB3's and :mod:`ccg_env.training.policy`'s).
EXTRACTORS = ("FlattenExtractor", "ScaledFlattenExtractor", "SlotEncoderExtractor")


class ModelFileError(ValueError):
    """A model file that cannot be read, or that does not fit the game it is asked to play."""


class UntrustedModelError(ModelFileError):
    """A stable-baselines3 ``.zip`` was given without ``trust=True``: loading it could run code from the file."""


def untrusted_zip_message(path: str | Path) -> str:
    """Why a stable-baselines3 zip is refused, and the two ways forward."""
    return (f"{str(path)!r} is a stable-baselines3 .zip: loading one unpickles (cloudpickle) the objects in it, "
            f"which runs any code its author put there. Load it only if you trust its source, with trust=True "
            f"(learned:path=...,trust=true; --trust-model on the command line), or convert it once with "
            f"'ccg-env model convert --trust-model {path} OUT{SUFFIX}' and use the {SUFFIX} file, which loads "
            f"without running code")


# --- metadata --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ModelMetadata:
    """What ``metadata.json`` holds; :meth:`from_dict` validates a file's copy field by field."""

    policy_class: str
    """a name from :data:`POLICY_CLASSES`"""
    policy_kwargs: dict
    """the policy's constructor options (see :func:`check_policy_kwargs`)"""
    observation_size: int
    """length of the flat observation the policy reads"""
    observation_normalized: bool
    """whether the policy was trained on observations scaled into [0, 1] (``normalize_observations``)"""
    action_size: int
    """number of action ids (``ActionLayout.size``)"""
    rules: dict | None
    """the rules it was trained under (``Rules`` fields), or None if unknown"""
    card_ids: tuple | None
    """the card ids in observation one-hot order (sorted), or None if unknown or if the observation has no card ids
    (card features without card ids: the model plays any card set whose observation fits its spec)"""
    weights_sha256: str
    """SHA-256 of the ``weights.pt`` member"""
    ccg_env_version: str = ""
    """the ccg-env version that wrote the file"""
    source: dict = field(default_factory=dict)
    """free-form provenance (e.g. ``{"converted_from": "x.zip"}``, ``{"timesteps": 1500000}``): shown, not used"""
    observation_spec: dict | None = None
    """the observation's layout (``ObservationSpec.to_dict()``), or None in files written before it was recorded"""
    env_version: str | None = None
    """the environment version it was made for (``"v1"``), or None in files written before versions were recorded"""
    spec_hash: str | None = None
    """that version's spec hash (:func:`ccg_env.env.versions.spec_hash`), recorded with ``env_version``"""

    def to_dict(self) -> dict[str, Any]:
        """The JSON document, with the format name and version first."""
        data = asdict(self)
        data["card_ids"] = list(self.card_ids) if self.card_ids is not None else None
        return {"format": FORMAT, "format_version": FORMAT_VERSION, **data}

    @classmethod
    def from_dict(cls, data: Any, where: str = "model metadata") -> ModelMetadata:
        """Validate a parsed ``metadata.json``; a ModelFileError names ``where`` and the field at fault."""
        if not isinstance(data, dict):
            raise ModelFileError(f"{where}: expected a JSON object, got {type(data).__name__}")
        if data.get("format") != FORMAT:
            raise ModelFileError(f"{where}: not a ccg-env model file (\"format\" is {_short(data.get('format'))}, "
                                 f"expected {FORMAT!r})")
        if data.get("format_version") != FORMAT_VERSION:
            raise ModelFileError(f"{where}: format_version {_short(data.get('format_version'))} is not supported "
                                 f"(this ccg-env reads version {FORMAT_VERSION})")
        known = {f.name for f in fields(cls)}
        values = {k: v for k, v in data.items() if k not in ("format", "format_version")}
        unknown = sorted(set(values) - known)
        if unknown:
            raise ModelFileError(f"{where}: unknown fields {_short(unknown)}; known fields: "
                                 f"{', '.join(sorted(known))}")
        for name, check in _FIELD_CHECKS.items():
            if name not in values and name not in _OPTIONAL_FIELDS:
                raise ModelFileError(f"{where}: missing field {name!r}")
            if name in values:
                check(values[name], f"{where}: {name}")
        policy_class = POLICY_ALIASES.get(values["policy_class"], values["policy_class"])
        check_policy_kwargs(policy_class, values["policy_kwargs"], values["observation_size"], where)
        check_env_fields(values.get("env_version"), values.get("spec_hash"), where)
        card_ids = values.get("card_ids")
        check_spec_agrees(values.get("observation_spec"), values["observation_size"], card_ids, where)
        return cls(**{**values, "policy_class": policy_class,
                      "card_ids": tuple(card_ids) if card_ids is not None else None})


def _check_type(kind: type | tuple, label: str) -> Callable[[Any, str], None]:
    def check(value: Any, where: str) -> None:
        if isinstance(value, bool) and bool not in (kind if isinstance(kind, tuple) else (kind,)):
            raise ModelFileError(f"{where}: expected {label}, got {value!r}")
        if not isinstance(value, kind):
            raise ModelFileError(f"{where}: expected {label}, got {_short(value)}")
    return check


def _check_size(limit: int) -> Callable[[Any, str], None]:
    def check(value: Any, where: str) -> None:
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= limit:
            raise ModelFileError(f"{where}: expected a whole number from 1 to {limit}, got {_short(value)}")
    return check


def _check_policy_class(value: Any, where: str) -> None:
    if not isinstance(value, str) or (value not in POLICY_CLASSES and value not in POLICY_ALIASES):
        raise ModelFileError(f"{where}: unknown policy class {_short(value)}; known: "
                             f"{', '.join((*POLICY_CLASSES, *POLICY_ALIASES))}")


def _check_rules(value: Any, where: str) -> None:
    if value is None:
        return
    from .engine import Rules
    from .engine.errors import DataError

    try:
        Rules.from_dict(value, source=where)
    except DataError as error:
        raise ModelFileError(str(error)) from None


def _check_card_ids(value: Any, where: str) -> None:
    if value is None:
        return
    if not isinstance(value, list) or not 1 <= len(value) <= MAX_CARDS or \
            not all(isinstance(card, str) and 0 < len(card) <= 200 for card in value):
        raise ModelFileError(f"{where}: expected a list of card ids, got {_short(value)}")
    if value != sorted(set(value)):
        raise ModelFileError(f"{where}: card ids must be sorted and distinct (the observation's one-hot order)")


def _check_observation_spec(value: Any, where: str) -> None:
    if value is not None:
        read_spec(value, where)


def read_spec(value: Any, where: str) -> Any:
    """The :class:`~ccg_env.env.observation_spec.ObservationSpec` a file records (validated), or None."""
    if value is None:
        return None
    from .env.observation_spec import ObservationSpec

    try:
        return ObservationSpec.from_dict(value, where)
    except ValueError as error:
        raise ModelFileError(str(error)) from None


def check_spec_agrees(spec: Any, observation_size: int, card_ids: Any, where: str) -> None:
    """Refuse a recorded observation spec whose size or card ids contradict the file's other fields."""
    spec = read_spec(spec, f"{where}: observation_spec")
    if spec is None:
        return
    if spec.size != observation_size:
        raise ModelFileError(f"{where}: observation_spec: its pieces make {spec.size} values but observation_size "
                             f"is {observation_size}")
    if card_ids is not None and spec.card_ids and list(spec.card_ids) != list(card_ids):  # none: card_ids=False
        raise ModelFileError(f"{where}: observation_spec: its card ids differ from the file's card_ids")


def _check_env_version(value: Any, where: str) -> None:
    from .env.versions import is_version_name

    if value is not None and not is_version_name(value):
        raise ModelFileError(f"{where}: expected an environment version such as 'v1', got {_short(value)}")


def _check_spec_hash(value: Any, where: str) -> None:
    if value is not None:
        _check_sha256(value, where)


def check_env_fields(env_version: Any, spec_hash: Any, where: str) -> None:
    """Refuse a file that records only one of its environment version and spec hash (they go together)."""
    if (env_version is None) != (spec_hash is None):
        raise ModelFileError(f"{where}: env_version and spec_hash go together: the file records only "
                             f"{'env_version' if spec_hash is None else 'spec_hash'}")


def check_env_spec(metadata: Any, where: str) -> None:
    """Refuse a model made for another environment version or spec than this ccg-env builds, naming both (version
    and spec hash); a file that records neither was written before versions were recorded and is not refused here
    (its sizes, card ids and observation spec are still checked by :func:`check_fits`).

    The recorded spec hash is either this ccg-env's spec hash or its spec hash without the card set
    (:func:`ccg_env.env.versions.spec_data_without_cards`), which a model not bound to the packaged card set records
    (:func:`env_record_of`): the card set of such a model is checked against the game's by :func:`check_fits`.
    """
    env_version = getattr(metadata, "env_version", None)
    if env_version is None:
        return
    from .env.versions import CURRENT_VERSION, current_spec_hash_without_cards, spec_mismatch

    recorded = getattr(metadata, "spec_hash", None)
    mismatch = spec_mismatch(env_version, recorded)
    if mismatch is None or (env_version == CURRENT_VERSION and recorded == current_spec_hash_without_cards()):
        return
    if not _bound_to_packaged_cards(metadata):
        mismatch = mismatch.removesuffix(")") + f", or {current_spec_hash_without_cards()[:16]} without the card set)"
    raise ModelFileError(f"{where}: the model does not fit this environment: {mismatch}")


def reads_card_ids(metadata: Any) -> bool:
    """Whether a model's observation holds card ids (so it plays only the card set it records): False for a model
    whose recorded observation spec has card features and no card ids, which plays any card set whose observation
    fits its spec; True for every other, a file without a recorded spec included."""
    spec = read_spec(getattr(metadata, "observation_spec", None), "observation_spec")
    return spec is None or bool(spec.card_ids) or not spec.card_features


def _bound_to_packaged_cards(metadata: Any) -> bool:
    """Whether a model reads the card ids of the packaged card set (None recorded: assumed, as files before)."""
    if not reads_card_ids(metadata):
        return False
    card_ids = getattr(metadata, "card_ids", None)
    if card_ids is None:
        return True
    from .engine import default_cards

    return list(card_ids) == sorted(default_cards())


def env_record_of(spec: Any, cards: Any) -> dict[str, str]:
    """The environment version and spec hash a model file records, given its observation ``spec`` and the card set it
    was trained on (None, None: unknown): this ccg-env's spec hash (:func:`ccg_env.env.versions.env_record`) for a
    model whose observation has card ids and that was trained on the packaged card set (or whose card set is
    unknown); for any other, the spec hash without the card set, so that a change to the packaged cards does not
    refuse a model that never read them."""
    from .env.versions import CURRENT_VERSION, current_spec_hash_without_cards, env_record

    if spec is None or cards is None or (spec.card_ids and _is_packaged(cards)):
        return env_record()
    return {"env_version": CURRENT_VERSION, "spec_hash": current_spec_hash_without_cards()}


def _is_packaged(cards: Any) -> bool:
    """Whether a card set is the packaged one: the same ids with the same definitions (as JSON data)."""
    from .engine import default_cards
    from .env.versions import canonical

    packaged = default_cards()
    return cards is packaged or (sorted(cards) == sorted(packaged) and all(
        canonical(cards[card_id]) == canonical(packaged[card_id]) for card_id in packaged))


def _check_sha256(value: Any, where: str) -> None:
    if not isinstance(value, str) or len(value) != 64 or any(c not in "0123456789abcdef" for c in value):
        raise ModelFileError(f"{where}: expected 64 lowercase hex digits, got {_short(value)}")


def _check_source(value: Any, where: str) -> None:
    if not isinstance(value, dict) or len(json.dumps(value)) > 10_000:
        raise ModelFileError(f"{where}: expected a small JSON object, got {_short(value)}")


_FIELD_CHECKS: dict[str, Callable[[Any, str], None]] = {
    "policy_class": _check_policy_class, "policy_kwargs": _check_type(dict, "a JSON object"),
    "observation_size": _check_size(MAX_OBSERVATION_SIZE),
    "observation_normalized": _check_type(bool, "true or false"),
    "action_size": _check_size(MAX_ACTION_SIZE), "rules": _check_rules, "card_ids": _check_card_ids,
    "weights_sha256": _check_sha256, "ccg_env_version": _check_type(str, "a version string"),
    "source": _check_source, "observation_spec": _check_observation_spec, "env_version": _check_env_version,
    "spec_hash": _check_spec_hash,
}
_OPTIONAL_FIELDS = {"ccg_env_version", "source", "observation_spec", "env_version", "spec_hash"}


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


# --- policy constructor options ----------------------------------------------------------------------------


def check_policy_kwargs(policy_class: str, kwargs: dict, observation_size: int, where: str) -> None:
    """Raise ModelFileError unless every option is known for ``policy_class`` and its value is in bounds."""
    allowed = dict(_COMMON_KWARGS, **(_SLOT_KWARGS if policy_class == "SlotPolicy" else {}))
    for key, value in kwargs.items():
        if key not in allowed:
            raise ModelFileError(f"{where}: policy_kwargs: unknown option {key!r} for {policy_class} "
                                 f"(known: {', '.join(sorted(allowed))})")
        allowed[key](value, f"{where}: policy_kwargs: {key}")
    extractor = kwargs.get("features_extractor_class",
                           "SlotEncoderExtractor" if policy_class == "SlotPolicy" else "FlattenExtractor")
    extractor_kwargs = kwargs.get("features_extractor_kwargs") or {}
    _check_extractor_kwargs(extractor, extractor_kwargs, observation_size,
                            f"{where}: policy_kwargs: features_extractor_kwargs")


def _check_layer_size(value: Any, where: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_LAYER_SIZE:
        raise ModelFileError(f"{where}: expected a layer size from 1 to {MAX_LAYER_SIZE}, got {_short(value)}")


def _check_layers(value: Any, where: str) -> None:
    if not isinstance(value, list) or len(value) > MAX_LAYERS:
        raise ModelFileError(f"{where}: expected a list of at most {MAX_LAYERS} layer sizes, got {_short(value)}")
    for size in value:
        _check_layer_size(size, where)


def _check_net_arch(value: Any, where: str) -> None:
    if isinstance(value, dict):
        if set(value) != {"pi", "vf"}:
            raise ModelFileError(f"{where}: expected keys 'pi' and 'vf', got {sorted(value)}")
        for key in ("pi", "vf"):
            _check_layers(value[key], f"{where}: {key}")
    elif value is not None:
        _check_layers(value, where)


def _check_name(known: tuple[str, ...], what: str) -> Callable[[Any, str], None]:
    def check(value: Any, where: str) -> None:
        if value not in known:
            raise ModelFileError(f"{where}: unknown {what} {_short(value)}; known: {', '.join(known)}")
    return check


_BOOL = _check_type(bool, "true or false")
_COMMON_KWARGS: dict[str, Callable[[Any, str], None]] = {
    "net_arch": _check_net_arch, "activation_fn": _check_name(ACTIVATIONS, "activation function"),
    "ortho_init": _BOOL, "normalize_images": _BOOL, "share_features_extractor": _BOOL,
    "features_extractor_class": _check_name(EXTRACTORS, "features extractor"),
    "features_extractor_kwargs": _check_type((dict, type(None)), "a JSON object"),
}
_SLOT_KWARGS: dict[str, Callable[[Any, str], None]] = {"head_dim": _check_layer_size, "pairwise": _BOOL,
                                                       "pooled_value": _BOOL}


def _check_gain(value: Any, size: int, where: str) -> None:
    if value is None:
        return
    if not isinstance(value, list) or len(value) != size or not all(
            isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) for x in value):
        raise ModelFileError(f"{where}: gain: expected {size} finite numbers (one per observation entry)")


def _check_pieces(value: Any, size: int, where: str) -> None:
    if not isinstance(value, list) or not 1 <= len(value) <= 64:
        raise ModelFileError(f"{where}: pieces: expected a list of [name, start, stop, shape] rows")
    for row in value:
        ok = isinstance(row, list) and len(row) == 4 and isinstance(row[0], str) and isinstance(row[3], list)
        numbers = row[1:3] + row[3] if ok else []
        if not ok or not 1 <= len(row[3]) <= 3 or not all(
                isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= size for n in numbers) \
                or not row[1] <= row[2] or math.prod(row[3]) != row[2] - row[1]:
            raise ModelFileError(f"{where}: pieces: bad row {_short(row)} (expected [name, start, stop, shape] "
                                 f"within the {size} observation entries)")


def _check_extractor_kwargs(extractor: str, kwargs: Any, size: int, where: str) -> None:
    allowed = {"FlattenExtractor": set(), "ScaledFlattenExtractor": {"gain"},
               "SlotEncoderExtractor": {"pieces", "slot_dim", "global_dim", "gain"}}[extractor]
    if extractor == "SlotEncoderExtractor" and "attention_layers" in kwargs:
        raise ModelFileError(f"{where}: attention_layers: the slot policy's attention layers were removed (they "
                             "measured no gain; see docs/training.md): this model needs the ccg-env that wrote it")
    unknown = sorted(set(kwargs) - allowed)
    if unknown:
        raise ModelFileError(f"{where}: unknown options {unknown} for {extractor} (known: "
                             f"{', '.join(sorted(allowed)) or 'none'})")
    _check_gain(kwargs.get("gain"), size, where)
    if extractor == "ScaledFlattenExtractor" and kwargs.get("gain") is None:
        raise ModelFileError(f"{where}: ScaledFlattenExtractor needs a gain")
    if extractor == "SlotEncoderExtractor":
        if "pieces" not in kwargs:
            raise ModelFileError(f"{where}: SlotEncoderExtractor needs pieces")
        _check_pieces(kwargs["pieces"], size, where)
        for key in ("slot_dim", "global_dim"):
            if key in kwargs:
                _check_layer_size(kwargs[key], f"{where}: {key}")


# --- the container -----------------------------------------------------------------------------------------


def model_kind(path: str | Path) -> str:
    """``"ccg-env"`` for a model file, ``"sb3-zip"`` for a stable-baselines3 zip; ModelFileError otherwise.

    Decided from the archive's member names, not the file name; nothing is unpickled.
    """
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"no model file at {str(path)!r}")
    try:
        with zipfile.ZipFile(path) as archive:
            names = set(archive.namelist())
    except (zipfile.BadZipFile, OSError) as error:
        raise ModelFileError(f"{str(path)!r} is not a model file (not a zip archive: {error})") from None
    if names == {METADATA_MEMBER, WEIGHTS_MEMBER}:
        return "ccg-env"
    if "data" in names and "policy.pth" in names:
        return "sb3-zip"
    raise ModelFileError(f"{str(path)!r} is neither a ccg-env model file (members {METADATA_MEMBER}, "
                         f"{WEIGHTS_MEMBER}) nor a stable-baselines3 zip; it holds {sorted(names)[:10]}")


def _read_member(archive: zipfile.ZipFile, name: str, limit: int, where: str) -> bytes:
    """Member ``name``'s bytes, at most ``limit`` of them, whatever size its zip header states (the header is part
    of the file, so it may understate the size): read up to one byte past the limit, then checked against the header's
    size and CRC-32."""
    info = archive.getinfo(name)
    if info.file_size > limit:
        raise ModelFileError(f"{where}: {name} is {info.file_size:,} bytes, over the limit of {limit:,}")
    bounded = copy.copy(info)
    bounded.file_size = limit + 1  # zipfile stops reading at the stated size; this reads what is there instead
    del bounded.CRC  # zipfile would check it on the first limit + 1 bytes: checked below on what was read
    with archive.open(bounded) as handle:
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise ModelFileError(f"{where}: {name} holds more than the limit of {limit:,} bytes (its zip header says "
                             f"{info.file_size:,})")
    if len(data) != info.file_size or zlib.crc32(data) != info.CRC:
        raise ModelFileError(f"{where}: {name} does not match its zip header ({len(data):,} bytes read, "
                             f"{info.file_size:,} stated, or another CRC-32): the file is damaged or edited")
    return data


_JSON_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"')
_BRACKETS = re.compile(r"[\[\]{}]")


def parse_metadata(raw: bytes, where: str) -> Any:
    """``metadata.json`` parsed, refusing text that is not UTF-8 JSON or is nested deeper than
    :data:`MAX_METADATA_NESTING` (checked on the text before the parser recurses)."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ModelFileError(f"{where}: {METADATA_MEMBER} is not UTF-8 text: {error.reason} at byte "
                             f"{error.start}") from None
    brackets = _BRACKETS.findall(_JSON_STRINGS.sub("", text))  # outside strings: what json.loads recurses into
    deepest = max(itertools.accumulate(1 if bracket in "[{" else -1 for bracket in brackets), default=0)
    if deepest > MAX_METADATA_NESTING:
        raise ModelFileError(f"{where}: {METADATA_MEMBER} is nested {deepest} levels deep, more than the "
                             f"{MAX_METADATA_NESTING} a model file's metadata may be")
    try:
        return json.loads(text)
    except ValueError as error:
        raise ModelFileError(f"{where}: {METADATA_MEMBER} is not valid JSON: {error}") from None


def read_model_file(path: str | Path) -> tuple[ModelMetadata, bytes]:
    """The validated metadata and the (checksummed, not yet unpickled) weights bytes of a model file."""
    where = str(path)
    if model_kind(path) != "ccg-env":
        raise UntrustedModelError(untrusted_zip_message(path))
    try:
        with zipfile.ZipFile(path) as archive:
            raw = _read_member(archive, METADATA_MEMBER, MAX_METADATA_BYTES, where)
            weights = _read_member(archive, WEIGHTS_MEMBER, MAX_WEIGHTS_BYTES, where)
    except (zipfile.BadZipFile, OSError, RuntimeError) as error:  # RuntimeError: an encrypted member
        raise ModelFileError(f"{where}: cannot read the archive: {error}") from None
    metadata = ModelMetadata.from_dict(parse_metadata(raw, where), where)
    digest = hashlib.sha256(weights).hexdigest()
    if digest != metadata.weights_sha256:
        raise ModelFileError(f"{where}: {WEIGHTS_MEMBER} does not match the SHA-256 in {METADATA_MEMBER} "
                             f"(file damaged or edited)")
    return metadata, weights


def read_metadata(path: str | Path) -> ModelMetadata:
    """The validated metadata of a model file (the weights are checksummed, not loaded)."""
    return read_model_file(path)[0]


def write_model_file(path: str | Path, metadata: ModelMetadata, weights: bytes) -> Path:
    """Write a model file (the metadata's ``weights_sha256`` is set from ``weights``); return its path."""
    metadata = replace(metadata, weights_sha256=hashlib.sha256(weights).hexdigest())
    ModelMetadata.from_dict(json.loads(json.dumps(metadata.to_dict())), str(path))  # what a reader will check
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_STORED) as archive:
        archive.writestr(METADATA_MEMBER, json.dumps(metadata.to_dict(), indent=1) + "\n")
        archive.writestr(WEIGHTS_MEMBER, weights)
    return path


def check_fits(metadata: Any, where: str, *, observation_size: int | None = None,
               action_size: int | None = None, card_ids: list[str] | tuple[str, ...] | None = None,
               spec: Any = None) -> None:
    """Raise ModelFileError naming both values when the model's environment version and spec hash
    (:func:`check_env_spec`), sizes or card set differ from the game's.

    ``spec``: the game's :class:`~ccg_env.env.observation_spec.ObservationSpec`; when the model records one too, a
    difference is named first (a card, keyword or piece: :meth:`ObservationSpec.differences`). A file written
    before specs were recorded is checked by its sizes and card ids only. A model whose observation holds no card
    ids (:func:`reads_card_ids`) is not checked by card ids: it fits any game whose observation spec and sizes fit.
    """
    check_env_spec(metadata, where)
    recorded = read_spec(getattr(metadata, "observation_spec", None), f"{where}: observation_spec")
    if spec is not None and recorded is not None:
        differences = recorded.differences(spec)
        if differences:
            more = f" (and {len(differences) - 3} more differences)" if len(differences) > 3 else ""
            raise ModelFileError(f"{where}: the model does not fit the game's observation: "
                                 f"{'; '.join(differences[:3])}{more}{_layout_hint(recorded, spec)}")
    if observation_size is not None and observation_size != metadata.observation_size:
        why = ("other rules or card set?" if reads_card_ids(metadata) else "its observation has card features and no "
               "card ids, the same size for every card set: play it with card_features=True, card_ids=False "
               "(--card-features --no-card-ids), or other rules?")
        raise ModelFileError(f"{where}: the model reads observations of {metadata.observation_size} entries but "
                             f"the game's have {observation_size} ({why})")
    if action_size is not None and action_size != metadata.action_size:
        raise ModelFileError(f"{where}: the model has {metadata.action_size} action ids but the game's layout has "
                             f"{action_size} (other hand or battlefield size?)")
    if card_ids is not None and metadata.card_ids is not None and reads_card_ids(metadata) \
            and tuple(card_ids) != tuple(metadata.card_ids):
        ours, theirs = set(card_ids), set(metadata.card_ids)
        raise ModelFileError(f"{where}: the model was trained on a card set of {len(theirs)} cards but the game's "
                             f"has {len(ours)}; only in the model's: {sorted(theirs - ours)[:5]}, only in the "
                             f"game's: {sorted(ours - theirs)[:5]} (pass the card set it was trained on)")


def _layout_hint(recorded: Any, game: Any) -> str:
    """How to play a model whose observation layout options differ from the game's ("" when they agree)."""
    options = {"card_features": bool(recorded.card_features), "card_ids": bool(recorded.card_ids)}
    if options == {"card_features": bool(game.card_features), "card_ids": bool(game.card_ids)}:
        return ""
    flags = {(False, True): "the default layout", (True, True): "--card-features",
             (True, False): "--card-features --no-card-ids"}.get((options["card_features"], options["card_ids"]), "")
    words = ", ".join(f"{key}={value}" for key, value in options.items())
    return f" (the model was trained with {words}: play it with the same{f' ({flags})' if flags else ''})"


def describe(metadata: ModelMetadata) -> str:
    """A few lines for ``ccg-env model inspect``."""
    kwargs = {k: v for k, v in metadata.policy_kwargs.items() if k != "features_extractor_kwargs"}
    extractor = metadata.policy_kwargs.get("features_extractor_kwargs") or {}
    lines = [f"policy: {metadata.policy_class} {json.dumps(kwargs)}",
             f"features extractor options: {', '.join(sorted(extractor)) or 'none'}",
             f"observation: {metadata.observation_size} entries"
             f"{' (normalized into [0, 1])' if metadata.observation_normalized else ' (raw values)'}",
             f"actions: {metadata.action_size} ids",
             f"rules: {json.dumps(metadata.rules) if metadata.rules is not None else 'unknown'}",
             f"cards: {_cards_line(metadata)}",
             f"observation spec: {_spec_line(metadata.observation_spec)}",
             f"environment: {_env_line(metadata.env_version, metadata.spec_hash)}",
             f"written by ccg-env {metadata.ccg_env_version or '?'}; source: {json.dumps(metadata.source)}"]
    return "\n".join(lines)


def _cards_line(metadata: ModelMetadata) -> str:
    if not reads_card_ids(metadata):
        return "any card set (its observation has card features and no card ids)"
    return str(len(metadata.card_ids)) if metadata.card_ids is not None else "unknown"


def _env_line(env_version: str | None, spec_hash: str | None) -> str:
    if env_version is None:
        return "not recorded (a file from before environment versions were recorded)"
    return f"{env_version}, spec hash {spec_hash}"


def _spec_line(recorded: dict | None) -> str:
    spec = read_spec(recorded, "observation_spec")
    if spec is None:
        return "not recorded (a file from before specs were recorded)"
    return f"version {spec.version}, {len(spec.pieces)} pieces, sha256 {spec.digest()[:16]}"
