"""The arena's statistics state their rules: Bradley-Terry ratings (virtual draws only between agents that played,
the MM fixed point, the Elo scale anchored at 1500), a rating against rated opponents, and Wilson intervals."""

from __future__ import annotations

import math
import random

import pytest

from ccg_env.agents.stats import (DEAL_CATEGORIES, RATING_ANCHOR, anchored, bootstrap_pool, bootstrap_rating,
                                   bradley_terry, deal_categories, deal_interval, pair_deals_matrix,
                                   percentile_interval, pool_samples, rating_against, resample)
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


# --- deals: the two games of a deal as one unit --------------------------------------------------------------


def test_deal_interval_is_wilson_at_the_effective_games_of_the_cluster_robust_variance():
    # 4 of 8 games over 4 deals: spread 1 + 0 + 1 + 0 = 2, V = 4/3 * 2 / 64 = 1/24, effective 0.25 / V = 6 games
    assert deal_interval([(2, 2), (1, 2), (0, 2), (1, 2)]) == pytest.approx(wilson_interval(3, 6), abs=1e-12)
    # 4 of 6 over 3 deals: spread 2 * (2/3)^2 + (4/3)^2 = 8/3, V = 3/2 * (8/3) / 36 = 1/9, effective (2/9) / V = 2
    assert deal_interval([(2, 2), (2, 2), (0, 2)]) == pytest.approx(wilson_interval(4 / 3, 2), abs=1e-12)
    # deals of unequal size: 1 of 3, spread (2/3)^2 + (2/3)^2 = 8/9, V = 2 * (8/9) / 9 = 16/81, effective 9/8
    assert deal_interval([(1, 1), (0, 2)]) == pytest.approx(wilson_interval(0.375, 1.125), abs=1e-12)


def test_deal_interval_is_narrower_than_wilsons_where_deals_split_and_wider_where_they_agree():
    agree = [(2, 2), (0, 2)] * 5  # 10 of 20 games, every deal won or lost from both seats
    split = [(1, 2)] * 9 + [(2, 2), (0, 2)]  # 11 of 22: nearly every deal split
    width = lambda interval: interval[1] - interval[0]  # noqa: E731
    assert width(deal_interval(agree)) > width(wilson_interval(10, 20))
    assert width(deal_interval(split)) < width(wilson_interval(11, 22))


def test_deal_interval_counts_the_deals_as_games_where_every_deal_is_the_same_or_there_is_one():
    assert deal_interval([(1, 2)] * 5) == pytest.approx(wilson_interval(2.5, 5), abs=1e-12)  # all split: V = 0
    assert deal_interval([(2, 2)] * 3) == pytest.approx(wilson_interval(3, 3), abs=1e-12)  # all won: p (1 - p) = 0
    assert deal_interval([(0, 2)] * 4) == pytest.approx(wilson_interval(0, 4), abs=1e-12)
    assert deal_interval([(1, 2)]) == pytest.approx(wilson_interval(0.5, 1), abs=1e-12)  # one deal: no variance
    assert deal_interval([]) == (0.0, 1.0) and deal_interval([(0, 0)]) == (0.0, 1.0)


def test_deal_interval_takes_its_quantile():
    deals = [(2, 2), (1, 2), (0, 2), (1, 2)]
    assert deal_interval(deals, 1.0) == pytest.approx(wilson_interval(3, 6, 1.0), abs=1e-12)
    assert deal_interval(deals) == deal_interval(deals, Z95)


def test_deal_categories_count_deals_won_split_and_lost_from_both_seats():
    deals = [(1, 1), (1, 0), (0, 1), (0, 0), (0.5, 1), (1,), (1, 1, 1), (0, 0)]
    assert deal_categories(deals) == {"won_both": 1, "split": 2, "lost_both": 2, "other": 3}
    assert list(deal_categories([])) == list(DEAL_CATEGORIES) == ["won_both", "split", "lost_both", "other"]
    assert deal_categories([]) == {"won_both": 0, "split": 0, "lost_both": 0, "other": 0}


