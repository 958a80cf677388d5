"""A per-slot policy for MaskablePPO: shared encoders over the hand and battlefield slots, pairwise action scores.

:class:`SlotEncoderExtractor` is :class:`~ccg_env.training.slot_networks.SlotEncoder` (shared networks over the
hand slots, own and enemy minions and heroes, and a context network; its docstring gives the feature layout) as an
SB3 features extractor. :class:`SlotPolicy` puts :class:`~ccg_env.training.slot_networks.PairwiseActionHead` on
those features instead of one linear layer over a flat vector: the logit of "play hand slot h at target t" is the
dot product of a key computed from (embedding of h, context) and one from (embedding of t, context), and likewise
"attack with a at d", so what is learned about one slot pair carries over to every other. The value network is the
usual MLP over the same features (or the pooled ones, ``pooled_value``). :class:`ScaledFlattenExtractor` is the
plain ``MlpPolicy`` input with the same per-feature gain (:func:`input_gain`). Build either through
``ccg_env.training.train`` (``policy: slot`` or ``mlp``, and ``rescale_inputs``); saved models load with
``MaskablePPO.load`` as long as this module is importable."""

from __future__ import annotations

from typing import Any, Sequence

import gymnasium
import numpy as np
import torch
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor, MlpExtractor

from .legal_distribution import LegalActionsDistribution
from .slot_networks import (HERO_PIECES, SLOT_PIECES, PairwiseActionHead, SlotEncoder, critic_feature_indices,
                            input_gain, observation_scale)


class ScaledFlattenExtractor(BaseFeaturesExtractor):
    """The flat observation times a fixed per-feature gain (see :func:`input_gain`), for ``MlpPolicy``.

    Args:
        observation_space: the flat float32 Box of the observation.
        gain: one factor per feature.
    """

    def __init__(self, observation_space: gymnasium.spaces.Box, gain: Sequence[float]) -> None:
        super().__init__(observation_space, int(np.prod(observation_space.shape)))
        gain = torch.as_tensor(np.asarray(gain, dtype=np.float32))
        if gain.shape != (self.features_dim,):
            raise ValueError(f"gain: expected {self.features_dim} factors (one per feature), got {tuple(gain.shape)}")
        self.register_buffer("gain", gain)

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        return observations.flatten(1) * self.gain


class SlotEncoderExtractor(SlotEncoder, BaseFeaturesExtractor):
    """:class:`~ccg_env.training.slot_networks.SlotEncoder` as an SB3 features extractor.

    Args:
        observation_space: the flat float32 Box of the observation.
        pieces, slot_dim, global_dim, gain: as for :class:`~ccg_env.training.slot_networks.SlotEncoder`.
    """

    def __init__(self, observation_space: gymnasium.spaces.Box, pieces: Sequence[Sequence], slot_dim: int = 48,
                 global_dim: int = 128, gain: Sequence[float] | None = None) -> None:
        SlotEncoder.__init__(self, observation_space.high, pieces, slot_dim, global_dim, gain)
        self._observation_space, self._features_dim = observation_space, self.output_dim


class CriticSubsetMlpExtractor(MlpExtractor):
    """SB3's :class:`MlpExtractor` whose value network reads only some of the features (``critic_features``).

    The slot policy's value network then sees the context (which holds every zone's pooled slot embeddings) and
    the two heroes rather than every slot's embedding: a first layer about six times smaller, in the part of the
    update that costs most per sample.
    """

    def __init__(self, feature_dim: int, critic_features: Sequence[int], net_arch: Any, activation_fn: Any,
                 device: Any = "auto") -> None:
        super().__init__(feature_dim, net_arch, activation_fn, device)
        critic = MlpExtractor(len(critic_features), net_arch, activation_fn, device)
        self.value_net, self.latent_dim_vf = critic.value_net, critic.latent_dim_vf
        self.register_buffer("critic_features", torch.as_tensor(list(critic_features), dtype=torch.long))

    def forward_critic(self, features: torch.Tensor) -> torch.Tensor:
        return self.value_net(features.index_select(1, self.critic_features))


class SlotPolicy(MaskableActorCriticPolicy):
    """MaskableActorCriticPolicy with :class:`SlotEncoderExtractor` features and a :class:`PairwiseActionHead`.

    Give ``features_extractor_kwargs={"pieces": ..., "slot_dim": ..., "global_dim": ...}``; the actor uses
    the features directly (``net_arch`` sizes the value network only) unless ``pairwise=False``, which keeps
    SB3's MLP and linear action layer on top of the slot features. Actions are drawn from a
    :class:`~ccg_env.training.legal_distribution.LegalActionsCategorical` (illegal actions exactly 0, fast kernels).

    Args:
        head_dim: size of the pair head's keys.
        pairwise: score actions per slot pair (True) or with one linear layer (False).
        pooled_value: the value network reads the context and the heroes only (:class:`CriticSubsetMlpExtractor`)
            instead of every feature.
    """

    def __init__(self, *args: Any, head_dim: int = 32, pairwise: bool = True, pooled_value: bool = False,
                 **kwargs: Any) -> None:
        self.head_dim, self.pairwise, self.pooled_value = head_dim, pairwise, pooled_value
        kwargs.setdefault("features_extractor_class", SlotEncoderExtractor)
        net_arch = kwargs.get("net_arch")
        if pairwise and isinstance(net_arch, list):
            kwargs["net_arch"] = {"pi": [], "vf": list(net_arch)}
        super().__init__(*args, **kwargs)

    def _build_mlp_extractor(self) -> None:
        if not self.pooled_value:
            return super()._build_mlp_extractor()
        critic_features = critic_feature_indices(self.features_extractor)
        self.mlp_extractor = CriticSubsetMlpExtractor(self.features_dim, critic_features, self.net_arch,
                                                      self.activation_fn, self.device)

    def _build(self, lr_schedule: Any) -> None:
        self.action_dist = LegalActionsDistribution(int(self.action_space.n))
        super()._build(lr_schedule)
        if not self.pairwise:
            return
        extractor = self.features_extractor
        head = PairwiseActionHead(extractor.hand_slots, extractor.field_slots, extractor.slot_dim,
                                  extractor.global_dim, self.head_dim)
        if head.size != self.action_space.n:
            raise ValueError(f"SlotPolicy: the pair head scores {head.size} actions but the action space has "
                             f"{self.action_space.n} (a layout other than ccg_env.env.codec's?)")
        self.action_net = head
        self.optimizer = self.optimizer_class(self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs)

    def _get_constructor_parameters(self) -> dict[str, Any]:
        data = super()._get_constructor_parameters()
        data.update(head_dim=self.head_dim, pairwise=self.pairwise, pooled_value=self.pooled_value)
        return data


__all__ = ["HERO_PIECES", "SLOT_PIECES", "CriticSubsetMlpExtractor", "PairwiseActionHead", "ScaledFlattenExtractor",
           "SlotEncoderExtractor", "SlotPolicy", "input_gain", "observation_scale"]
