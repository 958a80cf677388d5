"""Train sb3-contrib MaskablePPO on the batched duel env: ``ccg-env train --config configs/train/<name>.yaml``.

One file, read top to bottom in the CleanRL manner: the arguments (:class:`TrainConfig`, documented field by
field, loaded from YAML and validated), the environments, the model, the periodic evaluation against the
opponent, the training loop and its result. From Python: ``train("configs/train/smoke.yaml")`` or
``train(TrainConfig(name="try", total_timesteps=10_000))`` returns a :class:`TrainResult`.

Everything a run writes goes under ``<runs_dir>/<name>/``:

- TensorBoard event files and SB3's ``progress.csv`` (``tensorboard --logdir runs``), with ``eval/win_rate``;
- ``eval.csv``: one row per evaluation (timesteps, games, wins, losses, draws, turn limits, win rate...);
- ``checkpoints/step_<timesteps>.zip`` at every evaluation, ``model.zip`` at the end (``MaskablePPO.load``);
- ``config.yaml``: the resolved configuration, to rerun the same thing.

The policy is SB3's ``MlpPolicy`` (``net_arch``, default two layers of 256) on the flat observation, scaled
into ``[0, 1]`` by the env (``normalize_observations``). Ideas for a better network, not built here: a
per-slot encoder that runs one shared network over every hand slot and another over every minion slot
(cards mean the same in every slot; ``ccg_env/policy.py`` holds a draft ``SlotEncoderExtractor`` using
``ObservationEncoder.pieces``), keeping slot order because the action layout addresses slots; action
logits scored per (source slot, target slot) pair from those embeddings instead of one 235-way linear head;
and a learned card embedding in place of the card one-hots.
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import time
import types
import typing
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence, Union

import numpy as np
import yaml

# ---------------------------------------------------------------------------------------------------------
# Arguments
# ---------------------------------------------------------------------------------------------------------


@dataclass
class TrainConfig:
    """Every setting of a training run; YAML keys are exactly these field names."""

    name: str = ""
    """run name: outputs go to ``<runs_dir>/<name>/`` (defaults to the YAML file's stem)"""
    total_timesteps: int = 1_000_000
    """learner env steps to train for (summed over all envs)"""
    seed: int = 0
    """seeds the training envs (slot i gets seed + i), the policy initialisation and PPO's sampling"""
    num_envs: int = 16
    """games played side by side in the batched env (one process)"""
    opponent: str = "random"
    """who the learner plays against during training: ``"random"`` or a registered agent name"""
    seat: Union[str, int] = "random"
    """the learner's seat: ``"random"`` per game, or fixed 0 (moves first) or 1"""
    decks: Union[str, list, None] = None
    """two decks (packaged names or YAML paths), ``"random"`` (drawn per game), or None for the defaults"""
    rules: Union[str, None] = None
    """rules YAML path, or None for the packaged default rules"""
    cards: Union[str, list, None] = None
    """card YAML path(s), or None for the packaged card set"""
    turn_limit: Union[int, None] = None
    """override of the rules' turn limit (a game reaching it is a truncation)"""
    normalize_observations: bool = True
    """scale observations into [0, 1] inside the env (``ObservationEncoder.scale``)"""
    learning_rate: float = 3e-4
    """Adam step size"""
    n_steps: int = 128
    """env steps per env per rollout (rollout size = n_steps * num_envs)"""
    batch_size: int = 512
    """minibatch size of the PPO update (best a divisor of the rollout size)"""
    n_epochs: int = 4
    """passes over each rollout"""
    gamma: float = 0.99
    """discount factor"""
    gae_lambda: float = 0.95
    """GAE lambda"""
    clip_range: float = 0.2
    """PPO clipping of the probability ratio"""
    ent_coef: float = 0.01
    """entropy bonus coefficient"""
    vf_coef: float = 0.5
    """value loss coefficient"""
    max_grad_norm: float = 0.5
    """gradient clipping norm"""
    net_arch: list = field(default_factory=lambda: [256, 256])
    """hidden layer sizes of the policy and of the value network (separate networks)"""
    eval_every: int = 50_000
    """evaluate (and checkpoint) every this many timesteps; 0 evaluates only at the end"""
    eval_games: int = 200
    """games per evaluation"""
    eval_envs: int = 16
    """games played side by side during evaluation"""
    eval_opponent: Union[str, None] = None
    """opponent of the evaluation games (None: the training opponent)"""
    eval_deterministic: bool = True
    """evaluate the greedy policy (most probable legal action) rather than sampling"""
    eval_seed: int = 1_000_000
    """seed of the evaluation envs: every evaluation replays the same deals"""
    torch_threads: int = 1
    """``torch.set_num_threads``: 1 is fastest for small networks on these 2-core machines"""
    device: str = "cpu"
    """torch device"""
    runs_dir: str = "runs"
    """parent folder of the run folder"""
    verbose: int = 0
    """SB3 verbosity (1 prints the training table)"""

    def __post_init__(self) -> None:
        positive = ("total_timesteps", "num_envs", "n_steps", "batch_size", "n_epochs", "eval_games", "eval_envs",
                    "torch_threads")
        for name in positive:
            if getattr(self, name) < 1:
                raise ValueError(f"train config: {name} must be at least 1, got {getattr(self, name)!r}")
        if self.eval_every < 0:
            raise ValueError(f"train config: eval_every must be 0 or more, got {self.eval_every!r}")
        if not self.net_arch or not all(isinstance(n, int) and n > 0 for n in self.net_arch):
            raise ValueError(f"train config: net_arch must be a list of positive layer sizes, got {self.net_arch!r}")


FIELD_TYPES = typing.get_type_hints(TrainConfig)


def _matches(value: Any, hint: Any) -> bool:
    """Whether a YAML value fits a field's annotation (ints count as floats; bools are not ints)."""
    origin = typing.get_origin(hint)
    if origin in (Union, types.UnionType):
        return any(_matches(value, arg) for arg in typing.get_args(hint))
    if hint is type(None):
        return value is None
    if hint is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, origin or hint)


