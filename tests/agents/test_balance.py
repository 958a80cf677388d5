"""Deck balance in a mirror: the figures from known games, the arena's games, and the ccg-env balance command."""

from __future__ import annotations

import json

import pytest

from ccg_env import cli
from ccg_env.agents.arena import run_tournament
from ccg_env.agents.balance import BalanceResult, mirror_balance
from ccg_env.agents.match import GameRecord


def _game(deck0: str, deck1: str, winner: int | None) -> GameRecord:
    return GameRecord("a", "b", 0, winner, "win" if winner is not None else "draw", 10, 30, deck0, deck1)


def _known() -> BalanceResult:
    """x beats y from both seats, y draws z from seat 0 and loses from seat 1, a mirror x-x, z beats x from seat 0."""
    games = [_game("x", "y", 0), _game("y", "x", 1), _game("y", "z", None), _game("z", "y", 0),
             _game("x", "x", 0), _game("z", "x", 0)]
    return BalanceResult("a", ["x", "y", "z"], games)


def test_scores_count_each_seat_of_each_game_leave_out_a_deck_against_itself_and_halve_draws():
    result = _known()
    assert (result.deck_score("x").games, result.deck_score("x").rate) == (3, 2 / 3)
    assert result.deck_score("y").rate == pytest.approx(0.5 / 4)
    assert result.deck_score("z").rate == pytest.approx(2.5 / 3)
    assert result.deck_score("x", seat=0).rate == 1.0 and result.deck_score("x", seat=1).rate == 0.5
    assert result.matchup("x", "y").rate == 1.0 and result.matchup("y", "x").rate == 0.0
    assert result.matchup("y", "z").games == 2 and result.matchup("y", "z").rate == 0.25
    assert result.first_seat().games == 6 and result.first_seat().rate == pytest.approx(4.5 / 6)


def test_failures_name_each_deck_and_the_first_seat_outside_their_bounds():
    failures = _known().failures()
    assert failures == ["x against the field: 0.667 above 0.58", "y against the field: 0.125 below 0.42",
                        "z against the field: 0.833 above 0.58", "the first seat: 0.750 above 0.55"]
    even = BalanceResult("a", ["x", "y"], [_game("x", "y", 0), _game("y", "x", 0), _game("x", "y", 1),
                                            _game("y", "x", 1)])
    assert even.failures() == []
    assert "bounds: all hold" in even.table()


def test_the_table_shows_intervals_the_matrix_and_the_verdict():
    text = _known().table()
    assert "x         0.667 [0.208, 0.939]" in text
    assert "the first seat: 0.750 above 0.55" in text and "FAIL" in text
    matrix = text.split("row deck's score against the column deck")[1].splitlines()
    assert matrix[2].split() == ["x", "-", "1.000", "0.000"]


def test_a_mirror_plays_the_arena_deals_once_each_and_the_arena_plays_each_twice_the_same():
    decks = ["aggro", "control", "traps"]
    result = mirror_balance("heuristic", games=9, seed=3, decks=decks)
    arena = run_tournament(["heuristic", "heuristic:name=h2"], games_per_pair=18, seed=3, workers=1, decks=decks,
                           progress=False)
    assert [(g.seed, g.deck0, g.deck1) for g in result.games] == [(3 + j, decks[j % 3], decks[(j % 3 + j // 3) % 3])
                                                                  for j in range(9)]
    for j, game in enumerate(result.games):
        for twin in arena.games[2 * j:2 * j + 2]:
            assert (twin.seed, twin.deck0, twin.deck1, twin.winner, twin.turns, twin.decisions) == (
                game.seed, game.deck0, game.deck1, game.winner, game.turns, game.decisions)


def test_balance_command_prints_the_figures_writes_json_and_exits_1_when_a_bound_fails(tmp_path, capsys):
    path = tmp_path / "balance.json"
    status = cli.main(["balance", "--decks", "aggro", "ramp", "--games", "8", "--no-progress", "--json", str(path)])
    out = capsys.readouterr().out
    data = json.loads(path.read_text())
    assert status == (1 if data["failures"] else 0)
    assert "heuristic mirror, 8 games" in out and "first seat (moves first)" in out
    assert set(data["against_field"]) == {"aggro", "ramp"} and len(data["games"]) == 8
    assert data["against_field"]["aggro"]["games"] == 4  # half the games deal aggro against itself
    assert data["against_field"]["aggro"]["score"] + data["against_field"]["ramp"]["score"] == pytest.approx(1.0)


@pytest.mark.parametrize("argv, message", [(["--games", "0"], "must be at least 1"),
                                           (["--decks", "aggro", "nope"], "--decks: unknown deck 'nope'"),
                                           (["--agent", "nobody"], "unknown agent 'nobody'")])
def test_balance_command_refuses_bad_input_in_one_line(argv, message, capsys):
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["balance", "--no-progress", *argv])
    assert exit_info.value.code == 2
    lines = capsys.readouterr().err.strip().splitlines()  # argparse's usage lines, then the one error line
    assert lines[-1].startswith("ccg-env balance: error: ") and message in lines[-1]


def test_balance_help_describes_every_option(capsys):
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["balance", "--help"])
    assert exit_info.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    for option in ("--agent", "--games", "--decks", "--seed", "--workers", "--json", "--no-progress", "--cards",
                   "--rules"):
        assert option in text
    assert "exit status 1 when one does" in text
