"""The ``imitation:`` warm start for the RLlib backend: fit the main module to a teacher, then push it everywhere.

Recording and fitting are the SB3 backend's (:mod:`ccg_env.training.imitation`): the teacher plays the learner's
seat in the training game (the heuristic's seat for a league, which has no snapshots yet) and the module is
fitted by cross-entropy to its action ids and by squared error to the discounted outcomes. The fit runs on a copy
of the main module in the driver; its weights then go to every learner and env runner, so that PPO's first
iteration samples and learns from the fitted policy. A run resumed from a checkpoint (``rllib: resume_from``) skips
the warm start: its weights are already trained.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import torch
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.rl_module import RLModuleSpec

from ..training.run import warm_start as fit_to_teacher
from ..training.train_config import TrainConfig
from .config import MAIN


class ModuleStudent:
    """A masked RLlib PPO module as :func:`ccg_env.training.imitation.fit` drives it."""

    def __init__(self, module: Any) -> None:
        self.module = module

    def parameters(self) -> Any:
        return self.module.parameters()

    def set_training_mode(self, mode: bool) -> None:
        self.module.train(mode)

    def _batch(self, observations: torch.Tensor, masks: np.ndarray) -> dict[str, Any]:
        return {Columns.OBS: {"observations": observations, "action_mask": torch.from_numpy(masks.astype(np.int8))}}

    def values_and_log_probs(self, observations: torch.Tensor, masks: np.ndarray,
                             actions: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """The value of each position and the log-probability of the given action under the masked policy."""
        batch = self._batch(observations, masks)
        output = self.module.forward_train(batch)
        values = self.module.compute_values(batch, output.get(Columns.EMBEDDINGS))
        log_probs = torch.log_softmax(output[Columns.ACTION_DIST_INPUTS], dim=1)
        return values, log_probs.gather(1, actions[:, None]).squeeze(1)

    def greedy_and_log_probs(self, observations: torch.Tensor, masks: np.ndarray,
                             actions: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """The most probable legal action of each position and the log-probability of the given one."""
        logits = self.module.forward_train(self._batch(observations, masks))[Columns.ACTION_DIST_INPUTS]
        log_probs = torch.log_softmax(logits, dim=1)
        return logits.argmax(dim=1), log_probs.gather(1, actions[:, None]).squeeze(1)


def trainable_copy(algorithm: Any) -> Any:
    """A fresh module of the main module's spec (not inference-only) holding the learner's current weights."""
    spec = RLModuleSpec.from_module(algorithm.get_module(MAIN))
    spec.inference_only = False
    module = spec.build()
    module.set_state(algorithm.learner_group.get_weights([MAIN])[MAIN])
    return module


def set_main_weights(algorithm: Any, module: Any) -> None:
    """Give every learner and env runner (local and remote) ``module``'s weights as the main module's."""
    state = module.get_state()
    inference_state = module.get_state(inference_only=True)
    algorithm.learner_group.foreach_learner(lambda learner: learner.module[MAIN].set_state(state))
    algorithm.env_runner_group.foreach_env_runner(lambda runner: runner.module[MAIN].set_state(inference_state),
                                                  local_env_runner=True)


def warm_start(algorithm: Any, config: TrainConfig, run_dir: Path) -> None:
    """Fit a copy of the main module to the teacher (the SB3 backend's warm start), then push its weights everywhere."""
    module = trainable_copy(algorithm)
    fit_to_teacher(config, ModuleStudent(module), run_dir)
    set_main_weights(algorithm, module)


__all__ = ["ModuleStudent", "set_main_weights", "trainable_copy", "warm_start"]
