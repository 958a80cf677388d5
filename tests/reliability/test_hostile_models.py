"""Hostile model files, loaded in a child process with its address space capped: small crafted files are refused
with one line, quickly, without allocating what they declare.

Before the shared weights reader (:mod:`ccg_env.tensor_file`), a file of a few kilobytes could make the loader
allocate gigabytes: an expanded tensor (stride 0) stands for any shape on one stored number, and metadata within
each option's bound can still describe a network of a gigabyte. Non-finite weights loaded and played nonsense.
"""

from __future__ import annotations

import io
import json
import pickle
import zipfile
from pathlib import Path

import pytest

from .child_process import run_capped
from .crafted_weights import Storage, Tensor, crafted_archive, raw_archive

pytest.importorskip("sb3_contrib")
pytestmark = pytest.mark.subprocess_bounds  # child processes timed and measured

#: The child's address space (torch alone maps about 700 MB) and the peak resident memory a refusal may reach.
CAP_MB = 1500
PEAK_MB = 700

LOAD_ALL = """
    from ccg_env.saved_policy import load_model
    for path in sys.argv[1:]:
        report(lambda: load_model(path))
"""


@pytest.fixture(scope="module")
def honest(tmp_path_factory) -> Path:
    """A small honest model file (MaskablePPO, one layer of 32) for the packaged rules and cards."""
    import torch
    from sb3_contrib import MaskablePPO

    from ccg_env.env.gym_env import CcgDuelEnv
    from ccg_env.saved_policy import save_policy

    torch.set_num_threads(1)
    model = MaskablePPO("MlpPolicy", CcgDuelEnv(), n_steps=32, batch_size=32, n_epochs=1, seed=0,
                        policy_kwargs={"net_arch": [32]}, device="cpu")
    return save_policy(tmp_path_factory.mktemp("honest") / "tiny.ccgmodel", model.policy)


def _document(path: Path) -> dict:
    with zipfile.ZipFile(path) as archive:
        return json.loads(archive.read("metadata.json"))


def _with_weights(honest: Path, path: Path, weights: bytes, **metadata) -> Path:
    """A copy of ``honest`` with other weights (checksummed, so only the weights are hostile) and metadata."""
    from ccg_env.model_file import ModelMetadata, write_model_file

    document = {**_document(honest), **metadata}
    fields = {k: v for k, v in document.items() if k not in ("format", "format_version")}
    fields["card_ids"] = None if fields["card_ids"] is None else tuple(fields["card_ids"])
    return write_model_file(path, ModelMetadata(**fields), weights)


def _raw_metadata(honest: Path, path: Path, text: str) -> Path:
    """A copy of ``honest`` whose metadata.json is ``text`` as it is (nothing checks it on the way out)."""
    with zipfile.ZipFile(honest) as source, zipfile.ZipFile(path, "w") as target:
        target.writestr("metadata.json", text)
        target.writestr("weights.pt", source.read("weights.pt"))
    return path


def _honest_payload(honest: Path) -> dict:
    import torch

    with zipfile.ZipFile(honest) as archive:
        return torch.load(io.BytesIO(archive.read("weights.pt")), weights_only=True)


def _saved(payload: dict) -> bytes:
    import torch

    buffer = io.BytesIO()
    torch.save(payload, buffer)
    return buffer.getvalue()


def _bounds_and(policy: dict, storages: list[Storage], observation: int, **options) -> bytes:
    """A crafted weights.pt: ``policy`` tensors and honest-looking observation bounds on their own storage."""
    bounds = Storage("bounds", observation, 4 * observation)
    payload = {"policy": policy, "observation_low": Tensor(bounds, 0, (observation,), (1,)),
               "observation_high": Tensor(bounds, 0, (observation,), (1,))}
    return crafted_archive(payload, [*storages, bounds], **options)


