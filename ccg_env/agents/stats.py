"""Tournament statistics: Bradley-Terry ratings fitted by MM iterations, Wilson score intervals (from
:mod:`ccg_env.intervals`), and intervals and categories over deals (the two games of a deal as one unit)."""

from __future__ import annotations

import math
import random
from typing import Any, Sequence

from ccg_env.intervals import Z95, wilson_interval  # noqa: F401 (the arena's statistics are read from here too)

#: Elo-scale anchor: the geometric-mean strength maps to this rating.
RATING_ANCHOR = 1500.0


def bradley_terry(wins: Sequence[Sequence[float]], *, prior_draws: float = 1.0, iterations: int = 10_000,
                  tolerance: float = 1e-10) -> list[float]:
    """Fit Bradley-Terry strengths by Hunter's MM algorithm and return them on the Elo scale.

    ``P(i beats j) = s_i / (s_i + s_j)``; the returned rating is ``1500 + 400 * log10(s_i)`` with the
    strengths' geometric mean fixed at 1, so 400 rating points mean 10:1 odds.

    Args:
        wins: square matrix, ``wins[i][j]`` = games ``i`` won against ``j`` (count a draw as half a win for
            each side).
        prior_draws: virtual draws added to every pair that played, so an agent that never wins or never
            loses still gets a finite rating.
        iterations: maximum MM iterations.
        tolerance: stop when no log-strength moves by more than this.
    """
    n = len(wins)
    games = [[wins[i][j] + wins[j][i] + (prior_draws if i != j and wins[i][j] + wins[j][i] > 0 else 0.0)
              for j in range(n)] for i in range(n)]
    won = [sum(wins[i][j] + (prior_draws / 2 if games[i][j] > 0 else 0.0) for j in range(n) if j != i)
           for i in range(n)]
    strength = [1.0] * n
    for _ in range(iterations):
        updated = [_mm_step(i, strength, games, won) for i in range(n)]
        updated = _normalise(updated)
        change = max((abs(math.log(a) - math.log(b)) for a, b in zip(updated, strength) if a > 0 and b > 0),
                     default=0.0)
        strength = updated
        if change < tolerance:
            break
    return [RATING_ANCHOR + 400.0 * math.log10(s) if s > 0 else -math.inf for s in strength]


def _mm_step(i: int, strength: list[float], games: list[list[float]], won: list[float]) -> float:
    denominator = sum(games[i][j] / (strength[i] + strength[j]) for j in range(len(strength))
                      if j != i and games[i][j] > 0)
    return won[i] / denominator if denominator > 0 else strength[i]


def _normalise(strength: list[float]) -> list[float]:
    positive = [s for s in strength if s > 0]
    if not positive:
        return [1.0] * len(strength)
    mean_log = sum(math.log(s) for s in positive) / len(positive)
    scale = math.exp(mean_log)
    return [s / scale for s in strength]


def rating_against(results: Sequence[tuple[float, float, int]], *, prior_draws: float = 1.0,
                   z: float = Z95) -> tuple[float, float, float]:
    """One player's Bradley-Terry rating from games against opponents of known rating, with an interval.

    The maximum-likelihood rating ``r`` solves ``sum(wins_i) = sum(games_i * E_i(r))`` with
    ``E_i(r) = 1 / (1 + 10 ** ((rating_i - r) / 400))``, the Elo scale of :func:`bradley_terry`; the interval is
    ``r -+ z`` standard errors from the Fisher information. Used to follow a learner's rating during training
    from its evaluations against fixed opponents rated in an arena.

    Args:
        results: per opponent, ``(opponent_rating, wins, games)`` (a draw counts as half a win).
        prior_draws: virtual draws added against each opponent, so that winning or losing every game still
            gives a finite rating.
        z: normal quantile; the default gives a 95% interval.

    Returns:
        ``(rating, low, high)``.
    """
    for rating, wins, games in results:
        if not 0 <= wins <= games or not math.isfinite(rating):
            raise ValueError(f"bad result against an opponent rated {rating}: {wins:g} wins of {games} games")
    played = [(rating, wins + prior_draws / 2, games + prior_draws) for rating, wins, games in results if games > 0]
    if not played:
        raise ValueError("rating_against needs at least one opponent with games played")

    def surplus(r: float) -> float:
        return sum(wins - games / (1 + 10 ** ((rating - r) / 400)) for rating, wins, games in played)

    low, high = min(r for r, _, _ in played) - 4000.0, max(r for r, _, _ in played) + 4000.0
    for _ in range(100):  # surplus falls as r rises: bisect its root
        middle = (low + high) / 2
        low, high = (middle, high) if surplus(middle) > 0 else (low, middle)
    rating = (low + high) / 2
    scale = math.log(10) / 400
    information = sum(games * scale * scale * p * (1 - p)
                      for r_i, _, games in played for p in [1 / (1 + 10 ** ((r_i - rating) / 400))])
    error = 1 / math.sqrt(information)
    return rating, rating - z * error, rating + z * error


