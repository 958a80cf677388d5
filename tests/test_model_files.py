"""Model files are hostile input: a .ccgmodel loads without running code, an SB3 zip only when trusted.

Each refusal test first shows that its payload is live (loaded the unsafe way, it does write the marker
file), so a refusal that passed only because the payload was broken would fail here.
"""

from __future__ import annotations

import base64
import io
import json
import pickle
import zipfile
from pathlib import Path

import numpy as np
import pytest

from ccg_env.model_file import (METADATA_MEMBER, WEIGHTS_MEMBER, ModelFileError, ModelMetadata, UntrustedModelError,
                                model_kind, read_model_file, write_model_file)

pytest.importorskip("sb3_contrib")


def _default_sizes() -> tuple[int, int, int]:
    """Observation entries, action ids and cards of the default game: what the tiny model below is built for."""
    from ccg_env.env.core import EnvCore

    core = EnvCore()
    return core.encoder.size, core.size, len(core.cards)


OBSERVATION, ACTIONS, CARDS = _default_sizes()


class WritesMarker:
    """Unpickling this writes a file: what a hostile model file would do with something worse."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return exec, (f"open({str(self.marker)!r}, 'w').write('the payload ran')",)


@pytest.fixture(scope="module")
def tiny_zip(tmp_path_factory) -> Path:
    """A small honest MaskablePPO zip (MlpPolicy) for the packaged rules and cards."""
    import torch
    from sb3_contrib import MaskablePPO

    from ccg_env.env.gym_env import CcgDuelEnv

    torch.set_num_threads(1)
    model = MaskablePPO("MlpPolicy", CcgDuelEnv(), n_steps=32, batch_size=32, n_epochs=1, seed=0,
                        policy_kwargs={"net_arch": [32]}, device="cpu")
    path = tmp_path_factory.mktemp("models") / "tiny.zip"
    model.save(path)
    return path


@pytest.fixture(scope="module")
def tiny_model_file(tiny_zip, tmp_path_factory) -> Path:
    from ccg_env.saved_policy import convert

    return convert(tiny_zip, tmp_path_factory.mktemp("converted") / "tiny.ccgmodel", trust=True)


def hostile_zip(honest: Path, destination: Path, marker: Path) -> Path:
    """A copy of an SB3 zip whose ``data`` holds a serialized object that writes ``marker`` when unpickled."""
    with zipfile.ZipFile(honest) as source, zipfile.ZipFile(destination, "w") as target:
        for info in source.infolist():
            content = source.read(info)
            if info.filename == "data":
                data = json.loads(content)
                payload = base64.b64encode(pickle.dumps(WritesMarker(marker))).decode()
                data["policy_class"] = {":type:": "<class 'abc.ABCMeta'>", ":serialized:": payload}
                content = json.dumps(data).encode()
            target.writestr(info, content)
    return destination


# --- an SB3 zip is refused unless trusted ------------------------------------------------------------------


def test_a_crafted_sb3_zip_runs_its_payload_when_trusted(tiny_zip, tmp_path):
    from ccg_env.saved_policy import load_model

    marker = tmp_path / "marker"
    path = hostile_zip(tiny_zip, tmp_path / "hostile.zip", marker)
    with pytest.raises(Exception):  # the payload replaced the policy class, so the load fails after it ran
        load_model(path, trust=True)
    assert marker.read_text() == "the payload ran", "the crafted payload must be live for the tests below"


def test_a_crafted_sb3_zip_is_refused_by_default_everywhere(tiny_zip, tmp_path):
    from ccg_env.agents.learned import LearnedAgent
    from ccg_env.saved_policy import load_model
    from ccg_env.training.train import load_config

    marker = tmp_path / "marker"
    path = hostile_zip(tiny_zip, tmp_path / "hostile.zip", marker)
    with pytest.raises(UntrustedModelError, match=r"stable-baselines3 \.zip: loading one unpickles"):
        load_model(path)
    with pytest.raises(UntrustedModelError, match="trust=True"):
        LearnedAgent(path)
    with pytest.raises(ValueError, match=r"init_model: .*\(set trust_model: true\)"):
        load_config("smoke", {"init_model": str(path)})
    with pytest.raises(ValueError, match="league: checkpoints: .* unpickles"):
        load_config("smoke", {"opponent": "league", "league": {"checkpoints": [str(path)]}})
    assert not marker.exists()


def test_the_league_refuses_an_untrusted_zip_checkpoint_and_takes_a_model_file(tiny_zip, tiny_model_file,
                                                                                tmp_path):
    from ccg_env.env.duel import DuelSetup
    from ccg_env.training.league import LeagueSettings
    from ccg_env.training.sb3_league import LeaguePool

    marker = tmp_path / "marker"
    setup = DuelSetup.build(normalize_observations=False)
    with pytest.raises(UntrustedModelError):
        LeaguePool(LeagueSettings(checkpoints=(str(hostile_zip(tiny_zip, tmp_path / "h.zip", marker)),)), setup)
    assert not marker.exists()
    pool = LeaguePool(LeagueSettings(checkpoints=(str(tiny_model_file),)), setup)
    trusted = LeaguePool(LeagueSettings(checkpoints=(str(tiny_zip),)), setup, trust_model=True)
    assert [s.name for s in pool.snapshots] == ["checkpoint:tiny"] == [s.name for s in trusted.snapshots]


def test_cli_arena_refuses_a_zip_and_trust_model_lets_it_load(tiny_zip, tmp_path, capsys):
    from ccg_env import cli

    marker = tmp_path / "marker"
    hostile = hostile_zip(tiny_zip, tmp_path / "hostile.zip", marker)
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["arena", "--agents", f"learned:path={hostile}", "random", "--games", "2", "--workers", "1",
                  "--out-dir", str(tmp_path / "out"), "--no-progress"])
    assert exit_info.value.code == 2 and "--trust-model" in capsys.readouterr().err
    assert not marker.exists()
    assert cli.main(["arena", "--agents", f"learned:path={tiny_zip}", "random", "--games", "2", "--workers", "1",
                     "--out-dir", str(tmp_path / "out"), "--no-progress", "--trust-model"]) == 0
    assert cli.with_trust(["learned:path=a.zip", "random", "learned", "learned:path=b,trust=false"]) == [
        "learned:path=a.zip,trust=true", "random", "learned:trust=true", "learned:path=b,trust=false"]


def test_cli_model_convert_needs_trust_and_inspect_shows_the_metadata(tiny_zip, tmp_path, capsys):
    from ccg_env import cli

    with pytest.raises(SystemExit) as exit_info:
        cli.main(["model", "convert", str(tiny_zip), str(tmp_path / "out.ccgmodel")])
    assert exit_info.value.code == 2 and "unpickles" in capsys.readouterr().err
    assert cli.main(["model", "convert", "--trust-model", str(tiny_zip), str(tmp_path / "out")]) == 0
    assert model_kind(tmp_path / "out.ccgmodel") == "ccg-env"
    with pytest.raises(SystemExit):
        cli.main(["model", "convert", "--trust-model", str(tmp_path / "out.ccgmodel"), str(tmp_path / "again")])
    assert "already a ccg-env model file" in capsys.readouterr().err
    capsys.readouterr()
    assert cli.main(["model", "inspect", str(tmp_path / "out.ccgmodel")]) == 0
    text = capsys.readouterr().out
    assert "policy: MaskableActorCriticPolicy" in text and f"actions: {ACTIONS} ids" in text and f"cards: {CARDS}" in text


# --- a model file never runs code ----------------------------------------------------------------------------


def _rewrite(model_file: Path, destination: Path, metadata: dict | None = None, weights: bytes | None = None) -> Path:
    """A copy of a model file with other metadata (checksum kept as is) or other weights (checksum updated)."""
    with zipfile.ZipFile(model_file) as archive:
        document = json.loads(archive.read(METADATA_MEMBER))
        old_weights = archive.read(WEIGHTS_MEMBER)
    if weights is not None:
        fields = {k: v for k, v in document.items() if k not in ("format", "format_version")}
        fields["card_ids"] = tuple(fields["card_ids"])
        return write_model_file(destination, ModelMetadata(**fields), weights)
    with zipfile.ZipFile(destination, "w") as archive:
        archive.writestr(METADATA_MEMBER, json.dumps({**document, **(metadata or {})}))
        archive.writestr(WEIGHTS_MEMBER, old_weights)
    return destination


def test_a_torch_pickle_in_the_weights_is_refused_by_weights_only(tiny_model_file, tmp_path):
    import torch

    from ccg_env.saved_policy import load_model

    marker = tmp_path / "marker"
    buffer = io.BytesIO()
    torch.save({"policy": WritesMarker(marker), "observation_low": torch.zeros(1), "observation_high": torch.ones(1)},
               buffer)
    torch.load(io.BytesIO(buffer.getvalue()), weights_only=False)  # the unsafe way runs it
    assert marker.read_text() == "the payload ran"
    marker.unlink()
    path = _rewrite(tiny_model_file, tmp_path / "hostile.ccgmodel", weights=buffer.getvalue())
    read_model_file(path)  # a well-formed container with a matching checksum: only the weights are hostile
    with pytest.raises(ModelFileError, match=r"weights\.pt: its pickle calls '__builtin__\.exec', which is not a plain"):
        load_model(path)
    assert not marker.exists()


@pytest.mark.parametrize("change, message", [
    ({"policy_class": "os.system"}, r"policy_class: unknown policy class 'os.system'; known: MaskableActorCriticPolicy"),
    ({"policy_kwargs": {"net_arch": [32], "evil": 1}}, r"policy_kwargs: unknown option 'evil' for "
                                                       r"MaskableActorCriticPolicy \(known: activation_fn, "),
    ({"policy_kwargs": {"activation_fn": "subprocess.Popen"}}, r"activation_fn: unknown activation function "
                                                               r"'subprocess.Popen'; known: Tanh, ReLU"),
    ({"policy_kwargs": {"features_extractor_class": "builtins.eval"}}, "unknown features extractor"),
    ({"policy_kwargs": {"net_arch": [10 ** 9]}}, "expected a layer size from 1 to 4096, got 1000000000"),
    ({"policy_kwargs": {"features_extractor_kwargs": {"gain": [1.0]}}}, r"unknown options \['gain'\] for "
                                                                        r"FlattenExtractor"),
    ({"format": "pickle"}, "not a ccg-env model file"),
    ({"format_version": 99}, "format_version 99 is not supported"),
    ({"observation_size": -3}, "observation_size: expected a whole number from 1"),
    ({"rules": {"max_hand": "ten"}}, "max_hand"),
    ({"card_ids": ["b", "a"]}, "card ids must be sorted"),
    ({"extra": 1}, r"unknown fields \['extra'\]"),
    ({"observation_size": 12, "observation_spec": None},  # a file without a spec: the weights' bounds are checked
     r"weights\.pt: observation_low must be a tensor of 12 numbers"),
    ({"observation_size": 12}, r"observation_spec: its pieces make \d+ values but observation_size is 12"),
])
def test_bad_metadata_is_refused_with_the_field_named(tiny_model_file, tmp_path, change, message):
    from ccg_env.saved_policy import load_model

    path = _rewrite(tiny_model_file, tmp_path / "bad.ccgmodel", metadata=change)
    with pytest.raises(ModelFileError, match=message):
        load_model(path)


def test_weights_that_do_not_fit_the_metadata_or_checksum_are_refused(tiny_model_file, tmp_path):
    from ccg_env.saved_policy import load_model

    wider = _rewrite(tiny_model_file, tmp_path / "wider.ccgmodel", metadata={"policy_kwargs": {"net_arch": [64]}})
    with pytest.raises(ModelFileError, match="the weights do not fit the policy its metadata describes: .*size "
                                             "mismatch"):
        load_model(wider)
    with zipfile.ZipFile(tiny_model_file) as archive:
        document = json.loads(archive.read(METADATA_MEMBER))
    with zipfile.ZipFile(tmp_path / "edited.ccgmodel", "w") as archive:
        archive.writestr(METADATA_MEMBER, json.dumps(document))
        archive.writestr(WEIGHTS_MEMBER, b"not the weights")
    with pytest.raises(ModelFileError, match="does not match the SHA-256"):
        load_model(tmp_path / "edited.ccgmodel")
    (tmp_path / "text.ccgmodel").write_text("hello")
    with pytest.raises(ModelFileError, match="not a zip archive"):
        load_model(tmp_path / "text.ccgmodel")


def test_metadata_asking_for_a_huge_network_is_refused_before_it_is_allocated(tiny_model_file, tmp_path):
    import psutil

    from ccg_env.saved_policy import load_model

    # 8 layers of 4096 (each option within its bound) would be about 130M parameters, 520 MB of float32
    huge = _rewrite(tiny_model_file, tmp_path / "huge.ccgmodel", metadata={"policy_kwargs": {"net_arch": [4096] * 8}})
    before = psutil.Process().memory_info().rss
    with pytest.raises(ModelFileError, match=r"describes a network of 1,\d{3} MB of weights, more than the 256 MB"):
        load_model(huge)
    assert psutil.Process().memory_info().rss - before < 100_000_000
    wide = _rewrite(tiny_model_file, tmp_path / "wide.ccgmodel", metadata={"policy_kwargs": {"net_arch": [4096]}})
    with pytest.raises(ModelFileError, match=rf"do not fit .*mlp_extractor.policy_net.0.weight: \(32, {OBSERVATION}\) in "
                                             rf"the weights, \(4096, {OBSERVATION}\) in the policy"):
        load_model(wide)


# --- a model that does not fit the game ----------------------------------------------------------------------


def test_a_model_file_for_another_card_set_is_refused_naming_both(tiny_model_file):
    from ccg_env.agents.learned import LearnedAgent
    from ccg_env.engine.datafiles import config_dir

    agent = LearnedAgent(tiny_model_file, cards=config_dir() / "cards" / "basic.yaml")
    with pytest.raises(ModelFileError, match=rf"trained on a card set of {CARDS} cards but the game's has \d+; only in "
                                             r"the model's: \["):
        agent._load()


def test_an_observation_or_mask_of_another_size_is_refused_naming_both(tiny_model_file):
    from ccg_env.agents.learned import LearnedAgent

    agent = LearnedAgent(tiny_model_file)
    with pytest.raises(ModelFileError, match=f"the model reads observations of {OBSERVATION} entries but the game's "
                                             f"have 40"):
        agent.act(np.zeros(40, dtype=np.float32), np.ones(ACTIONS, dtype=np.int8))
    with pytest.raises(ModelFileError, match=f"the model has {ACTIONS} action ids but the game's layout has 200"):
        agent.act(np.zeros(OBSERVATION, dtype=np.float32), np.ones(200, dtype=np.int8))


def test_convert_refuses_rules_whose_sizes_differ_from_the_model(tiny_zip, tmp_path):
    from ccg_env.saved_policy import convert

    rules = tmp_path / "rules.yaml"
    rules.write_text("max_hand: 8\n")
    with pytest.raises(ModelFileError, match=f"the model reads observations of {OBSERVATION} entries but the game's have "):
        convert(tiny_zip, tmp_path / "out.ccgmodel", trust=True, rules=str(rules))
    assert not (tmp_path / "out.ccgmodel").exists()


# --- the safe path plays exactly as the trusted one ------------------------------------------------------------


def test_a_converted_model_has_the_same_outputs(tiny_zip, tiny_model_file):
    import torch
    from sb3_contrib import MaskablePPO

    from ccg_env.saved_policy import load_model

    original = MaskablePPO.load(tiny_zip, device="cpu").policy
    loaded = load_model(tiny_model_file)
    assert loaded.metadata.observation_normalized is False and loaded.metadata.card_ids[0] < loaded.metadata.card_ids[1]
    observations = torch.rand(16, OBSERVATION) * 10
    with torch.no_grad():
        assert torch.equal(original.get_distribution(observations).distribution.logits,
                           loaded.policy.get_distribution(observations).distribution.logits)
    assert np.array_equal(original.observation_space.high, loaded.observation_space.high)


def test_the_tables_name_every_class_the_metadata_may_name():
    from ccg_env import model_file
    from ccg_env.saved_policy import _tables

    policies, activations, extractors = _tables()
    assert tuple(policies) == model_file.POLICY_CLASSES
    assert tuple(activations) == model_file.ACTIVATIONS and tuple(extractors) == model_file.EXTRACTORS


def test_edited_index_buffers_are_refused_at_load(tmp_path):
    import io

    import torch

    from ccg_env.models import DEFAULT_MODEL
    from ccg_env.saved_policy import load_model

    with zipfile.ZipFile(DEFAULT_MODEL) as archive:
        payload = torch.load(io.BytesIO(archive.read(WEIGHTS_MEMBER)), weights_only=True)
    for name in ("critic_features", "global_index"):  # the extractor's buffers appear under three shared names
        edited = {**payload, "policy": dict(payload["policy"])}
        for key in [key for key in edited["policy"] if key.endswith(name)]:
            edited["policy"][key] = edited["policy"][key].flip(0)  # same shape and dtype, other features read
        buffer = io.BytesIO()
        torch.save(edited, buffer)
        path = _rewrite(DEFAULT_MODEL, tmp_path / "edited.ccgmodel", weights=buffer.getvalue())
        with pytest.raises(ModelFileError, match=f"index buffers that the policy's metadata fixes: .*{name}"):
            load_model(path)
    assert load_model(DEFAULT_MODEL).metadata.policy_class == "SlotPolicy"


@pytest.mark.parametrize("siblings", [0, 3])
def test_metadata_nesting_counts_each_closing_bracket_once(siblings):
    """Nested objects closed before a deep one do not hide its depth (each closing bracket is one level back)."""
    from ccg_env.model_file import MAX_METADATA_NESTING, parse_metadata

    closed = "".join(f'"s{k}": {{}}, ' for k in range(siblings))
    too_deep = "{" + closed + '"deep": ' + "[" * MAX_METADATA_NESTING + "]" * MAX_METADATA_NESTING + "}"
    with pytest.raises(ModelFileError, match=f"nested {MAX_METADATA_NESTING + 1} levels deep"):
        parse_metadata(too_deep.encode(), "x.ccgmodel")
    just_right = "{" + closed + '"deep": ' + "[" * (MAX_METADATA_NESTING - 1) + "]" * (MAX_METADATA_NESTING - 1) + "}"
    assert list(parse_metadata(just_right.encode(), "x.ccgmodel"))[-1] == "deep"
