"""A training run's records, the same for both backends: the run folder, evaluations and ``eval.csv``, the result.

:mod:`ccg_env.training.train` (stable-baselines3) and :mod:`ccg_env.rllib.train` (Ray RLlib) both write a run through
this module: :func:`prepare_run_dir` makes ``<runs_dir>/<name>/`` and saves the config, every evaluation is an
:class:`EvalResult` appended to ``eval.csv`` (:func:`append_csv`), the best one picks ``best_model``
(:func:`best_evaluation`), the curve is :mod:`ccg_env.training.curve`'s, and the run ends as a :class:`TrainResult`
(:func:`print_result`). The imitation warm start (:func:`warm_start`) records the teacher on the batched duel env
(:func:`make_vec_env`) for either backend's policy. Neither backend is imported here.
"""

from __future__ import annotations

import contextlib
import csv
import dataclasses
import signal
import sys
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from .train_config import TrainConfig


def make_vec_env(config: TrainConfig, num_envs: int, opponent: str) -> Any:
    """The batched SB3 VecEnv with the run's game settings."""
    from ..env.sb3_vec import CcgDuelSb3VecEnv

    return CcgDuelSb3VecEnv(num_envs, opponent=opponent, opponent_draft=config.opponent_draft, mode=config.mode,
                            decks=config.decks, seat=config.seat, rules=config.rules, cards=config.cards,
                            turn_limit=config.turn_limit, normalize_observations=config.normalize_observations,
                            card_features=config.card_features, card_ids=config.card_ids)


#: Episode outcome -> its count column in ``eval.csv``.
EVAL_COLUMNS = {"win": "wins", "loss": "losses", "draw": "draws", "turn_limit": "turn_limits",
                "illegal_action": "illegal_actions"}


@dataclass
class EvalResult:
    """Outcome counts of one evaluation; ``win_rate`` counts draws and turn limits as non-wins."""

    timesteps: int
    seconds: float
    opponent: str
    outcomes: dict[str, int]

    @property
    def games(self) -> int:
        return sum(self.outcomes.values())

    @property
    def wins(self) -> int:
        return self.outcomes.get("win", 0)

    @property
    def win_rate(self) -> float:
        return self.wins / max(1, self.games)

    def row(self) -> dict[str, Any]:
        """The ``eval.csv`` row, ending with the environment version and spec hash (:mod:`ccg_env.env.versions`)."""
        from ..env.versions import env_record

        counts = {column: self.outcomes.get(outcome, 0) for outcome, column in EVAL_COLUMNS.items()}
        return {"timesteps": self.timesteps, "seconds": round(self.seconds, 2), "opponent": self.opponent,
                "games": self.games, **counts, "win_rate": round(self.win_rate, 4), **env_record()}


def eval_opponent(config: TrainConfig) -> str:
    """The evaluation opponent: ``eval_opponent``, else the training opponent (the heuristic for a league)."""
    if config.eval_opponent:
        return config.eval_opponent
    return "heuristic" if config.opponent == "league" else config.opponent


BEST_MODEL = "best_model.zip"


def best_evaluation(history: Sequence[EvalResult]) -> EvalResult | None:
    """The evaluation with the highest win rate, the earliest of equals (``None`` before the first)."""
    return max(history, key=lambda e: e.win_rate, default=None)


def append_csv(path: Path, row: dict[str, Any]) -> None:
    """Append one row to a CSV file, writing the header first when the file is new; a file whose header names
    other columns is refused rather than given misaligned rows."""
    new = not path.exists() or path.stat().st_size == 0
    if not new:
        _check_header(path, list(row))
    with path.open("a", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(row))
        if new:
            writer.writeheader()
        writer.writerow(row)


def _check_header(path: Path, columns: list[str]) -> None:
    with path.open(newline="", encoding="utf-8") as handle:
        header = next(csv.reader(handle), [])
    if header != columns:
        raise ValueError(f"{path}: its columns ({', '.join(header[:12])}) are not the ones this version of ccg-env "
                         f"writes ({', '.join(columns)}); it was written by another version: continue in a new "
                         f"run name, or move the file away")


def _check_resumable(run_dir: Path) -> None:
    """A resumed run appends to ``eval.csv``: refuse one written for another environment spec or column layout."""
    from ..env.versions import spec_mismatch

    path = run_dir / "eval.csv"
    if not path.exists() or path.stat().st_size == 0:
        return
    _check_header(path, list(EvalResult(0, 0.0, "", {}).row()))
    with path.open(newline="", encoding="utf-8") as handle:
        first = next(csv.DictReader(handle), None)
    mismatch = spec_mismatch(first["env_version"], first["spec_hash"]) if first else None
    if mismatch:
        raise ValueError(f"{path}: cannot resume this run: {mismatch}")


