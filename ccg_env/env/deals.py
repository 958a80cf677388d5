"""The arena's deals: every ordered deck pair of a pool, each from both seats, round by round, with fixed seeds.

One protocol for every win rate the project reports: ``ccg_env.agents.arena`` schedules its tournaments with
:func:`deck_pairs`, and training evaluations (``ccg_env.training.eval_games``) play :func:`balanced_deals`.
Deck pairs run in rounds (round ``r`` deals deck ``i`` to seat 0 against deck ``(i + r) % n`` to seat 1, for every
``i``), so after ``2 * n`` games every deck has been played from each seat equally often, and after a whole cycle
of ``2 * n * n`` games every ordered pair from both seats once.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Deal:
    """One evaluation game: its generator seed, the deck of each seat and the learner's seat.

    ``decks`` are indices into the deck pool (seat 0, seat 1), or None where the decks are not dealt from a pool
    (a fixed pair, or a draft).
    """

    seed: int
    decks: tuple[int, int] | None
    seat: int


def deck_pairs(n_decks: int) -> list[tuple[int, int]]:
    """Every ordered pair of deck indices (seat 0, seat 1), round by round: round ``r`` is ``(i, (i + r) % n)``."""
    return [(i, (i + r) % n_decks) for r in range(n_decks) for i in range(n_decks)]


def balanced_deals(games: int, seed: int, n_decks: int, seat: int | None = None) -> list[Deal]:
    """The arena's first ``games`` games of a pair, seen from its first agent (the learner).

    Game ``k`` is deal ``k // 2`` (seed ``seed + k // 2``, the ``k // 2``-th of :func:`deck_pairs`, cycling) with
    the learner in seat ``k % 2``; ``seat`` fixes the learner's seat instead, and ``n_decks=0`` deals no decks.
    """
    if isinstance(games, bool) or not isinstance(games, int) or games < 0:
        raise ValueError(f"games: expected a whole number >= 0, got {games!r}")
    if seat not in (None, 0, 1):
        raise ValueError(f"seat: expected None, 0 or 1, got {seat!r}")
    pairs = deck_pairs(n_decks)
    return [Deal(seed + k // 2, pairs[(k // 2) % len(pairs)] if pairs else None, k % 2 if seat is None else seat)
            for k in range(games)]


__all__ = ["Deal", "balanced_deals", "deck_pairs"]
