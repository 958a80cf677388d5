"""The ccg-env command: help for every option, play driven by piped input, arena, train, bench, replay."""

from __future__ import annotations

import argparse
import io
import json
import subprocess
import sys

import pytest

from ccg_env import cli


def _subcommands() -> dict[str, argparse.ArgumentParser]:
    parser = cli.build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def _help(argv: list[str], capsys) -> str:
    with pytest.raises(SystemExit) as exit_info:
        cli.main(argv)
    assert exit_info.value.code == 0
    return capsys.readouterr().out


def test_help_lists_every_command(capsys):
    text = _help(["--help"], capsys)
    for name in ("arena", "play", "train", "bench", "replay", "view", "model"):
        assert name in text


@pytest.mark.parametrize("command", ["arena", "play", "train", "bench", "replay", "view"])
def test_help_describes_every_option(command, capsys):
    text = " ".join(_help([command, "--help"], capsys).split())
    for action in _subcommands()[command]._actions:
        names = action.option_strings or [action.dest]
        assert any(name in text for name in names), f"{command}: {names} missing from --help"
        assert action.help and " ".join(action.help.split()).split("%")[0][:30] in text, names


def _play(argv: list[str], stdin: str, monkeypatch, capsys) -> str:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    assert cli.main(["play", *argv]) == 0
    return capsys.readouterr().out


def test_play_answers_bad_input_with_a_message_and_a_new_prompt(monkeypatch, capsys):
    out = _play(["--opponent", "random"], "abc\n99\n\n-1\nq\n", monkeypatch, capsys)
    assert "'abc' is not a number" in out
    assert "99 is out of range" in out and "-1 is out of range" in out
    assert "Please type a number" in out
    assert out.count("Your choice") == 5
    assert "You left the game." in out
    assert "Legal actions:" in out and "hand: [0]" in out
    assert "Your mulligan" in out and "0) Keep the rest of the hand" in out and "1) Put back " in out


def test_play_quits_cleanly_at_end_of_input(monkeypatch, capsys):
    out = _play(["--opponent", "heuristic", "--seat", "1"], "", monkeypatch, capsys)
    assert "You left the game." in out and "Enemy: hero" in out


def test_play_a_whole_game_then_replay_it(monkeypatch, capsys, tmp_path):
    path = tmp_path / "game.json"
    out = _play(["--opponent", "heuristic", "--save", str(path)], "0\n" * 300, monkeypatch, capsys)
    assert "Game over: you lose" in out and "Since your last move:" in out
    document = json.loads(path.read_text())
    assert document["seats"] == ["you", "heuristic"] and document["winner"] == 1
    assert cli.main(["replay", str(path)]) == 0
    replayed = capsys.readouterr().out
    assert replayed.count("--- decision") == len(document["choices"]) and "game over (win" in replayed


def test_play_runs_as_a_console_command_with_piped_input():
    completed = subprocess.run([sys.executable, "-m", "ccg_env.cli", "play", "--opponent", "random"],
                               input="x\n5000\nq\n", capture_output=True, text=True, timeout=120)
    assert completed.returncode == 0, completed.stderr
    assert "'x' is not a number" in completed.stdout and "5000 is out of range" in completed.stdout


def test_replay_of_a_foreign_file_is_a_clear_error(tmp_path, capsys):
    path = tmp_path / "other.json"
    path.write_text('{"hello": 1}')
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["replay", str(path)])
    assert exit_info.value.code == 2
    assert "is not a ccg-env replay" in capsys.readouterr().err


