"""A replay's recorded end is checked as a whole: a file whose result was edited while its winner was kept (or whose
winner was edited while its result was kept) is refused once its choices are replayed, naming both ends."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ccg_env.viewer import build_frames, load_replay
from ccg_env.viewer.replay import replay_games

from .games import play_and_save


@pytest.fixture(scope="module")
def won(tmp_path_factory) -> dict:
    """The document of a game played to a win."""
    path = tmp_path_factory.mktemp("tampering") / "won.json"
    play_and_save(path, seed=3)
    document = json.loads(path.read_text())
    assert document["result"] == "win" and document["winner"] in (0, 1)
    return document


def _saved(document: dict, folder: Path, **changes) -> Path:
    path = folder / "edited.json"
    path.write_text(json.dumps({**document, **changes}))
    return path


def _replay_to_the_end(path: Path) -> None:
    for _ in replay_games(load_replay(path)):
        pass


@pytest.mark.parametrize("result", ["draw", "turn_limit", "loop", None])
def test_a_won_game_whose_result_is_edited_and_winner_kept_is_refused(won, tmp_path, result):
    path = _saved(won, tmp_path, result=result)
    winner = won["winner"]
    with pytest.raises(ValueError, match=rf"the file says result {result!r}, winner {winner}, but replaying its "
                                         rf"choices gives result 'win', winner {winner} "):
        _replay_to_the_end(path)
    with pytest.raises(ValueError, match="replaying its choices gives result 'win'"):
        build_frames(load_replay(path))


def test_an_unfinished_game_said_to_be_cut_short_by_the_turn_limit_is_refused(won, tmp_path):
    path = _saved(won, tmp_path, choices=won["choices"][:5], result="turn_limit", winner=None)
    with pytest.raises(ValueError, match=r"the file says result 'turn_limit', winner None, but replaying its "
                                         r"choices gives result None, winner None"):
        _replay_to_the_end(path)


def test_a_won_game_whose_winner_is_edited_and_result_kept_is_refused(won, tmp_path):
    path = _saved(won, tmp_path, winner=1 - won["winner"])
    with pytest.raises(ValueError, match=rf"the file says result 'win', winner {1 - won['winner']}, but replaying"):
        _replay_to_the_end(path)


def test_the_untouched_file_replays_to_its_recorded_end(won, tmp_path):
    path = _saved(won, tmp_path)
    *_, (step, game) = replay_games(load_replay(path))
    assert step == len(won["choices"]) and (game.result.value, game.winner) == (won["result"], won["winner"])
