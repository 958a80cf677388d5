"""Tournament statistics: Bradley-Terry ratings fitted by MM iterations, and Wilson score intervals (from
:mod:`ccg_env.intervals`)."""

from __future__ import annotations

import math
from typing import Sequence

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
