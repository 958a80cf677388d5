"""Bad input typed at the terminal: ``ccg-env replay`` and ``ccg-env train`` exit 2 with a one-line error."""

from __future__ import annotations

import json

import pytest

cli = pytest.importorskip("ccg_env.cli", reason="ccg_env/cli.py is not importable")

FORMAT = "ccg-env-replay/1"


def _exit_message(argv: list[str], capsys) -> str:
    with pytest.raises(SystemExit) as info:
        cli.main(argv)
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return err


def _replay_file(tmp_path, document: dict) -> str:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(document))
    return str(path)


def test_replay_of_a_missing_file(tmp_path, capsys):
    assert "cannot read replay" in _exit_message(["replay", str(tmp_path / "nope.json")], capsys)


def test_replay_of_a_foreign_document(tmp_path, capsys):
    path = _replay_file(tmp_path, {"format": "something", "seed": 0})
    assert "is not a ccg-env replay" in _exit_message(["replay", path], capsys)


@pytest.mark.parametrize("choice, message", [(["attack", 9999, 1], "illegal"), (["dance", None, None], "dance")])
def test_replay_with_a_bad_choice_names_it(tmp_path, capsys, choice, message):
    path = _replay_file(tmp_path, {"format": FORMAT, "seed": 0, "seats": ["a", "b"], "choices": [choice]})
    assert message in _exit_message(["replay", path], capsys)


def test_replay_missing_its_seed_is_a_clean_error(tmp_path, capsys):
    path = _replay_file(tmp_path, {"format": FORMAT, "choices": []})
    assert "seed" in _exit_message(["replay", path], capsys)


def test_train_with_a_missing_config(capsys):
    pytest.importorskip("ccg_env.train")
    assert "no_such_run" in _exit_message(["train", "--config", "no_such_run"], capsys)


def test_train_with_an_unknown_key(tmp_path, capsys):
    pytest.importorskip("ccg_env.train")
    path = tmp_path / "run.yaml"
    path.write_text("learnin_rate: 0.1\n")
    assert "unknown key 'learnin_rate'" in _exit_message(["train", "--config", str(path)], capsys)
