"""Behaviour cloning from a ``ccg-env dataset``: a training config's policy fitted to the recorded action ids (and its
value to the outcomes), saved as a model file the ``learned`` agent plays.

The fit is the imitation warm start's (:func:`ccg_env.training.imitation.fit`): cross-entropy on the recorded ids
over the masked distribution, the value on ``gamma ** steps_to_end * final reward``, the last 5% of the decisions
(the games recorded last) held out to measure accuracy. The policy is the one the config builds (the shipped
``ppo_vs_heuristic``: the per-slot policy), on the observation the dataset recorded (the env's normalized one).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import numpy as np

from .imitation import Demonstrations, EpochResult, ImitationSettings, fit

#: The most memory the decisions may take as float16 observations; more is refused before they are read.
MAX_BYTES = 8 * 2**30


@dataclass(frozen=True)
class CloneResult:
    """The model file written, the decisions and games it was fitted to, and each epoch's figures."""

    path: Path
    decisions: int
    games: int
    epochs: list[EpochResult]


def open_dataset(path: str | Path) -> Any:
    """The Minari dataset in the folder ``path`` (``OUT/<dataset id>`` as ``ccg-env dataset`` wrote it)."""
    from .dataset import load

    folder = Path(path)
    if not (folder / "data").is_dir():
        raise ValueError(f"dataset {str(path)!r}: not a Minari dataset folder (no data/ inside); give the folder "
                         "'ccg-env dataset' wrote, OUT/<dataset id>")
    return load(folder.parent, folder.name)


def demonstrations(dataset: Any, gamma: float, observation_size: int, action_size: int) -> Demonstrations:
    """The dataset's decisions as the imitation fit takes them (observations as float16).

    Raises:
        ValueError: the dataset's observation or action size is not the policy's (another card set or rules), or
            it would take more than :data:`MAX_BYTES`.
    """
    where = f"dataset {dataset.spec.dataset_id!r}"
    sizes = (dataset.observation_space["observation"].shape[0], int(dataset.action_space.n))
    if sizes != (observation_size, action_size):
        raise ValueError(f"{where}: observations of {sizes[0]} and {sizes[1]} action ids, but the policy takes "
                         f"{observation_size} and {action_size} (another card set or rules)")
    steps = int(dataset.total_steps)
    if steps * observation_size * 2 > MAX_BYTES:
        raise ValueError(f"{where}: {steps:,} decisions would take more than {MAX_BYTES / 2**30:.0f} GiB")
    observations: np.ndarray = np.zeros((steps, observation_size), dtype=np.float16)
    masks: np.ndarray = np.zeros((steps, action_size), dtype=bool)
    actions: np.ndarray = np.zeros(steps, dtype=np.int64)
    returns: np.ndarray = np.zeros(steps, dtype=np.float32)
    row = 0
    for episode in dataset.iterate_episodes():
        n = len(episode.actions)
        rows = slice(row, row + n)
        observations[rows] = episode.observations["observation"][:n]
        masks[rows] = episode.observations["action_mask"][:n].astype(bool)
        actions[rows] = episode.actions
        returns[rows] = float(np.sum(episode.rewards)) * gamma ** np.arange(n - 1, -1, -1)
        row += n
    return Demonstrations(observations, masks, actions, returns, int(dataset.total_episodes))


def clone(dataset_path: str | Path, out: str | Path, config: str | Path = "ppo_vs_heuristic", epochs: int = 6,
          batch_size: int = 1024, learning_rate: float = 1e-3, seed: int = 0,
          on_epoch: Callable[[EpochResult], None] | None = None) -> CloneResult:
    """Fit ``config``'s policy to the dataset at ``dataset_path`` and write it as the model file ``out``."""
    import torch

    from .run import make_vec_env
    from .train import make_model
    from .train_config import load_config
    from ..model_file import SUFFIX
    from ..saved_policy import save_policy

    if Path(out).suffix != SUFFIX:
        raise ValueError(f"--out {str(out)!r}: a model file's name ends in {SUFFIX}")
    if not Path(out).resolve().parent.is_dir():
        raise ValueError(f"--out {str(out)!r}: no folder {str(Path(out).parent)!r} to write the model in")
    settings = ImitationSettings.from_dict({"epochs": epochs, "batch_size": batch_size,
                                           "learning_rate": learning_rate}, "bc")
    dataset = open_dataset(dataset_path)
    train_config = load_config(config, {"num_envs": 1, "async_rollouts": False, "seed": seed})
    torch.set_num_threads(train_config.torch_threads)
    env = make_vec_env(train_config, 1, "heuristic")
    try:
        model = make_model(train_config, env)
        data = demonstrations(dataset, train_config.gamma, env.observation_space.shape[0], env.action_space.n)
        results = fit(model.policy, data, settings, seed, on_epoch)
        setup = env.batch.setup
        path = save_policy(out, model.policy, setup.rules, setup.cards,
                           {"bc_dataset": dataset.spec.dataset_id, "decisions": len(data), "config": train_config.name})
    finally:
        env.close()
    return CloneResult(Path(path), len(data), data.games, results)
