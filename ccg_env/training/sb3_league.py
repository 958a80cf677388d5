"""The league (:mod:`ccg_env.training.league`) for MaskablePPO: its members as opponents of the training env's duels.

Every duel gets a :class:`LeagueOpponent`, which at each game start draws a member and plays that member's moves for
the whole game. Snapshots are copies of the policy network kept in memory on the CPU, playing their most probable
legal action; they run through the network directly (no ``predict`` wrapper), and in the batched training env one
forward pass decides for every duel waiting on the same snapshot (:meth:`PolicyOpponent.choose_many`, through
:mod:`ccg_env.env.opponent_turns`). Scripted agents resolve by name through :mod:`ccg_env.agent_api`.

The pool lives in the process that plays the games: the learner's, or with ``async_rollouts`` the rollout worker's,
where a :class:`LeagueKeeper` counts the results and takes the snapshots and each rollout's :class:`LeagueReport`
goes back to the learner with the rollout.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..env.duel import DuelSetup, Opponent, RandomOpponent, make_opponent
from .greedy import batch_logits, best_legal
from .league import League, LeagueSettings

#: The member kind of every snapshot (a scripted agent's kind is its name).
SNAPSHOT = "snapshot"


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
        """The legal choice with the highest logit (:func:`~ccg_env.training.greedy.best_legal`)."""
        return self.choose_many([(game, seat)])[0]

    def choose_many(self, requests: list[tuple[Any, int]]) -> list[Any]:
        """The legal choice with the highest logit for each ``(game, seat)``, with one forward pass of the policy for
        all the games that have more than one legal choice (:class:`~ccg_env.env.opponent_turns.BatchedChooser`)."""
        legals = [self._setup.core.legal(game) for game, _ in requests]
        open_ = [k for k, legal in enumerate(legals) if len(legal) > 1]
        choices = [next(iter(legal.values())) for legal in legals]
        if open_:
            observations = np.empty((len(open_), self._observation.size), dtype=np.float32)
            for row, k in enumerate(open_):
                game, seat = requests[k]
                self._write_observation(game, seat, legals[k].values())
                observations[row] = self._observation
            logits = batch_logits(self.policy, observations)
            for row, k in enumerate(open_):
                choices[k] = legals[k][best_legal(logits[row], list(legals[k]))]
        return choices

    def batched(self) -> PolicyOpponent:
        """Itself: its decisions are taken in batches (:func:`~ccg_env.env.opponent_turns.play_opponent_turns`)."""
        return self

    def reset(self, seed: int) -> None:
        """Greedy and memoryless: nothing to reset."""


@dataclass(frozen=True)
class LeagueReport:
    """What a rollout's games did to the league: what the training log and ``league.csv`` show after it."""

    win_rates: dict[str, float] = field(default_factory=dict)
    """the learner's win rate per member kind over the rollout's finished games (kinds without games left out)"""
    snapshots: int = 0
    """snapshots in the pool"""
    standings: list[dict[str, Any]] = field(default_factory=list)
    """:meth:`~ccg_env.training.league.League.standings` at the rollout's end"""


