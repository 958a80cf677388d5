"""The arena's sample games: the first K games of every pair saved as replay files that replay to the same results."""

from __future__ import annotations

import csv
import shlex
import shutil
from pathlib import Path

import pytest

from ccg_env.agents.arena import run_tournament, safe_name
from ccg_env import cli
from ccg_env.cli_data_options import load_game_data
from ccg_env.engine.datafiles import config_dir
from ccg_env.engine.decks import default_deck_paths
from ccg_env.viewer import build_frames, load_replay

GAMES = 4  # games per pair: two deals, each from both seats
AGENTS = ["random", "heuristic"]


def _tournament(out: Path, workers: int = 1, save_games: int = 2, **options):
    return run_tournament(AGENTS, games_per_pair=GAMES, seed=3, workers=workers, out_dir=str(out), progress=False,
                          save_games=save_games, **options)


def _games_csv(out: Path) -> list[dict[str, str]]:
    with open(out / "games.csv", newline="") as handle:
        return list(csv.DictReader(handle))


@pytest.fixture(scope="module")
def one_worker(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("arena_one_worker")
    _tournament(out, workers=1)
    return out


def test_the_first_k_games_of_the_pair_are_saved_where_the_result_says(one_worker):
    folder = one_worker / "games" / "random-vs-heuristic"
    assert sorted(p.name for p in (one_worker / "games").iterdir()) == ["random-vs-heuristic"]
    assert sorted(p.name for p in folder.iterdir()) == ["game_0.json", "game_1.json"]


def test_each_saved_game_replays_through_the_viewer_to_its_games_csv_record(one_worker):
    rows = _games_csv(one_worker)
    for k in range(2):
        replay = load_replay(one_worker / "games" / "random-vs-heuristic" / f"game_{k}.json")
        row = rows[k]  # one pair: the pair's game k is game k of the tournament
        assert list(replay.seats) == [row["seat0"], row["seat1"]] and replay.seed == int(row["seed"])
        assert replay.sources == {"decks": [row["deck0"], row["deck1"]]}
        assert len(replay.choices) == int(row["decisions"]) > 0
        last = build_frames(replay, None)[-1]  # the frames come from replaying the choices in the engine
        assert last["over"] and last["result"] == row["result"] and last["turn"] == int(row["turns"])
        winner = "" if last["winner"] is None else replay.seats[last["winner"]]
        assert winner == row["winner"]
    first, second = rows[0], rows[1]  # game 1 is game 0's deal with the seats swapped
    assert (first["seat0"], first["seed"]) == ("random", second["seed"]) and second["seat0"] == "heuristic"


def test_two_workers_write_the_same_files_and_results(one_worker, tmp_path):
    _tournament(tmp_path, workers=2)
    for k in range(2):
        name = Path("games") / "random-vs-heuristic" / f"game_{k}.json"
        assert (tmp_path / name).read_bytes() == (one_worker / name).read_bytes()
    assert _games_csv(tmp_path) == _games_csv(one_worker)


def test_no_games_folder_when_k_is_zero_and_k_is_checked(tmp_path):
    result = _tournament(tmp_path, save_games=0)
    assert (tmp_path / "games.csv").exists() and not (tmp_path / "games").exists() and result.replays == []
    with pytest.raises(ValueError, match="save_games must be a whole number of at least 0, got -1"):
        _tournament(tmp_path / "bad", save_games=-1)
    with pytest.raises(ValueError, match="save_games needs out_dir"):
        run_tournament(AGENTS, games_per_pair=2, workers=1, progress=False, save_games=1)


def test_k_above_the_games_per_pair_saves_every_game_of_each_pair(tmp_path):
    result = run_tournament(["random", "heuristic", "random"], games_per_pair=2, seed=0, workers=1,
                            out_dir=str(tmp_path), progress=False, save_games=5, decks=["aggro", "ramp"])
    folders = sorted(p.name for p in (tmp_path / "games").iterdir())
    assert folders == ["heuristic-vs-random_2", "random-vs-heuristic", "random-vs-random_2"]
    assert len(result.replays) == 6 and all(Path(path).is_file() for path in result.replays)
    assert sorted(p.name for p in (tmp_path / "games" / folders[2]).iterdir()) == ["game_0.json", "game_1.json"]


def test_a_deck_file_is_recorded_by_its_path_and_replays_when_given_again(tmp_path):
    mine = tmp_path / "mine.yaml"
    shutil.copy(default_deck_paths()["control"], mine)
    _tournament(tmp_path / "out", save_games=1, decks=[str(mine)])
    replay = load_replay(tmp_path / "out" / "games" / "random-vs-heuristic" / "game_0.json")
    assert replay.sources == {"decks": [str(mine), str(mine)]}
    with pytest.raises(ValueError, match="played with other data .decks: .*give them with --decks"):
        build_frames(replay, None)  # the default decks: the replay does not open the file it names
    assert build_frames(replay, None, load_game_data(decks=replay.sources["decks"]))[-1]["over"]


def test_safe_names_keep_letters_digits_dots_and_dashes():
    assert safe_name("search:iterations=16") == "search_iterations_16"
    assert safe_name("learned:path=../models/x.ccgmodel") == "learned_path_.._models_x.ccgmodel"
    assert safe_name("..") == "_.." and safe_name("a" * 80) == "a" * 60


def test_cli_saves_sample_games_says_where_and_view_opens_them_without_options(tmp_path, capsys):
    out = tmp_path / "out"
    assert cli.main(["arena", "--agents", "random", "heuristic", "--decks", "aggro", "control", "--games", "2",
                     "--workers", "1", "--out-dir", str(out), "--no-progress", "--save-games", "1"]) == 0
    printed = capsys.readouterr().out
    saved = out / "games" / "random-vs-heuristic" / "game_0.json"
    assert f"written to {saved.parent}/" in printed and str(saved) in printed
    assert sorted(p.name for p in saved.parent.iterdir()) == ["game_0.json"]
    assert load_replay(saved).sources == {"decks": ["aggro", "aggro"]}  # deal 0 of the pool: aggro against aggro
    assert cli.main(["view", str(saved), "-o", str(tmp_path / "game.html")]) == 0
    assert cli.main(["replay", str(saved), "--all"]) == 0


def test_the_arena_hint_to_view_a_game_played_with_own_data_opens_it_as_printed(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shutil.copy(default_deck_paths()["aggro"], tmp_path / "mine.yaml")
    shutil.copy(config_dir() / "rules" / "default.yaml", tmp_path / "rules.yaml")
    assert cli.main(["arena", "--agents", "random", "heuristic", "--games", "2", "--workers", "1", "--no-progress",
                     "--out-dir", "out", "--save-games", "1", "--cards", str(config_dir() / "cards"),
                     "--decks", "mine.yaml", "control", "--rules", "rules.yaml"]) == 0
    hint = capsys.readouterr().out.strip().splitlines()[-1]
    command = shlex.split(hint.split("open one with: ", 1)[1])
    assert command[:3] == ["ccg-env", "view", "out/games/random-vs-heuristic/game_0.json"]
    assert {"--cards", "--decks", "--rules"} <= set(command)
    with pytest.raises(SystemExit):  # without the options the game's own deck file is not used: it cannot replay
        cli.main(command[1:3])
    assert cli.main(command[1:]) == 0 and (tmp_path / "out/games/random-vs-heuristic/game_0.html").is_file()


@pytest.mark.parametrize("value", ["-1", "two"])
def test_cli_refuses_a_save_games_count_that_is_not_a_whole_number_of_at_least_0(tmp_path, capsys, value):
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["arena", "--save-games", value, "--out-dir", str(tmp_path / "out")])
    assert exit_info.value.code == 2
    error = capsys.readouterr().err.splitlines()[-1]
    assert error.startswith("ccg-env arena: error: argument --save-games") and "at least 0" in error
    assert not (tmp_path / "out").exists()
