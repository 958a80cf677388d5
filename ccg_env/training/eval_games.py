"""Training evaluation on the arena's protocol: a policy plays balanced deals against one opponent, in a batch.

Both backends evaluate through :func:`play_deals`: the games are the arena's (:mod:`ccg_env.env.deals`), so a run's
``eval.csv`` measures what ``ccg-env arena`` measures. With decks drawn from the packaged pool, every ordered deck
pair is played from both seats (whole cycles of 98 games with the 7 packaged decks); a run that fixes its deck
pair, its seat or drafts its decks keeps that, and the rest is balanced. Each deal's game comes from its own seed,
so the results do not depend on how many games run side by side.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Callable

import numpy as np

from ..env.deals import balanced_deals


def play_deals(batch: Any, act: Callable[[np.ndarray, np.ndarray], Any], games: int, seed: int) -> Counter:
    """Play ``games`` games on ``batch``'s duels (a ``DuelBatch``) and count their outcomes.

    ``act(observations, masks)`` gets the rows of the games still running (observations as the duels write
    them; int8 masks) and returns one action id per row.
    """
    core, duels = batch.setup.core, batch.duels
    pool = core.deck_pool
    deals = iter(balanced_deals(games, seed, len(pool), batch.setup.seat))
    outcomes: Counter = Counter()

    def start(slot: int) -> bool:
        deal = next(deals, None)
        if deal is None:
            return False
        options: dict[str, Any] = {"seat": deal.seat}
        if deal.decks is not None:
            options["decks"] = (pool[deal.decks[0]], pool[deal.decks[1]])
        duels[slot].reset(np.random.default_rng(deal.seed), options)
        return True

    running = [slot for slot in range(batch.num_envs) if start(slot)]
    while running:
        actions = act(batch.observations[running], batch.masks[running])
        still = []
        for slot, action in zip(running, np.asarray(actions).reshape(-1).tolist()):
            _, terminated, truncated = duels[slot].step(int(action))
            if terminated or truncated:
                outcomes[duels[slot].outcome] += 1
                if not start(slot):
                    continue
            still.append(slot)
        running = still
    return outcomes


__all__ = ["play_deals"]
