"""``ccg-env train --backend rllib``: RLlib PPO self-play from the same training configs and into the same run folder.

The config file is the SB3 backend's (:class:`~ccg_env.training.train_config.TrainConfig`) with ``backend: rllib``
(or ``--backend rllib``). Settings map onto RLlib's: ``num_envs`` games per env runner, ``n_steps`` the rollout
per env, ``batch_size`` the minibatch, ``n_epochs``, ``learning_rate`` and ``lr_schedule``, ``gamma``, ``gae_lambda``,
``clip_range``, ``ent_coef``, ``vf_coef``, ``max_grad_norm``, ``net_arch``
(the encoder's layers), ``seed``, ``torch_threads``.
``opponent``: ``"league"`` (self-play, snapshots and scripted agents, ``league:`` as in
:class:`~ccg_env.training.league.LeagueSettings`), ``"self"``, or an agent name (the env plays it). ``rllib:`` says where it runs
(:class:`~ccg_env.rllib.settings.RLlibSettings`: env runners, learners, GPUs, ``resume_from``).

The run folder ``<runs_dir>/<name>/`` holds what the SB3 backend writes, in RLlib's forms:

- ``eval.csv``: one row per evaluation and opponent (greedy main module against ``eval_opponent``, the heuristic
  for a league, and the ``eval_opponents``, ``eval_games`` games each, the arena's deals) and ``learning_curve.png``
  (win rate against timesteps, a line per opponent);
- ``checkpoints/iter_<n>/`` (RLlib checkpoint folder, with ``league.npz`` for the league) and
  ``checkpoints/step_<timesteps>.ccgrllib`` at every evaluation; ``model/`` and ``model.ccgrllib`` at the end
  (the ``.ccgrllib`` policy files load in the ``rllib`` agent without running code); ``best_model.ccgrllib``, the
  policy of the best evaluation so far; Ctrl-C stops training and still saves ``model/`` and ``model.ccgrllib``;
- ``progress.csv``: per iteration, timesteps, seconds, env steps/s and the league's numbers (win rates per
  opponent, draw weights, snapshots) as JSON;
- ``runners.json``: where sampling runs, per env runner (the driver when there are none): Ray node id, host and
  engine build (a warning names the hosts that run the pure-Python engine);
- ``config.yaml``.

The driver builds its own env core from the config (policy files record its rules, cards and action layout), so a
run works the same with the samplers in the driver or on env runners on other nodes. A run resumed from a checkpoint
(``rllib: {resume_from: ...}``) appends to ``eval.csv``, ``imitation.csv`` and ``progress.csv`` and keeps
``best_model.ccgrllib`` unless it does better; nothing in the run folder is touched before the algorithm is built.

``address``: None starts a private local Ray (even where ``ray start`` runs a cluster on this machine); ``"auto"``
joins the cluster this machine is part of, or give ``host:port`` of a head node (docs/scaling.md).
"""

from __future__ import annotations

import csv
import dataclasses
import json
import math
import time
import warnings
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..training.curve import plot_learning_curve
from ..training.run import (EVAL_COLUMNS, EvalResult, TrainResult, append_csv, best_evaluation, eval_opponent,
                            prepare_run_dir)
from ..training.train_config import TrainConfig, eval_agent
from . import require_ray
from .modules import greedy_actions
from ..training.league import LeagueSettings
from .settings import RLlibSettings

MAIN = "main"


@dataclass
class RLlibTrainResult(TrainResult):
    """What a run produced (as the SB3 backend's :class:`TrainResult`), and where its RLlib policy file is."""

    @property
    def policy_path(self) -> Path:
        """The ``.ccgrllib`` policy file the ``rllib`` agent loads."""
        return self.run_dir / "model.ccgrllib"


def env_config(config: TrainConfig) -> dict[str, Any]:
    """The :class:`~ccg_env.rllib.env.CcgMultiAgentEnv` options of a training config."""
    values = {"rules": config.rules, "cards": config.cards, "decks": config.decks, "turn_limit": config.turn_limit,
              "seed": config.seed}
    if config.opponent not in ("league", "self"):
        values["opponents"] = {config.opponent: 1.0}
    return {key: value for key, value in values.items() if value is not None}


