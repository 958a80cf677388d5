"""The arena's statistics state their rules: Bradley-Terry ratings (virtual draws only between agents that played,
the MM fixed point, the Elo scale anchored at 1500), a rating against rated opponents, and Wilson intervals."""

from __future__ import annotations

import math

import pytest

from agents.stats import RATING_ANCHOR, bradley_terry, rating_against
from ccg_env.intervals import Z95, wilson_interval


def elo_gap(wins: float, losses: float) -> float:
    """The rating gap that gives odds ``wins:losses`` on the Elo scale."""
    return 400.0 * math.log10(wins / losses)


def test_bradley_terry_adds_one_virtual_draw_to_each_pair_that_played():
    ratings = bradley_terry([[0, 3], [1, 0]])  # 3 wins of 4, plus one draw (half a win each): 3.5 against 1.5
    assert ratings[0] - ratings[1] == pytest.approx(elo_gap(3.5, 1.5), abs=1e-6)
    assert bradley_terry([[0, 3], [1, 0]], prior_draws=2.0)[0] - bradley_terry([[0, 3], [1, 0]], prior_draws=2.0)[1] \
        == pytest.approx(elo_gap(4, 2), abs=1e-6)


def test_bradley_terry_counts_a_pair_that_played_a_single_game():
    ratings = bradley_terry([[0, 1], [0, 0]])  # 1 win of 1, plus one draw: 1.5 against 0.5
    assert ratings[0] - ratings[1] == pytest.approx(elo_gap(1.5, 0.5), abs=1e-6)


def test_bradley_terry_adds_no_virtual_draw_between_agents_that_never_played():
    # agent 2 played no one: were virtual draws added against it, they would pull the 3.5:1.5 pair together
    ratings = bradley_terry([[0, 3, 0], [1, 0, 0], [0, 0, 0]])
    assert ratings[0] - ratings[1] == pytest.approx(elo_gap(3.5, 1.5), abs=1e-6)


def test_bradley_terry_anchors_the_geometric_mean_strength_at_1500():
    for wins in ([[0, 3], [1, 0]], [[0, 8, 10], [2, 0, 8], [0, 2, 0]], [[0, 1, 4], [6, 0, 2], [3, 5, 0]]):
        ratings = bradley_terry(wins)
        assert sum(ratings) / len(ratings) == pytest.approx(RATING_ANCHOR, abs=1e-6)


@pytest.mark.parametrize("wins, prior", [
    ([[0, 5, 1], [1, 0, 9], [2, 3, 0]], 1.0),  # pairs that played 6, 3 and 12 games, each plus one virtual draw
    ([[0, 3, 1], [2, 0, 4], [0, 2, 0]], 0.0),  # agents 0 and 2 played a single game, no virtual draws
    ([[0, 3, 1], [2, 0, 4], [0, 2, 0]], 1.0),  # the single game's pair gets its virtual draw too
])
def test_bradley_terry_converges_to_the_fixed_point_where_expected_wins_match_the_wins(wins, prior):
    ratings = bradley_terry(wins, prior_draws=prior)
    strength = [10 ** ((r - RATING_ANCHOR) / 400) for r in ratings]
    for i in range(3):
        won = sum(wins[i][j] + prior / 2 for j in range(3) if j != i)
        expected = sum((wins[i][j] + wins[j][i] + prior) * strength[i] / (strength[i] + strength[j])
                       for j in range(3) if j != i)
        assert expected == pytest.approx(won, abs=1e-6)


def test_bradley_terry_ignores_an_agents_games_against_itself():
    assert bradley_terry([[5, 3, 2], [1, 7, 4], [3, 1, 9]]) == bradley_terry([[0, 3, 2], [1, 0, 4], [3, 1, 0]])


def test_bradley_terry_stops_at_the_iteration_limit_or_the_tolerance():
    wins = [[0, 8, 10], [2, 0, 8], [0, 2, 0]]
    converged = bradley_terry(wins)
    one_step = bradley_terry(wins, iterations=1)
    assert one_step != pytest.approx(converged, abs=1e-3)
    assert bradley_terry(wins, tolerance=10.0) == one_step  # the first step moves less than 10: it stops there
    assert bradley_terry(wins, iterations=0) == [RATING_ANCHOR] * 3
    assert bradley_terry(wins, iterations=20_000, tolerance=0.0) == pytest.approx(converged, abs=1e-6)


def test_bradley_terry_stops_when_no_agents_log_strength_moves_by_the_tolerance_the_weakest_included():
    wins = [[0, 1, 9], [1, 0, 9], [1, 1, 0]]  # step 2 moves the two strong agents by 0.031, the weak one by 0.062
    assert bradley_terry(wins, tolerance=0.05) == bradley_terry(wins, iterations=3)
    assert bradley_terry(wins, tolerance=0.05) != bradley_terry(wins, iterations=2)
    assert bradley_terry(wins, tolerance=0.07) == bradley_terry(wins, iterations=2)