class LeaguePool:
    """The league with its members as opponents: scripted agents by name and snapshots as :class:`PolicyOpponent`.

    ``outcomes`` counts the learner's results per member kind since the last :meth:`take_report` (what the training
    log shows per rollout); the league's ``results`` count them per member for the whole run (what PFSP weighs).
    """

    def __init__(self, settings: LeagueSettings, setup: DuelSetup, trust_model: bool = False) -> None:
        settings.check_backend("sb3")
        self.league = League(settings)
        self.setup = setup
        self.trust_model = trust_model
        self.scripted = {name: make_opponent(name, setup) for name in settings.scripted if name != "random"}
        self.snapshots: list[PolicyOpponent] = []
        self.outcomes: dict[str, Counter] = {}
        for path in settings.checkpoints:
            self.add_checkpoint(path)

    def add_snapshot(self, policy: Any, label: str) -> None:
        """Freeze a copy of ``policy`` into the pool (dropping the oldest snapshot beyond the limit)."""
        self.snapshots.append(PolicyOpponent(frozen_policy_copy(policy), self.setup, label))
        dropped = self.league.add_snapshot(label)
        self.snapshots = [snapshot for snapshot in self.snapshots if snapshot.name not in dropped]

    def add_checkpoint(self, path: str | Path) -> None:
        """Load a saved policy on the CPU and add it as a snapshot.

        ``path`` is a ``.ccgmodel`` model file; a stable-baselines3 zip is unpickled, so it needs ``trust_model``.
        """
        from ccg_env.saved_policy import load_model

        model = load_model(path, trust=self.trust_model)
        setup = self.setup
        model.check_fits(observation_size=setup.observation_space.shape[0], action_size=setup.action_space.n,
                         card_ids=sorted(setup.cards), spec=setup.core.observation_encoder.spec)
        self.add_snapshot(model.policy, f"checkpoint:{Path(path).stem}")

    def sample(self, rng: random.Random, own_random: Opponent) -> tuple[str, str, Opponent]:
        """Draw a member by the league's rule: its name, kind and opponent (``own_random`` for ``random``)."""
        name = self.league.draw(rng)
        for snapshot in self.snapshots:
            if snapshot.name == name:
                return name, SNAPSHOT, snapshot
        return name, name, own_random if name == "random" else self.scripted[name]

    def record(self, kind: str, outcome: str, member: str) -> None:
        """Count one finished game's outcome (the learner's) against a member kind and the member."""
        self.outcomes.setdefault(kind, Counter())[outcome] += 1
        self.league.record(member, outcome)

    def take_report(self) -> LeagueReport:
        """The report of the games since the last one (per-kind win rates, snapshots, standings)."""
        rates = {kind: counts["win"] / sum(counts.values()) for kind, counts in self.outcomes.items()}
        self.outcomes = {}
        return LeagueReport(rates, len(self.snapshots), self.league.standings())


class LeagueKeeper:
    """Keeps the league up to date where its games are played: after every step of the training env, counts each
    finished game against the member that played it, and every ``snapshot_every`` steps snapshots the policy."""

    def __init__(self, pool: LeaguePool, opponents: list[LeagueOpponent]) -> None:
        self.pool = pool
        self.opponents = opponents
        self.last_snapshot = 0

    def after_step(self, dones: Any, infos: list[dict[str, Any]], timesteps: int, policy: Any) -> None:
        """Record the games that ended in this step (``dones`` and ``infos`` per duel) and snapshot ``policy`` if
        ``timesteps`` (the run's steps so far) has passed the next snapshot."""
        pool = self.pool
        for i, done in enumerate(dones):
            if done:
                opponent = self.opponents[i]
                pool.record(opponent.previous_kind, infos[i]["outcome"], opponent.previous_name)
        if timesteps - self.last_snapshot >= pool.league.settings.snapshot_every:
            self.last_snapshot = timesteps
            pool.add_snapshot(policy, f"step_{timesteps}")


class LeagueOpponent:
    """One duel's opponent: at every game start a member drawn from the pool plays the whole game.

    ``member_kind`` and ``member_name`` say who plays now; ``previous_kind`` and ``previous_name`` who played the
    game before (what a callback reading a finished game's info wants, since the env resets the slot in the same
    step).
    """

    name = "league"

    def __init__(self, pool: LeaguePool) -> None:
        self.pool = pool
        self._random = RandomOpponent()
        self._rng = random.Random(0)
        self.member: Opponent = self._random
        self.member_kind = self.member_name = "random"
        self.previous_kind = self.previous_name = "random"

    def reset(self, seed: int) -> None:
        """Draw this game's member (from a generator seeded by the game seed) and reset it."""
        self._rng.seed(seed)
        self.previous_kind, self.previous_name = self.member_kind, self.member_name
        self.member_name, self.member_kind, self.member = self.pool.sample(self._rng, self._random)
        self.member.reset(seed)

    def choose(self, game: Any, seat: int) -> Any:
        """The current member's choice."""
        return self.member.choose(game, seat)

    def batched(self) -> PolicyOpponent | None:
        """The member, if it is a policy snapshot, whose decisions a batch of duels takes together; else None."""
        member = self.member
        return member if isinstance(member, PolicyOpponent) else None
