"""``SlotPPOTorchRLModule``: the SB3 slot policy's networks as a masked RLlib PPO module.

The same torch networks as ``policy: slot`` in the SB3 backend (:mod:`ccg_env.training.slot_networks`): a
:class:`~ccg_env.training.slot_networks.SlotEncoder` reads the observation by slots (one shared network per zone's
slots, one per hero, a context network), a :class:`~ccg_env.training.slot_networks.PairwiseActionHead` scores every
action as a (source slot, target slot) pair, and the value network is an MLP over the context and the two heroes
(SB3's ``pooled_value``). As in :class:`~ccg_env.rllib.modules.MaskedPPOTorchRLModule`, ``log(mask)`` is added to
the logits, so a masked-out action is never drawn nor chosen.

``model_config`` keys (:func:`slot_model_config` builds them from an env core): ``pieces`` (the observation's
``[name, start, stop, shape]`` rows, ``ObservationEncoder.pieces``), ``gain`` (one input factor per observation
entry, or None for 1), ``slot_dim``, ``global_dim``, ``head_dim``, ``value_hiddens``, ``attention_layers``
(transformer layers over the entity embeddings, 0 for none: ``SlotEncoder``).
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np
import torch
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.apis.value_function_api import ValueFunctionAPI
from ray.rllib.core.rl_module.torch import TorchRLModule
from torch import nn

from ..training.slot_networks import PairwiseActionHead, SlotEncoder, critic_feature_indices, input_gain
from .modules import CategoricalActions, _vector_space, masked_logits, split_observation

#: Default sizes (those of the SB3 backend's shipped slot policy).
SLOT_DEFAULTS = {"slot_dim": 48, "global_dim": 128, "head_dim": 32, "value_hiddens": [256, 256], "attention_layers": 0}


def slot_model_config(core: Any, options: dict[str, Any] | None = None, value_hiddens: Sequence[int] = (256, 256),
                      rescale_inputs: bool = True) -> dict[str, Any]:
    """The ``model_config`` of a slot module for ``core``'s observation (``options``: slot_dim, global_dim, head_dim,
    attention_layers).

    ``rescale_inputs``: feed stats as value / 10 rather than the env's value / bound (``input_gain``).
    """
    encoder = core.encoder
    pieces = [[p.name, p.start, p.stop, list(p.shape)] for p in encoder.pieces]
    gain = input_gain(encoder.high, normalized=True).tolist() if rescale_inputs else None
    return {**SLOT_DEFAULTS, **dict(options or {}), "value_hiddens": list(value_hiddens), "pieces": pieces,
            "gain": gain}


def _value_net(inputs: int, hiddens: Sequence[int]) -> nn.Sequential:
    layers: list[nn.Module] = []
    for size in hiddens:
        layers += [nn.Linear(inputs, size), nn.Tanh()]
        inputs = size
    layers.append(nn.Linear(inputs, 1))
    return nn.Sequential(*layers)


class SlotPPOTorchRLModule(CategoricalActions, TorchRLModule, ValueFunctionAPI):
    """Masked PPO over the slot encoder and pair head (see the module documentation)."""

    def setup(self) -> None:
        config = {**SLOT_DEFAULTS, **dict(self.model_config or {})}
        space = _vector_space(self.observation_space)
        if "pieces" not in config:
            raise ValueError("SlotPPOTorchRLModule: model_config needs 'pieces' (the observation's pieces; build it "
                             "with ccg_env.rllib.slot_module.slot_model_config)")
        gain = config.get("gain")
        self.encoder = SlotEncoder(space.high, config["pieces"], int(config["slot_dim"]), int(config["global_dim"]),
                                   np.ones(space.shape, dtype=np.float32) if gain is None else gain,
                                   attention_layers=int(config["attention_layers"]))
        self.pi = PairwiseActionHead(self.encoder.hand_slots, self.encoder.field_slots, self.encoder.slot_dim,
                                     self.encoder.global_dim, int(config["head_dim"]))
        if self.pi.size != self.action_space.n:
            raise ValueError(f"SlotPPOTorchRLModule: the pair head scores {self.pi.size} actions but the action "
                             f"space has {self.action_space.n} (a layout other than ccg_env.env.codec's?)")
        critic = critic_feature_indices(self.encoder)
        self.register_buffer("critic_features", torch.as_tensor(critic, dtype=torch.long))
        self.vf = _value_net(len(critic), [int(n) for n in config["value_hiddens"]])

    def _logits_and_features(self, batch: dict[str, Any]) -> tuple[torch.Tensor, torch.Tensor]:
        mask, batch = split_observation(batch)
        features = self.encoder(batch[Columns.OBS])
        return masked_logits(self.pi(features), mask), features

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        logits, _ = self._logits_and_features(batch)
        return {Columns.ACTION_DIST_INPUTS: logits}

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        logits, features = self._logits_and_features(batch)
        return {Columns.ACTION_DIST_INPUTS: logits, Columns.EMBEDDINGS: features}

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> torch.Tensor:
        if embeddings is None:
            embeddings = self.encoder(split_observation(batch)[1][Columns.OBS])
        return self.value_from_features(embeddings)

    def value_from_features(self, features: torch.Tensor) -> torch.Tensor:
        """The value of each row from the encoder's features (the context and hero embeddings)."""
        return self.vf(features.index_select(1, self.critic_features)).squeeze(-1)


__all__ = ["SLOT_DEFAULTS", "SlotPPOTorchRLModule", "slot_model_config"]
