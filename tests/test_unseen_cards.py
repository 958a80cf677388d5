"""A model trained with ``card_features=True, card_ids=False`` records its observation spec and no card set: it plays
card sets it never saw (a card added to the packaged set, a generated pool) and is refused, by name, only when the
observation's layout differs; a model with card ids still plays only the card set it records. The spec hash such a
model records leaves the card set out (``spec_data_without_cards``), so a change to the packaged cards does not
refuse it, nor a model trained on another card set."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import pytest

from ccg_env.engine import Rules, load_cards
from ccg_env.engine.game_setup import resolve_cards
from ccg_env.model_file import ModelFileError, check_fits, describe, read_metadata, reads_card_ids
from tests.card_files import packaged_card_files

pytest.importorskip("sb3_contrib")

ADDED = "unseen_golem"
ADDED_CARD = ("cards:\n  - {id: unseen_golem, name: Unseen Golem, type: minion, cost: 3, attack: 2, health: 4, "
              "keywords: [taunt],\n     abilities: [{trigger: battlecry, effect: damage, select: enemy_hero, "
              "amount: 1}]}\n")
GENERATED = "generated:seed=11,size=40"
NO_IDS = {"card_features": True, "card_ids": False}


def card_folder_with_one_card_added(folder: Path) -> Path:
    """A copy of the packaged card files plus a file holding one new collectible card."""
    folder.mkdir()
    for path in packaged_card_files():
        shutil.copyfile(path, folder / path.name)
    (folder / "unseen.yaml").write_text(ADDED_CARD)
    return folder


def tiny_model(folder: Path, name: str, cards=None, **layout) -> Path:
    """A small untrained MaskablePPO policy for the packaged rules and ``cards``, saved as a model file."""
    import torch
    from sb3_contrib import MaskablePPO

    from ccg_env.env.gym_env import CcgDuelEnv
    from ccg_env.saved_policy import save_policy

    torch.set_num_threads(1)
    env = CcgDuelEnv(cards=cards, normalize_observations=True, **layout)
    model = MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=32, seed=0, policy_kwargs={"net_arch": [8]},
                        device="cpu")
    return save_policy(folder / f"{name}.ccgmodel", model.policy, env.unwrapped.setup.rules,
                       env.unwrapped.setup.cards)


@pytest.fixture(scope="module")
def added_set(tmp_path_factory) -> Path:
    return card_folder_with_one_card_added(tmp_path_factory.mktemp("cards") / "added")


@pytest.fixture(scope="module")
def models(tmp_path_factory, added_set) -> dict[str, Path]:
    """Tiny models: without card ids (packaged cards), with card ids (packaged cards, and the added set)."""
    folder = tmp_path_factory.mktemp("models")
    return {"no_ids": tiny_model(folder, "no_ids", **NO_IDS), "ids": tiny_model(folder, "ids"),
            "ids_added": tiny_model(folder, "ids_added", cards=sorted(added_set.glob("*.yaml")))}


def play_arena(model: Path, cards, **layout):
    from ccg_env.agents.arena import run_tournament

    return run_tournament([f"learned:path={model}", "random"], games_per_pair=2, workers=1, progress=False,
                          cards=cards, **layout)


def assert_whole_games(result, count: int) -> None:
    assert len(result.games) == count
    assert all(game.result != "unfinished" and game.decisions > 0 for game in result.games)


# --- what the model records -----------------------------------------------------------------------------------------


def test_a_model_without_card_ids_records_its_spec_and_the_spec_hash_without_the_card_set(models):
    from ccg_env.env.versions import current_spec_hash, current_spec_hash_without_cards

    metadata = read_metadata(models["no_ids"])
    assert metadata.card_ids is None and not reads_card_ids(metadata)
    assert metadata.observation_spec["card_ids"] == [] and metadata.observation_spec["card_features"]
    assert metadata.spec_hash == current_spec_hash_without_cards() != current_spec_hash()
    assert "cards: any card set (its observation has card features and no card ids)" in describe(metadata)
    with_ids = read_metadata(models["ids"])
    assert reads_card_ids(with_ids) and with_ids.spec_hash == current_spec_hash()
    assert with_ids.card_ids == tuple(sorted(resolve_cards(None)))


def test_a_model_trained_on_another_card_set_records_the_spec_hash_without_the_card_set(models):
    from ccg_env.env.versions import current_spec_hash_without_cards

    metadata = read_metadata(models["ids_added"])
    assert ADDED in metadata.card_ids and metadata.spec_hash == current_spec_hash_without_cards()


def test_a_converted_zip_without_card_ids_records_no_card_set(tmp_path):
    import torch
    from sb3_contrib import MaskablePPO

    from ccg_env.env.gym_env import CcgDuelEnv
    from ccg_env.saved_policy import convert

    torch.set_num_threads(1)
    model = MaskablePPO("MlpPolicy", CcgDuelEnv(**NO_IDS), n_steps=32, batch_size=32, seed=0,
                        policy_kwargs={"net_arch": [8]}, device="cpu")
    model.save(tmp_path / "no_ids.zip")
    metadata = read_metadata(convert(tmp_path / "no_ids.zip", tmp_path / "no_ids.ccgmodel", trust=True))
    assert metadata.card_ids is None and not reads_card_ids(metadata)


def test_the_spec_without_card_ids_is_the_same_for_every_card_set(added_set):
    import numpy as np

    from ccg_env.env.observation import ObservationEncoder

    encoders = [ObservationEncoder(Rules(), resolve_cards(cards), **NO_IDS)
                for cards in (None, sorted(added_set.glob("*.yaml")), GENERATED)]
    assert all(encoder.spec == encoders[0].spec for encoder in encoders)
    assert all(np.array_equal(encoder.scale, encoders[0].scale) for encoder in encoders)


# --- (1) a card added to the packaged set ---------------------------------------------------------------------------


def test_a_model_without_card_ids_plays_whole_games_of_a_set_with_a_card_added(models, added_set):
    from ccg_env.agents.learned import LearnedAgent

    cards = sorted(added_set.glob("*.yaml"))
    assert ADDED in load_cards(cards) and ADDED not in resolve_cards(None)
    LearnedAgent(models["no_ids"], cards=cards)._load()  # not refused by the card set it was not trained on
    assert_whole_games(play_arena(models["no_ids"], cards, **NO_IDS), 2)


def test_a_model_with_card_ids_is_refused_by_a_set_with_a_card_added_naming_the_card(models, added_set):
    from ccg_env.agents.learned import LearnedAgent

    cards = sorted(added_set.glob("*.yaml"))
    with pytest.raises(ModelFileError, match=rf"trained on a card set of \d+ cards but the game's has \d+; only in "
                                             rf"the model's: \[\], only in the game's: \['{ADDED}'\]"):
        LearnedAgent(models["ids"], cards=cards)._load()
    LearnedAgent(models["ids_added"], cards=cards)._load()  # the set it was trained on fits


def test_a_model_with_card_ids_plays_the_set_it_was_trained_on_given_as_a_folder(models, added_set):
    from ccg_env.agents.learned import LearnedAgent

    assert LearnedAgent(models["ids_added"], cards=str(added_set)).cards == sorted(added_set.glob("*.yaml"))
    assert_whole_games(play_arena(f"{models['ids_added']},cards={added_set}", sorted(added_set.glob("*.yaml"))), 2)
    with pytest.raises(ValueError, match=r"cards '.*': the folder holds no .yaml files"):
        LearnedAgent(models["ids_added"], cards=str(added_set.parent))  # holds only the folder of cards


def test_a_model_without_card_ids_is_refused_by_another_layout_naming_what_differs(models):
    from ccg_env.agents.learned import LearnedAgent
    from ccg_env.env.core import EnvCore

    agent = LearnedAgent(models["no_ids"])
    for layout, named in (({}, "card feature column 'type_minion' is not in the game's card feature columns"),
                          ({"card_features": True}, "card 'abomination' is new")):
        core = EnvCore(**layout)
        observation = core.encoder.new_buffer()
        with pytest.raises(ModelFileError, match=rf"the model does not fit the game's observation: .*{named}.*the "
                                                 rf"model was trained with card_features=True, card_ids=False: play "
                                                 rf"it with the same \(--card-features --no-card-ids\)"):
            agent.model_input(observation, [1] * core.size)


def test_a_model_without_card_ids_is_refused_by_other_rules_naming_the_piece(models):
    from ccg_env.env.observation import ObservationEncoder

    metadata = read_metadata(models["no_ids"])
    game = ObservationEncoder(Rules(max_hand=8), resolve_cards(None), **NO_IDS).spec
    with pytest.raises(ModelFileError, match=r"the model's observation has piece 'own_hand' of shape \(10, "):
        check_fits(metadata, "m.ccgmodel", spec=game)


def test_an_rllib_policy_file_without_card_ids_is_checked_as_a_model_file_is(added_set):
    from ccg_env.env.observation import ObservationEncoder
    from ccg_env.rllib.policy_file import check_policy_fits

    spec = ObservationEncoder(Rules(), resolve_cards(None), **NO_IDS).spec
    metadata = {"observation_size": spec.size, "action_size": 1, "card_ids": None,
                "observation_spec": spec.to_dict()}
    added = sorted(load_cards(sorted(added_set.glob("*.yaml"))))
    check_policy_fits(metadata, "p.ccgrllib", card_ids=added, spec=spec, observation_size=spec.size)
    with_ids = ObservationEncoder(Rules(), resolve_cards(None), card_features=True).spec
    with pytest.raises(ModelFileError, match=r"p.ccgrllib: the model does not fit the game's observation: card "
                                             r"'abomination' is new"):
        check_policy_fits(metadata, "p.ccgrllib", card_ids=added, spec=with_ids)


# --- (3) a generated pool ---------------------------------------------------------------------------------------------


def test_a_model_without_card_ids_plays_a_generated_pool(models):
    assert_whole_games(play_arena(models["no_ids"], GENERATED, **NO_IDS), 2)


def test_a_model_without_card_ids_plays_the_held_out_card_file(models):
    from ccg_env.agents.arena import run_tournament
    from ccg_env.engine.datafiles import config_dir

    heldout = config_dir() / "heldout"
    result = run_tournament([f"learned:path={models['no_ids']}", "random"], games_per_pair=2, workers=1,
                            progress=False, cards=heldout / "cards.yaml",
                            decks=[heldout / "decks" / "mage.yaml", heldout / "decks" / "warrior.yaml"], **NO_IDS)
    assert_whole_games(result, 2)


def test_a_model_with_card_ids_is_refused_by_a_generated_pool(models):
    from ccg_env.agents.learned import LearnedAgent

    with pytest.raises(ModelFileError, match=r"only in the game's: \['gen_0', "):
        LearnedAgent(models["ids"], cards=GENERATED)._load()


# --- the spec hash ----------------------------------------------------------------------------------------------------


def test_a_change_to_the_packaged_cards_refuses_only_the_models_bound_to_them(models, added_set, monkeypatch):
    """A release whose packaged cards differ has another spec hash but the same one without the card set."""
    import ccg_env.env.versions as versions
    from ccg_env.agents.learned import LearnedAgent
    from ccg_env.saved_policy import load_model

    current = versions.current_spec_hash()
    monkeypatch.setattr(versions, "current_spec_hash", lambda: "ab" * 32)
    for name in ("no_ids", "ids_added"):
        load_model(models[name])
        LearnedAgent(models[name])
    load_model(models["ids_added"]).check_fits(card_ids=sorted(load_cards(sorted(added_set.glob("*.yaml")))))
    with pytest.raises(ModelFileError, match=rf"made for environment v1 \(spec hash {current[:16]}\) but this "
                                             rf"ccg-env builds v1 \(spec hash abababababababab\)$"):
        load_model(models["ids"])


def test_a_model_of_another_spec_without_the_card_set_is_refused_naming_both_hashes(models, monkeypatch):
    import ccg_env.env.versions as versions
    from ccg_env.saved_policy import load_model

    recorded = read_metadata(models["no_ids"]).spec_hash
    monkeypatch.setattr(versions, "current_spec_hash_without_cards", lambda: "cd" * 32)
    with pytest.raises(ModelFileError, match=rf"made for environment v1 \(spec hash {recorded[:16]}\) but this "
                                             rf"ccg-env builds v1 \(spec hash [0-9a-f]{{16}}, or cdcdcdcdcdcdcdcd "
                                             rf"without the card set\)$"):
        load_model(models["no_ids"])


def test_the_full_spec_hash_is_recorded_only_for_card_ids_of_the_packaged_definitions(tmp_path):
    from ccg_env.env.observation import ObservationEncoder
    from ccg_env.env.versions import current_spec_hash, current_spec_hash_without_cards
    from ccg_env.model_file import env_record_of

    folder = tmp_path / "stronger_wisp"
    folder.mkdir()
    for path in packaged_card_files():
        shutil.copyfile(path, folder / path.name)
    basic = folder / "basic.yaml"
    wisp = "{id: wisp, name: Wisp, type: minion, cost: 0, attack: 1,"
    assert basic.read_text().count(wisp) == 1
    basic.write_text(basic.read_text().replace(wisp, wisp.replace("attack: 1", "attack: 2")))
    packaged_copy, stronger = load_cards(packaged_card_files()), load_cards(sorted(folder.glob("*.yaml")))
    assert sorted(stronger) == sorted(packaged_copy)

    def recorded(cards, **layout) -> str:
        return env_record_of(ObservationEncoder(Rules(), cards, **layout).spec, cards)["spec_hash"]

    assert recorded(packaged_copy) == recorded(packaged_copy, card_features=True) == current_spec_hash()
    assert recorded(stronger) == recorded(packaged_copy, **NO_IDS) == current_spec_hash_without_cards()
    assert env_record_of(None, None)["spec_hash"] == current_spec_hash()  # rules and cards unknown: as before


def test_the_spec_data_without_the_card_set_leaves_out_every_part_the_cards_make():
    from ccg_env.env.versions import CARD_SET_PARTS, spec_data, spec_data_without_cards

    full, without = spec_data(), spec_data_without_cards()
    assert {key: value for key, value in full.items() if key not in CARD_SET_PARTS} == \
        {key: value for key, value in without.items() if key != "observation"}
    assert without["observation"]["duel_without_card_ids"]["card_ids"] == []
    assert "cards" not in without and "decks" not in without


# --- (2) the command line: train, arena and play with --cards ---------------------------------------------------------

TINY_RUN = """\
total_timesteps: 64
num_envs: 1
n_steps: 64
batch_size: 64
n_epochs: 1
net_arch: [8]
eval_every: 0
eval_games: 2
eval_envs: 1
opponent: random
card_features: true
card_ids: false
"""


@pytest.fixture(scope="module")
def trained_on_added_set(tmp_path_factory, added_set) -> Path:
    """``ccg-env train --cards X`` of a tiny run without card ids; the model file it writes."""
    from ccg_env import cli

    folder = tmp_path_factory.mktemp("run")
    config = folder / "unseen_tiny.yaml"
    config.write_text(TINY_RUN)
    assert cli.main(["train", "--config", str(config), "--cards", str(added_set), "--no-progress",
                     "--set", f"runs_dir={folder / 'runs'}"]) == 0
    return folder / "runs" / "unseen_tiny" / "model.ccgmodel"


def test_a_model_trained_with_cards_records_no_card_set(trained_on_added_set):
    metadata = read_metadata(trained_on_added_set)
    assert metadata.card_ids is None and metadata.observation_spec["card_features"] and not reads_card_ids(metadata)


@pytest.mark.parametrize("cards", ["added", GENERATED])
def test_ccg_env_arena_with_cards_plays_a_model_trained_with_cards(trained_on_added_set, added_set, cards, tmp_path,
                                                                    capsys):
    from ccg_env import cli

    out = tmp_path / "arena"
    assert cli.main(["arena", "--cards", str(added_set) if cards == "added" else cards, "--card-features",
                     "--no-card-ids", "--agents", f"learned:path={trained_on_added_set}", "random", "--games", "2",
                     "--workers", "1", "--no-progress", "--out-dir", str(out)]) == 0
    assert "learned:" in capsys.readouterr().out
    games = list(csv.DictReader((out / "games.csv").open()))
    assert len(games) == 2 and all(game["result"] != "unfinished" for game in games)
    assert all(any(seat.startswith("learned:") for seat in (game["seat0"], game["seat1"])) for game in games)


def test_ccg_env_play_with_cards_plays_a_model_trained_with_cards(trained_on_added_set, added_set, monkeypatch,
                                                                 capsys):
    import io
    import sys

    from ccg_env import cli

    monkeypatch.setattr(sys, "stdin", io.StringIO("0\n" * 400))
    assert cli.main(["play", "--cards", str(added_set), "--card-features", "--no-card-ids", "--opponent",
                     f"learned:path={trained_on_added_set}"]) == 0
    assert "Game over: you" in capsys.readouterr().out


def test_ccg_env_play_without_the_layout_refuses_the_model_naming_the_options(trained_on_added_set, added_set,
                                                                              monkeypatch, capsys):
    import io
    import sys

    from ccg_env import cli

    monkeypatch.setattr(sys, "stdin", io.StringIO("0\n" * 400))
    with pytest.raises(SystemExit):
        cli.main(["play", "--cards", str(added_set), "--seat", "1", "--opponent",
                  f"learned:path={trained_on_added_set}"])
    assert "play it with card_features=True, card_ids=False (--card-features --no-card-ids)" in \
        capsys.readouterr().err