def config_from_dict(values: dict[str, Any], source: str = "<dict>") -> TrainConfig:
    """Build a :class:`TrainConfig`, naming ``source`` and the key in every error."""
    if not isinstance(values, dict):
        raise ValueError(f"{source}: expected a mapping of settings, got {type(values).__name__}")
    known = {f.name for f in dataclasses.fields(TrainConfig)}
    for key, value in values.items():
        if key not in known:
            raise ValueError(f"{source}: unknown key {key!r}; known keys: {', '.join(sorted(known))}")
        if not _matches(value, FIELD_TYPES[key]):
            raise ValueError(f"{source}: key {key!r} expects {FIELD_TYPES[key]}, got {value!r}")
    try:
        return TrainConfig(**values)
    except ValueError as error:
        raise ValueError(f"{source}: {error}") from None


def resolve_config_path(spec: str | Path) -> Path:
    """A YAML path as given, or a bare name such as ``smoke`` looked up in the packaged ``configs/train/``."""
    path = Path(spec)
    if path.exists() or path.suffix in (".yaml", ".yml"):
        return path
    from .engine.datafiles import config_dir

    return config_dir() / "train" / f"{spec}.yaml"


def load_config(spec: str | Path, overrides: dict[str, Any] | None = None) -> TrainConfig:
    """Load ``configs/train/<name>.yaml`` (or any path), apply ``overrides``, validate; name defaults to the stem."""
    path = resolve_config_path(spec)
    if not path.is_file():
        raise FileNotFoundError(f"train config {str(spec)!r}: no such file ({path})")
    values = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    if not isinstance(values, dict):
        raise ValueError(f"{path}: expected a mapping of settings, got {type(values).__name__}")
    values = {"name": path.stem, **values, **(overrides or {})}
    return config_from_dict(values, source=str(path))


