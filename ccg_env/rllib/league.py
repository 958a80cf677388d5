"""The RLlib league: frozen snapshots of the main module, prioritized fictitious self-play, win rates per opponent.

Every ``snapshot_every`` training iterations :class:`LeagueCallback` copies the main module's weights into a new
frozen module ``snapshot_<iteration>`` (``Algorithm.add_module``, never trained) and **pushes those weights to
every env runner**: PPO only syncs the modules it trains, so without the push a snapshot would play with its
random initial weights on the runners (``test_snapshot_weights_reach_every_env_runner`` checks this).

Who the main module meets in each episode is drawn by prioritized fictitious self-play (PFSP) over the pool of
snapshots and scripted agents (``scripted``: e.g. the heuristic and random play, which the env plays itself):
opponent ``o`` gets weight ``(1 - p_o) ** pfsp_power``, where ``p_o`` is main's recent win rate against it (0.5
before any game), so the opponents main still loses to are met most; ``self_play`` of the episodes are main
against itself. With ``scripted_share`` set, that share of the episodes goes to the scripted agents and the rest to
the snapshots, each split by PFSP within its group (without it, the snapshots that main only draws with crowd out
a scripted agent main already beats a little more often). The draw is split in two: the env draws
scripted-versus-module games (:meth:`~ccg_env.rllib.env.CcgMultiAgentEnv.set_opponents`), and
:class:`LeagueMapping` (the policy mapping function) draws main's seat and the module opponent of a module game
from the episode id (the same draw for both agents of an episode, on any runner).

Win rates: zero-sum self-play makes ``episode_return_mean`` 0 by construction, so each finished episode logs
main's result against its opponent (a win is a positive final reward); the training result holds
``league/win_rate_vs_<opponent>`` (exponential average over iterations), ``league/games_vs_<opponent>`` (this
iteration), ``league/weight_<opponent>`` and ``league/snapshots``. :meth:`LeagueCallback.state` and
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

from .config import MAIN
from .env import LEARNERS, SELF_PLAY
from .settings import LeagueSettings

SNAPSHOT_PREFIX = "snapshot_"
#: Prior win rate of main against an opponent it has not met yet.
PRIOR_WIN_RATE = 0.5


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


def pfsp_weights(settings: LeagueSettings, win_rates: dict[str, float], snapshots: list[str]) -> dict[str, float]:
    """Who main meets: ``{"self": share, opponent: share...}`` summing to 1 (see the module documentation)."""
    pool = [*settings.scripted, *snapshots]
    if not pool:
        return {SELF_PLAY: 1.0}
    rest = 1.0 - settings.self_play
    share = settings.scripted_share
    if share is None or not settings.scripted or not snapshots:  # one PFSP draw over the whole pool
        return {SELF_PLAY: settings.self_play, **_pfsp(pool, win_rates, settings.pfsp_power, rest)}
    return {SELF_PLAY: settings.self_play, **_pfsp(list(settings.scripted), win_rates, settings.pfsp_power, share),
            **_pfsp(snapshots, win_rates, settings.pfsp_power, rest - share)}


def _pfsp(pool: list[str], win_rates: dict[str, float], power: float, share: float) -> dict[str, float]:
    """``share`` split over ``pool`` in proportion to ``(1 - win rate) ** power`` (evenly if main beats them all)."""
    priority = {name: (1.0 - win_rates.get(name, PRIOR_WIN_RATE)) ** power for name in pool}
    total = sum(priority.values())
    if total <= 0:  # main beats everyone every time: spread evenly
        priority, total = {name: 1.0 for name in pool}, float(len(pool))
    return {name: share * p / total for name, p in priority.items()}


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
        self.snapshots: list[str] = []
        self.win_rates: dict[str, float] = {}
        self.weights: dict[str, float] = {SELF_PLAY: 1.0}
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
        """Update win rates, take a snapshot when due, push the new draw weights, report the league."""
        games, wins = self.new_games(result.get("env_runners", {}))
        alpha = self.settings.win_rate_smoothing
        for opponent, count in games.items():
            if count:
                rate = wins.get(opponent, 0) / count
                old = self.win_rates.get(opponent)
                self.win_rates[opponent] = rate if old is None else (1 - alpha) * old + alpha * rate
        iteration = int(result.get("training_iteration", 0))
        if iteration and iteration % self.settings.snapshot_every == 0:
            self.take_snapshot(algorithm, f"{SNAPSHOT_PREFIX}{iteration}")
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
        report: dict[str, float] = {"snapshots": len(self.snapshots)}
        for opponent, rate in sorted(self.win_rates.items()):
            report[f"win_rate_vs_{opponent}"] = round(float(rate), 4)
        for opponent, count in sorted(games.items()):
            report[f"games_vs_{opponent}"] = int(count)
        for opponent, weight in sorted(self.weights.items()):
            report[f"weight_{opponent}"] = round(float(weight), 4)
        return report

    def take_snapshot(self, algorithm: Any, module_id: str, state: Any = None) -> None:
        """Freeze main's weights (or ``state``) as ``module_id`` everywhere; drop the oldest past the maximum."""
        if state is None:
            state = algorithm.get_module(MAIN).get_state(inference_only=True)
        if module_id not in self.snapshots:
            spec = RLModuleSpec.from_module(algorithm.get_module(MAIN))
            spec.module_class, spec.inference_only = type(algorithm.get_module(MAIN)), False
            algorithm.add_module(module_id=module_id, module_spec=spec, new_should_module_be_updated=[MAIN])
            self.snapshots.append(module_id)
        while len(self.snapshots) > self.settings.max_snapshots:
            oldest = self.snapshots.pop(0)
            self.win_rates.pop(oldest, None)
            self.update_weights(algorithm)  # no runner may draw it any more before it goes
            algorithm.remove_module(oldest, new_should_module_be_updated=[MAIN])
        self.update_weights(algorithm, {module_id: state})

    def update_weights(self, algorithm: Any, states: dict[str, Any] | None = None) -> None:
        """Recompute the PFSP weights and push them (and any snapshot ``states``) to every env runner."""
        self.weights = pfsp_weights(self.settings, self.win_rates, self.snapshots)
        push_league(algorithm, *split_weights(self.weights), states=states)

    # --- saving --------------------------------------------------------------------------------------

    def state(self, algorithm: Any) -> dict[str, Any]:
        """The league as plain data: snapshot ids with their weights (numpy arrays) and the win rates."""
        return {"snapshots": {mid: algorithm.get_module(mid).get_state(inference_only=True)
                              for mid in self.snapshots},
                "win_rates": dict(self.win_rates)}

    def restore(self, algorithm: Any, state: dict[str, Any]) -> None:
        """Re-create the snapshots of :meth:`state` (in order) and its win rates, and push them to the runners."""
        self.win_rates = dict(state.get("win_rates", {}))
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


__all__ = ["LeagueCallback", "LeagueMapping", "LeagueSettings", "main_result", "pfsp_weights", "push_league",
           "split_weights"]
