"""Bad input typed at the terminal: every ``ccg-env`` command exits 2 with a one-line error, never a traceback."""

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


def test_replay_of_a_deeply_nested_document_is_one_line(tmp_path, capsys):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    assert "nested too deeply to be a replay" in _exit_message(["replay", str(path)], capsys)


def test_replay_errors_quote_huge_values_cut_short(tmp_path, capsys):
    path = _replay_file(tmp_path, {"format": FORMAT, "seed": "9" * 100_000, "seats": ["a", "b"], "choices": []})
    message = _exit_message(["replay", path], capsys)
    assert "\"seed\" must be an integer game seed, got '999" in message and len(message) < 500


@pytest.mark.parametrize("choice, message", [(["attack", 9999, 1], "illegal"), (["dance", None, None], "dance")])
def test_replay_with_a_bad_choice_names_it(tmp_path, capsys, choice, message):
    path = _replay_file(tmp_path, {"format": FORMAT, "seed": 0, "seats": ["a", "b"], "choices": [choice]})
    assert message in _exit_message(["replay", path], capsys)


def test_replay_missing_its_seed_is_a_clean_error(tmp_path, capsys):
    path = _replay_file(tmp_path, {"format": FORMAT, "choices": []})
    assert "seed" in _exit_message(["replay", path], capsys)


def test_train_with_a_missing_config(capsys):
    pytest.importorskip("ccg_env.training.train")
    assert "no_such_run" in _exit_message(["train", "--config", "no_such_run"], capsys)


def test_train_with_an_unknown_key(tmp_path, capsys):
    pytest.importorskip("ccg_env.training.train")
    path = tmp_path / "run.yaml"
    path.write_text("learnin_rate: 0.1\n")
    assert "unknown key 'learnin_rate'" in _exit_message(["train", "--config", str(path)], capsys)


# --- agent specs and numeric options: every command -------------------------------------------------

LEARNED_MISSING_FILE = ["LearnedAgent: no model file at 'no_such_model'",
                        "(expected a .ccgmodel or .ccgrllib model file)"]


@pytest.mark.parametrize("argv, expected", [
    (["arena", "--agents", "random", "learned:path=no_such_model"], LEARNED_MISSING_FILE),
    (["play", "--opponent", "learned:path=no_such_model"], LEARNED_MISSING_FILE),
    (["arena", "--agents", "search:iterations=abc", "random"],
     ["agent spec 'search:iterations=abc'", "option iterations expects int, got 'abc'", "options: ", "horizon=int"]),
    (["arena", "--agents", "search:bogus=1", "random"],
     ["agent spec 'search:bogus=1'", "has no option 'bogus'", "options: ", "iterations=int"]),
    (["play", "--opponent", "random:seed=1.5"], ["agent spec 'random:seed=1.5'", "option seed expects int or none"]),
    (["bench", "--agents", "learned:path=ccg_env/models/ppo_vs_heuristic.ccgmodel,deterministic=maybe"],
     ["option deterministic expects bool, got 'maybe'"]),
])
def test_a_bad_agent_spec_is_one_line_naming_the_spec_option_and_accepted_values(argv, expected, capsys, tmp_path):
    arena_options = ["--games", "2", "--workers", "1", "--out-dir", str(tmp_path), "--no-progress"]
    extra = arena_options if argv[0] == "arena" else []
    err = _exit_message(argv + extra, capsys)
    assert err.count("\n") == 1 and err.startswith(f"ccg-env {argv[0]}: error: ")
    for piece in expected:
        assert piece in err


@pytest.mark.parametrize("argv, expected", [
    (["bench", "--repeats", "0"], "argument --repeats: must be at least 1, got 0"),
    (["bench", "--seconds", "-1"], "argument --seconds: must be a finite number of seconds above 0, got '-1'"),
    (["bench", "--seconds", "nan"], "argument --seconds: must be a finite number of seconds above 0, got 'nan'"),
    (["bench", "--games", "0"], "argument --games: must be at least 1, got 0"),
    (["arena", "--games", "-4"], "argument --games: must be at least 1, got -4"),
    (["arena", "--workers", "0"], "argument --workers: must be at least 1, got 0"),
    (["arena", "--games", "many"], "argument --games: expected a whole number of at least 1, got 'many'"),
])
def test_out_of_range_numbers_are_refused_by_the_parser(argv, expected, capsys):
    assert _exit_message(argv, capsys).splitlines()[-1] == f"ccg-env {argv[0]}: error: {expected}"


def test_every_numeric_option_refuses_zero_and_negatives_unless_it_is_a_seed_or_a_choice():
    import argparse

    required = {"train": ["--config", "smoke"], "replay": ["game.json"], "evaluate": ["runs/smoke"],
                "exploit": ["heuristic", "--minutes", "1"], "bc": ["datasets/d", "--out", "m.ccgmodel"],
                "dataset": ["--agent", "heuristic", "--decisions", "5", "--out", "datasets"]}
    zero_means_none = {"arena --save-games"}  # counts where 0 is a valid answer still refuse negatives
    parser = cli.build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices
    checked = set()
    for command, arguments in required.items():
        commands[command].parse_args(arguments)  # the required arguments alone parse
    for command, subparser in commands.items():
        for action in subparser._actions:
            if action.type is None or action.choices or "--seed" in action.option_strings:
                continue
            name = f"{command} {action.option_strings[0]}"
            for bad in ("-1",) if name in zero_means_none else ("0", "-1"):
                with pytest.raises(SystemExit):
                    subparser.parse_args([*required.get(command, []), action.option_strings[0], bad])
            checked.add(name)
    assert checked == {"arena --games", "arena --workers", "arena --save-games", "bench --seconds", "bench --repeats",
                       "bench --games", "serve --port", "evaluate --games", "evaluate --envs", "ladder --games",
                       "ladder --workers", "ladder --bootstrap-samples", "ladder --time-limit", "balance --games",
                       "balance --workers", "exploit --minutes", "exploit --games", "exploit --checkpoints",
                       "exploit --workers", "dataset --decisions", "bc --epochs"}


def test_a_missing_replay_folder_is_refused_before_the_game(capsys, tmp_path):
    err = _exit_message(["play", "--save", str(tmp_path / "no" / "game.json")], capsys)
    assert "--save" in err and "no folder" in err and "Your choice" not in capsys.readouterr().out


def test_an_arena_out_dir_that_is_a_file_is_refused_before_the_games(capsys, tmp_path):
    path = tmp_path / "taken"
    path.write_text("")
    err = _exit_message(["arena", "--agents", "random", "random", "--out-dir", str(path), "--no-progress"], capsys)
    assert "--out-dir" in err and "is a file" in err


def test_the_console_command_exits_2_without_a_traceback():
    import subprocess
    import sys

    completed = subprocess.run([sys.executable, "-m", "ccg_env.cli", "arena", "--agents", "random",
                                "learned:path=no_such_model"], capture_output=True, text=True, timeout=60)
    assert completed.returncode == 2 and "Traceback" not in completed.stderr
    assert completed.stderr.startswith("ccg-env arena: error: LearnedAgent: no model file at 'no_such_model'")
