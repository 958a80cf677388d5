"""Re-evaluate a finished run's checkpoints on more games than its training evaluations played, for a learning curve
whose noise is small enough to read (``ccg-env evaluate RUN_DIR``).

Each checkpoint's policy file plays ``games`` greedy games against the run's evaluation opponent on the arena's deals
(:func:`ccg_env.training.train.evaluate`, as training evaluates; :func:`ccg_env.rllib.train.evaluate` for a run of
the RLlib backend), from another seed than training's
evaluations by default, so the figures are not the ones the best model was picked by. The results go to
``checkpoint_eval.csv`` (one row per checkpoint: the counts, the win rate with its 95% Wilson interval, the minutes of
training when the checkpoint was saved and the training evaluation's own win rate) and ``checkpoint_eval.png`` (both
curves), beside ``eval.csv``; against another opponent than the run's evaluation opponent, to
``checkpoint_eval_<opponent>.csv`` and ``.png`` (``search(iterations=8)`` -> ``checkpoint_eval_search_iterations_8``),
so one opponent's results never overwrite another's. Only policy files are loaded (``.ccgmodel``; ``.ccgrllib``
for RLlib, which needs the ``rllib`` extra): nothing from the run folder runs code.
"""

from __future__ import annotations

import csv
import dataclasses
import re
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

from ..intervals import wilson_interval
from .curve import learning_curve_figure
from .run import EvalResult, eval_opponent, make_vec_env
from .train import evaluate
from .train_config import TrainConfig, eval_agent, load_config

CHECKPOINT_EVAL_CSV = "checkpoint_eval.csv"
CHECKPOINT_EVAL_PNG = "checkpoint_eval.png"
#: Longest opponent label kept in a file name (a longer one is cut there).
MAX_LABEL_IN_NAME = 60
#: Seed of the re-evaluation's deals: not training's ``eval_seed`` (1,000,000), so the games differ from those the
#: best model was selected by.
DEFAULT_SEED = 2_000_000
#: The policy file each backend writes at every evaluation, as ``checkpoints/step_<timesteps><suffix>``.
CHECKPOINT_SUFFIXES = {"sb3": ".ccgmodel", "rllib": ".ccgrllib"}
#: ``play(path, seed)``: the outcomes of one checkpoint's games.
Player = Callable[[Path, int], dict[str, int]]


@dataclass
class CheckpointResult(EvalResult):
    """One checkpoint's re-evaluation (an :class:`EvalResult` whose ``seconds`` are the training time at which the
    checkpoint was saved, 0 when unknown), with what training's own evaluation counted for it (None without a row)."""

    training_wins: int | None = None
    training_games: int | None = None

    @property
    def training_win_rate(self) -> float | None:
        return None if not self.training_games else self.training_wins / self.training_games

    def row(self) -> dict[str, Any]:
        """The ``checkpoint_eval.csv`` row: ``eval.csv``'s columns (seconds as training minutes), the 95% interval
        and the training evaluation's win rate and games."""
        low, high = wilson_interval(self.wins, self.games)
        rate = self.training_win_rate
        row = {("training_minutes" if key == "seconds" else key): value for key, value in super().row().items()}
        row["training_minutes"] = round(self.seconds / 60, 2)
        return {**row, "ci_low": round(low, 4), "ci_high": round(high, 4),
                "training_eval_win_rate": None if rate is None else round(rate, 4),
                "training_eval_games": self.training_games}


def run_checkpoints(run_dir: str | Path, suffix: str = ".ccgmodel") -> list[tuple[int, Path]]:
    """``(timesteps, path)`` of every ``checkpoints/step_<timesteps><suffix>`` of a run, by timesteps."""
    folder = Path(run_dir) / "checkpoints"
    found = sorted((int(path.stem[len("step_"):]), path) for path in folder.glob(f"step_*{suffix}")
                   if path.stem[len("step_"):].isdigit())
    if not found:
        raise ValueError(f"{folder}: no checkpoints to evaluate (training writes checkpoints/step_<timesteps>{suffix} "
                         f"at each evaluation; a run with eval_every: 0 has only its final model)")
    return found


