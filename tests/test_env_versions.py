"""Environment versions: the current spec's hash matches its record, the hash follows the data (a card's attack)
and not its layout, replaced versions are refused naming their successor, and model files, results and replays
record the version and spec hash, a model made for another spec being refused naming both."""

from __future__ import annotations

import json
import re
import zipfile
from dataclasses import replace
from pathlib import Path

import pytest

from ccg_env.env.versions import (CURRENT_VERSION, REPLACED, VERSIONS, check_version, current_spec_hash,
                                  env_record, spec_data, spec_hash)
from tests.card_files import packaged_card_files

CURRENT_HASH = VERSIONS[CURRENT_VERSION].spec_hash


def test_the_current_spec_matches_its_recorded_hash():
    computed = current_spec_hash()
    assert computed == CURRENT_HASH, (
        f"What an agent sees or can do changed (rules, cards, heroes, decks, observation or action layout, rewards or "
        f"illegal-action defaults: see ccg_env/env/versions.py spec_data), but environment {CURRENT_VERSION} records "
        f"spec hash {CURRENT_HASH} and the code now computes {computed}. A released version is never changed: add a "
        f"new version to VERSIONS in ccg_env/env/versions.py with this hash, make it CURRENT_VERSION, move "
        f"{CURRENT_VERSION} to REPLACED, register the new ids, and add a CHANGELOG.md entry saying what changed for "
        f"agents.")


def test_every_recorded_hash_is_a_sha256_and_the_current_version_is_buildable():
    assert all(re.fullmatch(r"[0-9a-f]{64}", version.spec_hash) for version in VERSIONS.values())
    assert CURRENT_VERSION in VERSIONS and CURRENT_VERSION not in REPLACED
    assert all(successor in VERSIONS for successor in REPLACED.values())
    assert VERSIONS[CURRENT_VERSION].env_ids == ("ccg_env/Duel-v1", "ccg_env/Draft-v1")


def _copied_cards(folder: Path, edit=None) -> list[Path]:
    """Copies of the packaged card files, ``edit(name, text)`` applied to each file's text."""
    folder.mkdir(parents=True, exist_ok=True)
    copies = []
    for path in packaged_card_files():
        text = path.read_text(encoding="utf-8")
        copies.append(folder / path.name)
        copies[-1].write_text(edit(path.name, text) if edit else text, encoding="utf-8")
    return copies


WISP = "  - {id: wisp, name: Wisp, type: minion, cost: 0, attack: 1, health: 1}\n"


def _wisp_with(line: str):
    def edit(name: str, text: str) -> str:
        if name != "basic.yaml":
            return text
        assert text.count(WISP) == 1
        return text.replace(WISP, line)
    return edit


def test_copies_of_the_packaged_cards_give_the_recorded_hash(tmp_path):
    assert spec_hash(cards=_copied_cards(tmp_path / "same")) == CURRENT_HASH


def test_changing_one_cards_attack_changes_the_hash(tmp_path):
    cards = _copied_cards(tmp_path / "stronger", _wisp_with(WISP.replace("attack: 1", "attack: 2")))
    assert spec_hash(cards=cards) != CURRENT_HASH


def test_comments_layout_and_card_text_do_not_count(tmp_path):
    block = ("  # a comment, then the same card written as a block with its name and text changed\n"
             "  - id: wisp\n    name: Will-o'-the-Wisp\n    type: minion\n    cost: 0\n"
             "    health: 1\n    attack: 1\n    text: a small light\n\n")
    assert spec_hash(cards=_copied_cards(tmp_path / "relaid", _wisp_with(block))) == CURRENT_HASH


def test_the_rules_count(tmp_path):
    rules = tmp_path / "rules.yaml"
    rules.write_text("turn_limit: 60\n", encoding="utf-8")
    assert spec_hash(rules=str(rules)) != CURRENT_HASH


def test_the_spec_holds_every_part_named_in_its_documentation():
    data = spec_data()
    assert set(data) == {"rules", "cards", "heroes", "decks", "observation", "actions", "rewards", "defaults"}
    assert data["rewards"]["ended"]["win:0"] == [1.0, -1.0] and data["rewards"]["illegal_action"] == "forfeit"
    assert data["actions"]["duel"] == {"max_hand": 10, "max_battlefield": 7, "draft_picks": 0}
    assert data["defaults"]["duel"]["opponent"] == "random" and len(data["decks"]["pool"]) >= 7


# --- building a version ------------------------------------------------------------------------------------


def test_a_replaced_version_is_refused_naming_its_successor():
    with pytest.raises(ValueError, match=r"^version: environment version 'v0' can no longer be built: it was "
                                         r"replaced by 'v1'"):
        check_version("v0")
    with pytest.raises(ValueError, match=r"^version: unknown environment version 'v9'; this ccg-env builds 'v1'"):
        check_version("v9")
    assert check_version(None) is check_version("v1") is VERSIONS["v1"]