class RunsCode:
    """Unpickled, this would write a marker file: what a hostile weights pickle would do with something worse."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return exec, (f"open({str(self.marker)!r}, 'w').write('ran')",)


def _cases(honest: Path, folder: Path) -> dict[str, tuple[Path, str]]:
    """name -> (hostile file, the refusal expected)."""
    observation = _document(honest)["observation_size"]
    one = Storage("0", 1, 4)
    cases = {
        "an expanded tensor (stride 0) standing for 4096 x N numbers": (
            _bounds_and({"w": Tensor(one, 0, (4096, observation), (0, 0))}, [one], observation),
            "only contiguous tensors are read"),
        "a tensor reaching past its storage": (
            _bounds_and({"w": Tensor(one, 0, (4096, observation), (observation, 1))}, [one], observation),
            "reaches past its storage of 1 elements"),
        "a storage declaring a billion elements on a 4-byte record": (
            _bounds_and({"w": Tensor(Storage("0", 10**9, 4), 0, (1,), (1,))}, [Storage("0", 10**9, 4)], observation),
            "declares 1,000,000,000 elements of 4 bytes but its record holds 4 bytes"),
        "a compressed record (a zip bomb inside weights.pt)": (
            _bounds_and({"w": Tensor(Storage("0", 25_000_000, 100_000_000), 0, (25_000_000,), (1,))},
                        [Storage("0", 25_000_000, 100_000_000)], observation, compression=zipfile.ZIP_DEFLATED),
            "is compressed; torch.save stores records as they are"),
        "a pickle declaring 1.5 GB of bytes it does not hold": (
            raw_archive(b"\x80\x04\x8e" + (1_500_000_000).to_bytes(8, "little") + b"abc."),
            "its pickle is damaged: 'expected 1500000000 bytes in a bytes8, but only 4 remain"),
        "a pickle building a byte array": (
            raw_archive(b"\x80\x05\x96" + (3).to_bytes(8, "little") + b"abc."),
            "its pickle uses BYTEARRAY8, which plain tensors never need"),
        "twenty thousand tensors": (
            _bounds_and({f"w{i}": Tensor(one, 0, (1,), (1,)) for i in range(20_000)}, [one], observation),
            "more than 10,000 tensors"),
    }
    files = {}
    for number, (name, (weights, message)) in enumerate(cases.items()):
        files[name] = (_with_weights(honest, folder / f"case{number}.ccgmodel", weights), message)
    payload = _honest_payload(honest)
    nan = {**payload, "policy": dict(payload["policy"])}
    key = next(k for k, v in nan["policy"].items() if v.is_floating_point() and v.numel() > 1)
    nan["policy"][key] = nan["policy"][key].clone()
    nan["policy"][key].view(-1)[3] = float("nan")
    files["a nan weight"] = (_with_weights(honest, folder / "nan.ccgmodel", _saved(nan)), "holds nan or inf")
    infinite = {**payload, "observation_high": payload["observation_high"].clone()}
    infinite["observation_high"][0] = float("inf")
    files["an infinite observation bound"] = (_with_weights(honest, folder / "inf.ccgmodel", _saved(infinite)),
                                              "'observation_high' holds nan or inf")
    huge = {**_document(honest)["policy_kwargs"], "net_arch": [4096] * 8}
    files["metadata describing a gigabyte network"] = (
        _with_weights(honest, folder / "huge.ccgmodel", _saved(payload), policy_kwargs=huge),
        "describes a network of 1,\\d{3} MB of weights, more than the 256 MB")
    marker = folder / "marker"
    files["a weights pickle that runs code"] = (
        _with_weights(honest, folder / "code.ccgmodel", _saved({"policy": RunsCode(marker)})),
        "its pickle calls '(__builtin__|builtins).exec', which is not a plain tensor")
    document = _document(honest)
    deep = json.dumps({**document, "source": {}}).replace('"source": {}', '"source": ' + "[" * 50_000 + "]" * 50_000)
    files["metadata nested 50,000 deep"] = (_raw_metadata(honest, folder / "deep.ccgmodel", deep),
                                            "nested 50001 levels deep, more than the 16")
    for kind, value in (("dict", {"a": 1}), ("list", [1, 2])):
        text = json.dumps({**document, "policy_class": value})
        files[f"a {kind} as the policy class"] = (_raw_metadata(honest, folder / f"class_{kind}.ccgmodel", text),
                                                 "policy_class: unknown policy class")
    return files


@pytest.fixture(scope="module")
def outcomes(honest, tmp_path_factory):
    """Every hostile file loaded in one capped child (each refusal's peak is at most the last one's): name -> (its
    report, the refusal expected), and whether the folder holds what it held before."""
    folder = tmp_path_factory.mktemp("hostile_models")
    cases = _cases(honest, folder)
    before = sorted(path.name for path in folder.iterdir())
    reports = run_capped(LOAD_ALL, *(str(path) for path, _ in cases.values()), memory_mb=CAP_MB, timeout=300)
    assert len(reports) == len(cases)
    unchanged = sorted(path.name for path in folder.iterdir()) == before
    return {name: (report, cases[name][1]) for name, report in zip(cases, reports)}, unchanged


CASE_NAMES = ["an expanded tensor (stride 0) standing for 4096 x N numbers", "a tensor reaching past its storage",
              "a pickle declaring 1.5 GB of bytes it does not hold", "a pickle building a byte array",
              "a storage declaring a billion elements on a 4-byte record",
              "a compressed record (a zip bomb inside weights.pt)", "twenty thousand tensors", "a nan weight",
              "an infinite observation bound", "metadata describing a gigabyte network",
              "a weights pickle that runs code", "metadata nested 50,000 deep", "a dict as the policy class",
              "a list as the policy class"]


@pytest.mark.parametrize("name", CASE_NAMES)
def test_a_hostile_model_file_is_refused_in_one_line_quickly_and_small(outcomes, name):
    import re

    reports, unchanged = outcomes
    report, expected = reports[name]
    assert report["error"] is not None and report["error"].startswith("ModelFileError: "), report
    assert re.search(expected, report["error"]), report["error"]
    assert "\n" not in report["error"] and len(report["error"]) < 600
    assert report["seconds"] < 60 and report["peak_mb"] < PEAK_MB, report  # bounded: a hang, not a slow machine, fails
    assert unchanged  # nothing written beside the files (the code pickle's marker included)


def _rllib_file_with(path: Path, weights_of) -> Path:
    """An RLlib policy file of a small module whose weights.pt is ``weights_of(state_dict)`` (checksum fixed)."""
    import hashlib

    from ccg_env.rllib.config import main_module_spec
    from ccg_env.rllib.env import CcgMultiAgentEnv
    from ccg_env.rllib.policy_file import save_policy_file

    env = CcgMultiAgentEnv()
    spec = main_module_spec((8,))
    spec.observation_space, spec.action_space = env.observation_spaces["player_0"], env.action_spaces["player_0"]
    module = spec.build()
    honest = save_policy_file(path.with_suffix(".honest.ccgrllib"), module, env.core)
    with zipfile.ZipFile(honest) as archive:
        document = json.loads(archive.read("metadata.json"))
    weights = weights_of({key: value.detach().clone() for key, value in module.state_dict().items()})
    document["weights_sha256"] = hashlib.sha256(weights).hexdigest()
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("metadata.json", json.dumps(document))
        archive.writestr("weights.pt", weights)
    return path


def test_an_rllib_policy_file_goes_through_the_same_reader(tmp_path):
    pytest.importorskip("ray")
    from ccg_env.model_file import ModelFileError
    from ccg_env.rllib.policy_file import load_policy_file

    def expanded(state: dict) -> bytes:
        one = Storage("0", 1, 4)
        return crafted_archive({key: Tensor(one, 0, tuple(value.shape), (0,) * value.dim())
                                for key, value in state.items()}, [one])

    def with_nan(state: dict) -> bytes:
        key = next(k for k, v in state.items() if v.is_floating_point() and v.numel() > 1)
        state[key].view(-1)[0] = float("nan")
        return _saved(state)

    with pytest.raises(ModelFileError, match="only contiguous tensors are read"):
        load_policy_file(_rllib_file_with(tmp_path / "expanded.ccgrllib", expanded))
    with pytest.raises(ModelFileError, match="holds nan or inf"):
        load_policy_file(_rllib_file_with(tmp_path / "nan.ccgrllib", with_nan))


def test_a_pickled_object_is_not_what_makes_these_fail(tmp_path):
    """The code-running pickle is live: loaded the unsafe way it writes its marker (so its refusal above is real)."""
    marker = tmp_path / "marker"
    pickle.loads(pickle.dumps(RunsCode(marker)))
    assert marker.read_text() == "ran"