def build_config(config: TrainConfig) -> Any:
    """The RLlib ``PPOConfig`` of a training config (see the module documentation for the mapping)."""
    from .config import SLOT_OPTIONS, ppo_config

    runtime = RLlibSettings.from_dict(config.rllib, "train config: rllib")
    league = LeagueSettings.from_dict(config.league, "train config: league") if config.opponent == "league" else None
    return ppo_config(env_config=env_config(config), num_env_runners=runtime.num_env_runners,
                      envs_per_runner=config.num_envs, num_learners=runtime.num_learners,
                      num_gpus_per_learner=runtime.num_gpus_per_learner,
                      num_cpus_per_env_runner=runtime.num_cpus_per_env_runner,
                      runner_resources=runtime.runner_resources, rollout_length=config.n_steps,
                      train_batch_size=runtime.train_batch_size, minibatch_size=config.batch_size,
                      num_epochs=config.n_epochs, lr=config.learning_rate, gamma=config.gamma,
                      lr_end_step=config.total_timesteps if config.lr_schedule == "linear" else None,
                      lambda_=config.gae_lambda, clip_param=config.clip_range, entropy_coeff=config.ent_coef,
                      vf_loss_coeff=config.vf_coef, grad_clip=config.max_grad_norm, hidden=config.net_arch,
                      share_encoder=runtime.share_encoder, module=config.policy,
                      slot_options={key: value for key, value in config.policy_kwargs.items()
                                    if key in SLOT_OPTIONS},
                      rescale_inputs=config.rescale_inputs,
                      seed=config.seed, torch_threads=config.torch_threads, league=league)


# --- evaluation ---------------------------------------------------------------------------------------------


def evaluate(module: Any, config: TrainConfig, opponent: Any, games: int, seed: int) -> Counter:
    """Play ``games`` greedy games of ``module`` against ``opponent`` (an agent name or object) on the arena's
    deals; count the outcomes."""
    from ..env.vector import DuelBatch
    from ..training.eval_games import play_deals

    batch = DuelBatch(max(1, min(config.eval_envs, games)), opponent=opponent, normalize_observations=True,
                      decks=config.decks, rules=config.rules, cards=config.cards, turn_limit=config.turn_limit)
    return play_deals(batch, lambda observations, masks: greedy_actions(module, observations, masks), games, seed)


# --- the run ------------------------------------------------------------------------------------------------


def train(config: TrainConfig, address: str | None = None) -> RLlibTrainResult:
    """Train as ``config`` says on a private local Ray (``address=None``) or a cluster; see the module documentation.

    Everything that can refuse the run (the settings, the checkpoint to resume from, building the algorithm) is
    checked before the run folder is touched, so a run that cannot start deletes nothing.
    """
    ray = require_ray()
    import torch

    if config.backend != "rllib":
        config = dataclasses.replace(config, backend="rllib")
    torch.set_num_threads(config.torch_threads)
    runtime = RLlibSettings.from_dict(config.rllib, "train config: rllib")
    resume = Path(runtime.resume_from) if runtime.resume_from else None
    if resume is not None:
        check_checkpoint(resume)
    algo_config = build_config(config)
    started_ray = not ray.is_initialized()
    if started_ray:
        ray.init(address=address or "local", include_dashboard=False, log_to_driver=bool(config.verbose))
    try:
        return _run(config, algo_config, resume)
    finally:
        if started_ray:
            ray.shutdown()