def test_the_aec_factories_take_a_version():
    import ccg_env

    env = ccg_env.env(version="v1", seed=1)
    env.reset()
    assert env.unwrapped.metadata["name"] == "ccg_env_v1"
    for factory in (ccg_env.env, ccg_env.raw_env):
        with pytest.raises(ValueError, match="'v0' can no longer be built: it was replaced by 'v1'"):
            factory(version="v0")


def test_gymnasium_builds_v1_and_refuses_v0_naming_v1():
    import gymnasium as gym

    import ccg_env  # noqa: F401  (registers the ids)

    for name in ("Duel", "Draft"):
        assert f"ccg_env/{name}-v1" in gym.registry and f"ccg_env/{name}-v0" not in gym.registry
        with pytest.raises(gym.error.DeprecatedEnv, match=rf"Please use `ccg_env/{name}-v1` instead"):
            gym.make(f"ccg_env/{name}-v0")
    with pytest.raises(gym.error.DeprecatedEnv, match=r"Please use `ccg_env/Duel-v1` instead"):
        gym.make_vec("ccg_env/Duel-v0", num_envs=2)
    env = gym.make("ccg_env/Duel-v1", seat=0)
    env.reset(seed=0)
    assert env.spec.id == "ccg_env/Duel-v1"


# --- model files -------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def model_path(tmp_path_factory) -> Path:
    pytest.importorskip("sb3_contrib")
    import torch
    from sb3_contrib import MaskablePPO

    from ccg_env.engine import Rules, default_cards
    from ccg_env.env.gym_env import CcgDuelEnv
    from ccg_env.saved_policy import save_policy

    torch.set_num_threads(1)
    policy = MaskablePPO("MlpPolicy", CcgDuelEnv(), n_steps=32, batch_size=32, n_epochs=1, seed=0,
                         policy_kwargs={"net_arch": [8]}, device="cpu").policy
    return save_policy(tmp_path_factory.mktemp("models") / "v1.ccgmodel", policy, Rules.load(), default_cards())


def _rewritten(source: Path, target: Path, **fields) -> Path:
    """A copy of a model file whose metadata has ``fields`` replaced (the weights' checksum still matching)."""
    from ccg_env.model_file import read_model_file, write_model_file

    metadata, weights = read_model_file(source)
    return write_model_file(target, replace(metadata, **fields), weights)


def test_a_model_file_records_the_version_and_spec_hash(model_path):
    from ccg_env.model_file import describe, read_metadata
    from ccg_env.saved_policy import load_policy_file

    metadata = read_metadata(model_path)
    assert (metadata.env_version, metadata.spec_hash) == (CURRENT_VERSION, CURRENT_HASH)
    assert load_policy_file(model_path).metadata == metadata
    assert f"environment: v1, spec hash {CURRENT_HASH}" in describe(metadata)


OTHER_HASH = "ab" * 32


@pytest.mark.parametrize("version, digest", [("v2", OTHER_HASH), ("v1", OTHER_HASH), ("v0", CURRENT_HASH)])
def test_a_model_made_for_another_spec_is_refused_naming_both(model_path, tmp_path, version, digest):
    from ccg_env.agents.learned import LearnedAgent
    from ccg_env.model_file import ModelFileError
    from ccg_env.saved_policy import load_model

    other = _rewritten(model_path, tmp_path / "other.ccgmodel", env_version=version, spec_hash=digest)
    expected = (rf"^{re.escape(str(other))}: the model does not fit this environment: it was made for environment "
                rf"{version} \(spec hash {digest[:16]}\) but this ccg-env builds v1 \(spec hash {CURRENT_HASH[:16]}\)$")
    with pytest.raises(ModelFileError, match=expected):
        load_model(other)
    with pytest.raises(ModelFileError, match=expected):
        LearnedAgent(other)  # before any game


def test_a_model_from_before_versions_is_checked_as_before(model_path, tmp_path):
    from ccg_env.agents.learned import LearnedAgent
    from ccg_env.model_file import ModelFileError, describe, read_metadata

    older = _rewritten(model_path, tmp_path / "older.ccgmodel", env_version=None, spec_hash=None)
    assert "not recorded (a file from before environment versions were recorded)" in describe(read_metadata(older))
    agent = LearnedAgent(older)
    observation, mask = _first_observation()
    assert mask[agent.act(observation, mask, None)] == 1
    with pytest.raises(ModelFileError, match=rf"reads observations of {observation.size} entries but the game's "
                                             rf"have 7"):
        agent.model_input(observation[:7], mask)


