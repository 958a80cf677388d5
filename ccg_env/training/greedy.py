"""Greedy play of a masked policy: the legal action with the highest logit (league snapshots, learned agents)."""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np


def policy_logits(policy: Any, observation: np.ndarray) -> np.ndarray:
    """An SB3 actor-critic policy's action logits for one observation (no gradients, no preprocessing)."""
    import torch

    with torch.no_grad():
        features = policy.extract_features(torch.from_numpy(observation)[None], policy.pi_features_extractor)
        return policy.action_net(policy.mlp_extractor.forward_actor(features))[0].numpy()


def greedy_action(policy: Any, observation: np.ndarray, legal_ids: Sequence[int]) -> int:
    """The legal id with the highest logit; ties go to the lowest id, as an argmax over the masked policy does.

    Args:
        policy: an SB3 (Maskable) actor-critic policy in evaluation mode.
        observation: one float32 observation as the policy was trained on (normalized or not).
        legal_ids: the ids the mask allows (at least one).
    """
    ids = np.sort(np.asarray(legal_ids, dtype=np.int64))
    if ids.size == 0:
        raise ValueError("greedy_action: no legal action (an all-zero mask)")
    if ids.size == 1:
        return int(ids[0])
    return int(ids[int(np.argmax(policy_logits(policy, np.asarray(observation, dtype=np.float32))[ids]))])