# --- deals: the two games of one deck pair and seed, played from both seats, as one unit ----------------------

#: the deal categories of :func:`deal_categories`, in report order
DEAL_CATEGORIES = ("won_both", "split", "lost_both", "other")


def deal_interval(deals: Sequence[tuple[float, float]], z: float = Z95) -> tuple[float, float]:
    """A win rate's interval with the games of one deal as one unit: Wilson's score interval at the effective
    number of games of the cluster-robust variance.

    The rate is ``p = sum(wins) / sum(games)``; its cluster-robust (sandwich) variance over ``G`` deals is
    ``V = G / (G - 1) * sum((wins_d - p * games_d) ** 2) / sum(games) ** 2``, and the effective number of games
    ``p * (1 - p) / V`` (the games' count divided by the design effect: fewer than the games where a deal's two
    games agree, more where they split). Where ``V`` or ``p * (1 - p)`` is 0 (every deal the same), or with fewer
    than two deals, the deals themselves are counted as the games.

    Args:
        deals: per deal, ``(wins, games)`` (a draw may count as half a win).
        z: normal quantile; the default gives a 95% interval.
    """
    total = sum(games for _, games in deals)
    if total <= 0:
        return 0.0, 1.0
    p = sum(wins for wins, _ in deals) / total
    count = len(deals)
    spread = sum((wins - p * games) ** 2 for wins, games in deals)
    variance = count / (count - 1) * spread / total ** 2 if count > 1 else 0.0
    effective = p * (1 - p) / variance if variance > 0 else float(count)  # V > 0 only where 0 < p < 1
    return wilson_interval(p * effective, effective, z)  # type: ignore[arg-type]  # fractional games


def deal_categories(deals: Sequence[Sequence[float]]) -> dict[str, int]:
    """Count the deals won from both seats, split (one game each), lost from both, and the others.

    Args:
        deals: per deal, the player's points in each of its games (1 a win, 0.5 a draw, 0 a loss).

    Returns:
        ``{"won_both", "split", "lost_both", "other"}`` counts; ``other`` is a deal with a draw or without
        exactly two games (an odd number of games leaves the last deal one game).
    """
    counts = dict.fromkeys(DEAL_CATEGORIES, 0)
    for points in deals:
        key = {(1, 1): "won_both", (0, 1): "split", (0, 0): "lost_both"}.get(tuple(sorted(points)), "other")
        counts[key] += 1
    return counts


def percentile_interval(values: Sequence[float], level: float = 0.95) -> tuple[float, float]:
    """The central ``level`` interval of ``values``: their ``(1 - level) / 2`` and ``(1 + level) / 2`` quantiles,
    interpolated linearly between order statistics (numpy's default ``linear`` method)."""
    if not values:
        raise ValueError("percentile_interval needs at least one value")
    ordered = sorted(values)

    def quantile(q: float) -> float:
        position = (len(ordered) - 1) * q
        below = math.floor(position)
        above = min(below + 1, len(ordered) - 1)
        return ordered[below] + (position - below) * (ordered[above] - ordered[below])

    return quantile((1 - level) / 2), quantile((1 + level) / 2)


def resample(deals: Sequence[Any], rng: random.Random) -> list[Any]:
    """As many deals as given, drawn from them with replacement (one bootstrap sample)."""
    return [deals[rng.randrange(len(deals))] for _ in deals]


