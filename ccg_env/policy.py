"""A per-slot policy encoder for MaskablePPO: shared networks over hand and battlefield slots, then an MLP.

The flat observation is cut back into its named pieces (``ObservationEncoder.pieces``). Every hand slot goes
through one shared network, every own minion through another and every enemy minion through a third, so a
card is understood the same way in every slot; the slot embeddings stay in slot order (the action layout
refers to slots) and are also pooled. Globals (heroes, mana, counts) get their own small network.
"""

from __future__ import annotations

from typing import Sequence

import gymnasium
import numpy as np
import torch
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from torch import nn

SLOT_PIECES = ("own_hand", "own_battlefield", "enemy_battlefield")


def observation_scale(high: np.ndarray) -> np.ndarray:
    """Divide small-range features by their bound and large-range ones (health, counts) by 10."""
    return (1.0 / np.clip(high, 1.0, 10.0)).astype(np.float32)


def _mlp(sizes: Sequence[int]) -> nn.Sequential:
    layers: list[nn.Module] = []
    for a, b in zip(sizes[:-1], sizes[1:]):
        layers += [nn.Linear(a, b), nn.ReLU()]
    return nn.Sequential(*layers)


class SlotEncoderExtractor(BaseFeaturesExtractor):
    """Features = [globals MLP, each slot's embedding in slot order, sum-pooled slot embeddings per zone].

    Args:
        observation_space: the flat float32 Box of the observation.
        pieces: ``(name, start, stop, shape)`` for every piece, as ``ObservationEncoder.pieces`` gives them.
        slot_dim: size of one slot's embedding.
        global_dim: size of the globals' embedding.
    """

    def __init__(self, observation_space: gymnasium.spaces.Box, pieces: Sequence[Sequence], slot_dim: int = 48,
                 global_dim: int = 128) -> None:
        pieces = [(str(n), int(a), int(b), tuple(int(s) for s in shape)) for n, a, b, shape in pieces]
        slots = {n: (a, b, shape) for n, a, b, shape in pieces if n in SLOT_PIECES}
        missing = set(SLOT_PIECES) - set(slots)
        if missing:
            raise ValueError(f"the observation has no pieces {sorted(missing)}; got {[p[0] for p in pieces]}")
        global_index = np.concatenate([np.arange(a, b) for n, a, b, _ in pieces if n not in SLOT_PIECES])
        n_slots = sum(shape[0] for _, _, shape in slots.values())
        features = global_dim + n_slots * slot_dim + len(SLOT_PIECES) * slot_dim
        super().__init__(observation_space, features)
        self.register_buffer("scale", torch.as_tensor(observation_scale(observation_space.high)))
        self.register_buffer("global_index", torch.as_tensor(global_index, dtype=torch.long))
        self.slot_ranges = {n: (a, b, shape) for n, (a, b, shape) in slots.items()}
        self.global_net = _mlp([len(global_index), global_dim, global_dim])
        self.slot_nets = nn.ModuleDict({n: _mlp([shape[1], slot_dim, slot_dim]) for n, (_, _, shape) in slots.items()})

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        x = observations * self.scale
        parts = [self.global_net(x.index_select(1, self.global_index))]
        pooled = []
        for name, (start, stop, shape) in self.slot_ranges.items():
            rows = x[:, start:stop].reshape(-1, *shape)
            present = (observations[:, start:stop].reshape(-1, *shape)[..., :1] > 0).float()
            embedded = self.slot_nets[name](rows) * present  # empty slots contribute nothing
            parts.append(embedded.flatten(1))
            pooled.append(embedded.sum(1))
        return torch.cat(parts + pooled, dim=1)