def show_progress(setting: bool | str) -> bool:
    """Whether to draw the progress bar: ``progress`` true or false, or ``"auto"``: when stderr is a terminal."""
    if setting == "auto":
        return sys.stderr.isatty()
    return bool(setting)


@contextlib.contextmanager
def stop_signals_interrupt() -> Iterator[None]:
    """While training, SIGTERM (a job scheduler's stop) and SIGINT raise KeyboardInterrupt, as Ctrl-C does in a
    terminal, so that the model is still saved. SIGINT needs it too: a job started in the background by a script
    ignores it. Off the main thread (where Python cannot set handlers) nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt(signal.Signals(signum).name)

    previous = {sig: signal.signal(sig, interrupt) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


@dataclass
class TrainResult:
    """What a run produced: where, how long, how fast, and every evaluation."""

    config: TrainConfig
    run_dir: Path
    model_path: Path
    timesteps: int
    seconds: float
    evaluations: list[EvalResult]
    interrupted: bool = False

    @property
    def best(self) -> EvalResult | None:
        """The evaluation whose model ``best_model.zip`` (and ``.ccgmodel``) holds."""
        return best_evaluation(self.evaluations)

    @property
    def steps_per_second(self) -> float:
        return self.timesteps / self.seconds if self.seconds else 0.0

    @property
    def final_win_rate(self) -> float:
        return self.evaluations[-1].win_rate

    @property
    def policy_path(self) -> Path:
        """The ``.ccgmodel`` model file beside ``model_path`` (what the ``learned`` agent loads)."""
        from ccg_env.model_file import SUFFIX

        return self.model_path.with_suffix(SUFFIX)


def prepare_run_dir(config: TrainConfig, resumed: bool = False) -> Path:
    """Create ``<runs_dir>/<name>/`` and save the config; a new run replaces the previous run's eval.csv and
    imitation.csv, a ``resumed`` one keeps them to append to."""
    run_dir = Path(config.runs_dir) / config.name
    if resumed:
        _check_resumable(run_dir)
    (run_dir / "checkpoints").mkdir(parents=True, exist_ok=True)
    for stale in () if resumed else ("eval.csv", "imitation.csv"):
        (run_dir / stale).unlink(missing_ok=True)
    (run_dir / "config.yaml").write_text(yaml.safe_dump(dataclasses.asdict(config), sort_keys=False),
                                         encoding="utf-8")
    return run_dir


def print_result(result: TrainResult, unit: str) -> None:
    """Print how far a run (either backend's result) got, how fast, and its last and best evaluations."""
    stopped = "interrupted after" if result.interrupted else "trained"
    print(f"{stopped} {result.timesteps} {unit} in {result.seconds:.1f} s ({result.steps_per_second:,.0f} steps/s)")
    if result.evaluations:
        last, best = result.evaluations[-1], result.best
        assert best is not None
        print(f"win rate vs {last.opponent}: {last.win_rate:.3f} over {last.games} games at the end, "
              f"best {best.win_rate:.3f} at {best.timesteps} steps")


def warm_start(config: TrainConfig, policy: Any, run_dir: Path) -> Any:
    """The ``imitation:`` stage before PPO: record the teacher in the learner's seat, fit ``policy`` to it.

    ``policy`` is what :func:`ccg_env.training.imitation.fit` takes (an SB3 policy, or the RLlib backend's module
    student). The teacher plays a fresh copy of the training env (the heuristic stands in for a league or
    self-play, which have no snapshots yet); each epoch's losses and held-out accuracy are appended to
    ``imitation.csv``. Returns the recorded decisions (:class:`ccg_env.training.imitation.Demonstrations`).
    """
    from tqdm import tqdm

    from .imitation import ImitationSettings, fit, record

    settings = ImitationSettings.from_dict(config.imitation, "train config: imitation")
    seat_opponent = "heuristic" if config.opponent in ("league", "self") else config.opponent
    env = make_vec_env(config, config.num_envs, seat_opponent)
    shown = show_progress(config.progress)
    try:
        with tqdm(total=settings.samples, desc=f"{config.name}: recording {settings.teacher}", unit="decision",
                  unit_scale=True, file=sys.stderr, disable=not shown) as bar:
            data = record(env, settings.teacher, settings.samples, config.gamma, config.seed, bar.update)
    finally:
        env.close()
    with tqdm(total=settings.epochs, desc=f"{config.name}: imitating", unit="epoch", file=sys.stderr,
              disable=not shown) as bar:
        def on_epoch(result: Any) -> None:
            append_csv(run_dir / "imitation.csv", {"games": data.games, "decisions": len(data), **result.row()})
            bar.update(1)
            bar.set_postfix_str(f"held-out accuracy {result.held_out_accuracy:.3f}")

        fit(policy, data, settings, config.seed, on_epoch)
    return data