def training_evaluations(run_dir: Path, opponent: str) -> dict[int, tuple[float, int, int]]:
    """``eval.csv``'s ``(seconds, wins, games)`` against ``opponent`` by timesteps (empty without the file)."""
    path = run_dir / "eval.csv"
    if not path.is_file():
        return {}
    found = {}
    with open(path, newline="") as file:
        for line, row in enumerate(csv.DictReader(file), start=2):
            if row.get("opponent") != opponent:
                continue
            try:
                found[int(row["timesteps"])] = (float(row["seconds"]), int(row["wins"]), int(row["games"]))
            except (KeyError, TypeError, ValueError):
                raise ValueError(f"{path}, line {line}: expected eval.csv's numbers in timesteps, seconds, wins "
                                 f"and games, got {dict(row)!r}") from None
    return found


def evaluate_checkpoints(run_dir: str | Path, games: int = 1960, seed: int = DEFAULT_SEED, envs: int = 98,
                         opponent: str | dict[str, Any] | None = None,
                         on_result: Callable[[CheckpointResult, int], None] | None = None) -> list[CheckpointResult]:
    """Play ``games`` games with each checkpoint of the run in ``run_dir`` and write the CSV and the plot beside it.

    Args:
        run_dir: a run folder (``<runs_dir>/<name>``, with its ``config.yaml``) of either backend.
        games: games per checkpoint; a multiple of 98 (every ordered pair of the 7 packaged decks from both seats)
            keeps decks and seats balanced.
        seed: seed of the deals, the same for every checkpoint.
        envs: games played side by side. With the run's ``eval_envs`` and ``eval_games``, ``seed=eval_seed``
            replays training's own evaluation games exactly; with another number the policy reads its observations
            in batches of another size, whose float rounding (about 1e-7) can flip a greedy choice between two
            nearly equal moves.
        opponent: a registered agent name, or a mapping of one and its options (``{"name": "search",
            "iterations": 8}``, labelled ``search(iterations=8)`` as in ``eval.csv``; one agent object serves the
            games played side by side, as in training's ``eval_opponents``, so a randomized one's games depend on
            ``envs`` too); default: the run's evaluation opponent.
        on_result: called after each checkpoint with its result and how many checkpoints there are.

    Sets torch's thread count to the run's ``torch_threads``, as training does.
    """
    import torch

    run_dir = Path(run_dir)
    if not (run_dir / "config.yaml").is_file():
        raise ValueError(f"{run_dir}: not a training run folder (no config.yaml; ccg-env train writes one into "
                         f"<runs_dir>/<name>)")
    if games < 1 or envs < 1:
        raise ValueError(f"games and envs must be at least 1, got games={games} and envs={envs}")
    config = load_config(run_dir / "config.yaml")
    checkpoints = run_checkpoints(run_dir, CHECKPOINT_SUFFIXES[config.backend])
    torch.set_num_threads(config.torch_threads)  # as the run trained: more threads stall on a loaded machine
    spec = opponent if opponent is not None else eval_opponent(config)
    label, agent = eval_agent(spec, "the opponent", trust_model=config.trust_model)
    if agent is None:
        raise ValueError(f"the opponent must be an agent; {label!r} (the run's best model) is one of the checkpoints")
    trained = training_evaluations(run_dir, label)
    players = {"sb3": _sb3_player, "rllib": _rllib_player}
    # a name as training's main evaluation passes it (each game its own agent), else the agent with its options
    with players[config.backend](config, spec if isinstance(spec, str) else agent, games, envs) as play:
        results = []
        for timesteps, path in checkpoints:
            seconds, wins, evaluated = trained.get(timesteps, (0.0, None, None))
            result = CheckpointResult(timesteps, seconds, label, play(path, seed), wins, evaluated)
            results.append(result)
            if on_result is not None:
                on_result(result, len(checkpoints))
    write_results(output_paths(run_dir, label), results, config.name)
    return results