# ---------------------------------------------------------------------------------------------------------
# Environments and evaluation
# ---------------------------------------------------------------------------------------------------------


def make_vec_env(config: TrainConfig, num_envs: int, opponent: str) -> Any:
    """The batched SB3 VecEnv with the run's game settings."""
    from .env.sb3_vec import CcgDuelSb3VecEnv

    return CcgDuelSb3VecEnv(num_envs, opponent=opponent, seat=config.seat, decks=config.decks, rules=config.rules,
                            cards=config.cards, turn_limit=config.turn_limit,
                            normalize_observations=config.normalize_observations)


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
    def win_rate(self) -> float:
        return self.outcomes.get("win", 0) / max(1, self.games)

    def row(self) -> dict[str, Any]:
        """The ``eval.csv`` row."""
        counts = {column: self.outcomes.get(outcome, 0) for outcome, column in EVAL_COLUMNS.items()}
        return {"timesteps": self.timesteps, "seconds": round(self.seconds, 2), "opponent": self.opponent,
                "games": self.games, **counts, "win_rate": round(self.win_rate, 4)}


def evaluate(model: Any, env: Any, games: int, deterministic: bool, seed: int) -> Counter:
    """Play ``games`` games (split evenly over the env's slots, same deals each time); count the outcomes."""
    quotas = [games // env.num_envs + (i < games % env.num_envs) for i in range(env.num_envs)]
    played = [0] * env.num_envs
    outcomes: Counter = Counter()
    env.seed(seed)
    observations = env.reset()
    while sum(played) < games:
        actions, _ = model.predict(observations, action_masks=env.action_masks(), deterministic=deterministic)
        observations, _, dones, infos = env.step(actions)
        for i in np.flatnonzero(dones).tolist():
            if played[i] < quotas[i]:
                played[i] += 1
                outcomes[infos[i]["outcome"]] += 1
    return outcomes


def make_eval_callback(config: TrainConfig, run_dir: Path, history: list[EvalResult]) -> Any:
    """An SB3 callback that evaluates, logs ``eval/win_rate``, appends to ``eval.csv`` and checkpoints."""
    from stable_baselines3.common.callbacks import BaseCallback

    opponent = config.eval_opponent or config.opponent
    env = make_vec_env(config, config.eval_envs, opponent)
    started = time.perf_counter()

    class WinRateEval(BaseCallback):
        def __init__(self) -> None:
            super().__init__()
            self.last_eval = 0

        def _on_step(self) -> bool:
            if config.eval_every and self.num_timesteps - self.last_eval >= config.eval_every:
                self.run_eval()
            return True

        def _on_training_end(self) -> None:
            if self.last_eval != self.num_timesteps or not history:
                self.run_eval()

        def run_eval(self) -> None:
            self.last_eval = self.num_timesteps
            counts = evaluate(self.model, env, config.eval_games, config.eval_deterministic, config.eval_seed)
            result = EvalResult(self.num_timesteps, time.perf_counter() - started, opponent, dict(counts))
            history.append(result)
            self.logger.record("eval/win_rate", result.win_rate)
            self.logger.record("eval/games", result.games)
            self.logger.dump(self.num_timesteps)
            _append_csv(run_dir / "eval.csv", result.row())
            self.model.save(run_dir / "checkpoints" / f"step_{self.num_timesteps}.zip")

    return WinRateEval()


def _append_csv(path: Path, row: dict[str, Any]) -> None:
    new = not path.exists()
    with path.open("a", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(row))
        if new:
            writer.writeheader()
        writer.writerow(row)


# ---------------------------------------------------------------------------------------------------------
# Training
# ---------------------------------------------------------------------------------------------------------


@dataclass
class TrainResult:
    """What a run produced: where, how long, how fast, and every evaluation."""

    config: TrainConfig
    run_dir: Path
    model_path: Path
    timesteps: int
    seconds: float
    evaluations: list[EvalResult]

    @property
    def steps_per_second(self) -> float:
        return self.timesteps / self.seconds if self.seconds else 0.0

    @property
    def final_win_rate(self) -> float:
        return self.evaluations[-1].win_rate


def prepare_run_dir(config: TrainConfig) -> Path:
    """Create ``<runs_dir>/<name>/`` (a new run replaces the previous run's eval.csv) and save the config."""
    if not config.name:
        raise ValueError("train config: name is empty; set it or load the config from a YAML file")
    run_dir = Path(config.runs_dir) / config.name
    (run_dir / "checkpoints").mkdir(parents=True, exist_ok=True)
    (run_dir / "eval.csv").unlink(missing_ok=True)
    (run_dir / "config.yaml").write_text(yaml.safe_dump(dataclasses.asdict(config), sort_keys=False),
                                         encoding="utf-8")
    return run_dir


def train(config: TrainConfig | str | Path) -> TrainResult:
    """Train MaskablePPO as ``config`` says (a :class:`TrainConfig` or a YAML path or name) and return the result."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.logger import configure

    if not isinstance(config, TrainConfig):
        config = load_config(config)
    torch.set_num_threads(config.torch_threads)
    run_dir = prepare_run_dir(config)
    env = make_vec_env(config, config.num_envs, config.opponent)
    env.seed(config.seed)
    model = MaskablePPO(
        "MlpPolicy", env, learning_rate=config.learning_rate, n_steps=config.n_steps,
        batch_size=config.batch_size, n_epochs=config.n_epochs, gamma=config.gamma, gae_lambda=config.gae_lambda,
        clip_range=config.clip_range, ent_coef=config.ent_coef, vf_coef=config.vf_coef,
        max_grad_norm=config.max_grad_norm, policy_kwargs={"net_arch": list(config.net_arch)},
        seed=config.seed, device=config.device, verbose=config.verbose,
    )
    model.set_logger(configure(str(run_dir), ["tensorboard", "csv"] + (["stdout"] if config.verbose else [])))
    history: list[EvalResult] = []
    started = time.perf_counter()
    model.learn(config.total_timesteps, callback=make_eval_callback(config, run_dir, history))
    seconds = time.perf_counter() - started
    model_path = run_dir / "model.zip"
    model.save(model_path)
    return TrainResult(config, run_dir, model_path, model.num_timesteps, seconds, history)


# ---------------------------------------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------------------------------------


def parse_overrides(pairs: Sequence[str]) -> dict[str, Any]:
    """``["key=value", ...]`` with YAML-parsed values (``n_steps=64``, ``net_arch=[64,64]``)."""
    overrides = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise ValueError(f"--set expects KEY=VALUE, got {pair!r}")
        overrides[key.strip()] = yaml.safe_load(value)
    return overrides


def main(argv: Sequence[str] | None = None) -> int:
    """``ccg-env train --config PATH [--set KEY=VALUE ...]``: train, then print where the results are."""
    parser = argparse.ArgumentParser(prog="ccg-env train", description="Train MaskablePPO on the duel env.")
    parser.add_argument("--config", required=True, help="a configs/train/<name>.yaml path or a packaged name")
    parser.add_argument("--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE",
                        help="override one config key (repeatable), e.g. --set total_timesteps=4096")
    args = parser.parse_args(argv)
    try:
        config = load_config(args.config, parse_overrides(args.overrides))
    except (ValueError, FileNotFoundError) as error:
        parser.error(str(error))
    result = train(config)
    last = result.evaluations[-1]
    print(f"trained {result.timesteps} steps in {result.seconds:.1f} s ({result.steps_per_second:,.0f} steps/s); "
          f"win rate vs {last.opponent}: {last.win_rate:.3f} over {last.games} games")
    print(f"run folder: {result.run_dir} (model.zip, eval.csv, checkpoints/, TensorBoard events)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
