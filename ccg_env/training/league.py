"""League-style opponents for self-play training: each game samples who the learner meets from a weighted pool.

The pool holds the heuristic agent, uniformly random play and frozen snapshots of the learner's own policy
(taken every ``snapshot_every`` training steps, the oldest dropped past ``max_snapshots``, plus any saved
``.ccgmodel`` checkpoints given up front). Every duel of the training env gets a :class:`LeagueOpponent`, which
at each game start draws a member with the configured weights (snapshot weight is spread evenly over the
snapshots, and ignored while there are none) and plays that member's moves for the whole game.

Snapshots are copies of the policy network kept in memory on the CPU, playing their most probable legal
action; they run through the network directly (no ``predict`` wrapper), which keeps a self-play step cheap.
The env never imports ``agents/``: the heuristic resolves by name through :mod:`ccg_env.agent_api`.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from ..env.duel import DuelSetup, Opponent, RandomOpponent, make_opponent
from .greedy import greedy_action

#: Pool member kinds with a fixed opponent; snapshots are the third kind.
FIXED_MEMBERS = ("heuristic", "random")


@dataclass(frozen=True)
class LeagueSettings:
    """The ``league:`` mapping of a training config: member weights and the snapshot schedule."""

    heuristic: float = 0.4
    """weight of the heuristic agent"""
    random: float = 0.1
    """weight of uniformly random play"""
    snapshots: float = 0.5
    """total weight of the learner's past snapshots (shared evenly among them)"""
    snapshot_every: int = 100_000
    """training steps between two snapshots of the current policy"""
    max_snapshots: int = 8
    """snapshots kept (the oldest is dropped first); checkpoints given in ``checkpoints`` count too"""
    checkpoints: tuple = ()
    """saved policies to put in the pool from the start: ``.ccgmodel`` files (``.zip`` with ``trust_model``)"""

    @classmethod
    def from_dict(cls, values: dict[str, Any], where: str = "league") -> LeagueSettings:
        """Validate a mapping of settings; errors name ``where`` and the key."""
        known = {f.name: f for f in fields(cls)}
        for key, value in values.items():
            if key not in known:
                raise ValueError(f"{where}: unknown key {key!r}; known keys: {', '.join(sorted(known))}")
        checkpoints = values.get("checkpoints", ())
        if not isinstance(checkpoints, (list, tuple)):
            raise ValueError(f"{where}: checkpoints must be a list of model paths, got {checkpoints!r}")
        settings = cls(**{**values, "checkpoints": tuple(checkpoints)})
        settings.check(where)
        return settings

    def check(self, where: str) -> None:
        """Raise ValueError naming the first bad setting."""
        for key in ("heuristic", "random", "snapshots"):
            value = getattr(self, key)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
                raise ValueError(f"{where}: {key} must be a weight of 0 or more, got {value!r}")
        if self.heuristic + self.random <= 0:
            raise ValueError(f"{where}: heuristic and random weights are both 0; the pool would be empty "
                             "until the first snapshot")
        for key in ("snapshot_every", "max_snapshots"):
            value = getattr(self, key)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{where}: {key} must be a positive integer, got {value!r}")
        for path in self.checkpoints:
            if not Path(str(path)).is_file():
                raise ValueError(f"{where}: checkpoints: no model file at {str(path)!r}")


def frozen_policy_copy(policy: Any) -> Any:
    """A CPU copy of an SB3 policy in evaluation mode, without the optimizer and without gradients."""
    optimizer, policy.optimizer = policy.optimizer, None
    try:
        frozen = copy.deepcopy(policy).to("cpu")
    finally:
        policy.optimizer = optimizer
    frozen.set_training_mode(False)
    frozen.requires_grad_(False)
    return frozen


