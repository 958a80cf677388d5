"""Fuzz failure files: written with seed, decks and choices, and replayed to the same end or the same failure."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ccg_env.engine import invariants
from ccg_env.engine.invariants import InvariantError

from .fuzzing import ROOT, fuzz

CONFIG = fuzz.FuzzConfig(exhaustive_rate=0.05, round_trip_rate=0.1, restore_rate=0.05, out_dir=None)


def _record_good_game(seed: int, tmp_path: Path) -> tuple[Path, str]:
    """Play a clean game with every check and write it in the failure-file format; return it and its end."""
    plan = fuzz.plan_game(seed)
    taken = []
    game, _ = fuzz.play(plan, CONFIG, taken)
    path = fuzz.write_failure(plan, taken, "none: a clean game recorded for the test",
                              fuzz.FuzzConfig(**{**vars(CONFIG), "out_dir": str(tmp_path)}))
    return Path(path), game.to_json()


@pytest.mark.parametrize("seed", [6, 7, 9])  # a random game, a heuristic game, a heuristic game on tight rules
def test_a_recorded_good_game_replays_to_the_same_final_state(seed, tmp_path):
    path, final = _record_good_game(seed, tmp_path)
    doc = json.loads(path.read_text())
    assert path.name == f"{seed}.json"
    assert doc["seed"] == seed and len(doc["decks"]) == 2 and doc["actions"]
    assert all(len(a) == 3 and a[0] in ("end_turn", "play", "attack", "hero_power", "mulligan")
               for a in doc["actions"])
    game = fuzz.replay(path)
    assert game.is_over and game.to_json() == final


def test_replay_of_a_prefix_stops_mid_game(tmp_path):
    path, final = _record_good_game(8, tmp_path)
    doc = json.loads(path.read_text())
    doc["actions"] = doc["actions"][:10]
    game = fuzz.replay(doc)
    assert not game.is_over and game.to_json() != final


def _broken_mana_invariant(state):
    """A deliberately wrong invariant: 'nobody ever reaches 4 mana crystals'."""
    if any(p.max_mana >= 4 for p in state.players):
        raise InvariantError("synthetic", f"crystals {[p.max_mana for p in state.players]} reached 4")


def test_a_synthetic_failure_is_written_and_replays_to_the_same_failure(tmp_path, monkeypatch):
    monkeypatch.setattr(invariants, "STATE_CHECKS", invariants.STATE_CHECKS + (_broken_mana_invariant,))
    outcome = fuzz.fuzz_game(11, fuzz.FuzzConfig(out_dir=str(tmp_path)))
    assert outcome.failure.startswith("InvariantError: [synthetic]")
    path = Path(outcome.failure_file)
    doc = json.loads(path.read_text())
    assert path == tmp_path / "11.json"
    assert doc["seed"] == 11 and doc["decks"] == list(fuzz.plan_game(11).decks)
    assert doc["error"] == outcome.failure and len(doc["actions"]) == outcome.steps
    with pytest.raises(InvariantError, match=r"\[synthetic\]"):
        fuzz.replay(path)
    monkeypatch.undo()  # with the invariant fixed, the same file replays cleanly and stops mid-game
    assert not fuzz.replay(path).is_over


def test_a_synthetic_failure_of_the_first_position_writes_an_empty_action_list(tmp_path, monkeypatch):
    monkeypatch.setattr(invariants, "STATE_CHECKS", invariants.STATE_CHECKS + (_always_broken,))
    outcome = fuzz.fuzz_game(3, fuzz.FuzzConfig(out_dir=str(tmp_path)))
    assert json.loads(Path(outcome.failure_file).read_text())["actions"] == []
    with pytest.raises(InvariantError, match="always"):
        fuzz.replay(outcome.failure_file)


def _always_broken(state):
    raise InvariantError("always", "broken from the start")


def test_the_cli_replays_a_file(tmp_path, capsys):
    path, _ = _record_good_game(5, tmp_path)
    assert fuzz.main(["--replay", str(path)]) == 0
    assert "without a failure" in capsys.readouterr().out


def test_a_foreign_file_is_refused(tmp_path):
    path = tmp_path / "x.json"
    path.write_text(json.dumps({"format": "something else", "actions": []}))
    with pytest.raises(ValueError, match="not a fuzz failure file"):
        fuzz.replay(path)


RECORDED = sorted((ROOT / "fuzz-failures").glob("*.json"))


@pytest.mark.parametrize("path", RECORDED or [pytest.param(None, marks=pytest.mark.skip(
    reason="no fuzz-failures/*.json files to replay (the fuzzer writes them only on a failure)"))],
    ids=[p.name for p in RECORDED] or ["none"])
def test_every_recorded_fuzz_failure_now_replays_cleanly(path):
    """Failure files left in fuzz-failures/ act as regression tests until the bug is fixed (none: skipped)."""
    fuzz.replay(path)
