"""The arena's per-deal statistics: a deal's two games grouped as one unit, its interval and its categories."""

from __future__ import annotations

import pytest

from ccg_env.agents.arena import TournamentResult, run_tournament
from ccg_env.agents.match import GameRecord
from ccg_env.agents.report import deal_columns, deal_points
from ccg_env.agents.stats import deal_interval, wilson_interval


def _record(seat0: str, seat1: str, seed: int, winner: int | None, deck0: str, deck1: str) -> GameRecord:
    return GameRecord(seat0, seat1, seed, winner, "win" if winner is not None else "draw", 10, 50, deck0, deck1)


def _hand_made() -> TournamentResult:
    """A against B over three deals: split (each won from seat 0), won by A with a draw, won by A from both seats."""
    games = [(_record("A", "B", 7, 0, "aggro", "ramp"), (0, 1)), (_record("B", "A", 7, 0, "aggro", "ramp"), (1, 0)),
             (_record("A", "B", 8, 0, "ramp", "ramp"), (0, 1)), (_record("B", "A", 8, None, "ramp", "ramp"), (1, 0)),
             (_record("A", "B", 9, 0, "ramp", "aggro"), (0, 1)), (_record("B", "A", 9, 1, "ramp", "aggro"), (1, 0))]
    return TournamentResult(["A", "B"], [g for g, _ in games], [s for _, s in games])


def test_deal_points_group_a_pairs_games_by_seed_and_decks():
    result = _hand_made()
    assert deal_points(result, 0, list(range(6))) == [[1.0, 0.0], [1.0, 0.5], [1.0, 1.0]]
    assert deal_points(result, 1, list(range(6))) == [[0.0, 1.0], [0.0, 0.5], [0.0, 0.0]]
    assert deal_points(result, 0, [0, 2, 1]) == [[1.0, 0.0], [1.0]]


def test_a_pair_row_has_the_per_deal_interval_and_the_deal_categories():
    row = _hand_made().pairs()[0]
    # wins per deal (1, 2), (1, 2), (2, 2): p = 2/3, spread 2/3, V = 3/2 * (2/3) / 36 = 1/36, effective 8 games
    assert (row["deal_ci_low"], row["deal_ci_high"]) == pytest.approx(wilson_interval(16 / 3, 8), abs=1e-12)
    assert (row["deals"], row["deals_won_both"], row["deals_split"], row["deals_lost_both"], row["deals_other"]) == \
        (3, 1, 1, 0, 1)
    assert deal_columns([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]) == {
        "deals": 3, "deal_ci_low": deal_interval([(0, 2), (1, 2), (1, 2)])[0],
        "deal_ci_high": deal_interval([(0, 2), (1, 2), (1, 2)])[1],
        "deals_won_both": 0, "deals_split": 2, "deals_lost_both": 1, "deals_other": 0}


def test_the_table_prints_each_pairs_deal_line():
    lines = _hand_made().table().splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("by deal (both seats)"))
    assert "A win rate [95% CI per deal]" in lines[header]
    low, high = wilson_interval(16 / 3, 8)
    assert lines[header + 1].split() == ["A", "B", "3", "0.667", f"[{low:.3f},", f"{high:.3f}]", "1", "1", "0", "1"]


def test_a_played_tournament_has_one_deal_per_two_games_of_every_pair():
    result = run_tournament(["random", "heuristic", "random"], games_per_pair=8, seed=4, workers=1, progress=False,
                            decks=["aggro", "control"])
    for row in result.pairs():
        assert row["deals"] == 4
        assert sum(row[f"deals_{c}"] for c in ("won_both", "split", "lost_both", "other")) == 4
        assert row["deal_ci_low"] <= row["win_rate_a"] <= row["deal_ci_high"]
    odd = run_tournament(["random", "heuristic"], games_per_pair=3, seed=4, workers=1, progress=False)
    assert odd.pairs()[0]["deals"] == 2 and odd.pairs()[0]["deals_other"] >= 1  # the last deal has one game
