"""Warm-start a policy by imitating a teacher agent (behaviour cloning) before PPO: the ``imitation:`` config.

PPO from a random policy spends its first hundreds of thousands of steps learning what any scripted agent
already knows (play cards on curve, trade, go face). With ``imitation:`` in a training config, ``train`` first
lets a teacher (the heuristic by default, or any registered agent such as ``search``) play the learner's seat
in the training env itself (same opponents, decks and seats), records what the learner would have seen (its
observation and mask) and what the teacher did, and fits the policy to it:

- the actor by cross-entropy on the teacher's action ids over the masked distribution;
- the critic on the learner's discounted outcome from each position (``gamma ** steps_to_end * final reward``),
  so that PPO's first advantages come from a value function that already knows who is winning.

Then PPO continues from those weights. Observations are stored as float16 (the env's normalized observations
lie in [0, 1]; 100,000 samples of the default game take about 1 GB). The fit's per-epoch loss and held-out
accuracy (how often the policy's most probable legal action is the teacher's) go to ``imitation.csv``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from .checks import number, settings_from_dict, whole

#: Share of the recorded positions held out to measure accuracy (the last games recorded).
HELD_OUT = 0.05
#: The most memory the recorded decisions may take; more is refused before anything is allocated.
MAX_RECORD_BYTES = 8 * 2**30
#: The teacher's moves kept in the loss during PPO, taken out after they measured no gain: refused unless "off".
REMOVED_KEYS = {"keep_coef": 0.0, "keep_batches": 1}


@dataclass(frozen=True)
class ImitationSettings:
    """The ``imitation:`` mapping of a training config."""

    teacher: str = "heuristic"
    """the registered agent whose moves are imitated (it plays the learner's seat while recording)"""
    samples: int = whole(100_000)
    """learner decisions to record"""
    epochs: int = whole(4)
    """passes over the recorded decisions"""
    batch_size: int = whole(1024)
    """minibatch size of the fit"""
    learning_rate: float = number(1e-3, above=True)
    """Adam step size of the fit (a fresh optimizer; PPO's own starts afresh afterwards)"""
    value_coef: float = number(0.5)
    """weight of the critic's squared error beside the actor's cross-entropy (0: fit the actor only)"""

    @classmethod
    def from_dict(cls, values: dict[str, Any], where: str = "imitation") -> ImitationSettings:
        """Validate a mapping of settings; errors name ``where`` and the key."""
        return settings_from_dict(cls, values, where, REMOVED_KEYS)

    def check(self, where: str) -> None:
        """Raise ValueError unless the teacher is a registered agent (the numbers are checked by their bounds)."""
        from ..agent_api import available_agents

        if self.teacher not in available_agents():
            raise ValueError(f"{where}: teacher must be a registered agent ({', '.join(available_agents())}), "
                             f"got {self.teacher!r}")


@dataclass
class Demonstrations:
    """Recorded learner positions: observations (float16), masks, the teacher's action ids, discounted returns."""

    observations: np.ndarray
    masks: np.ndarray
    actions: np.ndarray
    returns: np.ndarray
    games: int

    def __len__(self) -> int:
        return len(self.actions)


def record(env: Any, teacher: str, samples: int, gamma: float, seed: int,
           progress: Callable[[int], None] | None = None) -> Demonstrations:
    """Let ``teacher`` play the learner's seat of the SB3 duel env ``env`` for ``samples`` decisions; record them.

    Only finished games are kept (a return needs the outcome), so recording runs until ``samples`` decisions of
    finished games are in; ``progress(n)`` is told how many decisions were added.
    """
    from ..env.duel import make_opponent

    batch = env.batch
    codec = batch.setup.codec
    teacher_player = make_opponent(teacher, batch.setup)
    teacher_player.reset(seed)
    n, size = env.num_envs, env.observation_space.shape[0]
    needed = samples * (2 * size + env.action_space.n + 12)
    if needed > MAX_RECORD_BYTES:
        raise ValueError(f"imitation: {samples:,} decisions would take {needed / 2**30:.1f} GiB to record "
                         f"({size} observation entries each); at most {MAX_RECORD_BYTES / 2**30:.0f} GiB: "
                         "lower samples")
    observations = np.zeros((samples, size), dtype=np.float16)
    masks = np.zeros((samples, env.action_space.n), dtype=bool)
    actions: np.ndarray = np.zeros(samples, dtype=np.int64)
    returns: np.ndarray = np.zeros(samples, dtype=np.float32)
    pending: list[list[tuple[np.ndarray, np.ndarray, int]]] = [[] for _ in range(n)]
    kept = games = 0
    env.seed(seed)
    current = env.reset()
    while kept < samples:
        step_masks = env.action_masks()
        ids = np.zeros(n, dtype=np.int64)
        for i, duel in enumerate(batch.duels):
            ids[i] = codec.encode(duel.game, teacher_player.choose(duel.game, duel.seat))
            pending[i].append((current[i].astype(np.float16), step_masks[i].astype(bool), int(ids[i])))
        current, rewards, dones, _ = env.step(ids)
        for i in np.flatnonzero(dones).tolist():
            game, pending[i] = pending[i], []
            take = min(len(game), samples - kept)
            if take <= 0:
                continue
            steps_to_end = np.arange(len(game) - 1, -1, -1)[:take]
            rows = slice(kept, kept + take)
            observations[rows] = np.stack([g[0] for g in game[:take]])
            masks[rows] = np.stack([g[1] for g in game[:take]])
            actions[rows] = [g[2] for g in game[:take]]
            returns[rows] = float(rewards[i]) * gamma ** steps_to_end
            kept += take
            games += 1
            if progress is not None:
                progress(take)
    return Demonstrations(observations, masks, actions, returns, games)


@dataclass
class EpochResult:
    """One pass of the fit: mean training losses and the held-out accuracy and losses."""

    epoch: int
    seconds: float
    policy_loss: float
    value_loss: float
    held_out_accuracy: float
    held_out_policy_loss: float

    def row(self) -> dict[str, Any]:
        """The ``imitation.csv`` row."""
        return {key: round(value, 4) if isinstance(value, float) else value for key, value in vars(self).items()}


class SB3Student:
    """An SB3 masked actor-critic policy as :func:`fit` drives it (RLlib modules have their own student)."""

    def __init__(self, policy: Any) -> None:
        self.policy = policy

    def parameters(self) -> Any:
        return self.policy.parameters()

    def set_training_mode(self, mode: bool) -> None:
        self.policy.set_training_mode(mode)

    def values_and_log_probs(self, observations: Any, masks: np.ndarray, actions: Any) -> tuple[Any, Any]:
        """The value of each position and the log-probability of the given action under the masked policy."""
        values, log_prob, _ = self.policy.evaluate_actions(observations, actions, action_masks=masks)
        return values.flatten(), log_prob

    def greedy_and_log_probs(self, observations: Any, masks: np.ndarray, actions: Any) -> tuple[Any, Any]:
        """The most probable legal action of each position and the log-probability of the given one."""
        distribution = self.policy.get_distribution(observations, action_masks=masks)
        return distribution.distribution.probs.argmax(dim=1), distribution.log_prob(actions)


def training_count(data: Demonstrations) -> int:
    """How many of the recorded decisions, from the first, are trained on: all but the last :data:`HELD_OUT` share
    (at least one); raises ValueError when none would be left."""
    count = len(data) - max(1, int(len(data) * HELD_OUT))
    if count < 1:
        raise ValueError(f"imitation: {len(data)} recorded decisions are too few to fit and hold some out")
    return count


def fit(policy: Any, data: Demonstrations, settings: ImitationSettings, seed: int,
        on_epoch: Callable[[EpochResult], None] | None = None) -> list[EpochResult]:
    """Fit ``policy`` to ``data``; return one :class:`EpochResult` per epoch.

    ``policy``: an SB3 masked actor-critic policy, or any object with :class:`SB3Student`'s four methods (the
    RLlib backend's :class:`~ccg_env.rllib.imitation.ModuleStudent`). The last :data:`HELD_OUT` share of the
    positions (whole games, recorded last) is kept out of training and measures accuracy after every epoch.
    """
    import torch

    student = policy if hasattr(policy, "values_and_log_probs") else SB3Student(policy)
    train_count = training_count(data)
    optimizer = torch.optim.Adam(student.parameters(), lr=settings.learning_rate)
    rng = np.random.default_rng(seed)
    started = time.perf_counter()
    results = []
    for epoch in range(1, settings.epochs + 1):
        student.set_training_mode(True)
        losses = []
        order = rng.permutation(train_count)
        for start in range(0, train_count, settings.batch_size):
            rows = np.sort(order[start:start + settings.batch_size])
            policy_loss, value_loss = _losses(student, data, rows)
            loss = policy_loss + settings.value_coef * value_loss
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(student.parameters(), 0.5)
            optimizer.step()
            losses.append((policy_loss.item(), value_loss.item()))
        accuracy, held_out_loss = _held_out(student, data, np.arange(train_count, len(data)), settings.batch_size)
        mean_policy, mean_value = np.mean(losses, axis=0)
        result = EpochResult(epoch, time.perf_counter() - started, float(mean_policy), float(mean_value),
                             accuracy, held_out_loss)
        results.append(result)
        if on_epoch is not None:
            on_epoch(result)
    student.set_training_mode(False)
    return results


def _losses(student: Any, data: Demonstrations, rows: np.ndarray) -> tuple[Any, Any]:
    """The cross-entropy on the teacher's ids and the value's squared error over ``rows`` (tensors to minimize)."""
    import torch

    observations = torch.from_numpy(data.observations[rows].astype(np.float32))
    actions = torch.from_numpy(data.actions[rows])
    values, log_prob = student.values_and_log_probs(observations, data.masks[rows], actions)
    value_loss = torch.nn.functional.mse_loss(values, torch.from_numpy(data.returns[rows]))
    return -log_prob.mean(), value_loss


def _held_out(student: Any, data: Demonstrations, rows: np.ndarray, batch_size: int) -> tuple[float, float]:
    """Accuracy of the policy's most probable legal action, and the mean cross-entropy, on ``rows``."""
    import torch

    student.set_training_mode(False)
    hits, loss = 0, 0.0
    with torch.no_grad():
        for start in range(0, len(rows), batch_size):
            chunk = rows[start:start + batch_size]
            observations = torch.from_numpy(data.observations[chunk].astype(np.float32))
            actions = torch.from_numpy(data.actions[chunk])
            greedy, log_prob = student.greedy_and_log_probs(observations, data.masks[chunk], actions)
            loss -= log_prob.sum().item()
            hits += int((greedy == actions).sum())
    return hits / len(rows), loss / len(rows)
