"""Wilson score intervals for win rates, shared by the training curves and the arena's statistics."""

from __future__ import annotations

import math

#: Two-sided 95% normal quantile.
Z95 = 1.959963984540054


def wilson_interval(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (``(0, 1)`` when there are no trials).

    Args:
        successes: number of successes (may be fractional, e.g. wins plus half the draws).
        trials: number of trials.
        z: normal quantile; the default gives a 95% interval.
    """
    if trials <= 0:
        return 0.0, 1.0
    if not 0 <= successes <= trials:
        raise ValueError(f"successes must be within [0, trials={trials}], got {successes}")
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)
