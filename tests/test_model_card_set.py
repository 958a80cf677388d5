"""A model whose observation has card ids records the ids of the card set it was trained on, and a game with another
card set is refused even when that set has as many cards (so the same observation and action sizes): the ids differ,
the error names them. (A model without card ids plays any card set: tests/test_unseen_cards.py.)"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ccg_env.engine import load_cards
from ccg_env.model_file import ModelFileError, check_fits
from tests.card_files import packaged_card_files

pytest.importorskip("sb3_contrib")

RENAMED = "wisp"  # a card no other card, hero power or deck refers to
TWIN = "wisp_of_another_set"


def card_files_with_one_id_renamed(folder: Path) -> list[Path]:
    """Copies of the packaged card files in which one card's id is another: a set of the same size."""
    folder.mkdir()
    copies = []
    for path in packaged_card_files():
        copy = folder / path.name
        shutil.copyfile(path, copy)
        copies.append(copy)
    basic = folder / "basic.yaml"
    text = basic.read_text()
    assert text.count(f"id: {RENAMED},") == 1
    basic.write_text(text.replace(f"id: {RENAMED},", f"id: {TWIN},"))
    return copies


@pytest.fixture(scope="module")
def same_size_set(tmp_path_factory) -> list[Path]:
    return card_files_with_one_id_renamed(tmp_path_factory.mktemp("cards") / "twin")


@pytest.fixture(scope="module")
def tiny_model_file(tmp_path_factory) -> Path:
    """A small untrained MaskablePPO policy for the packaged rules and cards, as a safe model file."""
    import torch
    from sb3_contrib import MaskablePPO

    from ccg_env.env.gym_env import CcgDuelEnv
    from ccg_env.saved_policy import convert

    torch.set_num_threads(1)
    folder = tmp_path_factory.mktemp("model")
    model = MaskablePPO("MlpPolicy", CcgDuelEnv(), n_steps=32, batch_size=32, seed=0, policy_kwargs={"net_arch": [8]},
                        device="cpu", tensorboard_log=None)
    model.save(folder / "tiny.zip")
    return convert(folder / "tiny.zip", folder / "tiny.ccgmodel", trust=True)


def test_the_renamed_set_has_the_packaged_size_and_sizes_of_the_game(same_size_set):
    from ccg_env.env.core import EnvCore

    packaged, twin = EnvCore(), EnvCore(cards=same_size_set)
    assert len(twin.cards) == len(packaged.cards) and sorted(twin.cards) != sorted(packaged.cards)
    assert (twin.encoder.size, twin.size) == (packaged.encoder.size, packaged.size)


def test_a_model_of_the_packaged_set_is_refused_by_a_game_of_another_set_of_the_same_size(tiny_model_file,
                                                                                         same_size_set):
    from ccg_env.saved_policy import load_model

    model = load_model(tiny_model_file)
    model.check_fits(card_ids=sorted(load_cards(packaged_card_files())))  # the set it was trained on fits
    with pytest.raises(ModelFileError, match=rf"only in the model's: \['{RENAMED}'\], only in the game's: "
                                             rf"\['{TWIN}'\]"):
        model.check_fits(card_ids=sorted(load_cards(same_size_set)))


def test_a_learned_agent_given_another_set_of_the_same_size_refuses_its_model(tiny_model_file, same_size_set):
    from ccg_env.agents.learned import LearnedAgent

    LearnedAgent(tiny_model_file, cards=packaged_card_files())._load()  # the packaged set, loaded afresh: accepted
    with pytest.raises(ModelFileError, match=rf"{tiny_model_file}: the model was trained on a card set of \d+ cards"
                                             rf".*only in the game's: \['{TWIN}'\]"):
        LearnedAgent(tiny_model_file, cards=same_size_set)._load()


def test_an_rllib_policy_file_of_another_set_of_the_same_size_is_refused():
    from types import SimpleNamespace

    from ccg_env.rllib.policy_file import check_policy_fits

    ids = sorted(load_cards(packaged_card_files()))
    twin = sorted([TWIN if card == RENAMED else card for card in ids])
    check_policy_fits({"observation_size": 1, "action_size": 1, "card_ids": ids}, "p.ccgrllib", card_ids=ids)
    with pytest.raises(ModelFileError, match=rf"p.ccgrllib: .*only in the model's: \['{RENAMED}'\]"):
        check_policy_fits({"observation_size": 1, "action_size": 1, "card_ids": ids}, "p.ccgrllib", card_ids=twin)
    metadata = SimpleNamespace(observation_size=1, action_size=1, card_ids=tuple(ids))
    with pytest.raises(ModelFileError, match=rf"only in the game's: \['{TWIN}'\]"):
        check_fits(metadata, "m.ccgmodel", card_ids=twin)
