"""League-style opponents for self-play training: each game samples who the learner meets from a weighted pool.

The pool holds the heuristic agent, uniformly random play, optionally the search agent at a small budget, and frozen
snapshots of the learner's own policy (taken every ``snapshot_every`` training steps, the oldest dropped past
``max_snapshots``, plus any saved ``.ccgmodel`` checkpoints given up front). Every duel of the training env gets a
:class:`LeagueOpponent`, which at each game start draws a member and plays that member's moves for the whole game.

A member's chance is its configured weight (snapshot weight spread evenly over the snapshots, and ignored while
there are none) times, with ``pfsp_power`` above 0, prioritized fictitious self-play's factor: the share of its
games the learner did not win so far, to that power (a member never met counts as half lost). Opponents the learner
still loses to are met most; ones it beats every time fade out but are never dropped entirely.

Snapshots are copies of the policy network kept in memory on the CPU, playing their most probable legal
action; they run through the network directly (no ``predict`` wrapper), and in the batched training env one
forward pass decides for every duel waiting on the same snapshot (:meth:`PolicyOpponent.choose_many`, through
:mod:`ccg_env.env.opponent_turns`): a forward pass for one observation costs about as much as for 30.
The env never imports ``ccg_env/agents/``: the heuristic and search resolve by name through :mod:`ccg_env.agent_api`.

The pool lives in the process that plays the games: the learner's, or with ``async_rollouts`` the rollout
worker's, where a :class:`LeagueKeeper` counts the results and takes the snapshots and each rollout's
:class:`LeagueReport` goes back to the learner with the rollout.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..agent_api import make_agent
from ..env.duel import AgentOpponent, DuelSetup, Opponent, RandomOpponent, make_opponent
from .checks import number, settings_from_dict, whole
from .greedy import batch_logits, best_legal

#: Pool member kinds with a fixed opponent; snapshots are the last kind.
FIXED_MEMBERS = ("heuristic", "random", "search")
#: The smallest factor PFSP gives a member the learner always beats, so that it is still met now and then.
PFSP_FLOOR = 0.02


@dataclass(frozen=True)
class LeagueSettings:
    """The ``league:`` mapping of a training config: member weights and the snapshot schedule."""

    heuristic: float = number(0.4)
    """weight of the heuristic agent"""
    random: float = number(0.1)
    """weight of uniformly random play"""
    snapshots: float = number(0.5)
    """total weight of the learner's past snapshots (shared evenly among them)"""
    search: float = number(0.0)
    """weight of the search agent at ``search_iterations`` (0: not in the pool; each of its moves runs a search)"""
    search_iterations: int = whole(8)
    """the search member's iterations per decision (the arena's default search runs 48)"""
    pfsp_power: float = number(0.0, high=10)
    """prioritized fictitious self-play: each member's weight times (share of its games the learner did not win)
    to this power; 0 keeps the configured weights"""
    snapshot_every: int = whole(100_000)
    """training steps between two snapshots of the current policy"""
    max_snapshots: int = whole(8)
    """snapshots kept (the oldest is dropped first); checkpoints given in ``checkpoints`` count too"""
    checkpoints: tuple = ()
    """saved policies to put in the pool from the start: ``.ccgmodel`` files (``.zip`` with ``trust_model``)"""

    @classmethod
    def from_dict(cls, values: dict[str, Any], where: str = "league") -> LeagueSettings:
        """Validate a mapping of settings; errors name ``where`` and the key."""
        if isinstance(values, dict) and "checkpoints" in values:
            if not isinstance(values["checkpoints"], (list, tuple)):
                raise ValueError(f"{where}: checkpoints must be a list of model paths, got {values['checkpoints']!r}")
            values = {**values, "checkpoints": tuple(values["checkpoints"])}
        return settings_from_dict(cls, values, where)

    def check(self, where: str) -> None:
        """Raise ValueError unless the pool has a member from the start and every checkpoint exists (the numbers
        are checked by their bounds)."""
        if self.heuristic + self.random + self.search <= 0:
            raise ValueError(f"{where}: heuristic, random and search weights are all 0; the pool would be empty "
                             "until the first snapshot")
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
    """:meth:`LeaguePool.standings` at the rollout's end"""


