"""Hostile replays, card names and agent options at the terminal and in the viewer, through the real ``ccg-env``
command in a capped child process: one-line errors, no control characters sent, pages that stay their size.

Before: a 2 KB replay became a 23 MB page (its names reached the template's placeholder substitution), a replay
file had no size bound, names could retitle the terminal or clear it, a replay's error repeated its recorded options
as advice to type, non-string recorded paths ended in a traceback, and ``search:time_limit=inf`` never returned.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from ccg_env.engine import DataError, Game, load_cards
from ccg_env.engine.datafiles import config_dir
from ccg_env.viewer.html import render_html
from ccg_env.viewer.replay import MAX_REPLAY_BYTES, load_replay, save_replay

from .child_process import run_cli_capped

pytestmark = pytest.mark.subprocess_bounds  # child processes timed and measured

ESC = b"\x1b"
TITLE = "\x1b]0;pwned\x07"  # retitles a terminal window
CLEAR = "\x1b[2J"  # clears the screen


def _played(path: Path, seats=("alice", "bob"), cards=None, sources=None) -> Path:
    """A short random game saved as a replay."""
    game = Game.new(3, **({"cards": cards} if cards is not None else {}))
    rng = random.Random(0)
    choices = []
    while not game.is_over and len(choices) < 60:
        choice = rng.choice(game.legal_actions())
        game.apply(choice)
        choices.append(choice)
    document_game = game
    return save_replay(path, 3, list(seats), choices, document_game, sources)


def _cut_short(path: Path) -> None:
    """Keep the replay's first choices only, and an unknown result, so it replays without reaching the end."""
    document = json.loads(path.read_text())
    document["choices"], document["result"], document["winner"] = document["choices"][:5], None, None
    path.write_text(json.dumps(document))


def _renamed_cards(folder: Path, rename) -> Path:
    """The packaged card files, written to ``folder`` with each card's name replaced by ``rename(name)``."""
    import yaml

    folder.mkdir()
    for source in sorted((config_dir() / "cards").glob("*.yaml")):
        document = yaml.safe_load(source.read_text(encoding="utf-8"))
        for card in document.get("cards", []):
            card["name"] = rename(card["name"])
        (folder / source.name).write_text(yaml.safe_dump(document), encoding="utf-8")
    return folder


@pytest.fixture
def hostile_cards(tmp_path) -> Path:
    """The packaged card files with every card's name ending in a clear-screen sequence."""
    folder = _renamed_cards(tmp_path / "cards", lambda name: name[:40] + CLEAR)
    assert all(card.name.endswith(CLEAR) for card in load_cards(sorted(folder.glob("*.yaml"))).values())
    return folder


def _one_line(stderr: bytes) -> str:
    lines = [line for line in stderr.decode("utf-8", "replace").splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in lines[0], stderr[-2000:]
    return lines[0]


def test_a_replays_seat_names_reach_the_terminal_escaped(tmp_path):
    path = _played(tmp_path / "game.json", seats=(TITLE, CLEAR))
    _cut_short(path)
    status, out, err, seconds = run_cli_capped(["replay", str(path), "--all"])
    assert status == 0, err[-2000:]
    assert ESC not in out and b"\x07" not in out and b"\\x1b]0;pwned\\x07" in out and b"\\x1b[2J" in out
    assert seconds < 60


def test_card_names_from_a_card_file_reach_the_terminal_escaped_in_play(hostile_cards, tmp_path):
    status, out, err, _ = run_cli_capped(["play", "--opponent", "random", "--cards", str(hostile_cards)],
                                         stdin=b"q\n")
    assert status == 0, err[-2000:]
    assert ESC not in out and b"\\x1b[2J" in out


def test_card_names_from_a_card_file_reach_the_terminal_escaped_in_replay(hostile_cards, tmp_path):
    cards = load_cards(sorted(hostile_cards.glob("*.yaml")))
    path = _played(tmp_path / "game.json", cards=cards, sources={"cards": [str(hostile_cards)]})
    _cut_short(path)
    status, out, err, _ = run_cli_capped(["replay", str(path), "--all", "--cards", str(hostile_cards)])
    assert status == 0, err[-2000:]
    assert ESC not in out and b"\\x1b[2J" in out


def test_an_error_quoting_a_replays_text_sends_no_control_characters(tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps({"format": "ccg-env-replay/1", "seed": 0, "seats": ["a", "b"],
                                "choices": [[CLEAR + TITLE, None, None]]}))
    status, _, err, _ = run_cli_capped(["replay", str(path)])
    assert status == 2 and ESC not in err and b"\x07" not in err
    assert "choice 0 has kind" in _one_line(err)


def test_a_replays_error_quotes_recorded_options_as_data_not_advice(tmp_path):
    path = _played(tmp_path / "game.json", sources={"cards": ["evil.yaml; rm -rf ~"], "rules": "x.yaml"})
    document = json.loads(path.read_text())
    document["result"], document["winner"] = "draw", None  # so that it does not replay to the saved end
    path.write_text(json.dumps(document))
    status, _, err, _ = run_cli_capped(["replay", str(path)])
    line = _one_line(err)
    assert status == 2 and "the file records that it was played with other data" in line
    assert "cards: ['evil.yaml; rm -rf ~']" in line and "give them with --cards --rules" in line
    assert "--cards evil.yaml" not in line and "--rules x.yaml" not in line


@pytest.mark.parametrize("data, shown", [
    ({"cards": [1, {"a": 2}]}, "{'cards': [1,"), ({"cards": "one.yaml"}, "one.yaml"), ({"rules": ["a", "b"]}, "'a'"),
    ({"decks": ["x" * 5000]}, "xxx"), ({"other": "thing"}, "other"), (["cards"], "['cards']"),
])
def test_non_string_or_unbounded_recorded_paths_are_one_line_errors(tmp_path, data, shown):
    path = tmp_path / "game.json"
    path.write_text(json.dumps({"format": "ccg-env-replay/1", "seed": 0, "seats": ["a", "b"], "choices": [],
                                "data": data}))
    status, _, err, _ = run_cli_capped(["view", str(path), "-o", str(tmp_path / "page.html")])
    line = _one_line(err)
    assert status == 2 and "\"data\" must map cards and decks to lists of paths" in line and shown in line
    assert len(line) < 600 and sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]


