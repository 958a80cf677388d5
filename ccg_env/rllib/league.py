"""The league (:mod:`ccg_env.training.league`) for RLlib: snapshots as frozen modules, its draw as the env's weights
and the policy mapping, its results from the episodes.

Every ``snapshot_every`` env steps :class:`LeagueCallback` copies the main module's weights into a new frozen
module ``snapshot_<iteration>`` (``Algorithm.add_module``, never trained) and **pushes those weights to every env
runner**: PPO only syncs the modules it trains, so without the push a snapshot would play with its random initial
weights on the runners (``test_snapshot_weights_reach_every_env_runner`` checks this).

The league's chances (self-play, scripted agents, snapshots) are split in two: the env draws scripted-versus-module
games (:meth:`~ccg_env.rllib.env.CcgMultiAgentEnv.set_opponents`), and :class:`LeagueMapping` (the policy mapping
function) draws main's seat and the module opponent of a module game from the episode id (the same draw for both
agents of an episode, on any runner).

Results: zero-sum self-play makes ``episode_return_mean`` 0 by construction, so each finished episode logs main's
result against its opponent (a win is a positive final reward), which the league counts; the training result holds
``league/win_rate_vs_<opponent>`` (over the run), ``league/games_vs_<opponent>`` (this iteration),
``league/weight_<opponent>`` and ``league/snapshots``. :meth:`LeagueCallback.state` and
:meth:`LeagueCallback.restore` save and restore the league (snapshot weights as plain arrays) beside a checkpoint.
"""

from __future__ import annotations

import math
import random
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from ray.rllib.callbacks.callbacks import RLlibCallback
from ray.rllib.core.rl_module.rl_module import RLModuleSpec

from ..training.league import SELF_PLAY, League, LeagueSettings
from .config import MAIN
from .env import LEARNERS

SNAPSHOT_PREFIX = "snapshot_"


@dataclass
class LeagueMapping:
    """The policy mapping function: main's seat and its module opponent per episode, drawn from the episode id.

    ``weights`` maps module ids (``"main"`` for self-play, snapshots) to weights. The learner's agent in a game
    against a scripted agent (``learner_<seat>``) is always main.
    """

    weights: dict[str, float] = field(default_factory=lambda: {MAIN: 1.0})
    _drawn: OrderedDict = field(default_factory=OrderedDict, repr=False)

    def __call__(self, agent_id: Any, episode: Any, **kwargs: Any) -> str:
        if agent_id in LEARNERS:
            return MAIN
        main_seat, opponent = self._draw(str(getattr(episode, "id_", "")))
        return MAIN if agent_id == f"player_{main_seat}" else opponent

    def _draw(self, episode_id: str) -> tuple[int, str]:
        drawn = self._drawn.get(episode_id)
        if drawn is None:
            rng = random.Random(episode_id)
            names = sorted(self.weights)
            drawn = rng.randrange(2), rng.choices(names, weights=[self.weights[n] for n in names])[0]
            self._drawn[episode_id] = drawn
            if len(self._drawn) > 4096:
                self._drawn.popitem(last=False)
        return drawn


def split_weights(weights: dict[str, float]) -> tuple[dict[str, float], dict[str, float]]:
    """The env's weights (scripted agents and ``"self"`` for every module game) and the mapping's (modules)."""
    modules = {MAIN if name == SELF_PLAY else name: w for name, w in weights.items()
               if name == SELF_PLAY or name.startswith(SNAPSHOT_PREFIX)}
    env = {name: w for name, w in weights.items() if name != SELF_PLAY and not name.startswith(SNAPSHOT_PREFIX)}
    env[SELF_PLAY] = sum(modules.values())
    if env[SELF_PLAY] <= 0:
        modules = {MAIN: 1.0}
    return env, modules


def push_league(algorithm: Any, env_weights: dict[str, float], module_weights: dict[str, float],
                states: dict[str, Any] | None = None) -> None:
    """On every learner and env runner (local and remote): set snapshot weights (``states``); then the draw
    weights on the runners. The learners' copies matter too: PPO's weight sync sends every module the learners
    hold, so a snapshot left at its initial weights there would overwrite the runners' copy after one iteration."""
    states = states or {}
    if states:
        def set_learner_states(learner: Any) -> None:
            for module_id, state in states.items():
                if module_id in learner.module.keys():
                    learner.module[module_id].set_state(state)

        algorithm.learner_group.foreach_learner(set_learner_states)

    def update(runner: Any) -> None:
        for module_id, state in states.items():
            runner.module[module_id].set_state(state)
        mapping = runner.config.policy_mapping_fn
        if isinstance(mapping, LeagueMapping):
            mapping.weights = dict(module_weights)
        for env in getattr(runner.env, "envs", ()):
            env.unwrapped.set_opponents(env_weights)

    algorithm.env_runner_group.foreach_env_runner(update, local_env_runner=True)