def output_paths(run_dir: str | Path, opponent_label: str) -> tuple[Path, Path]:
    """The CSV and the plot a re-evaluation against ``opponent_label`` writes in the run folder ``run_dir``:
    ``checkpoint_eval.*`` against the run's evaluation opponent, ``checkpoint_eval_<opponent>.*`` against another."""
    run_dir = Path(run_dir)
    if opponent_label == eval_opponent(load_config(run_dir / "config.yaml")):
        return run_dir / CHECKPOINT_EVAL_CSV, run_dir / CHECKPOINT_EVAL_PNG
    name = re.sub(r"[^A-Za-z0-9.-]+", "_", opponent_label).strip("_.")[:MAX_LABEL_IN_NAME] or "opponent"
    stem = f"{Path(CHECKPOINT_EVAL_CSV).stem}_{name}"
    return run_dir / f"{stem}.csv", run_dir / f"{stem}.png"


@contextmanager
def _sb3_player(config: TrainConfig, opponent: Any, games: int, envs: int) -> Iterator[Player]:
    """Plays ``.ccgmodel`` checkpoints on one vectorized env, as training's evaluations do."""
    from ccg_env.saved_policy import load_model

    env = make_vec_env(config, min(envs, games), opponent)

    def play(path: Path, seed: int) -> dict[str, int]:
        model = load_model(path)
        model.check_fits(observation_size=int(env.observation_space.shape[0]), action_size=int(env.action_space.n))
        return dict(evaluate(model.policy, env, games, deterministic=True, seed=seed))

    try:
        yield play
    finally:
        env.close()


@contextmanager
def _rllib_player(config: TrainConfig, opponent: Any, games: int, envs: int) -> Iterator[Player]:
    """Plays ``.ccgrllib`` checkpoints as the RLlib backend's evaluations do (needs the ``rllib`` extra)."""
    from ..rllib import require_ray

    require_ray()  # an ImportError naming the extra, before the modules that import ray
    from ..rllib.env import CcgMultiAgentEnv
    from ..rllib.policy_file import load_fitting_policy
    from ..rllib.train import env_config
    from ..rllib.train import evaluate as evaluate_module

    config = dataclasses.replace(config, eval_envs=envs)
    core = CcgMultiAgentEnv(env_config(config)).core  # the game the policies must fit, as training saved them

    def play(path: Path, seed: int) -> dict[str, int]:
        return dict(evaluate_module(load_fitting_policy(path, core), config, opponent, games, seed))

    yield play


def write_results(paths: tuple[Path, Path], results: Sequence[CheckpointResult], run_name: str) -> None:
    """The results as a CSV (one row per checkpoint) and a plot, at ``paths`` (the CSV's and the plot's)."""
    rows = [result.row() for result in results]
    with open(paths[0], "w", newline="") as file:
        writer = csv.DictWriter(file, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    curves = [{"timesteps": r.timesteps, "opponent": f"{r.opponent}, {r.games:,} games here", "games": r.games,
               "wins": r.wins, "win_rate": r.win_rate} for r in results]
    curves += [{"timesteps": r.timesteps, "opponent": f"{r.opponent}, training's {r.training_games:,} games",
                "games": r.training_games, "wins": r.training_wins, "win_rate": r.training_win_rate}
               for r in results if r.training_games]
    figure = learning_curve_figure(curves, f"{run_name}: checkpoints re-evaluated")
    figure.savefig(paths[1], dpi=100)


def summary(results: Sequence[CheckpointResult]) -> str:
    """A few lines: each checkpoint's win rate with its interval, and the best one."""
    lines = []
    for result in results:
        low, high = wilson_interval(result.wins, result.games)  # unrounded, as the best line's rate
        trained = "" if result.training_win_rate is None else \
            f"   (training's evaluation: {result.training_win_rate:.3f} of {result.training_games})"
        lines.append(f"{result.timesteps:>11,} steps  {result.win_rate:.3f} [{low:.3f}, {high:.3f}]{trained}")
    best = max(results, key=lambda r: r.win_rate)
    lines.append(f"best: {best.timesteps:,} steps, {best.win_rate:.3f} against {best.opponent} over {best.games:,} "
                 f"games")
    return "\n".join(lines)


__all__ = ["CHECKPOINT_EVAL_CSV", "CHECKPOINT_EVAL_PNG", "CHECKPOINT_SUFFIXES", "CheckpointResult",
           "evaluate_checkpoints", "output_paths", "run_checkpoints", "summary"]