@pytest.mark.parametrize("seats", [["a" * 101, "b"], ["a", ""], ["a", 5], ["a", ["b"]]])
def test_seat_names_are_bounded_at_load(tmp_path, seats):
    path = tmp_path / "game.json"
    path.write_text(json.dumps({"format": "ccg-env-replay/1", "seed": 0, "seats": seats, "choices": []}))
    with pytest.raises(ValueError, match=r"\"seats\" must be the two seats' names \(1 to 100 characters each\)"):
        load_replay(path)


def test_a_replay_over_the_size_bound_is_refused_before_it_is_parsed(tmp_path):
    path = tmp_path / "huge.json"
    path.write_text('{"format": "ccg-env-replay/1", "seed": 0, "seats": ["a", "b"], "choices": [' +
                    ", ".join(['["end_turn", null, null]'] * (MAX_REPLAY_BYTES // 20)) + "]}")
    status, _, err, seconds = run_cli_capped(["view", str(path), "-o", str(tmp_path / "page.html")], memory_mb=400)
    assert status == 2 and f"larger than {MAX_REPLAY_BYTES:,} bytes" in _one_line(err) and seconds < 30
    assert sorted(p.name for p in tmp_path.iterdir()) == ["huge.json"]


def test_placeholder_names_in_a_replay_are_data_not_template(tmp_path):
    replay = load_replay(_played(tmp_path / "hostile.json", seats=("__GAME_DATA__" * 7, "__SCRIPT__" * 9)))
    page = render_html(replay, None)  # the title names the seats: before, each placeholder there was filled too
    assert page.count('"step":') == len(replay.choices) + 1  # every frame embedded once
    assert page.count("function cardNode") == 1 and "__GAME_DATA____GAME_DATA__" in page


def test_a_card_name_that_closes_the_script_element_stays_text(tmp_path):
    folder = _renamed_cards(tmp_path / "cards", lambda name: "</script><script>x()</script>")
    cards = load_cards(sorted(folder.glob("*.yaml")))
    path = _played(tmp_path / "game.json", cards=cards)
    from ccg_env.cli_data_options import load_game_data

    page = render_html(load_replay(path), None, data=load_game_data(cards=[str(folder)]))
    assert "</script><script>x()" not in page and "\\u003c/script\\u003e\\u003cscript\\u003ex()" in page


@pytest.mark.parametrize("field, value, message", [("name", "N" * 61, "61 characters, at most 60 allowed"),
                                                   ("text", "t" * 1001, "1,001 characters, at most 1000 allowed")])
def test_card_names_and_texts_are_bounded_at_load(tmp_path, field, value, message):
    path = tmp_path / "cards.yaml"
    card = {"id": "long_one", "name": "Long", "type": "minion", "cost": 1, "attack": 1, "health": 1, field: value}
    path.write_text(json.dumps({"cards": [card]}))
    with pytest.raises(DataError, match=message) as caught:
        load_cards([path])
    assert caught.value.field == field and "\n" not in str(caught.value)


@pytest.mark.parametrize("option", ["time_limit=inf", "time_limit=nan", "time_limit=1e400", "exploration=-inf"])
def test_agent_options_refuse_inf_and_nan_at_once(tmp_path, option):
    status, _, err, seconds = run_cli_capped(["play", "--opponent", f"search:{option}"], stdin=b"q\n", timeout=60)
    line = _one_line(err)
    assert status == 2 and "expects a finite number" in line and seconds < 30


@pytest.mark.parametrize("text, field", [
    ("id: zapper\nname: " + "Z" * 61 + "\nclass: mage\npower: {id: zap, name: Zap, abilities: [{effect: damage, "
     "select: enemy_hero, amount: 1}]}\n", "name"),
    ("id: zapper\nname: Zapper\nclass: mage\npower: {id: zap, name: " + "Z" * 61 + ", abilities: [{effect: damage, "
     "select: enemy_hero, amount: 1}]}\n", "name"),
])
def test_hero_and_hero_power_names_are_bounded_like_cards(tmp_path, text, field):
    from ccg_env.engine.heroes import load_heroes

    path = tmp_path / "hero.yaml"
    path.write_text(text)
    with pytest.raises(DataError, match="61 characters, at most 60 allowed") as caught:
        load_heroes([path])
    assert caught.value.field == field