class LeaguePool:
    """The members every :class:`LeagueOpponent` samples from, and the learner's results against each of them.

    ``outcomes`` counts the learner's results per member kind since the last :meth:`clear` (what the training log
    shows per rollout); ``results`` counts them per member for the whole run (what PFSP weighs and
    :meth:`standings` reports).
    """

    def __init__(self, settings: LeagueSettings, setup: DuelSetup, trust_model: bool = False) -> None:
        self.settings = settings
        self.setup = setup
        self.trust_model = trust_model
        self.heuristic = make_opponent("heuristic", setup)
        self.search: Opponent | None = None
        if settings.search > 0:
            self.search = AgentOpponent(make_agent("search", iterations=settings.search_iterations, seed=0), setup)
        self.snapshots: list[PolicyOpponent] = []
        self.outcomes: dict[str, Counter] = {kind: Counter() for kind in (*FIXED_MEMBERS, "snapshot")}
        self.results: dict[str, Counter] = {}
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
                         card_ids=sorted(setup.cards), spec=setup.core.observation_encoder.spec)
        self.add_snapshot(model.policy, f"checkpoint:{Path(path).stem}")

    def members(self, own_random: Opponent | None = None) -> list[tuple[str, str, Opponent | None, float]]:
        """(name, kind, opponent, configured weight) of every member that can be drawn now."""
        settings = self.settings
        found: list[tuple[str, str, Opponent | None, float]] = [
            ("heuristic", "heuristic", self.heuristic, settings.heuristic),
            ("random", "random", own_random, settings.random)]
        if self.search is not None:
            found.append(("search", "search", self.search, settings.search))
        share = settings.snapshots / len(self.snapshots) if self.snapshots else 0.0
        found += [(snapshot.name, "snapshot", snapshot, share) for snapshot in self.snapshots]
        return [member for member in found if member[3] > 0]

    def pfsp_factor(self, name: str) -> float:
        """PFSP's factor for a member: the share of its games the learner did not win, to ``pfsp_power`` (1 with
        power 0; a member never met counts as half lost; never below ``PFSP_FLOOR``)."""
        power = self.settings.pfsp_power
        if power == 0:
            return 1.0
        counts = self.results.get(name, Counter())
        games = sum(counts.values())
        not_won = (games - counts["win"]) / games if games else 0.5
        return max(not_won ** power, PFSP_FLOOR)

    def draw_weights(self, members: list[tuple[str, str, Opponent | None, float]]) -> list[float]:
        """Each member's weight in the draw: its configured weight times its PFSP factor."""
        return [weight * self.pfsp_factor(name) for name, _, _, weight in members]

    def chances(self) -> dict[str, float]:
        """Each drawable member's chance of being drawn for the next game."""
        members = self.members()
        weights = self.draw_weights(members)
        total = sum(weights)
        return {member[0]: weight / total for member, weight in zip(members, weights)}

    def sample(self, rng: random.Random, own_random: Opponent) -> tuple[str, str, Opponent]:
        """Draw a member with the configured weights (times PFSP's factors): its name, kind and opponent."""
        members = self.members(own_random)
        name, kind, opponent, _ = rng.choices(members, self.draw_weights(members))[0]
        assert opponent is not None
        return name, kind, opponent

    def record(self, kind: str, outcome: str, member: str | None = None) -> None:
        """Count one finished game's outcome (the learner's) against a member kind and, if given, the member."""
        self.outcomes[kind][outcome] += 1
        if member is not None:
            self.results.setdefault(member, Counter())[outcome] += 1

    def win_rates(self) -> dict[str, float]:
        """Win rate per member kind since the last :meth:`clear` (kinds without games left out)."""
        return {kind: counts["win"] / total for kind, counts in self.outcomes.items()
                if (total := sum(counts.values()))}

    def standings(self) -> list[dict[str, Any]]:
        """Per member met or drawable: games, the learner's win rate over the run, and the chance of the next draw."""
        chances = self.chances()
        names = list(chances) + [name for name in self.results if name not in chances]
        rows = []
        for name in names:
            counts = self.results.get(name, Counter())
            games = sum(counts.values())
            rows.append({"member": name, "games": games, "learner_win_rate": counts["win"] / games if games else None,
                         "chance": chances.get(name, 0.0)})
        return rows

    def clear(self) -> None:
        """Forget the per-kind outcome counts (the per-member results stay for PFSP)."""
        for counts in self.outcomes.values():
            counts.clear()

    def take_report(self) -> LeagueReport:
        """The report of the games since the last one (per-kind win rates, snapshots, standings); then :meth:`clear`."""
        report = LeagueReport(self.win_rates(), len(self.snapshots), self.standings())
        self.clear()
        return report


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
        if timesteps - self.last_snapshot >= pool.settings.snapshot_every:
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
        self.member: Opponent = pool.heuristic
        self.member_kind = self.member_name = "heuristic"
        self.previous_kind: str | None = None
        self.previous_name: str | None = None

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