def _run(config: TrainConfig, algo_config: Any, resume: Path | None) -> RLlibTrainResult:
    core = driver_core(config)  # the driver's own: with remote env runners it holds no env
    algo = algo_config.build_algo()
    timesteps = 0
    if resume is not None:
        restore(algo, resume)
        timesteps = restored_timesteps(algo)
    runners = runner_report(algo)
    run_dir = open_run_dir(config, resumed=resume is not None)
    (run_dir / "runners.json").write_text(json.dumps(runners, indent=1) + "\n", encoding="utf-8")
    evaluations = Evaluations(config, run_dir, core, resumed=resume is not None)
    history = evaluations.history
    started, last_eval = time.perf_counter() - evaluations.seconds_before, timesteps
    interrupted = False
    try:
        if config.imitation and resume is None:
            from .imitation import warm_start

            warm_start(algo, config, run_dir)
            evaluations.run(algo, 0, time.perf_counter() - started)
        while timesteps < config.total_timesteps:
            result = algo.train()
            timesteps = int(result.get("num_env_steps_sampled_lifetime", 0)) or _sampled(result)
            seconds = time.perf_counter() - started
            append_csv(run_dir / "progress.csv", progress_row(result, timesteps, seconds))
            done = timesteps >= config.total_timesteps
            if done or (config.eval_every and timesteps - last_eval >= config.eval_every):
                last_eval = timesteps
                evaluations.run(algo, timesteps, seconds)
    except KeyboardInterrupt:  # Ctrl-C: keep what was learned; the model is saved below as at a normal end
        interrupted = True
    seconds = time.perf_counter() - started
    model_path = run_dir / "model"
    save_checkpoint(algo, model_path)
    _save_policy(algo.get_module(MAIN), core, config, run_dir / "model.ccgrllib", timesteps)
    algo.stop()
    return RLlibTrainResult(config, run_dir, model_path, timesteps, seconds, history, interrupted)


def driver_core(config: TrainConfig) -> Any:
    """The env core of ``config``'s game, built in the driver (policy files record its rules, cards and layout)."""
    from .env import CcgMultiAgentEnv

    return CcgMultiAgentEnv(env_config(config)).core


def runner_report(algo: Any) -> list[dict[str, Any]]:
    """Where sampling runs: each env runner's (or, with none, the driver's) Ray node, host and engine build.

    Warns (``RuntimeWarning``) naming the hosts where sampling runs the pure-Python engine, several times slower
    than the compiled one (install ccg-env there with its compiler, docs/scaling.md).
    """
    group = algo.env_runner_group
    remote = group.num_remote_env_runners() > 0
    runners = [{"runner": index, **found} for index, found in
               enumerate(group.foreach_env_runner(_describe_runner, local_env_runner=not remote), start=int(remote))]
    slow = sorted({f"{runner['host']} ({runner['engine']})" for runner in runners if not runner["compiled"]})
    if slow:
        warnings.warn(f"sampling on {', '.join(slow)} runs the pure-Python engine, several times slower than the "
                      f"compiled one: install ccg-env there with its compiler (docs/scaling.md)",
                      RuntimeWarning, stacklevel=2)
    return runners


def _describe_runner(runner: Any) -> dict[str, Any]:
    """Runs on an env runner: its Ray node id, host name and the engine build its process imported."""
    import socket

    import ray

    from ..engine import COMPILED, ENGINE_BUILD

    return {"node_id": ray.get_runtime_context().get_node_id(), "host": socket.gethostname(),
            "compiled": bool(COMPILED), "engine": ENGINE_BUILD}


def open_run_dir(config: TrainConfig, resumed: bool) -> Path:
    """The run folder: a new run starts its records afresh; a resumed one keeps them and appends."""
    run_dir = prepare_run_dir(config, resumed=resumed)
    if not resumed:
        (run_dir / "progress.csv").unlink(missing_ok=True)
    return run_dir


def restored_timesteps(algo: Any) -> int:
    """Env steps sampled before the checkpoint an algorithm was restored from (0 if it does not say)."""
    from ray.rllib.utils.metrics import ENV_RUNNER_RESULTS, NUM_ENV_STEPS_SAMPLED_LIFETIME

    value = algo.metrics.peek((ENV_RUNNER_RESULTS, NUM_ENV_STEPS_SAMPLED_LIFETIME), default=0)
    return int(value) if math.isfinite(float(value)) else 0


