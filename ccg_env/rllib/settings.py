"""Settings of RLlib training read from a training config without importing Ray: the league and the cluster.

:class:`LeagueSettings` is the ``league:`` mapping and :class:`RLlibSettings` the ``rllib:`` mapping of a training
config run with ``backend: rllib`` (``ccg-env train --backend rllib``); both validate every key with errors naming
the key, so a bad config fails before Ray starts.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Union


def _reject_unknown_keys(cls: type, values: dict[str, Any], where: str) -> None:
    """Raise ValueError naming ``where`` and every key of ``values`` that is not a field of the dataclass ``cls``."""
    known = {f.name for f in fields(cls)}
    unknown = sorted(set(values) - known)
    if unknown:
        raise ValueError(f"{where}: unknown keys {unknown}; known keys: {', '.join(sorted(known))}")


@dataclass(frozen=True)
class LeagueSettings:
    """The ``league:`` mapping of an RLlib training config."""

    snapshot_every: int = 5
    """training iterations between two snapshots of the main module"""
    max_snapshots: int = 8
    """snapshots kept (the oldest is removed first)"""
    self_play: float = 0.3
    """share of episodes that are main against itself"""
    scripted: tuple = ("heuristic", "random")
    """scripted agents in the pool (registered agent names; the env plays them)"""
    scripted_share: Union[float, None] = None
    """share of episodes against the scripted agents once there are snapshots, the rest of the non-self-play ones
    against snapshots (each group split by PFSP); None: one PFSP draw over scripted agents and snapshots together"""
    pfsp_power: float = 2.0
    """PFSP weighting exponent: weight ``(1 - win rate) ** pfsp_power`` (0: uniform over the pool)"""
    win_rate_smoothing: float = 0.3
    """weight of the latest iteration in each opponent's running win rate"""

    @classmethod
    def from_dict(cls, values: dict[str, Any], where: str = "league") -> LeagueSettings:
        """Validate a mapping of settings; errors name ``where`` and the key."""
        _reject_unknown_keys(cls, values, where)
        settings = cls(**{**values, "scripted": tuple(values.get("scripted", cls.scripted))})
        settings.check(where)
        return settings

    def check(self, where: str = "league") -> None:
        """Raise ValueError naming the first setting out of range."""
        from ..agent_api import available_agents

        for name in ("snapshot_every", "max_snapshots"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{where}: {name} must be a whole number >= 1, got {value!r}")
        for name, low, high in (("self_play", 0, 1), ("pfsp_power", 0, 100), ("win_rate_smoothing", 0, 1)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
                raise ValueError(f"{where}: {name} must be a number from {low} to {high}, got {value!r}")
        share = self.scripted_share
        if share is not None and (isinstance(share, bool) or not isinstance(share, (int, float))
                                  or not 0 <= share <= 1 - self.self_play):
            raise ValueError(f"{where}: scripted_share must be null or a number from 0 to 1 - self_play "
                             f"({1 - self.self_play:g}), got {share!r}")
        agents = available_agents()
        for name in self.scripted:
            if name not in agents:
                raise ValueError(f"{where}: scripted: unknown agent {name!r}; known: {', '.join(agents)}")
        if self.self_play == 1 and self.scripted:
            raise ValueError(f"{where}: self_play is 1, so the scripted agents would never play; lower it")


#: ``rllib:`` options taken out after they measured no gain (docs/training.md) -> their "off" value, still accepted.
REMOVED_RLLIB_OPTIONS = {"play_forced": False}


@dataclass(frozen=True)
class RLlibSettings:
    """The ``rllib:`` mapping of a training config: where sampling and learning run."""

    num_env_runners: int = 0
    """sampling actors, one CPU each (0: sample in the driver process, best on one small machine)"""
    num_learners: int = 0
    """learner actors (0: learn in the driver process)"""
    num_gpus_per_learner: float = 0
    """GPUs per learner (with ``num_learners: 0``, the driver's learner uses one if this is 1)"""
    num_cpus_per_env_runner: float = 1
    """CPUs Ray reserves per env runner"""
    runner_resources: Union[dict, None] = None
    """custom Ray resources each env runner needs, to place the runners on chosen nodes (``ray start --resources``)"""
    train_batch_size: Union[int, None] = None
    """env steps per iteration (default: ``n_steps * num_envs * max(1, num_env_runners)``)"""
    share_encoder: bool = True
    """one MLP encoder for the policy and value heads (false: one each, twice the first layer's cost)"""
    resume_from: Union[str, None] = None
    """a checkpoint folder of an earlier run (``<run>/checkpoints/iter_<n>``) to continue from"""

    @classmethod
    def from_dict(cls, values: dict[str, Any], where: str = "rllib") -> RLlibSettings:
        """Validate a mapping of settings; errors name ``where`` and the key."""
        from ..training.checks import without_removed

        values = without_removed(values, REMOVED_RLLIB_OPTIONS, where)
        _reject_unknown_keys(cls, values, where)
        settings = cls(**values)
        for name in ("num_env_runners", "num_learners"):
            value = getattr(settings, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"{where}: {name} must be a whole number >= 0, got {value!r}")
        for name in ("num_gpus_per_learner", "num_cpus_per_env_runner"):
            value = getattr(settings, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
                raise ValueError(f"{where}: {name} must be a number >= 0, got {value!r}")
        resources = settings.runner_resources
        if resources is not None and (not isinstance(resources, dict) or not all(
                isinstance(name, str) and not isinstance(amount, bool) and isinstance(amount, (int, float))
                and amount > 0 for name, amount in resources.items())):
            raise ValueError(f"{where}: runner_resources must be a mapping of resource names to amounts > 0, "
                             f"got {resources!r}")
        batch = settings.train_batch_size
        if batch is not None and (isinstance(batch, bool) or not isinstance(batch, int) or batch < 1):
            raise ValueError(f"{where}: train_batch_size must be a whole number >= 1 or null, got {batch!r}")
        if not isinstance(settings.share_encoder, bool):
            raise ValueError(f"{where}: share_encoder must be true or false, got {settings.share_encoder!r}")
        if settings.resume_from is not None and not isinstance(settings.resume_from, str):
            raise ValueError(f"{where}: resume_from must be a checkpoint folder path, got {settings.resume_from!r}")
        return settings


__all__ = ["LeagueSettings", "RLlibSettings"]
