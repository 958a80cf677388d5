"""Greedy play of a masked policy: the legal action with the highest logit (league snapshots, learned agents, RLlib).

Both training backends choose through :func:`greedy_rows`: an SB3 policy's logits (:func:`batch_logits`) and an RLlib
module's (``ccg_env.rllib.modules.module_logits``) alike, so a model plays the same action whichever file it comes in.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np


def batch_logits(policy: Any, observations: np.ndarray) -> np.ndarray:
    """An SB3 actor-critic policy's action logits for a batch of observations, shape ``(n, size)`` (no gradients, no
    preprocessing)."""
    import torch

    with torch.no_grad():
        features = policy.extract_features(torch.from_numpy(observations), policy.pi_features_extractor)
        return policy.action_net(policy.mlp_extractor.forward_actor(features)).numpy()


def greedy_rows(logits: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """For each row, the id with the highest logit among those its mask allows; ties go to the lowest id, as an argmax
    over the masked policy does; a row with no legal id (a finished game) gets 0."""
    allowed = np.asarray(masks).astype(bool)
    best = np.where(allowed, logits, -np.inf).argmax(axis=1)
    return np.where(allowed.any(axis=1), best, 0)


def best_legal(logits: np.ndarray, legal_ids: Sequence[int]) -> int:
    """The legal id with the highest of ``logits`` (:func:`greedy_rows` for one row of ids)."""
    if len(legal_ids) == 0:
        raise ValueError("best_legal: no legal action (an all-zero mask)")
    allowed = np.zeros((1, logits.shape[-1]), dtype=bool)
    allowed[0, np.asarray(legal_ids, dtype=np.int64)] = True
    return int(greedy_rows(np.asarray(logits)[None], allowed)[0])

