"""``CcgEnvRunner``: RLlib's ``MultiAgentEnvRunner`` with its per-step bookkeeping done once per ``sample()`` call.

RLlib 2.60's multi-agent runner logs six or more metric values (env, agent and module step counts, episodes) and
increments two Ray counters for every env step of every game, and it converts every finished episode of a
``sample()`` call to numpy again on each later step of that call; its vector env deep-copies every step's
observations. ``CcgEnvRunner`` samples with the same loop and returns the same episodes and metrics, but adds the
counts up in plain integers and logs each total once when the call ends, converts each returned episode to numpy
once, and turns the vector env's copy off (:class:`~ccg_env.rllib.env.CcgMultiAgentEnv` returns new arrays at every
step). ``ppo_config`` sets it as the config's ``env_runner_cls``.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ray.rllib.env.multi_agent_env_runner import MultiAgentEnvRunner
from ray.rllib.utils.metrics import (NUM_AGENT_STEPS_SAMPLED, NUM_AGENT_STEPS_SAMPLED_LIFETIME, NUM_ENV_STEPS_SAMPLED,
                                     NUM_ENV_STEPS_SAMPLED_LIFETIME, NUM_EPISODES, NUM_EPISODES_LIFETIME,
                                     NUM_MODULE_STEPS_SAMPLED, NUM_MODULE_STEPS_SAMPLED_LIFETIME)

_ENV, _EPISODES, _AGENT, _MODULE = "env", "episodes", "agent", "module"


class CcgEnvRunner(MultiAgentEnvRunner):
    """A ``MultiAgentEnvRunner`` that logs its step counts once per ``sample()`` call (see the module docs)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._step_counts: Counter = Counter()
        self._counter_steps: dict[int, list] = {}
        super().__init__(*args, **kwargs)

    def make_env(self) -> None:
        """RLlib's vector env of the config's games, without its deep copy of each step's observations."""
        super().make_env()
        if hasattr(self.env, "copy"):
            self.env.copy = False

    def _increase_sampled_metrics(self, num_steps: int, next_obs: dict, episode: Any) -> int:
        """Count one env step (and its agents' and modules' steps) for the end of the call."""
        counts = self._step_counts
        counts[_ENV] += num_steps
        if episode.is_done:
            counts[_EPISODES] += 1
        for agent in next_obs:
            counts[(_AGENT, str(agent))] += 1
            counts[(_MODULE, episode.module_for(agent))] += 1
        return num_steps

    def _log_env_steps(self, metric: Any, num_steps: int) -> None:
        """Add up a Ray counter's steps for the end of the call."""
        entry = self._counter_steps.setdefault(id(metric), [metric, 0])
        entry[1] += num_steps

    def _sample(self, **kwargs: Any) -> list:
        """RLlib's sampling loop, then the counts logged and the returned episodes converted to numpy, once."""
        to_numpy, self.episodes_to_numpy = self.episodes_to_numpy, False
        try:
            episodes = super()._sample(**kwargs)
        finally:
            self.episodes_to_numpy = to_numpy
            self._flush_counts()
        if to_numpy:
            for episode in episodes:  # none was converted in the loop; a chunk may hold no agent's steps
                episode.to_numpy()
        return episodes

    def _flush_counts(self) -> None:
        """Log the counts gathered since the last flush, as RLlib logs them step by step."""
        for metric, steps in self._counter_steps.values():
            if steps:
                super()._log_env_steps(metric, steps)
        self._counter_steps.clear()
        counts, self._step_counts = self._step_counts, Counter()
        log = self.metrics.log_value
        if counts[_ENV]:
            log(NUM_ENV_STEPS_SAMPLED, counts[_ENV], reduce="sum")
            log(NUM_ENV_STEPS_SAMPLED_LIFETIME, counts[_ENV], reduce="lifetime_sum", with_throughput=True)
        if counts[_EPISODES]:
            log(NUM_EPISODES, counts[_EPISODES], reduce="sum")
            log(NUM_EPISODES_LIFETIME, counts[_EPISODES], reduce="lifetime_sum")
        for key, steps in counts.items():
            if isinstance(key, tuple):
                window, lifetime = ((NUM_AGENT_STEPS_SAMPLED, NUM_AGENT_STEPS_SAMPLED_LIFETIME) if key[0] == _AGENT
                                    else (NUM_MODULE_STEPS_SAMPLED, NUM_MODULE_STEPS_SAMPLED_LIFETIME))
                log((window, key[1]), steps, reduce="sum")
                log((lifetime, key[1]), steps, reduce="lifetime_sum")


__all__ = ["CcgEnvRunner"]
