"""Train sb3-contrib MaskablePPO on the batched duel env: ``ccg-env train --config configs/train/<name>.yaml``.

Read top to bottom in the CleanRL manner: the arguments (:class:`~ccg_env.training.train_config.TrainConfig`,
documented field by field, loaded from YAML and validated in :mod:`ccg_env.training.train_config`), the environments,
the periodic evaluation against a fixed opponent, the model, the training loop and its result. From
Python: ``train("configs/train/smoke.yaml")`` or ``train(TrainConfig(name="try", total_timesteps=10_000))``
returns a :class:`TrainResult`.

Everything a run writes goes under ``<runs_dir>/<name>/``:

- TensorBoard event files and SB3's ``progress.csv`` (``tensorboard --logdir runs``), with ``eval/win_rate``;
- ``eval.csv``: one row per evaluation (timesteps, games, wins, losses, draws, turn limits, win rate...);
- ``checkpoints/step_<timesteps>.zip`` at every evaluation, ``model.zip`` at the end (``MaskablePPO.load``), each
  with a ``.ccgmodel`` beside it: the policy as a model file (:mod:`ccg_env.model_file`), which loads without
  running code from the file (what to share, and what the ``learned`` agent loads);
- ``best_model.zip`` (and its ``.ccgmodel``): the model of the evaluation with the highest win rate so far;
- ``learning_curve.png``: the evaluations' win rates against timesteps, redrawn at every evaluation;
- ``config.yaml``: the resolved configuration, to rerun the same thing;
- ``league.csv`` (league runs): after each rollout, per member the games met, the learner's win rate over the run
  and the chance of meeting it next (what prioritized fictitious self-play, ``league.pfsp_power``, shifts).

Ctrl-C, SIGINT or SIGTERM (a job scheduler stopping the job) stops training and still saves ``model.zip``
(``TrainResult.interrupted``; the command exits 130).

While it trains, a progress bar on stderr shows the timesteps, steps/s and the latest evaluation win rate
(``progress``: by default only when stderr is a terminal).

Policies (``policy``): ``"mlp"`` is SB3's ``MlpPolicy`` (``net_arch``) on the flat observation, scaled into
``[0, 1]`` by the env (``normalize_observations``); ``"slot"`` is :class:`ccg_env.training.policy.SlotPolicy`: shared
networks over every hand and battlefield slot (a card means the same in every slot) and actions scored per
(source slot, target slot) pair, with ``net_arch`` sizing its value network.

Opponents (``opponent``): ``"random"``, a registered agent name such as ``"heuristic"``, or ``"league"``:
self-play against a pool of frozen snapshots of the learner with the heuristic and random play in it, one
member drawn per game (:mod:`ccg_env.training.league`, settings under ``league:``).
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from .curve import plot_learning_curve
from .run import (BEST_MODEL, EvalResult, TrainResult, append_csv, best_evaluation, eval_opponent, make_vec_env,
                  prepare_run_dir, print_result, show_progress, stop_signals_interrupt, warm_start)
from .train_config import (BACKENDS, TrainConfig, config_from_dict, eval_agent, load_config, parse_overrides,
                           resolve_config_path)

__all__ = ["EvalResult", "TrainConfig", "TrainResult", "config_from_dict", "evaluate", "export_for_play",
           "load_config", "load_initial_weights", "main", "make_model", "make_training_env", "make_vec_env",
           "parse_overrides", "resolve_config_path", "save_model_files", "train", "warm_start"]

# ---------------------------------------------------------------------------------------------------------
# Environments and evaluation
# ---------------------------------------------------------------------------------------------------------


def make_training_env(config: TrainConfig) -> tuple[Any, Any]:
    """The seeded training VecEnv and the league pool (None unless ``opponent`` is league)."""
    from .league import LeagueSettings
    from .sb3_league import LeagueOpponent, LeaguePool

    league = config.opponent == "league"
    env = make_vec_env(config, config.num_envs, "random" if league else config.opponent)
    pool = None
    if league:
        pool = LeaguePool(LeagueSettings.from_dict(config.league, "train config: league"), env.batch.setup,
                          trust_model=config.trust_model)
        for duel in env.batch.duels:
            duel.opponent = LeagueOpponent(pool)
    env.seed(config.seed)
    return env, pool


def evaluate(model: Any, env: Any, games: int, deterministic: bool, seed: int) -> Counter:
    """Play ``games`` of the arena's deals (:mod:`ccg_env.training.eval_games`) on ``env``'s duels; count outcomes."""
    from .eval_games import play_deals

    def act(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        return model.predict(observations, action_masks=masks, deterministic=deterministic)[0]

    return play_deals(env.batch, act, games, seed)


def make_eval_callback(config: TrainConfig, env: Any, run_dir: Path, history: list[EvalResult],
                       evaluate_at_start: bool = False) -> Any:
    """An SB3 callback that evaluates on ``env``, logs ``eval/win_rate``, appends to ``eval.csv``, checkpoints.

    It evaluates at timestep 0 too after an imitation warm start, or with ``evaluate_at_start`` (a run that
    continues a saved model: where the curve starts).

    The ``eval_opponents`` are met at each evaluation too (on envs of their own, logged as
    ``eval/win_rate_vs_<label>``); only the results against ``env``'s opponent go to ``history``. The ``best``
    opponent is the best model saved so far, loaded again at each evaluation (none before the first is saved).
    """
    from stable_baselines3.common.callbacks import BaseCallback

    from ccg_env.agent_api import make_agent
    from ccg_env.model_file import SUFFIX

    opponent = eval_opponent(config)
    entries = (eval_agent(spec, trust_model=config.trust_model) for spec in config.eval_opponents)
    others = [(label, None if agent is None else make_vec_env(config, config.eval_envs, agent))
              for label, agent in entries]

    def best_so_far_env() -> Any:
        """An eval env against the best model saved so far, or None before there is one."""
        path = (run_dir / BEST_MODEL).with_suffix(SUFFIX)
        if not path.is_file():
            return None
        return make_vec_env(config, config.eval_envs, make_agent("learned", path=str(path), name="best",
                                                                 cards=config.cards))

    every_result: list[EvalResult] = []
    started = time.perf_counter()

    class WinRateEval(BaseCallback):
        def __init__(self) -> None:
            super().__init__()
            self.last_eval = 0

        def _on_training_start(self) -> None:
            if (config.imitation or evaluate_at_start) and not history:  # where the curve starts
                self.run_eval()

        def _on_step(self) -> bool:
            if config.eval_every and self.num_timesteps - self.last_eval >= config.eval_every:
                self.run_eval()
            return True

        def _on_training_end(self) -> None:
            if self.last_eval != self.num_timesteps or not history:
                self.run_eval()

        def run_eval(self) -> None:
            self.last_eval = self.num_timesteps
            for label, eval_env in [(opponent, env), *others]:
                eval_env = best_so_far_env() if eval_env is None else eval_env
                if eval_env is None:
                    continue
                counts = evaluate(self.model, eval_env, config.eval_games, config.eval_deterministic,
                                  config.eval_seed)
                result = EvalResult(self.num_timesteps, time.perf_counter() - started, label, dict(counts))
                every_result.append(result)
                append_csv(run_dir / "eval.csv", result.row())
                self.logger.record("eval/win_rate" if eval_env is env else f"eval/win_rate_vs_{label}",
                                   result.win_rate)
                if eval_env is env:
                    history.append(result)
            self.logger.record("eval/games", config.eval_games)
            self.logger.dump(self.num_timesteps)
            result = history[-1]
            plot_learning_curve(every_result, run_dir / "learning_curve.png", config.name)
            save_model_files(self.model, run_dir / "checkpoints" / f"step_{self.num_timesteps}.zip", env.batch.setup,
                             config.name)
            if result is best_evaluation(history):
                save_model_files(self.model, run_dir / BEST_MODEL, env.batch.setup, config.name)

    return WinRateEval()


def save_model_files(model: Any, path: Path, setup: Any, run_name: str) -> None:
    """``model.save(path)`` (SB3's zip) and, beside it, the policy as a ``.ccgmodel`` model file.

    The model file records the rules and card set of ``setup`` (the env's ``DuelSetup``) and loads without
    unpickling anything (:func:`ccg_env.saved_policy.load_model`); the zip keeps the optimizer state.
    """
    from ccg_env.model_file import SUFFIX
    from ccg_env.saved_policy import save_policy

    model.save(path)
    save_policy(Path(path).with_suffix(SUFFIX), model.policy, setup.rules, setup.cards,
                {"run": run_name, "timesteps": int(model.num_timesteps)})


def load_initial_weights(model: Any, path: str | Path, trust: bool) -> None:
    """Start ``model`` from a saved policy: a model file's weights, or (trusted) an SB3 zip's weights and optimizer."""
    from ccg_env.model_file import model_kind
    from ccg_env.saved_policy import load_model

    if model_kind(path) == "sb3-zip":
        load_model(path, trust=trust)  # refuses an untrusted zip with the reason
        model.set_parameters(str(path), exact_match=True)
        return
    loaded = load_model(path)
    try:
        model.policy.load_state_dict(loaded.policy.state_dict(), strict=True)
    except RuntimeError as error:
        raise ValueError(f"init_model {str(path)!r} holds a {loaded.metadata.policy_class} that does not match "
                         f"this config's policy: {' '.join(str(error).split())[:300]}") from None


def make_progress_callback(config: TrainConfig, history: list[EvalResult]) -> Any:
    """An SB3 callback drawing a tqdm bar on stderr: timesteps, steps/s and the latest evaluation win rate.

    Put it after the evaluation callback, so that the win rate it shows is the one just measured.
    """
    from stable_baselines3.common.callbacks import BaseCallback
    from tqdm import tqdm

    class ProgressBar(BaseCallback):
        def _on_training_start(self) -> None:
            self.bar = tqdm(total=config.total_timesteps, desc=config.name, unit="step", unit_scale=True,
                            file=sys.stderr)
            self.evaluations_shown = 0

        def _on_step(self) -> bool:
            self.bar.update(self.num_timesteps - self.bar.n)
            if len(history) > self.evaluations_shown:
                self.evaluations_shown = len(history)
                last = history[-1]
                self.bar.set_postfix_str(f"eval win rate vs {last.opponent} {last.win_rate:.3f}")
            return True

        def _on_training_end(self) -> None:
            self._on_step()
            self.bar.close()

    return ProgressBar()


LEAGUE_CSV = "league.csv"
LEAGUE_COLUMNS = ("timesteps", "member", "games", "learner_win_rate", "chance")


def league_keeper(pool: Any, env: Any) -> Any:
    """A :class:`~ccg_env.training.sb3_league.LeagueKeeper` of ``pool`` for the training VecEnv ``env`` (its duels'
    league opponents, in the order of the env's slots)."""
    from .sb3_league import LeagueKeeper

    return LeagueKeeper(pool, [duel.opponent for duel in env.get_attr("batch")[0].duels])


def make_league_callback(pool: Any, run_dir: Path | None = None) -> Any:
    """An SB3 callback that keeps the league (:class:`~ccg_env.training.sb3_league.LeagueKeeper`: results per member,
    snapshots of the policy), logs win rates per member kind, and after each rollout appends the league's standings
    (games, the learner's win rate over the run and the chance of the next draw, per member) to ``run_dir /
    league.csv``.

    With ``pool`` None the games are played on the rollout worker (``async_rollouts``), whose keeper does the
    counting and the snapshots; its report of each rollout arrives as the model's ``league_report``."""
    from stable_baselines3.common.callbacks import BaseCallback

    class LeagueSnapshots(BaseCallback):
        def _on_training_start(self) -> None:
            self.keeper = None
            if pool is not None:
                self.keeper = league_keeper(pool, self.training_env)
            if run_dir is not None:
                with (run_dir / LEAGUE_CSV).open("w", newline="") as out:
                    csv.writer(out).writerow(LEAGUE_COLUMNS)

        def _on_step(self) -> bool:
            if self.keeper is not None:
                locals_ = self.locals
                self.keeper.after_step(locals_["dones"], locals_["infos"], self.num_timesteps, self.model.policy)
            return True

        def _on_rollout_end(self) -> None:
            report = pool.take_report() if pool is not None else self.model.league_report
            for kind, rate in report.win_rates.items():
                self.logger.record(f"league/win_rate_vs_{kind}", rate)
            self.logger.record("league/snapshots", report.snapshots)
            if run_dir is not None:
                with (run_dir / LEAGUE_CSV).open("a", newline="") as out:
                    writer = csv.writer(out)
                    for row in report.standings:
                        rate = row["learner_win_rate"]
                        writer.writerow([self.num_timesteps, row["member"], row["games"],
                                         "" if rate is None else f"{rate:.4f}", f"{row['chance']:.4f}"])

    return LeagueSnapshots()


# ---------------------------------------------------------------------------------------------------------
# Training
# ---------------------------------------------------------------------------------------------------------


def make_model(config: TrainConfig, env: Any) -> Any:
    """The MaskablePPO model of ``config`` (policy, network and PPO hyperparameters) on ``env``, logging nowhere
    until :func:`train` gives it the run folder's logger."""
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.logger import Logger

    from .buffers import OneCopyRolloutBuffer
    from .policy import ScaledFlattenExtractor, SlotPolicy, input_gain

    encoder = env.get_attr("batch")[0].setup.encoder
    gain = input_gain(encoder.high, config.normalize_observations).tolist() if config.rescale_inputs else None
    policy: Any = "MlpPolicy"
    policy_kwargs: dict[str, Any] = {"net_arch": list(config.net_arch)}
    if config.policy == "slot":
        policy = SlotPolicy
        options = dict(config.policy_kwargs)
        extractor = {key: options.pop(key) for key in ("slot_dim", "global_dim") if key in options}
        pieces = [[p.name, p.start, p.stop, list(p.shape)] for p in encoder.pieces]
        policy_kwargs.update(options, features_extractor_kwargs={"pieces": pieces, "gain": gain, **extractor})
    elif gain is not None:
        policy_kwargs.update(features_extractor_class=ScaledFlattenExtractor, features_extractor_kwargs={"gain": gain})
    rate = config.learning_rate
    model_class: Any = MaskablePPO
    extra: dict[str, Any] = {}
    if config.async_rollouts:
        from .async_ppo import AsyncRolloutPPO

        model_class, extra = AsyncRolloutPPO, {"worker_config": config}
    model = model_class(
        policy, env, learning_rate=rate if config.lr_schedule == "constant" else LinearSchedule(rate),
        n_steps=config.n_steps, batch_size=config.batch_size, n_epochs=config.n_epochs, gamma=config.gamma,
        gae_lambda=config.gae_lambda, clip_range=config.clip_range, ent_coef=config.ent_coef,
        vf_coef=config.vf_coef, max_grad_norm=config.max_grad_norm, policy_kwargs=policy_kwargs,
        rollout_buffer_class=OneCopyRolloutBuffer,
        seed=config.seed, device=config.device, verbose=config.verbose, **extra,
    )
    model.set_logger(Logger(folder=None, output_formats=[]))  # not SB3's default, a folder in the temp dir per run
    return model


@dataclass(frozen=True)
class LinearSchedule:
    """Learning rate falling linearly from ``initial`` to 0 over training (SB3 passes progress remaining)."""

    initial: float

    def __call__(self, progress_remaining: float) -> float:
        return self.initial * progress_remaining


def train(config: TrainConfig | str | Path) -> TrainResult:
    """Train MaskablePPO as ``config`` says (a :class:`TrainConfig` or a YAML path or name) and return the result.

    Everything that can refuse the configuration (loading, env and model construction) runs before the run
    folder is created, so a failed start leaves nothing behind.
    """
    import torch
    from stable_baselines3.common.callbacks import CallbackList
    from stable_baselines3.common.logger import configure

    if not isinstance(config, TrainConfig):
        config = load_config(config)
    if not config.name:
        raise ValueError("train config: name is empty; set it or load the config from a YAML file")
    torch.set_num_threads(config.torch_threads)
    env, pool = make_training_env(config)
    eval_env = make_vec_env(config, config.eval_envs, eval_opponent(config))
    model = make_model(config, env)
    if config.init_model:
        load_initial_weights(model, config.init_model, config.trust_model)
    run_dir = prepare_run_dir(config)
    model.set_logger(configure(str(run_dir), ["tensorboard", "csv"] + (["stdout"] if config.verbose else [])))
    history: list[EvalResult] = []
    callbacks = [make_eval_callback(config, eval_env, run_dir, history)]
    if pool is not None:  # with async rollouts the worker plays the league's games and reports on them
        callbacks.append(make_league_callback(None if config.async_rollouts else pool, run_dir))
    progress = make_progress_callback(config, history) if show_progress(config.progress) else None
    if progress is not None:
        callbacks.append(progress)
    started = time.perf_counter()
    interrupted = False
    try:
        with stop_signals_interrupt():
            if config.imitation:
                warm_start(config, model.policy, run_dir)
            model.learn(config.total_timesteps, callback=CallbackList(callbacks))
    except KeyboardInterrupt:  # Ctrl-C or a stop signal: keep what was learned; the model is saved below
        interrupted = True
        if progress is not None and hasattr(progress, "bar"):  # no bar yet when stopped in the warm start
            progress.bar.close()  # as at a normal end, so that what is printed next starts on a line of its own
    seconds = time.perf_counter() - started
    model_path = run_dir / "model.zip"
    save_model_files(model, model_path, eval_env.batch.setup, config.name)
    return TrainResult(config, run_dir, model_path, model.num_timesteps, seconds, history, interrupted)


def export_for_play(source: str | Path, destination: str | Path, *, trust: bool = False) -> Path:
    """Save a trained model without its optimizer's running statistics and last rollout (about a third the size).

    The copy loads with ``MaskablePPO.load`` and plays as the ``learned`` agent (with ``trust=True``) exactly as
    the original (the policy weights are identical); continuing training from it restarts Adam's moment
    estimates. ``source`` is unpickled, so ``trust=True`` is required. To share a model, prefer the
    ``.ccgmodel`` file ``train`` writes beside it (or ``ccg-env model convert``), which loads without pickle.
    """
    from sb3_contrib import MaskablePPO

    from ccg_env.model_file import UntrustedModelError, untrusted_zip_message

    if not trust:
        raise UntrustedModelError(untrusted_zip_message(source))

    model = MaskablePPO.load(str(source), device="cpu")
    policy = model.policy
    policy.optimizer = policy.optimizer_class(policy.parameters(), lr=model.lr_schedule(1), **policy.optimizer_kwargs)
    destination = Path(destination)
    destination.parent.mkdir(parents=True, exist_ok=True)
    model.save(destination, exclude=["_last_obs", "_last_original_obs", "_last_episode_starts", "ep_info_buffer",
                                      "ep_success_buffer"])
    return destination.with_suffix(".zip")


# ---------------------------------------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    """``ccg-env train --config PATH [--set KEY=VALUE ...]``: train, then print where the results are."""
    parser = argparse.ArgumentParser(prog="ccg-env train", description="Train MaskablePPO on the duel env.")
    parser.add_argument("--config", required=True, help="a configs/train/<name>.yaml path or a packaged name")
    parser.add_argument("--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE",
                        help="override one config key (repeatable), e.g. --set total_timesteps=4096")
    parser.add_argument("--backend", choices=BACKENDS, help="sb3 or rllib (default: the config's, else sb3)")
    parser.add_argument("--address", help="backend rllib: the Ray cluster to join ('auto': the one this machine "
                                          "is in); default: start a local Ray")
    args = parser.parse_args(argv)
    overrides = parse_overrides(args.overrides) if args.backend is None else \
        {"backend": args.backend, **parse_overrides(args.overrides)}
    try:
        config = load_config(args.config, overrides)
    except (ValueError, FileNotFoundError) as error:
        parser.error(str(error))
    if args.address is not None and config.backend != "rllib":
        parser.error("--address is for --backend rllib (a Ray cluster to train on)")
    if config.backend == "rllib":
        return _main_rllib(config, args.address)
    result = train(config)
    print_result(result, "steps")
    print(f"run folder: {result.run_dir} (model.zip, {result.policy_path.name} to load and share, {BEST_MODEL}, "
          f"eval.csv, learning_curve.png, checkpoints/, TensorBoard events)")
    return 130 if result.interrupted else 0


def _main_rllib(config: TrainConfig, address: str | None) -> int:
    """``--backend rllib``: train with Ray RLlib (:mod:`ccg_env.rllib.train`) and print where the results are."""
    from ccg_env.rllib import require_ray

    try:
        require_ray()
    except ImportError as error:
        print(f"ccg-env train: {error}", file=sys.stderr)
        return 2
    from ccg_env.rllib.train import train as train_rllib

    result = train_rllib(config, address)
    print_result(result, "env steps")
    print(f"run folder: {result.run_dir} (model/ RLlib checkpoint, {result.policy_path.name} to load and share, "
          f"eval.csv, learning_curve.png, checkpoints/)")
    return 130 if result.interrupted else 0


if __name__ == "__main__":
    raise SystemExit(main())