class Evaluations:
    """A run's evaluations: the main module against the evaluation opponent and the ``eval_opponents``.

    Each :meth:`run` plays them, appends their rows to ``eval.csv``, redraws ``learning_curve.png`` (a line per
    opponent), checkpoints, and keeps ``best_model.ccgrllib`` by the results against the evaluation opponent
    (``history``). The ``best`` opponent is that file as it stands before the evaluation (none before the first).
    A ``resumed`` run starts from the rows its ``eval.csv`` already holds, so the curve and the best model go on
    from them, and its clock (``seconds_before``) from the last ``progress.csv`` row.
    """

    def __init__(self, config: TrainConfig, run_dir: Path, core: Any, resumed: bool = False) -> None:
        self.config, self.run_dir, self.core = config, run_dir, core
        self.opponent: Any = eval_opponent(config) if config.opponent != "self" else "heuristic"
        self.others = [eval_agent(spec, trust_model=config.trust_model) for spec in config.eval_opponents]
        self.every_result: list[EvalResult] = read_evaluations(run_dir / "eval.csv") if resumed else []
        self.history = [result for result in self.every_result if result.opponent == self.opponent]
        self.seconds_before = last_seconds(run_dir / "progress.csv") if resumed else 0.0

    def run(self, algo: Any, timesteps: int, seconds: float) -> None:
        """Evaluate the main module greedily, log it, checkpoint, redraw the curve and keep the best policy file."""
        config, run_dir = self.config, self.run_dir
        module = algo.get_module(MAIN)
        for index, (label, agent) in enumerate([(self.opponent, self.opponent), *self.others]):
            agent = self._best_so_far() if agent is None else agent
            if agent is None:
                continue
            counts = evaluate(module, config, agent, config.eval_games, config.eval_seed)
            result = EvalResult(timesteps, seconds, label, dict(counts))
            self.every_result.append(result)
            append_csv(run_dir / "eval.csv", result.row())
            if index == 0:
                self.history.append(result)
        save_checkpoint(algo, run_dir / "checkpoints" / f"iter_{algo.iteration}")
        _save_policy(module, self.core, config, run_dir / "checkpoints" / f"step_{timesteps}.ccgrllib", timesteps)
        plot_learning_curve(self.every_result, run_dir / "learning_curve.png", config.name)
        if self.history[-1] is best_evaluation(self.history):
            _save_policy(module, self.core, config, run_dir / "best_model.ccgrllib", timesteps)

    def _best_so_far(self) -> Any:
        """The ``rllib`` agent of the best policy file so far, or None before there is one."""
        from ..agent_api import make_agent

        path = self.run_dir / "best_model.ccgrllib"
        return make_agent("rllib", path=str(path), name="best", cards=self.config.cards) if path.is_file() else None


def read_evaluations(path: Path) -> list[EvalResult]:
    """The evaluations an ``eval.csv`` records (none without the file); a malformed row is an error naming it."""
    if not path.is_file():
        return []
    outcome_of = {column: outcome for outcome, column in EVAL_COLUMNS.items()}
    results = []
    with path.open(newline="", encoding="utf-8") as file:
        for line, row in enumerate(csv.DictReader(file), start=2):
            try:
                outcomes = {outcome_of[column]: int(row[column]) for column in outcome_of if row.get(column)}
                results.append(EvalResult(int(row["timesteps"]), float(row["seconds"]), str(row["opponent"]),
                                          outcomes))
            except (KeyError, TypeError, ValueError):
                raise ValueError(f"{path}, line {line}: expected eval.csv's columns (timesteps, seconds, opponent, "
                                 f"{', '.join(outcome_of)}), got {dict(row)!r}") from None
    return results


