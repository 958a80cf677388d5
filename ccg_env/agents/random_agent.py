"""RandomAgent: picks uniformly among the legal action ids, from its own seeded generator."""

from __future__ import annotations

import random
from typing import Any

import numpy as np


class RandomAgent:
    """Uniform over the action mask; ``reset(seed)`` makes its picks reproducible."""

    #: drafts too: its ``act`` picks uniformly among the offered cards (the draft mask)
    can_draft = True

    def __init__(self, seed: int | None = None, name: str = "random") -> None:
        self.name = name
        self._rng = random.Random(seed)

    def act(self, observation: Any, action_mask: np.ndarray, view: Any = None) -> int:
        """Return a uniformly random id among those with ``action_mask[id] == 1``."""
        legal = np.flatnonzero(action_mask)
        if legal.size == 0:
            raise ValueError("RandomAgent.act got an all-zero action mask: no legal action to pick")
        return int(legal[self._rng.randrange(legal.size)])

    def reset(self, seed: int | None = None) -> None:
        """Reseed the generator."""
        self._rng = random.Random(seed)
