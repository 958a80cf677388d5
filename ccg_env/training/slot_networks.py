"""The slot policy's torch networks, shared by the SB3 policy and the RLlib module: slot encoder and pair head.

:class:`SlotEncoder` cuts the flat observation back into its named pieces (``ObservationEncoder.pieces``) and runs
one shared network over every hand slot, one over every own minion and one over every enemy minion (a card is
understood the same way in every slot), one per hero, and a context network over the remaining globals (mana,
counts, turn, secrets...) and the slot embeddings summed per zone. Empty slots embed to zero. With
``attention_layers``, transformer layers (:class:`EntityAttention`) let every slot and hero embedding attend to the
others before they are pooled. Its output, in this order, is::

    context (global_dim) | hand (H x slot_dim) | own minions (B x slot_dim) | enemy minions (B x slot_dim)
    | own hero (slot_dim) | enemy hero (slot_dim)

:class:`PairwiseActionHead` scores the fixed action layout from those features per (source, target) slot pair.
Torch only: :mod:`ccg_env.training.policy` wraps these for stable-baselines3, :mod:`ccg_env.rllib.slot_module`
for RLlib.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
import torch
from torch import nn

SLOT_PIECES = ("own_hand", "own_battlefield", "enemy_battlefield")
HERO_PIECES = ("own_hero", "enemy_hero")


def observation_scale(high: np.ndarray) -> np.ndarray:
    """Divide small-range features by their bound and large-range ones (health, counts) by 10."""
    return (1.0 / np.clip(high, 1.0, 10.0)).astype(np.float32)


def input_gain(encoder_high: np.ndarray, normalized: bool) -> np.ndarray:
    """Per-feature factor turning the env's observation into ``raw value / min(bound, 10)``.

    The env's normalized observation is ``raw / bound``, which leaves health 30 at 0.3 and attack 3 at 0.03
    (the stat bound is 100) beside one-hot columns at 1; this gain makes them 3.0 and 0.3.

    Args:
        encoder_high: ``ObservationEncoder.high`` (the raw bounds).
        normalized: whether the env scales observations into ``[0, 1]`` (``normalize_observations``).
    """
    high = np.asarray(encoder_high, dtype=np.float32)
    return ((high if normalized else 1.0) * observation_scale(high)).astype(np.float32)


def _mlp(sizes: Sequence[int]) -> nn.Sequential:
    layers: list[nn.Module] = []
    for a, b in zip(sizes[:-1], sizes[1:]):
        layers += [nn.Linear(a, b), nn.ReLU()]
    return nn.Sequential(*layers)


def _parse_pieces(pieces: Sequence[Sequence]) -> dict[str, tuple[int, int, tuple[int, ...]]]:
    """``(name, start, stop, shape)`` rows -> name -> (start, stop, shape); the needed pieces must be there."""
    parsed = {str(n): (int(a), int(b), tuple(int(s) for s in shape)) for n, a, b, shape in pieces}
    missing = sorted(set(SLOT_PIECES + HERO_PIECES) - set(parsed))
    if missing:
        raise ValueError(f"the observation has no pieces {missing}; got {list(parsed)}")
    return parsed


class EntityAttention(nn.Module):
    """One pre-norm transformer layer over the entity embeddings (hand slots, minions, heroes).

    Written out with batched matrix products: for 26 tokens this is several times faster on a CPU than torch's
    fused attention kernels, which are tuned for long sequences.

    Args:
        dim: size of an entity embedding.
        heads: attention heads (``dim`` must divide by it).
        hidden: size of the feed-forward layer.
    """

    def __init__(self, dim: int, heads: int, hidden: int) -> None:
        super().__init__()
        if dim % heads:
            raise ValueError(f"attention: the embedding size {dim} does not divide into {heads} heads")
        self.heads = heads
        self.norm_in, self.norm_out = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.qkv, self.out = nn.Linear(dim, 3 * dim), nn.Linear(dim, dim)
        self.feed_forward = nn.Sequential(nn.Linear(dim, hidden), nn.ReLU(), nn.Linear(hidden, dim))

    def forward(self, tokens: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
        """``tokens`` (N, T, dim); ``bias`` (N, 1, 1, T) added to the scores: -inf hides a token as a key."""
        n, t, dim = tokens.shape
        q, k, v = self.qkv(self.norm_in(tokens)).view(n, t, 3, self.heads, dim // self.heads).permute(2, 0, 3, 1, 4)
        scores = (q @ k.transpose(-1, -2)) * (dim // self.heads) ** -0.5 + bias
        mixed = (scores.softmax(-1) @ v).transpose(1, 2).reshape(n, t, dim)
        tokens = tokens + self.out(mixed)
        return tokens + self.feed_forward(self.norm_out(tokens))


class SlotEncoder(nn.Module):
    """Per-slot, per-hero and context embeddings, concatenated in the order given in the module docstring.

    Args:
        high: the upper bounds of the observation the encoder reads (used for the default gain).
        pieces: ``(name, start, stop, shape)`` for every piece, as ``ObservationEncoder.pieces`` gives them.
        slot_dim: size of one slot's (and one hero's) embedding.
        global_dim: size of the context embedding.
        gain: per-feature input factor (:func:`input_gain`); None divides by ``min(bound, 10)`` as for raw
            observations.
        attention_layers: :class:`EntityAttention` layers over the slot and hero embeddings (each with a learned
            embedding of its place), before they are pooled and scored: each card and minion is then seen beside
            the others (0: none, each slot on its own).
        attention_heads: heads of each attention layer.
    """

    def __init__(self, high: np.ndarray, pieces: Sequence[Sequence], slot_dim: int = 48, global_dim: int = 128,
                 gain: Sequence[float] | None = None, attention_layers: int = 0, attention_heads: int = 4) -> None:
        nn.Module.__init__(self)  # not super(): the SB3 extractor mixes this class with its own base
        parsed = _parse_pieces(pieces)
        global_index = np.concatenate([np.arange(a, b) for n, (a, b, _) in parsed.items() if n not in SLOT_PIECES])
        self.hand_slots = parsed["own_hand"][2][0]
        self.field_slots = parsed["own_battlefield"][2][0]
        self.slot_dim, self.global_dim = slot_dim, global_dim
        n_entities = self.hand_slots + 2 * self.field_slots + len(HERO_PIECES)
        self.output_dim = global_dim + n_entities * slot_dim
        scale = observation_scale(np.asarray(high)) if gain is None else np.asarray(gain, dtype=np.float32)
        self.register_buffer("scale", torch.as_tensor(scale))
        self.register_buffer("global_index", torch.as_tensor(global_index, dtype=torch.long))
        self.slot_ranges = {n: parsed[n] for n in SLOT_PIECES}
        for name, (start, stop, shape) in self.slot_ranges.items():  # each slot's "present" column
            self.register_buffer(f"present_{name}", torch.arange(start, stop, shape[1], dtype=torch.long))
        self.hero_ranges = {n: parsed[n][:2] for n in HERO_PIECES}
        self.slot_nets = nn.ModuleDict({n: _mlp([shape[1], slot_dim, slot_dim])
                                        for n, (_, _, shape) in self.slot_ranges.items()})
        self.hero_nets = nn.ModuleDict({n: _mlp([b - a, slot_dim, slot_dim]) for n, (a, b) in self.hero_ranges.items()})
        self.context_net = _mlp([len(global_index) + len(SLOT_PIECES) * slot_dim, global_dim, global_dim])
        self.attention_layers = attention_layers
        if attention_layers:
            self.token_embedding = nn.Parameter(torch.zeros(n_entities, slot_dim))
            self.attention = nn.ModuleList(EntityAttention(slot_dim, attention_heads, 2 * slot_dim)
                                           for _ in range(attention_layers))

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        # Only the occupied slots go through their network, each scaled as it is cut out: in training about a third
        # of the slots hold a card, and the empty ones embed to zero without being computed.
        scale = self.scale
        slots, presents = [], []
        for name, (start, stop, shape) in self.slot_ranges.items():
            occupied = observations.index_select(1, getattr(self, f"present_{name}")) > 0  # (N, slots)
            sample, slot = occupied.nonzero(as_tuple=True)
            rows = observations[:, start:stop].reshape(-1, *shape)[sample, slot] * scale[start:stop].view(shape)[slot]
            computed = self.slot_nets[name](rows)
            slots.append(computed.new_zeros(*occupied.shape, self.slot_dim).index_put((sample, slot), computed))
            presents.append(occupied.to(rows.dtype)[..., None])
        heroes = [self.hero_nets[name](observations[:, start:stop] * scale[start:stop])
                  for name, (start, stop) in self.hero_ranges.items()]
        if self.attention_layers:
            slots, heroes = self._attend(slots, presents, heroes)
        pooled = [embedded.sum(1) for embedded in slots]
        global_features = observations.index_select(1, self.global_index) * scale.index_select(0, self.global_index)
        context = self.context_net(torch.cat([global_features, *pooled], dim=1))
        return torch.cat([context, *(embedded.flatten(1) for embedded in slots), *heroes], dim=1)

    def _attend(self, slots: list[torch.Tensor], presents: list[torch.Tensor],
                heroes: list[torch.Tensor]) -> tuple[list[torch.Tensor], list[torch.Tensor]]:
        """The slot and hero embeddings after the attention layers; empty slots are hidden and come out as 0."""
        present = torch.cat([*presents, presents[0].new_ones(len(presents[0]), len(heroes), 1)], dim=1)  # (N, T, 1)
        bias = torch.zeros_like(present).masked_fill(present == 0, float("-inf")).mT[:, None]  # (N, 1, 1, T)
        tokens = torch.cat([*slots, torch.stack(heroes, dim=1)], dim=1) + self.token_embedding
        for layer in self.attention:
            tokens = layer(tokens, bias)
        *slots, hero_tokens = torch.split(tokens * present, [*(s.shape[1] for s in slots), len(heroes)], dim=1)
        return slots, list(hero_tokens.unbind(1))


def _dot_pairs(sources: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    """``(N, S, K) x (N, T, K) -> (N, S * T)`` dot products, source-major as in the action layout."""
    return torch.bmm(sources, targets.mT).flatten(1)


class PairwiseActionHead(nn.Module):
    """Logits of the fixed action layout (``ccg_env.env.codec``) scored per (source, target) pair.

    Each source (a hand slot; or an attacker: own hero, then own minions; or the own hero using its hero power)
    and each target (no target, own hero, own minions, enemy hero, enemy minions; or a defender: enemy hero, then
    enemy minions) is mapped, together with the context, to a key of ``head_dim`` numbers by a small network;
    the logit of a pair is the dot product of its source's and target's keys (as attention scores, or a pointer
    network). This costs one small network per slot rather than per pair. End turn is a linear function of the
    context; putting back hand slot ``h`` in the mulligan is a linear function of that slot's embedding plus one of
    the context (which holds the in-mulligan flag and the marks).

    Args:
        hand_slots, field_slots: H and B of the layout.
        slot_dim, global_dim: the extractor's embedding sizes.
        head_dim: size of the keys.
    """

    def __init__(self, hand_slots: int, field_slots: int, slot_dim: int, global_dim: int, head_dim: int = 32) -> None:
        super().__init__()
        self.hand_slots, self.field_slots = hand_slots, field_slots
        self.slot_dim, self.global_dim = slot_dim, global_dim
        self.no_target = nn.Parameter(torch.zeros(slot_dim))
        roles = ("card", "card_target", "attacker", "defender", "power", "power_target")
        self.entity_in = nn.ModuleDict({role: nn.Linear(slot_dim, head_dim) for role in roles})
        self.context_in = nn.Linear(global_dim, len(roles) * head_dim)
        self.key_out = nn.ModuleDict({role: nn.Linear(head_dim, head_dim) for role in roles})
        self.end_turn = nn.Linear(global_dim, 1)
        self.mulligan_slot = nn.Linear(slot_dim, 1)
        self.mulligan_context = nn.Linear(global_dim, hand_slots)
        for layer in (self.key_out["card"], self.key_out["attacker"], self.key_out["power"], self.end_turn,
                      self.mulligan_slot, self.mulligan_context):
            nn.init.orthogonal_(layer.weight, gain=0.01)  # start near the uniform policy, as SB3's action_net
            nn.init.zeros_(layer.bias)

    @property
    def size(self) -> int:
        """Number of actions: ``1 + H * T + (1 + B) ** 2 + T + H`` with ``T = 3 + 2B`` target slots."""
        targets = 3 + 2 * self.field_slots
        return 1 + self.hand_slots * targets + (1 + self.field_slots) ** 2 + targets + self.hand_slots

    def split(self, features: torch.Tensor) -> tuple[torch.Tensor, ...]:
        """Context ``(N, G)``, hand ``(N, H, S)``, own and enemy minions ``(N, B, S)``, heroes ``(N, S)``."""
        h, b, s = self.hand_slots, self.field_slots, self.slot_dim
        sizes = [self.global_dim, h * s, b * s, b * s, s, s]
        context, hand, own, enemy, own_hero, enemy_hero = torch.split(features, sizes, dim=1)
        return (context, hand.reshape(-1, h, s), own.reshape(-1, b, s), enemy.reshape(-1, b, s), own_hero,
                enemy_hero)

    def _keys(self, entities: torch.Tensor, role: str, context_part: torch.Tensor) -> torch.Tensor:
        """``key_out(relu(entity_in(e) + context_in(c)))`` for every entity of a role: ``(N, count, head_dim)``."""
        return self.key_out[role](torch.relu(self.entity_in[role](entities) + context_part[:, None]))

    def forward(self, features: torch.Tensor) -> torch.Tensor:
        context, hand, own, enemy, own_hero, enemy_hero = self.split(features)
        card, card_target, attacker, defender, power, power_target = self.context_in(context).chunk(6, dim=1)
        no_target = self.no_target.expand(len(features), 1, self.slot_dim)
        targets = torch.cat([no_target, own_hero[:, None], own, enemy_hero[:, None], enemy], dim=1)
        attackers = torch.cat([own_hero[:, None], own], dim=1)
        defenders = torch.cat([enemy_hero[:, None], enemy], dim=1)
        play = _dot_pairs(self._keys(hand, "card", card), self._keys(targets, "card_target", card_target))
        attack = _dot_pairs(self._keys(attackers, "attacker", attacker), self._keys(defenders, "defender", defender))
        hero_power = _dot_pairs(self._keys(own_hero[:, None], "power", power),
                                self._keys(targets, "power_target", power_target))
        mulligan = self.mulligan_slot(hand).squeeze(-1) + self.mulligan_context(context)
        return torch.cat([self.end_turn(context), play, attack, hero_power, mulligan], dim=1)


def critic_feature_indices(encoder: SlotEncoder) -> list[int]:
    """The features a pooled value network reads: the context and the two heroes (not the per-slot embeddings)."""
    heroes = len(HERO_PIECES) * encoder.slot_dim
    return [*range(encoder.global_dim), *range(encoder.output_dim - heroes, encoder.output_dim)]


__all__ = ["HERO_PIECES", "SLOT_PIECES", "PairwiseActionHead", "SlotEncoder", "critic_feature_indices",
           "input_gain", "observation_scale"]