def _first_observation():
    import ccg_env

    env = ccg_env.env(seed=3)
    env.reset()
    observed = env.observe(env.agent_selection)
    return observed["observation"], observed["action_mask"]


def test_the_shipped_model_records_no_version_and_still_plays():
    from ccg_env.agents.learned import LearnedAgent
    from ccg_env.model_file import read_metadata
    from ccg_env.models import DEFAULT_MODEL

    assert read_metadata(DEFAULT_MODEL).env_version is None
    agent = LearnedAgent()
    observation, mask = _first_observation()
    assert mask[agent.act(observation, mask, None)] == 1


@pytest.mark.parametrize("fields, named", [
    ({"env_version": "1"}, r"env_version: expected an environment version such as 'v1', got '1'"),
    ({"spec_hash": "XYZ"}, r"spec_hash: expected 64 lowercase hex digits, got 'XYZ'"),
    ({"spec_hash": None}, r"env_version and spec_hash go together: the file records only env_version"),
])
def test_a_malformed_version_record_is_refused_by_field(model_path, tmp_path, fields, named):
    from ccg_env.model_file import ModelFileError, read_metadata

    path = tmp_path / "edited.ccgmodel"
    with zipfile.ZipFile(model_path) as source, zipfile.ZipFile(path, "w") as target:
        document = {**json.loads(source.read("metadata.json")), **fields}
        target.writestr("metadata.json", json.dumps(document))
        target.writestr("weights.pt", source.read("weights.pt"))
    with pytest.raises(ModelFileError, match=named):
        read_metadata(path)


def test_an_rllib_policy_file_for_another_spec_is_refused_without_ray(tmp_path):
    """A ``.ccgrllib`` file is checked when the agent is made (no Ray needed): the weights are not read."""
    import hashlib

    from ccg_env.agents.learned import LearnedAgent
    from ccg_env.model_file import ModelFileError

    weights = b"not read before the metadata passes"
    metadata = {"format": "ccg-env-rllib-module", "format_version": 1, "module_class": "MaskedPPOTorchRLModule",
                "fcnet_hiddens": [8], "head_fcnet_hiddens": [], "fcnet_activation": "tanh", "vf_share_layers": True,
                "observation_size": 10, "action_size": 262, "rules": None, "card_ids": None,
                "weights_sha256": hashlib.sha256(weights).hexdigest(), "source": {}, "slot": None,
                "env_version": "v2", "spec_hash": OTHER_HASH}
    path = tmp_path / "other.ccgrllib"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("metadata.json", json.dumps(metadata))
        archive.writestr("weights.pt", weights)
    with pytest.raises(ModelFileError, match=rf"made for environment v2 \(spec hash {OTHER_HASH[:16]}\) but this "
                                             rf"ccg-env builds v1"):
        LearnedAgent(path)


# --- results, run records and replays ----------------------------------------------------------------------


def test_arena_results_record_the_version_and_spec_hash(tmp_path):
    from ccg_env.agents.arena import run_tournament

    result = run_tournament(["random", "random"], games_per_pair=2, seed=0, workers=1, progress=False)
    document = json.loads(Path(result.save(tmp_path)["results.json"]).read_text())
    assert (document["env_version"], document["spec_hash"]) == (CURRENT_VERSION, CURRENT_HASH)


def test_an_evaluation_row_records_the_version_and_spec_hash():
    from ccg_env.training.run import EvalResult

    row = EvalResult(100, 1.0, "random", {"win": 1}).row()
    assert list(row)[-2:] == ["env_version", "spec_hash"] and row["spec_hash"] == CURRENT_HASH


def test_a_replay_records_the_version_and_a_malformed_record_is_refused(tmp_path):
    from ccg_env.engine import Game
    from ccg_env.viewer.replay import load_replay, save_replay

    game = Game.new(seed=0)
    path = save_replay(tmp_path / "game.json", 0, ["a", "b"], [], game)
    replay = load_replay(path)
    assert (replay.env_version, replay.spec_hash) == (CURRENT_VERSION, CURRENT_HASH)
    document = json.loads(path.read_text())
    for key in ("env_version", "spec_hash"):
        older = {name: value for name, value in document.items() if name not in ("env_version", "spec_hash")}
        (tmp_path / "older.json").write_text(json.dumps(older))
        assert load_replay(tmp_path / "older.json").env_version is None
        (tmp_path / "half.json").write_text(json.dumps({**document, key: None}))
        with pytest.raises(ValueError, match=r"\"env_version\" and \"spec_hash\" must be an environment version"):
            load_replay(tmp_path / "half.json")


def test_env_record_is_what_files_record():
    assert env_record() == {"env_version": CURRENT_VERSION, "spec_hash": current_spec_hash()}