def bootstrap_rating(opponents: Sequence[tuple[float, Sequence[tuple[float, float]]]], *, samples: int = 1000,
                     seed: int = 0, level: float = 0.95, prior_draws: float = 1.0,
                     opponent_samples: Sequence[Sequence[float]] | None = None) -> tuple[float, float, float]:
    """A player's rating against opponents of fixed rating (:func:`rating_against`) with a bootstrap interval
    over deals.

    Each bootstrap sample draws, for every opponent, as many deals as were played against it, with replacement
    (the two games of a deal stay together), and refits the rating; the interval is the samples' central
    ``level`` percentile interval. Without ``opponent_samples`` the opponents' ratings are held fixed and their own
    uncertainty is not in the interval; with them, sample ``k`` also rates opponent ``i`` at
    ``opponent_samples[i][k % len(opponent_samples[i])]`` (the samples of the fit that rated the opponents, drawn
    jointly), so the interval carries both. The rating itself is always the fit against the given ratings.

    Args:
        opponents: per opponent, ``(rating, deals)`` with ``deals`` a list of ``(points, games)`` (a draw is half
            a point); an opponent without deals counts for nothing.
        samples: bootstrap samples.
        seed: the resampling's seed (same inputs and seed, same interval).
        level: the interval's coverage.
        prior_draws: as in :func:`rating_against`.
        opponent_samples: per opponent, ratings drawn from its own uncertainty (None: the ratings held fixed).

    Returns:
        ``(rating, low, high)``.
    """
    played = [(rating, list(deals)) for rating, deals in opponents]  # one without deals adds nothing
    rating = rating_against(_totals(played), prior_draws=prior_draws)[0]
    rng = random.Random(seed)
    drawn = opponent_samples or [[r] for r, _ in played]
    fits = [rating_against(_totals([(drawn[i][k % len(drawn[i])], resample(deals, rng))
                                    for i, (_, deals) in enumerate(played)]), prior_draws=prior_draws)[0]
            for k in range(samples)]
    low, high = percentile_interval(fits, level) if fits else (rating, rating)
    return rating, low, high


def _totals(opponents: Sequence[tuple[float, Sequence[tuple[float, float]]]]) -> list[tuple[float, float, float]]:
    return [(rating, sum(p for p, _ in deals), sum(g for _, g in deals)) for rating, deals in opponents]


def anchored(ratings: Sequence[float], index: int, value: float) -> list[float]:
    """``ratings`` shifted so that ``ratings[index]`` is ``value`` (differences, hence odds, unchanged)."""
    shift = value - ratings[index]
    return [rating + shift for rating in ratings]


def pair_deals_matrix(n: int, pair_deals: dict[tuple[int, int], Sequence[tuple[float, float]]]) -> list[list[float]]:
    """The win matrix of :func:`bradley_terry` from each pair's deals: ``pair_deals[i, j]`` lists ``(points of i,
    games)`` per deal, a draw half a point for each."""
    wins = [[0.0] * n for _ in range(n)]
    for (i, j), deals in pair_deals.items():
        for points, games in deals:
            wins[i][j] += points
            wins[j][i] += games - points
    return wins


def bootstrap_pool(n: int, pair_deals: dict[tuple[int, int], Sequence[tuple[float, float]]], anchor: int,
                   anchor_rating: float, *, samples: int = 200, seed: int = 0,
                   level: float = 0.95) -> list[tuple[float, float, float]]:
    """Bradley-Terry ratings of ``n`` players, anchored (``anchor`` rated ``anchor_rating``), each with a
    bootstrap interval over deals.

    Each sample draws, for every pair, as many deals as it played, with replacement, refits every rating and
    re-anchors it; an interval is the central ``level`` percentile interval of one player's samples (the anchor's
    is its rating: it is the scale's zero).

    Returns:
        per player, ``(rating, low, high)``.
    """
    fit = anchored(bradley_terry(pair_deals_matrix(n, pair_deals)), anchor, anchor_rating)
    fits = pool_samples(n, pair_deals, anchor, anchor_rating, samples=samples, seed=seed)
    intervals = [percentile_interval([sample[i] for sample in fits], level) if fits else (fit[i], fit[i])
                 for i in range(n)]
    return [(rating, low, high) for rating, (low, high) in zip(fit, intervals)]


def pool_samples(n: int, pair_deals: dict[tuple[int, int], Sequence[tuple[float, float]]], anchor: int,
                 anchor_rating: float, *, samples: int = 200, seed: int = 0) -> list[list[float]]:
    """The bootstrap samples of :func:`bootstrap_pool`: per sample, every player's anchored Bradley-Terry rating
    refitted on each pair's deals drawn with replacement (the same samples for the same inputs and seed)."""
    rng = random.Random(seed)
    return [anchored(bradley_terry(pair_deals_matrix(n, {pair: resample(list(deals), rng)
                                                         for pair, deals in pair_deals.items()})),
                     anchor, anchor_rating) for _ in range(samples)]
