"""The terminal: replay stepping driven by scripted input, turns per player, the log in words, a defeated hero."""

from __future__ import annotations

import io
import json
import re
import sys
from pathlib import Path

import pytest

from ccg_env import cli
from ccg_env.viewer.terminal import PROMPT, replay_in_terminal

from .games import play_and_save


@pytest.fixture(scope="module")
def saved(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("terminal") / "game.json"
    play_and_save(path, seed=3)
    return path


def _titles(out: str) -> list[str]:
    return re.findall(r"^--- (the start|decision \d+)(?: of \d+)?: ", out, flags=re.M)


def _step(saved: Path, keys: str) -> str:
    out = io.StringIO()
    assert replay_in_terminal(str(saved), 0, step=True, stdin=io.StringIO(keys), stdout=out) == 0
    return out.getvalue()


def test_enter_steps_forward_b_back_and_q_quits(saved):
    out = _step(saved, "\n\nb\nq\nnever read\n")
    assert _titles(out) == ["the start", "decision 1", "decision 2", "decision 1"]
    assert out.count(PROMPT) == 4


def test_b_at_the_start_and_unknown_keys_get_a_message_not_a_new_page(saved):
    out = _step(saved, "b\nx\n\n")
    assert "(this is the start of the game)" in out and "'x': press Enter for the next decision" in out
    assert _titles(out) == ["the start", "decision 1"]  # the input ended after one Enter


def test_stepping_to_the_end_shows_every_decision_then_stops(saved):
    total = len(json.loads(saved.read_text())["choices"])
    out = _step(saved, "\n" * (total + 5))
    assert len(_titles(out)) == total + 1 and out.count(PROMPT) == total + 1
    assert "(the last decision" in out


def test_without_a_terminal_the_replay_prints_every_decision(saved, monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert cli.main(["replay", str(saved)]) == 0
    out = capsys.readouterr().out
    assert len(_titles(out)) == len(json.loads(saved.read_text())["choices"]) + 1 and PROMPT not in out
    monkeypatch.setattr(sys, "stdin", io.StringIO("\nq\n"))
    assert cli.main(["replay", str(saved), "--step"]) == 0
    assert _titles(capsys.readouterr().out) == ["the start", "decision 1"]


def test_pages_number_turns_per_player_and_show_a_defeated_hero(saved):
    document = json.loads(saved.read_text())
    loser = 1 - document["winner"]
    out = _step(saved, "\n" * 1000)
    assert "random's turn 1 (game turn 1)" in out and "heuristic's turn 1 (game turn 2)" in out
    assert "random's turn 2 (game turn 3)" in out
    last = out[out.rindex("--- decision"):]
    title = "You" if loser == 0 else "Enemy"
    assert re.search(rf"^{title} \(\w+\): hero 0/30 \(defeated\)", last, flags=re.M), last
    assert "-" + "/30" not in last.replace("--- ", "")


def test_the_log_is_in_words_not_reprs(saved):
    out = _step(saved, "\n" * 1000)
    assert "You draw 3 cards: " in out and "Enemy draws 4 cards" in out and "You end the turn" in out
    assert not re.search(r"\b[A-Z][A-Za-z]+\((you|enemy)", out), "a raw action repr in the replay"


def test_playing_in_the_terminal_numbers_your_turns_and_speaks_words(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO("0\n" * 300))
    assert cli.main(["play", "--opponent", "heuristic"]) == 0
    out = capsys.readouterr().out
    assert "===== Your turn 1 " in out and "===== Your turn 2 " in out
    assert "Enemy ends the turn" in out and "Your turn 2 begins" in out
    assert not re.search(r"\b(DrawCards|PlayCard|ChangeTurn)\(", out)
    assert re.search(r"Game over: you (win|lose) on (your|the enemy's) turn \d+\.", out)
    assert "hero 0/30 (defeated)" in out