def last_seconds(path: Path) -> float:
    """The ``seconds`` of a ``progress.csv``'s last row (0 without the file or rows)."""
    if not path.is_file():
        return 0.0
    with path.open(newline="", encoding="utf-8") as file:
        rows = list(csv.DictReader(file))
    try:
        return float(rows[-1]["seconds"]) if rows else 0.0
    except (KeyError, TypeError, ValueError):
        raise ValueError(f"{path}, line {len(rows) + 1}: expected a number in seconds, got {rows[-1]!r}") from None


def _sampled(result: dict) -> int:
    value = result.get("env_runners", {}).get("num_env_steps_sampled_lifetime", 0)
    return int(value) if math.isfinite(float(value)) else 0


def progress_row(result: dict, timesteps: int, seconds: float) -> dict[str, Any]:
    """The ``progress.csv`` row of one iteration: counts, speed and the league's numbers."""
    return {"iteration": result.get("training_iteration"), "timesteps": timesteps, "seconds": round(seconds, 2),
            "env_steps_per_s": round(timesteps / seconds, 1) if seconds else 0.0,
            "league": json.dumps(result.get("league", {}), sort_keys=True)}


def _save_policy(module: Any, core: Any, config: TrainConfig, path: Path, timesteps: int) -> None:
    from .policy_file import save_policy_file

    save_policy_file(path, module, core, {"run": config.name, "timesteps": timesteps, "backend": "rllib"})


def save_checkpoint(algo: Any, path: Path) -> Path:
    """``algo.save_to_path(path)`` and the league beside it (``league.npz``: snapshot weights, results)."""
    algo.save_to_path(str(path.resolve()))
    league = _league_callback(algo)
    if league is not None:
        save_league(league.state(algo), path / "league.npz")
    return path


def check_checkpoint(path: Path) -> None:
    """Raise FileNotFoundError unless ``path`` is an RLlib checkpoint folder (one with ``learner_group/``)."""
    if not (path / "learner_group").is_dir():
        raise FileNotFoundError(f"rllib: resume_from: {str(path)!r} is not an RLlib checkpoint folder "
                                f"(no learner_group/ in it)")


def restore(algo: Any, path: Path) -> None:
    """Continue from a checkpoint folder: the main module, optimizer and counters, then the league's snapshots."""
    check_checkpoint(path)
    algo.restore_from_path(str(path.resolve()))
    league = _league_callback(algo)
    if league is not None and (path / "league.npz").is_file():
        league.restore(algo, load_league(path / "league.npz"))


def _league_callback(algo: Any) -> Any:
    from .league import LeagueCallback

    callbacks = getattr(algo, "callbacks", None)
    for callback in callbacks if isinstance(callbacks, (list, tuple)) else [callbacks]:
        if isinstance(callback, LeagueCallback):
            return callback
    return None


def save_league(state: dict[str, Any], path: Path) -> None:
    """The league as an ``.npz`` of plain arrays (``<snapshot>/<parameter>``) and a JSON index; no pickles."""
    arrays = {f"{module_id}/{name}": np.asarray(value) for module_id, params in state["snapshots"].items()
              for name, value in params.items()}
    index = {"snapshots": list(state["snapshots"]), "results": state["results"],
             "last_snapshot": state["last_snapshot"]}
    arrays["index.json"] = np.frombuffer(json.dumps(index).encode("utf-8"), dtype=np.uint8)
    np.savez(path, **arrays)


def load_league(path: Path) -> dict[str, Any]:
    """Read :func:`save_league`'s file (``allow_pickle=False``: plain arrays only)."""
    with np.load(path, allow_pickle=False) as data:
        index = json.loads(bytes(data["index.json"]).decode("utf-8"))
        snapshots: dict[str, dict[str, np.ndarray]] = {module_id: {} for module_id in index["snapshots"]}
        for key in data.files:
            module_id, _, name = key.partition("/")
            if module_id in snapshots:
                snapshots[module_id][name] = data[key]
    return {"snapshots": snapshots, "results": index.get("results", {}), "last_snapshot": index.get("last_snapshot", 0)}


__all__ = ["RLlibTrainResult", "build_config", "env_config", "evaluate", "load_league",
           "restore", "save_checkpoint", "save_league", "train"]