def test_arena_command_writes_its_table_and_files(tmp_path, capsys):
    assert cli.main(["arena", "--agents", "random", "heuristic", "--games", "2", "--workers", "1",
                     "--out-dir", str(tmp_path), "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "A win rate [95% CI]" in out and "rating" in out and "A moves first [95% CI]" in out
    assert {p.name for p in tmp_path.iterdir()} >= {"results.json", "pairs.csv", "ratings.csv", "games.csv",
                                                     "winrate_matrix.png", "seats.csv", "decks.csv", "seat_split.png"}


def test_arena_with_an_unknown_agent_exits_with_a_clear_error(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["arena", "--agents", "nobody", "random", "--games", "2", "--out-dir", str(tmp_path)])
    assert exit_info.value.code == 2
    assert "unknown agent 'nobody'" in capsys.readouterr().err


def test_arena_deck_pool_option_plays_those_decks_and_says_when_a_count_is_unbalanced(tmp_path, capsys):
    assert cli.main(["arena", "--agents", "random", "heuristic", "--decks", "aggro", "midrange", "--games", "6",
                     "--workers", "1", "--out-dir", str(tmp_path), "--no-progress"]) == 0
    captured = capsys.readouterr()
    assert "note: 6 games per pair = 0 whole cycles of 8" in captured.err and "uneven" in captured.err
    assert "deck pool: aggro, midrange" in captured.out
    games = (tmp_path / "games.csv").read_text()
    assert "aggro" in games and "midrange" in games and "control" not in games


def test_arena_with_an_unknown_deck_exits_with_one_line_listing_the_known_decks(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["arena", "--decks", "aggro", "nope", "--out-dir", str(tmp_path)])
    assert exit_info.value.code == 2
    error = capsys.readouterr().err
    assert error.startswith("ccg-env arena: error: --decks: unknown deck 'nope'; known decks: aggro, buffs, control, "
                            "midrange, ramp, spells, traps") and error.count("\n") == 1
    assert not tmp_path.joinpath("results.json").exists()


@pytest.mark.parametrize("decks, message", [(["aggro", "aggro"], "'aggro' is in the pool twice"),
                                            (["missing.yaml"], "missing.yaml")])
def test_arena_with_a_bad_deck_pool_exits_before_playing(tmp_path, capsys, decks, message):
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["arena", "--agents", "random", "heuristic", "--decks", *decks, "--out-dir", str(tmp_path / "out")])
    assert exit_info.value.code == 2
    error = capsys.readouterr().err
    assert message in error and error.count("\n") == 1
    assert not (tmp_path / "out").exists()


def test_arena_defaults_are_the_main_job():
    args = cli.build_parser().parse_args(["arena"])
    assert args.agents == ["random", "heuristic", "search:iterations=16"]
    assert args.workers == 2 and args.games == cli.DEFAULT_ARENA_GAMES and args.decks is None
    assert cli.DEFAULT_ARENA_GAMES % (2 * 7 * 7) == 0  # whole cycles over the packaged decks


def test_train_delegates_to_the_training_module(monkeypatch):
    import ccg_env.training.train

    seen = []
    monkeypatch.setattr(ccg_env.training.train, "main", lambda argv: seen.append(argv) or 0)
    assert cli.main(["train", "--config", "smoke", "--set", "total_timesteps=64"]) == 0
    assert seen == [["--config", "smoke", "--set", "total_timesteps=64"]]


def test_train_no_progress_turns_the_bar_off(monkeypatch):
    import ccg_env.training.train

    seen = []
    monkeypatch.setattr(ccg_env.training.train, "main", lambda argv: seen.append(argv) or 0)
    assert cli.main(["train", "--config", "smoke", "--no-progress"]) == 0
    assert seen == [["--config", "smoke", "--set", "progress=false"]]


def test_train_trust_model_sets_the_config_key(monkeypatch):
    import ccg_env.training.train

    seen = []
    monkeypatch.setattr(ccg_env.training.train, "main", lambda argv: seen.append(argv) or 0)
    assert cli.main(["train", "--config", "smoke", "--trust-model"]) == 0
    assert seen == [["--config", "smoke", "--set", "trust_model=true"]]


def test_train_without_the_training_module_says_so(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "ccg_env.training.train", None)
    assert cli.main(["train", "--config", "smoke"]) == 2
    assert "training is unavailable" in capsys.readouterr().err


def test_bench_prints_engine_and_agent_figures(capsys):
    assert cli.main(["bench", "--seconds", "0.05", "--repeats", "1", "--agents", "random", "--games", "1"]) == 0
    out = capsys.readouterr().out
    assert "engine decisions/s" in out and "clone() microseconds" in out and "random: ms per decision" in out


def test_importing_the_cli_keeps_agents_and_numpy_out_of_the_engine():
    code = ("import sys, ccg_env.cli, ccg_env.engine; "
            "assert 'ccg_env.agents' not in sys.modules and 'numpy' not in sys.modules, sorted(sys.modules)")
    completed = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert completed.returncode == 0, completed.stderr
