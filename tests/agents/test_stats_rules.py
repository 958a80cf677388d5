"""The arena's bootstrap statistics (:mod:`ccg_env.agents.stats`) state their defaults and pass-throughs: the
rating of ``bootstrap_rating`` is the fit with the given virtual draws, and the bootstraps' default sample counts
are what their docstrings say (checked on inputs where one sample more moves the interval)."""

from __future__ import annotations

from ccg_env.agents.stats import bootstrap_pool, bootstrap_rating, rating_against

SPLIT = [(1, 2)] * 4  # every deal split: the deals add no spread, only the opponent's samples do


def test_rule_bootstrap_ratings_rating_is_the_fit_with_the_given_virtual_draws():
    opponents = [(1000.0, [(2, 2), (2, 2), (1, 2)]), (1300.0, [(0, 2), (2, 2)])]
    totals = [(1000.0, 5, 6), (1300.0, 2, 4)]
    for prior in (0.0, 1.0, 3.0):
        assert bootstrap_rating(opponents, samples=0, prior_draws=prior)[0] == \
            rating_against(totals, prior_draws=prior)[0]
    assert bootstrap_rating(opponents, samples=0, prior_draws=3.0)[0] != bootstrap_rating(opponents, samples=0)[0]


def test_rule_bootstrap_rating_draws_1000_samples_by_default():
    # sample k rates the opponent at its k-th sample (0, 1, 2, ...): the samples' spread is the number of samples
    def interval(**options):
        return bootstrap_rating([(500.0, SPLIT)], opponent_samples=[[float(k) for k in range(1001)]], **options)

    assert interval() == interval(samples=1000)
    assert interval() != interval(samples=1001) and interval() != interval(samples=999)


def test_rule_bootstrap_pools_intervals_are_the_given_levels_percentiles_of_its_samples():
    from ccg_env.agents.stats import percentile_interval, pool_samples

    pair_deals = {(0, 1): [(2, 2), (1, 2), (0, 2), (2, 2), (2, 2), (1, 2)], (1, 2): [(0, 2), (1, 2), (2, 2), (2, 2)]}
    fits = pool_samples(3, pair_deals, 0, 1500.0, samples=200, seed=0)
    shown = {}
    for level in (0.5, 0.95):
        pool = bootstrap_pool(3, pair_deals, 0, 1500.0, level=level)
        for i in (1, 2):
            assert pool[i][1:] == percentile_interval([sample[i] for sample in fits], level)
        shown[level] = pool[1][1:]
    assert shown[0.5] != shown[0.95]


def test_rule_deal_interval_of_a_single_game_is_wilsons_and_only_no_games_give_0_to_1():
    from ccg_env.agents.stats import deal_interval
    from ccg_env.intervals import wilson_interval

    assert deal_interval([(1, 1)]) == wilson_interval(1, 1) != (0.0, 1.0)
    assert deal_interval([(0.5, 1)]) == wilson_interval(0.5, 1)
    assert deal_interval([]) == deal_interval([(0, 0)]) == (0.0, 1.0)