def test_percentile_interval_interpolates_between_order_statistics():
    assert percentile_interval([5, 1, 4, 2, 3], 0.5) == (2, 4)  # quantiles 0.25 and 0.75 of 1..5
    assert percentile_interval([10, 0], 0.5) == (2.5, 7.5)
    assert percentile_interval([0, 10, 20, 30]) == pytest.approx((0.75, 29.25))  # 0.025 * 3, 0.975 * 3 of the way
    assert percentile_interval([0, 10, 20, 30], 0.0) == (15, 15)
    assert percentile_interval([3]) == (3, 3)
    with pytest.raises(ValueError, match="at least one value"):
        percentile_interval([])


def test_resample_draws_as_many_deals_as_given_with_replacement_by_seed():
    deals = [(0, 2), (1, 2), (2, 2)]
    first = resample(deals, random.Random(4))
    assert len(first) == 3 and set(first) <= set(deals) and first == resample(deals, random.Random(4))
    samples = [tuple(resample(deals, random.Random(seed))) for seed in range(40)]
    assert any(len(set(sample)) < 3 for sample in samples) and len(set(samples)) > 10


def test_bootstrap_rating_is_the_fixed_opponents_fit_with_a_percentile_interval_over_deals():
    opponents = [(1200.0, [(2, 2), (0, 2)])]  # each resample: 4, 2 or 0 points of 4 (probability 1/4, 1/2, 1/4)
    rating, low, high = bootstrap_rating(opponents, samples=1000, seed=1)
    assert rating == rating_against([(1200.0, 2, 4)])[0] == pytest.approx(1200.0, abs=1e-6)
    assert low == rating_against([(1200.0, 0, 4)])[0] and high == rating_against([(1200.0, 4, 4)])[0]
    middle = bootstrap_rating(opponents, samples=1000, seed=1, level=0.4)  # quantiles 0.3 and 0.7: two of four
    assert middle[1:] == (rating_against([(1200.0, 2, 4)])[0],) * 2
    assert bootstrap_rating(opponents, samples=1000, seed=1, prior_draws=3.0)[2] == \
        rating_against([(1200.0, 4, 4)], prior_draws=3.0)[0]


def test_bootstrap_rating_keeps_a_deals_games_together_and_skips_opponents_without_deals():
    split = [(1, 2)] * 6  # every deal split: every resample is the same
    assert bootstrap_rating([(900.0, split), (2000.0, [])], samples=50) == pytest.approx((900.0,) * 3, abs=1e-6)
    assert bootstrap_rating([(900.0, [(2, 2), (0, 2)])], samples=0)[1:] == (rating_against([(900.0, 2, 4)])[0],) * 2
    two = [(1000.0, [(2, 2), (1, 2), (0, 2), (2, 2)]), (1400.0, [(0, 2), (1, 2), (0, 2)])]
    assert bootstrap_rating(two, samples=200, seed=5) == bootstrap_rating(two, samples=200, seed=5)
    assert bootstrap_rating(two, samples=200, seed=5) != bootstrap_rating(two, samples=200, seed=6)
    assert bootstrap_rating(two, samples=200)[0] == rating_against([(1000.0, 5, 8), (1400.0, 1, 6)])[0]


def test_anchored_shifts_every_rating_by_the_same_amount():
    assert anchored([1500.0, 1700.0, 1300.0], 1, 1000.0) == [800.0, 1000.0, 600.0]
    assert anchored([-5.0, 5.0], 0, 0.0) == [0.0, 10.0]


def test_pair_deals_matrix_adds_each_deals_points_and_the_rest_to_the_opponent():
    matrix = pair_deals_matrix(3, {(0, 1): [(2, 2), (0.5, 2)], (1, 2): [(1, 2)], (0, 2): []})
    assert matrix == [[0.0, 2.5, 0.0], [1.5, 0.0, 1.0], [0.0, 1.0, 0.0]]


