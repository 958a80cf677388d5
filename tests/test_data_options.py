"""--cards, --decks and --rules on play, view, replay, arena and train: files or folders, checked by the engine."""

from __future__ import annotations

import io
import json
import shutil
import sys
from pathlib import Path

import pytest

from ccg_env import cli
from ccg_env.cli_data_options import load_game_data
from ccg_env.engine.datafiles import config_dir


def _module(name: str):
    """ccg_env.<name>, or ccg_env.training.<name> where the training modules live in their own package."""
    import importlib.util

    package = "ccg_env.training" if importlib.util.find_spec("ccg_env.training") else "ccg_env"
    return importlib.import_module(f"{package}.{name}")

MY_CARD = """cards:
  - {id: stone_golem, name: Stone Golem, type: minion, cost: 1, attack: 1, health: 7, keywords: [taunt]}
"""
#: 30 cards: 2 of my card and 14 pairs of basic minions.
MY_DECK = "name: Golems\ncards:\n  stone_golem: 2\n" + "".join(
    f"  {card}: 2\n" for card in ("wisp", "goldshire_footman", "bluegill_warrior", "bloodfen_raptor",
                                  "river_crocolisk", "boulderfist_ogre", "wolfrider", "magma_rager", "chillwind_yeti",
                                  "senjin_shieldmasta", "stonetusk_boar", "argent_squire", "core_hound",
                                  "elven_archer"))


@pytest.fixture
def my_data(tmp_path) -> dict[str, Path]:
    cards = tmp_path / "cards"
    shutil.copytree(config_dir() / "cards", cards, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    (cards / "mine.yaml").write_text(MY_CARD)
    deck = tmp_path / "golems.yaml"
    deck.write_text(MY_DECK)
    rules = tmp_path / "rules.yaml"
    rules.write_text((config_dir() / "rules" / "default.yaml").read_text())
    return {"cards": cards, "deck": deck, "rules": rules}


def test_a_cards_folder_and_a_deck_file_are_loaded_and_checked(my_data):
    data = load_game_data([str(my_data["cards"])], [str(my_data["deck"]), "aggro"], str(my_data["rules"]))
    assert "stone_golem" in data.cards and data.decks[0].cards.count("stone_golem") == 2
    assert data.decks[1].name.lower() == "aggro" and data.rules is not None
    assert data.sources["decks"] == [str(my_data["deck"]), "aggro"]



def test_my_deck_without_my_cards_is_refused_naming_the_deck_file(my_data):
    with pytest.raises(ValueError, match=r"golems\.yaml.*stone_golem|stone_golem.*golems\.yaml"):
        load_game_data(None, [str(my_data["deck"])], None)


@pytest.mark.parametrize("args, message", [
    ({"cards": ["nowhere"]}, "--cards 'nowhere': no such file or folder"),
    ({"decks": ["aggro", "control", "ramp"]}, "--decks: give one deck (both seats) or two"),
    ({"rules": "nowhere.yaml"}, "--rules 'nowhere.yaml': no such file"),
])
def test_missing_paths_and_wrong_counts_are_named(args, message):
    with pytest.raises(ValueError) as error:
        load_game_data(**args)
    assert message in str(error.value)


def test_an_empty_folder_and_a_bad_card_file_are_named(tmp_path):
    with pytest.raises(ValueError, match="the folder holds no .yaml files"):
        load_game_data(cards=[str(tmp_path)])
    bad = tmp_path / "bad.yaml"
    bad.write_text("cards:\n  - {id: x, name: X, type: minion, cost: -1, attack: 1, health: 1}\n")
    with pytest.raises(ValueError, match="bad.yaml"):
        load_game_data(cards=[str(bad)])


def test_play_saves_the_files_used_and_view_and_replay_need_them(my_data, tmp_path, monkeypatch, capsys):
    game = tmp_path / "game.json"
    options = ["--cards", str(my_data["cards"]), "--decks", str(my_data["deck"]), "--rules", str(my_data["rules"])]
    monkeypatch.setattr(sys, "stdin", io.StringIO("0\n" * 400))
    assert cli.main(["play", "--opponent", "random", "--save", str(game), *options]) == 0
    assert "Stone Golem" in capsys.readouterr().out
    document = json.loads(game.read_text())
    assert document["data"]["decks"] == [str(my_data["deck"])] and document["data"]["rules"] == str(my_data["rules"])
    assert cli.main(["view", str(game), "-o", str(tmp_path / "game.html"), *options]) == 0
    assert "Stone Golem" in (tmp_path / "game.html").read_text()
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert cli.main(["replay", str(game), *options]) == 0
    capsys.readouterr()
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["view", str(game), "-o", str(tmp_path / "other.html")])
    assert exit_info.value.code == 2
    error = capsys.readouterr().err
    assert "played with other data" in error and "give them with --cards --decks --rules" in error


def test_a_bad_file_stops_play_with_one_line_naming_it(tmp_path, capsys):
    bad = tmp_path / "rules.yaml"
    bad.write_text("deck_size: lots\n")
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["play", "--rules", str(bad)])
    assert exit_info.value.code == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and error.startswith("ccg-env play: error: ") and "rules.yaml" in error


def test_arena_plays_with_the_given_decks(tmp_path, capsys, my_data):
    assert cli.main(["arena", "--agents", "random", "heuristic", "--games", "2", "--workers", "1", "--no-progress",
                     "--out-dir", str(tmp_path / "out"), "--cards", str(my_data["cards"]),
                     "--decks", str(my_data["deck"])]) == 0
    assert "A win rate" in capsys.readouterr().out


def test_train_gets_the_files_as_config_overrides(my_data, monkeypatch):
    seen = {}

    def fake_main(argv):
        seen["argv"] = argv
        return 0

    monkeypatch.setattr(_module("train"), "main", fake_main)
    assert cli.main(["train", "--config", "x.yaml", "--cards", str(my_data["cards"]), "--decks",
                     str(my_data["deck"]), "--rules", str(my_data["rules"])]) == 0
    overrides = dict(pair.split("=", 1) for pair in seen["argv"][3::2])
    assert json.loads(overrides["decks"]) == [str(my_data["deck"])] * 2
    assert str(my_data["cards"] / "mine.yaml") in json.loads(overrides["cards"])
    assert json.loads(overrides["rules"]) == str(my_data["rules"])
