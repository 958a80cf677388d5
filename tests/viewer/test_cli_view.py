"""ccg-env view, and the command line's plain errors: a bare command, no doubled "error:", plain type names."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from ccg_env import cli

from .games import play_and_save


@pytest.fixture(scope="module")
def saved(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("cli_view") / "game.json"
    play_and_save(path, seed=4)
    return path


def test_view_writes_one_self_contained_page(saved, tmp_path, capsys):
    out = tmp_path / "game.html"
    assert cli.main(["view", str(saved), "-o", str(out)]) == 0
    assert f"wrote {out}" in capsys.readouterr().out
    page = out.read_text()
    assert page.startswith("<!DOCTYPE html>") and "id=\"game-data\"" in page
    for fetched in ("src=", "href=", "http://", "https://", "@import", "url("):
        assert fetched not in page, f"the page would fetch something: {fetched}"


def test_view_defaults_to_the_replay_name_with_html(saved, tmp_path, capsys):
    copy = tmp_path / "mine.json"
    copy.write_text(saved.read_text())
    assert cli.main(["view", str(copy), "--seat", "both"]) == 0
    assert (tmp_path / "mine.html").is_file()


def test_view_of_a_malformed_file_is_one_line_and_exit_2(tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "ccg-env-replay/1", "seed": 1, "seats": ["a", "b"], "choices": [["fly", 1, 2]]}')
    completed = subprocess.run([sys.executable, "-m", "ccg_env.cli", "view", str(broken), "-o",
                                str(tmp_path / "out.html")], capture_output=True, text=True, timeout=120)
    assert completed.returncode == 2
    lines = [line for line in completed.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, completed.stderr
    assert lines[0].startswith("ccg-env view: error: replay ") and "choice 0 has kind 'fly'" in lines[0]
    assert not (tmp_path / "out.html").exists()


def test_bare_command_prints_one_line_and_exits_2():
    completed = subprocess.run([sys.executable, "-m", "ccg_env.cli"], capture_output=True, text=True, timeout=120)
    assert completed.returncode == 2 and completed.stdout == ""
    assert completed.stderr.count("\n") == 1 and "give a command" in completed.stderr and "view" in completed.stderr


@pytest.mark.parametrize("raw, shown", [
    ("Error: the file is corrupt", "the file is corrupt"),
    ("error: Error: twice", "twice"),
    ("RuntimeError: inner", "inner"),
    ("zipfile.BadZipFile: not a zip", "zipfile.BadZipFile: not a zip"),  # not an error prefix: kept
    ("line one\n  line two", "line one line two"),
    ("", "ValueError"),
])
def test_error_messages_have_no_doubled_prefix(raw, shown):
    assert cli.error_message(ValueError(raw)) == shown


def test_a_bad_config_value_names_the_type_plainly(capsys):
    import importlib.util

    package = "ccg_env.training" if importlib.util.find_spec("ccg_env.training") else "ccg_env"
    train_config = importlib.import_module(f"{package}.train_config")
    config_from_dict, type_name = train_config.config_from_dict, train_config.type_name

    with pytest.raises(ValueError) as error:
        config_from_dict({"total_timesteps": "abc"}, "--set")
    assert "expects int, got 'abc'" in str(error.value) and "<class" not in str(error.value)
    assert type_name(float | None) == "float or null"
