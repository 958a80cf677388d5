"""Masked RLlib modules: PPO (``MaskedPPOTorchRLModule``) and uniform random play (``MaskedRandomRLModule``).

Both read :class:`~ccg_env.rllib.env.CcgMultiAgentEnv` observations, ``{"observations": float32 vector,
"action_mask": int8 vector}``, and add ``log(mask)`` (clamped to a very negative finite number) to the action
logits, so a masked-out action has probability 0 (below ``exp(-3.4e38)``) whether the action is sampled
(exploration, training) or taken greedily (inference). The PPO module is RLlib's default PPO torch module
(an MLP encoder, policy and value heads, sized by ``model_config``: ``fcnet_hiddens``, ``head_fcnet_hiddens``...)
built over the ``observations`` part of the space; the mask only ever touches the logits.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import torch
from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import DefaultPPOTorchRLModule
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.torch import TorchRLModule
from ray.rllib.core.distribution.torch.torch_distribution import TorchCategorical
from ray.rllib.utils.torch_utils import FLOAT_MIN

from ..training.greedy import greedy_rows

OBSERVATIONS = "observations"
ACTION_MASK = "action_mask"


def split_observation(batch: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    """The action mask and a shallow copy of ``batch`` whose ``obs`` is the observation vector alone."""
    observation = batch[Columns.OBS]
    if not isinstance(observation, dict) or ACTION_MASK not in observation:
        raise ValueError(f"masked module: expected observations {{'{OBSERVATIONS}': ..., '{ACTION_MASK}': ...}} "
                         f"(CcgMultiAgentEnv's), got {type(observation).__name__}")
    return observation[ACTION_MASK], {**batch, Columns.OBS: observation[OBSERVATIONS]}


def masked_logits(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """``logits + log(mask)``, the log clamped to a finite minimum (an all-zero mask leaves logits uniform)."""
    return logits + torch.clamp(torch.log(mask.to(logits.dtype)), min=FLOAT_MIN)


def _vector_space(space: Any) -> Any:
    if isinstance(space, gymnasium.spaces.Dict) and OBSERVATIONS in space.spaces:
        return space[OBSERVATIONS]
    raise ValueError(f"masked module: expected a Dict observation space with '{OBSERVATIONS}' and "
                     f"'{ACTION_MASK}' (CcgMultiAgentEnv's), got {space!r}")


class MaskedPPOTorchRLModule(DefaultPPOTorchRLModule):
    """RLlib's default PPO torch module on the observation vector, with the action mask applied to its logits."""

    def __init__(self, *, observation_space: Any = None, **kwargs: Any) -> None:
        self.observation_space_with_mask = observation_space
        super().__init__(observation_space=_vector_space(observation_space) if observation_space is not None
                         else None, **kwargs)

    def setup(self) -> None:
        super().setup()
        if self.observation_space_with_mask is not None:  # what connectors and checks see: the Dict space
            self.observation_space = self.observation_space_with_mask

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        mask, batch = split_observation(batch)
        output = super()._forward(batch, **kwargs)
        output[Columns.ACTION_DIST_INPUTS] = masked_logits(output[Columns.ACTION_DIST_INPUTS], mask)
        return output

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        mask, batch = split_observation(batch)
        output = super()._forward_train(batch, **kwargs)
        output[Columns.ACTION_DIST_INPUTS] = masked_logits(output[Columns.ACTION_DIST_INPUTS], mask)
        return output

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> torch.Tensor:
        if embeddings is None:
            batch = split_observation(batch)[1]
        return super().compute_values(batch, embeddings)


class CategoricalActions:
    """A module mixin: the action distribution is categorical over its (masked) logits, whatever the forward pass."""

    def get_inference_action_dist_cls(self) -> type:
        return TorchCategorical

    def get_exploration_action_dist_cls(self) -> type:
        return TorchCategorical

    def get_train_action_dist_cls(self) -> type:
        return TorchCategorical


class MaskedRandomRLModule(CategoricalActions, TorchRLModule):
    """Uniform over the legal actions: logits 0 plus the mask (no weights; nothing to train)."""

    def setup(self) -> None:
        _vector_space(self.observation_space)

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        mask, _ = split_observation(batch)
        logits = torch.zeros(mask.shape, dtype=torch.float32, device=mask.device)
        return {Columns.ACTION_DIST_INPUTS: masked_logits(logits, mask)}


def module_logits(module: Any, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """The masked module's action logits for a batch of observations and masks, shape ``(n, size)``."""
    batch = {Columns.OBS: {"observations": torch.from_numpy(np.ascontiguousarray(observations)),
                           "action_mask": torch.from_numpy(np.ascontiguousarray(masks))}}
    with torch.no_grad():
        return module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS].numpy()


def greedy_actions(module: Any, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """The masked module's most probable legal action for each row (a finished game's all-zero row gets 0)."""
    return greedy_rows(module_logits(module, observations, masks), masks)


__all__ = ["ACTION_MASK", "OBSERVATIONS", "CategoricalActions", "MaskedPPOTorchRLModule", "MaskedRandomRLModule",
           "greedy_actions", "masked_logits", "module_logits", "split_observation"]