class PolicyOpponent:
    """Plays the most probable legal action of a frozen MaskablePPO policy (see :func:`frozen_policy_copy`)."""

    def __init__(self, policy: Any, setup: DuelSetup, name: str) -> None:
        self.name = name
        self.policy = policy
        self._setup = setup
        self._observation = setup.encoder.new_buffer()
        self._write_observation = setup.core.observation_writer(
            self._observation, normalize=setup.normalize_observations)

    def choose(self, game: Any, seat: int) -> Any:
        """The legal choice with the highest logit (:func:`~ccg_env.training.greedy.greedy_action`)."""
        legal = self._setup.core.legal(game)
        if len(legal) == 1:
            return next(iter(legal.values()))
        self._write_observation(game, seat, legal.values())
        return legal[greedy_action(self.policy, self._observation, list(legal))]

    def reset(self, seed: int) -> None:
        """Greedy and memoryless: nothing to reset."""


class LeaguePool:
    """The members every :class:`LeagueOpponent` samples from, and the outcome counts per member kind."""

    def __init__(self, settings: LeagueSettings, setup: DuelSetup, trust_model: bool = False) -> None:
        self.settings = settings
        self.setup = setup
        self.trust_model = trust_model
        self.heuristic = make_opponent("heuristic", setup)
        self.snapshots: list[PolicyOpponent] = []
        self.outcomes: dict[str, Counter] = {kind: Counter() for kind in (*FIXED_MEMBERS, "snapshot")}
        for path in settings.checkpoints:
            self.add_checkpoint(path)

    def add_snapshot(self, policy: Any, label: str) -> None:
        """Freeze a copy of ``policy`` into the pool (dropping the oldest snapshot beyond the limit)."""
        self.snapshots.append(PolicyOpponent(frozen_policy_copy(policy), self.setup, label))
        del self.snapshots[:-self.settings.max_snapshots]

    def add_checkpoint(self, path: str | Path) -> None:
        """Load a saved policy on the CPU and add it as a snapshot.

        ``path`` is a ``.ccgmodel`` model file; a stable-baselines3 zip is unpickled, so it needs ``trust_model``.
        """
        from ccg_env.saved_policy import load_model

        model = load_model(path, trust=self.trust_model)
        setup = self.setup
        model.check_fits(observation_size=setup.observation_space.shape[0], action_size=setup.action_space.n,
                         card_ids=sorted(setup.cards))
        self.add_snapshot(model.policy, f"checkpoint:{Path(path).stem}")

    def sample(self, rng: random.Random, own_random: Opponent) -> tuple[str, Opponent]:
        """Draw a member kind with the configured weights and return it with its opponent."""
        settings = self.settings
        weights = [settings.heuristic, settings.random, settings.snapshots if self.snapshots else 0.0]
        kind = rng.choices((*FIXED_MEMBERS, "snapshot"), weights)[0]
        if kind == "heuristic":
            return kind, self.heuristic
        if kind == "random":
            return kind, own_random
        return kind, rng.choice(self.snapshots)

    def record(self, kind: str, outcome: str) -> None:
        """Count one finished game's outcome against a member kind."""
        self.outcomes[kind][outcome] += 1

    def win_rates(self) -> dict[str, float]:
        """Win rate per member kind since the last :meth:`clear` (kinds without games left out)."""
        return {kind: counts["win"] / total for kind, counts in self.outcomes.items()
                if (total := sum(counts.values()))}

    def clear(self) -> None:
        """Forget the outcome counts."""
        for counts in self.outcomes.values():
            counts.clear()


class LeagueOpponent:
    """One duel's opponent: at every game start a member drawn from the pool plays the whole game.

    ``member_kind`` is the kind playing now; ``previous_kind`` the kind of the game before (what a
    callback reading a finished game's info wants, since the env resets the slot in the same step).
    """

    name = "league"

    def __init__(self, pool: LeaguePool) -> None:
        self.pool = pool
        self._random = RandomOpponent()
        self._rng = random.Random(0)
        self.member: Opponent = pool.heuristic
        self.member_kind = "heuristic"
        self.previous_kind: str | None = None

    def reset(self, seed: int) -> None:
        """Draw this game's member (from a generator seeded by the game seed) and reset it."""
        self._rng.seed(seed)
        self.previous_kind = self.member_kind
        self.member_kind, self.member = self.pool.sample(self._rng, self._random)
        self.member.reset(seed)

    def choose(self, game: Any, seat: int) -> Any:
        """The current member's choice."""
        return self.member.choose(game, seat)
