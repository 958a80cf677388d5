"""Settings of RLlib training read from a training config without importing Ray: where sampling and learning run.

:class:`RLlibSettings` is the ``rllib:`` mapping of a training config run with ``backend: rllib`` (``ccg-env train
--backend rllib``), checked by :func:`ccg_env.training.checks.settings_from_dict` with errors naming the key, so a bad
config fails before Ray starts. The ``league:`` mapping is the same for both backends
(:class:`ccg_env.training.league.LeagueSettings`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Union

from ..training.checks import number, settings_from_dict, whole

#: ``rllib:`` options taken out after they measured no gain (docs/training.md) -> their "off" value, still accepted.
REMOVED_RLLIB_OPTIONS = {"play_forced": False}


@dataclass(frozen=True)
class RLlibSettings:
    """The ``rllib:`` mapping of a training config: where sampling and learning run."""

    num_env_runners: int = whole(0, low=0)
    """sampling actors, one CPU each (0: sample in the driver process, best on one small machine)"""
    num_learners: int = whole(0, low=0)
    """learner actors (0: learn in the driver process)"""
    num_gpus_per_learner: float = number(0)
    """GPUs per learner (with ``num_learners: 0``, the driver's learner uses one if this is 1)"""
    num_cpus_per_env_runner: float = number(1)
    """CPUs Ray reserves per env runner"""
    runner_resources: Union[dict, None] = None
    """custom Ray resources each env runner needs, to place the runners on chosen nodes (``ray start --resources``)"""
    train_batch_size: Union[int, None] = whole(None)
    """env steps per iteration (default: ``n_steps * num_envs * max(1, num_env_runners)``)"""
    share_encoder: bool = True
    """one MLP encoder for the policy and value heads (false: one each, twice the first layer's cost)"""
    resume_from: Union[str, None] = None
    """a checkpoint folder of an earlier run (``<run>/checkpoints/iter_<n>``) to continue from"""

    @classmethod
    def from_dict(cls, values: dict[str, Any], where: str = "rllib") -> RLlibSettings:
        """Validate a mapping of settings; errors name ``where`` and the key."""
        return settings_from_dict(cls, values, where, REMOVED_RLLIB_OPTIONS)

    def check(self, where: str) -> None:
        """Raise ValueError unless every runner resource is a name with an amount above 0."""
        if self.runner_resources is not None and not all(
                isinstance(name, str) and not isinstance(amount, bool) and isinstance(amount, (int, float))
                and amount > 0 for name, amount in self.runner_resources.items()):
            raise ValueError(f"{where}: runner_resources must be a mapping of resource names to amounts > 0, "
                             f"got {self.runner_resources!r}")


__all__ = ["RLlibSettings"]