class LeagueCallback(RLlibCallback):
    """Snapshots, PFSP and win rates (see the module documentation); configure with :meth:`with_settings`."""

    settings = LeagueSettings()

    @classmethod
    def with_settings(cls, settings: LeagueSettings) -> type[LeagueCallback]:
        """A subclass bound to ``settings`` (RLlib builds callbacks from a class)."""
        return type("ConfiguredLeagueCallback", (cls,), {"settings": settings})

    def __init__(self) -> None:
        super().__init__()
        self.league = League(self.settings)
        self.weights: dict[str, float] = {SELF_PLAY: 1.0}
        self.last_snapshot = 0
        self._totals: dict[str, dict[str, int]] = {}

    # --- on the env runners --------------------------------------------------------------------------

    def on_episode_end(self, *, episode: Any, metrics_logger: Any = None, **kwargs: Any) -> None:
        """Log main's result against its opponent: ``league_games/<opponent>`` and ``league_wins/<opponent>``."""
        found = main_result(episode)
        if found is not None and metrics_logger is not None:
            opponent, won = found
            metrics_logger.log_value(("league_games", opponent), 1, reduce="lifetime_sum")
            metrics_logger.log_value(("league_wins", opponent), int(won), reduce="lifetime_sum")

    # --- in the driver -------------------------------------------------------------------------------

    def on_algorithm_init(self, *, algorithm: Any, **kwargs: Any) -> None:
        self.update_weights(algorithm)

    def on_train_result(self, *, algorithm: Any, result: dict, **kwargs: Any) -> None:
        """Count the new results, take a snapshot when due, push the new draw weights, report the league."""
        runners = result.get("env_runners", {})
        games, wins = self.new_games(runners)
        for opponent, count in games.items():
            if count:
                self.league.record(opponent, "win", wins.get(opponent, 0))
                self.league.record(opponent, "loss", count - wins.get(opponent, 0))
        timesteps = _whole(runners.get("num_env_steps_sampled_lifetime", 0))
        if timesteps - self.last_snapshot >= self.settings.snapshot_every:
            self.last_snapshot = timesteps
            self.take_snapshot(algorithm, f"{SNAPSHOT_PREFIX}{int(result.get('training_iteration', 0))}")
        else:
            self.update_weights(algorithm)
        result["league"] = self.report(games)

    def new_games(self, runners: dict[str, Any]) -> tuple[dict[str, int], dict[str, int]]:
        """Games and wins per opponent since the last iteration (the runners log lifetime sums)."""
        counted = []
        for key in ("league_games", "league_wins"):
            totals = {name: _whole(value) for name, value in runners.get(key, {}).items()}
            seen = self._totals.setdefault(key, {})
            counted.append({name: total - seen.get(name, 0) for name, total in totals.items()})
            seen.update(totals)
        return counted[0], counted[1]

    def report(self, games: dict[str, Any]) -> dict[str, float]:
        """The numbers logged under ``league/`` in the training result."""
        report: dict[str, float] = {"snapshots": len(self.league.snapshots)}
        for row in sorted(self.league.standings(), key=lambda row: row["member"]):
            if row["games"]:
                report[f"win_rate_vs_{row['member']}"] = round(float(row["learner_win_rate"]), 4)
        for opponent, count in sorted(games.items()):
            report[f"games_vs_{opponent}"] = int(count)
        for opponent, weight in sorted(self.weights.items()):
            report[f"weight_{opponent}"] = round(float(weight), 4)
        return report

    def take_snapshot(self, algorithm: Any, module_id: str, state: Any = None) -> None:
        """Freeze main's weights (or ``state``) as ``module_id`` everywhere; drop the oldest past the maximum."""
        if state is None:
            state = algorithm.get_module(MAIN).get_state(inference_only=True)
        if module_id not in self.league.snapshots:
            spec = RLModuleSpec.from_module(algorithm.get_module(MAIN))
            spec.module_class, spec.inference_only = type(algorithm.get_module(MAIN)), False
            algorithm.add_module(module_id=module_id, module_spec=spec, new_should_module_be_updated=[MAIN])
            dropped = self.league.add_snapshot(module_id)
            if dropped:
                self.update_weights(algorithm)  # no runner may draw them any more before they go
            for oldest in dropped:
                algorithm.remove_module(oldest, new_should_module_be_updated=[MAIN])
        self.update_weights(algorithm, {module_id: state})

    def update_weights(self, algorithm: Any, states: dict[str, Any] | None = None) -> None:
        """Recompute the league's chances and push them (and any snapshot ``states``) to every env runner."""
        self.weights = self.league.chances()
        push_league(algorithm, *split_weights(self.weights), states=states)

    # --- saving --------------------------------------------------------------------------------------

    def state(self, algorithm: Any) -> dict[str, Any]:
        """The league as plain data: snapshot ids with their weights (numpy arrays), the results per member and the
        step of the last snapshot."""
        return {"snapshots": {mid: algorithm.get_module(mid).get_state(inference_only=True)
                              for mid in self.league.snapshots},
                "results": {name: dict(counts) for name, counts in self.league.results.items()},
                "last_snapshot": self.last_snapshot}

    def restore(self, algorithm: Any, state: dict[str, Any]) -> None:
        """Re-create the snapshots of :meth:`state` (in order) and its results, and push them to the runners."""
        for name, counts in state.get("results", {}).items():
            for outcome, count in counts.items():
                self.league.record(name, outcome, int(count))
        self.last_snapshot = int(state.get("last_snapshot", 0))
        for module_id, module_state in state.get("snapshots", {}).items():
            self.take_snapshot(algorithm, module_id, module_state)
        self.update_weights(algorithm)


def _whole(value: Any) -> int:
    """A logged count as an int (a metric with no value yet reads NaN: 0)."""
    value = float(value)
    return int(value) if math.isfinite(value) else 0


def main_result(episode: Any) -> tuple[str, bool] | None:
    """``(opponent, main won)`` of a finished episode, or None for main against itself (no news)."""
    agents = episode.agent_episodes
    for agent_id in LEARNERS:
        if agent_id in agents:
            infos = agents[agent_id].get_infos(-1) or {}
            return str(infos.get("opponent", "scripted")), agents[agent_id].get_return() > 0
    modules = {agent_id: episode.module_for(agent_id) for agent_id in agents}
    mains = [agent_id for agent_id, module in modules.items() if module == MAIN]
    others = [module for module in modules.values() if module != MAIN]
    if len(mains) != 1 or not others:
        return None
    return others[0], agents[mains[0]].get_return() > 0


__all__ = ["LeagueCallback", "LeagueMapping", "main_result", "push_league", "split_weights"]