def test_bootstrap_pool_anchors_the_fit_and_gives_each_player_a_deal_bootstrap_interval():
    pair_deals = {(0, 1): [(2, 2), (2, 2), (1, 2), (0, 2)]}  # 5 of 8 points, plus one virtual draw: 5.5 to 3.5
    (r0, low0, high0), anchor = bootstrap_pool(2, pair_deals, 1, 1000.0, samples=300, seed=2)
    assert anchor == (1000.0, 1000.0, 1000.0)
    assert r0 == pytest.approx(1000.0 + elo_gap(5.5, 3.5), abs=1e-6)
    assert low0 < r0 < high0
    # a resample of all four deals (2, 2): 8.5 to 0.5; of all (0, 2): 0.5 to 8.5 (probability 1/256 each)
    assert low0 >= 1000.0 + elo_gap(0.5, 8.5) - 1e-6 and high0 <= 1000.0 + elo_gap(8.5, 0.5) + 1e-6
    assert bootstrap_pool(2, pair_deals, 1, 1000.0, samples=300, seed=2) == \
        bootstrap_pool(2, pair_deals, 1, 1000.0, samples=300, seed=2)
    split = bootstrap_pool(3, {(0, 1): [(1, 2)] * 3, (1, 2): [(1, 2)] * 3}, 0, 0.0, samples=20)
    assert [v for row in split for v in row] == pytest.approx([0.0] * 9, abs=1e-6)  # every deal split: every sample the same
    assert bootstrap_pool(2, pair_deals, 0, 0.0, samples=0)[1] == pytest.approx((-r0 + 1000.0,) * 3, abs=1e-6)


def test_the_bootstraps_default_to_a_seeded_95_percent_interval_over_1000_or_200_samples():
    opponents = [(1000.0, [(2, 2), (1, 2), (0, 2), (2, 2), (2, 2)]), (1400.0, [(0, 2), (1, 2), (0, 2)])]
    assert bootstrap_rating(opponents) == bootstrap_rating(opponents, samples=1000, seed=0, level=0.95,
                                                           prior_draws=1.0)
    pair_deals = {(0, 1): [(2, 2), (1, 2), (0, 2), (2, 2), (2, 2)], (1, 2): [(0, 2), (1, 2), (2, 2)]}
    assert bootstrap_pool(3, pair_deals, 0, 0.0) == bootstrap_pool(3, pair_deals, 0, 0.0, samples=200, seed=0,
                                                                    level=0.95)


def test_bootstrap_rating_redraws_the_opponents_ratings_from_their_samples_when_given():
    split = [(1, 2)] * 4  # every deal split: the deals add no spread, only the opponent's samples do
    rating, low, high = bootstrap_rating([(1000.0, split)], samples=1000, opponent_samples=[[900.0, 1100.0]])
    assert rating == pytest.approx(1000.0, abs=1e-6)  # the fit is against the given rating, not the samples
    assert (low, high) == pytest.approx((900.0, 1100.0), abs=1e-6)  # 500 samples at each: the 2.5% and 97.5% points
    assert bootstrap_rating([(1000.0, split)], samples=4, opponent_samples=[[900.0, 1100.0]], level=0.0)[1] == \
        pytest.approx(1000.0, abs=1e-6)  # samples 900, 1100, 900, 1100: the median is between them
    two = bootstrap_rating([(1000.0, split), (1400.0, split)], samples=3, level=0.0,
                           opponent_samples=[[1000.0, 1100.0, 1200.0], [1400.0, 1500.0, 1600.0]])
    assert two[1] == pytest.approx(1300.0, abs=1e-6)  # sample k takes the k-th sample of every opponent together
    assert bootstrap_rating([(1000.0, split)], samples=50, opponent_samples=None) == \
        bootstrap_rating([(1000.0, split)], samples=50)


def test_pool_samples_are_the_anchored_refits_the_pool_intervals_come_from():
    pair_deals = {(0, 1): [(2, 2), (2, 2), (1, 2), (0, 2)], (1, 2): [(1, 2), (0, 2)]}
    drawn = pool_samples(3, pair_deals, 1, 1000.0, samples=40, seed=3)
    assert len(drawn) == 40 and all(sample[1] == 1000.0 for sample in drawn)
    assert drawn == pool_samples(3, pair_deals, 1, 1000.0, samples=40, seed=3)
    fitted = bootstrap_pool(3, pair_deals, 1, 1000.0, samples=40, seed=3)
    for i in (0, 2):
        assert fitted[i][1:] == percentile_interval([sample[i] for sample in drawn])
    assert pool_samples(3, pair_deals, 1, 1000.0) == pool_samples(3, pair_deals, 1, 1000.0, samples=200, seed=0)