def test_an_agent_that_never_wins_without_virtual_draws_rates_minus_infinity():
    assert bradley_terry([[0, 2], [0, 0]], prior_draws=0.0) == [RATING_ANCHOR, -math.inf]
    assert bradley_terry([[0, 0], [0, 0]]) == [RATING_ANCHOR, RATING_ANCHOR]  # no games: nothing moves
    assert bradley_terry([]) == []  # no agents: no ratings


def test_rating_against_adds_one_virtual_draw_against_each_opponent_played():
    rating, _, _ = rating_against([(1600.0, 3, 4)])  # 3.5 wins of 5
    assert rating == pytest.approx(1600.0 + elo_gap(3.5, 1.5), abs=1e-6)
    assert rating_against([(1600.0, 3, 4)], prior_draws=2.0)[0] == pytest.approx(1600.0 + elo_gap(4, 2), abs=1e-6)


def test_rating_against_counts_a_single_game_and_skips_opponents_not_played():
    assert rating_against([(1500.0, 1, 1)])[0] == pytest.approx(1500.0 + elo_gap(1.5, 0.5), abs=1e-6)
    assert rating_against([(1500.0, 5, 10), (2500.0, 0, 0)], prior_draws=0.0)[0] == pytest.approx(1500.0, abs=1e-6)


def test_rating_against_interval_is_z_standard_errors_from_the_fisher_information():
    rating, low, high = rating_against([(1400.0, 30, 40), (1700.0, 10, 40)], prior_draws=0.0)
    scale = math.log(10) / 400
    information = sum(40 * scale * scale * p * (1 - p)
                      for r in (1400.0, 1700.0) for p in [1 / (1 + 10 ** ((r - rating) / 400))])
    error = 1 / math.sqrt(information)
    assert (low, high) == pytest.approx((rating - Z95 * error, rating + Z95 * error), abs=1e-6)
    _, low1, high1 = rating_against([(1400.0, 30, 40), (1700.0, 10, 40)], prior_draws=0.0, z=1.0)
    assert (low1, high1) == pytest.approx((rating - error, rating + error), abs=1e-6)


def test_rating_against_finds_ratings_far_from_the_opponents():
    rating, _, _ = rating_against([(1500.0, 1000, 1000)])  # 1000.5 wins against 0.5 losses
    assert rating == pytest.approx(1500.0 + elo_gap(1000.5, 0.5), abs=1e-6)
    assert rating_against([(1500.0, 0, 1000)])[0] == pytest.approx(1500.0 - elo_gap(1000.5, 0.5), abs=1e-6)


@pytest.mark.parametrize("result", [(float("nan"), 1, 2), (float("inf"), 1, 2), (1500.0, -1, 2), (1500.0, 3, 2)])
def test_rating_against_refuses_an_impossible_result(result):
    with pytest.raises(ValueError, match="bad result against an opponent"):
        rating_against([result])


def test_wilson_interval_known_values_fractional_successes_and_bounds():
    assert wilson_interval(1, 10) == pytest.approx((0.0179, 0.4042), abs=5e-5)  # the published table's 4 digits
    low, high = wilson_interval(10, 10)
    assert high == pytest.approx(1.0, abs=1e-12) and low == pytest.approx(1 - wilson_interval(0, 10)[1], abs=1e-12)
    assert wilson_interval(2.5, 5) == pytest.approx((1 - wilson_interval(2.5, 5)[1], wilson_interval(2.5, 5)[1]))
    assert wilson_interval(0, -3) == (0.0, 1.0)
    assert wilson_interval(1, 1) == pytest.approx((0.2065, 1.0), abs=5e-5)  # one trial is an interval already
    # all won: the formula's upper end is 1 exactly, which floats overshoot (16 of 16, 12 of 12 at z=1): capped at 1
    assert wilson_interval(16, 16)[1] == 1.0 and wilson_interval(12, 12, 1.0)[1] == 1.0
    with pytest.raises(ValueError, match=r"within \[0, trials=10\], got -1"):
        wilson_interval(-1, 10)


def test_wilson_interval_takes_its_quantile_and_defaults_to_95_percent():
    p, n = 0.3, 50
    for z in (Z95, 1.0, 2.5758):
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        assert wilson_interval(15, 50, z) == pytest.approx((centre - half, centre + half), abs=1e-12)
    assert wilson_interval(15, 50) == wilson_interval(15, 50, Z95)
    assert Z95 == pytest.approx(1.959963984540054, abs=1e-12)
