"""The league both training backends share: its settings, who the learner meets next, and its results per member.

Members are the scripted agents (``scripted``: registered agent names with their weights, the env plays them), the
learner's past snapshots (one every ``snapshot_every`` env steps, the oldest dropped past ``max_snapshots``) and,
with backend rllib, the learner itself (``self_play``). The rule of the draw, the same for both backends:

- ``self_play`` of the games are the learner against itself;
- the rest goes to two groups in proportion to their configured totals: the scripted agents (the sum of their
  weights) and the snapshots (``snapshots``, while there are any);
- within a group each member gets its weight (snapshots share theirs evenly) times, with ``pfsp_power`` above 0,
  prioritized fictitious self-play's factor: the share of its games the learner did not win so far, to that power
  (a member never met counts as half lost, one always beaten keeps a floor of ``PFSP_FLOOR``).

So the groups keep their shares while PFSP moves games within each group towards the members the learner still
loses to. :mod:`ccg_env.training.sb3_league` (MaskablePPO's duels) and :mod:`ccg_env.rllib.league` (RLlib's
modules) adapt it to their backend.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .checks import number, settings_from_dict, whole

#: The learner against itself (backend rllib).
SELF_PLAY = "self"
#: The smallest factor PFSP gives a member the learner always beats, so that it is still met now and then.
PFSP_FLOOR = 0.02
#: Keys of earlier league settings -> what replaced them (a config holding one is refused with this).
REPLACED_KEYS = {
    "heuristic": "scripted: {heuristic: <weight>}", "random": "scripted: {random: <weight>}",
    "search": "nothing: the search member measured no gain (docs/training.md); drop the key",
    "search_iterations": "nothing: the search member measured no gain (docs/training.md); drop the key",
    "scripted_share": "the scripted agents' weights beside snapshots (scripted: {heuristic: 0.5}, snapshots: 0.4)",
    "win_rate_smoothing": "nothing: PFSP counts the learner's results over the whole run; drop the key",
}


@dataclass(frozen=True)
class LeagueSettings:
    """The ``league:`` mapping of a training config (either backend)."""

    scripted: dict = field(default_factory=lambda: {"heuristic": 0.4, "random": 0.1})
    """scripted agents in the pool: registered agent names (``random`` included) and their weights"""
    snapshots: float = number(0.5)
    """total weight of the learner's past snapshots (shared evenly among them)"""
    self_play: float = number(0.0, high=1.0)
    """share of the games that are the learner against itself (backend rllib only)"""
    pfsp_power: float = number(0.0, high=10)
    """prioritized fictitious self-play within each group: a member's weight times (share of its games the learner
    did not win) to this power; 0 keeps the configured weights"""
    snapshot_every: int = whole(100_000)
    """env steps between two snapshots of the learner"""
    max_snapshots: int = whole(8)
    """snapshots kept (the oldest is dropped first); checkpoints given in ``checkpoints`` count too"""
    checkpoints: tuple = ()
    """saved policies to put in the pool from the start (backend sb3): ``.ccgmodel`` files (``.zip`` with
    ``trust_model``)"""

    @classmethod
    def from_dict(cls, values: Any, where: str = "league") -> LeagueSettings:
        """Validate a mapping of settings; errors name ``where`` and the key."""
        for key in values if isinstance(values, dict) else ():
            if key in REPLACED_KEYS:
                raise ValueError(f"{where}: {key} was replaced by {REPLACED_KEYS[key]}")
        if isinstance(values, dict) and isinstance(values.get("checkpoints"), list):
            values = {**values, "checkpoints": tuple(values["checkpoints"])}
        return settings_from_dict(cls, values, where)

    def check(self, where: str) -> None:
        """Raise ValueError naming a scripted agent that is not registered, a bad weight, a missing checkpoint, or a
        pool with no member from the start (the numbers are checked by their bounds)."""
        from ..agent_api import available_agents

        for name, weight in self.scripted.items():
            if name not in available_agents():
                raise ValueError(f"{where}: scripted: unknown agent {name!r}; known: {', '.join(available_agents())}")
            if isinstance(weight, bool) or not isinstance(weight, (int, float)) or not weight >= 0:
                raise ValueError(f"{where}: scripted: {name}: expected a weight >= 0, got {weight!r}")
        if sum(self.scripted.values()) + self.self_play <= 0 and not self.checkpoints:
            raise ValueError(f"{where}: the scripted weights and self_play are all 0; the pool would be empty until "
                             "the first snapshot")
        for path in self.checkpoints:
            if not Path(str(path)).is_file():
                raise ValueError(f"{where}: checkpoints: no model file at {str(path)!r}")

    def check_backend(self, backend: str, where: str = "league") -> None:
        """Raise ValueError naming a setting ``backend`` does not support: self-play on sb3, checkpoints on rllib."""
        if backend == "sb3" and self.self_play:
            raise ValueError(f"{where}: self_play: backend sb3 plays the learner's past snapshots, not itself; set "
                             "it to 0")
        if backend == "rllib" and self.checkpoints:
            raise ValueError(f"{where}: checkpoints: backend rllib does not load model files into its league; drop "
                             "the key")


class League:
    """The snapshots' names in the pool, the learner's results against each member, and the draw between them."""

    def __init__(self, settings: LeagueSettings) -> None:
        self.settings = settings
        self.snapshots: list[str] = []
        self.results: dict[str, Counter] = {}

    def add_snapshot(self, name: str) -> list[str]:
        """Put a snapshot in the pool; return the names of those dropped past ``max_snapshots`` (oldest first)."""
        self.snapshots.append(name)
        dropped = self.snapshots[:-self.settings.max_snapshots]
        del self.snapshots[:-self.settings.max_snapshots]
        return dropped

    def record(self, member: str, outcome: str, count: int = 1) -> None:
        """Count ``count`` games of the learner against ``member`` ending in ``outcome`` (its "win", "loss"...)."""
        self.results.setdefault(member, Counter())[outcome] += count

    def pfsp_factor(self, name: str) -> float:
        """PFSP's factor for a member (1 with ``pfsp_power`` 0; see the module documentation)."""
        power = self.settings.pfsp_power
        if power == 0:
            return 1.0
        counts = self.results.get(name, Counter())
        games = sum(counts.values())
        not_won = (games - counts["win"]) / games if games else 0.5
        return max(not_won ** power, PFSP_FLOOR)

    def chances(self) -> dict[str, float]:
        """Each member's chance of being drawn for the next game (``"self"`` for self-play), by the module's rule."""
        settings = self.settings
        groups = [{name: weight for name, weight in settings.scripted.items() if weight > 0},
                  {name: settings.snapshots / len(self.snapshots) for name in self.snapshots
                   if settings.snapshots > 0}]
        totals = [sum(group.values()) for group in groups]
        if sum(totals) <= 0:
            return {SELF_PLAY: 1.0}
        found = {SELF_PLAY: settings.self_play} if settings.self_play else {}
        rest = (1.0 - settings.self_play) / sum(totals)
        for group, total in zip(groups, totals):
            weights = {name: weight * self.pfsp_factor(name) for name, weight in group.items()}
            found.update({name: rest * total * weight / sum(weights.values()) for name, weight in weights.items()})
        return found

    def draw(self, rng: random.Random) -> str:
        """A member drawn by :meth:`chances`."""
        chances = self.chances()
        return rng.choices(list(chances), list(chances.values()))[0]

    def standings(self) -> list[dict[str, Any]]:
        """Per member met or drawable: games, the learner's win rate over the run, and the chance of the next draw."""
        chances = self.chances()
        rows = []
        for name in [*chances, *(name for name in self.results if name not in chances)]:
            counts = self.results.get(name, Counter())
            games = sum(counts.values())
            rows.append({"member": name, "games": games, "learner_win_rate": counts["win"] / games if games else None,
                         "chance": chances.get(name, 0.0)})
        return rows


__all__ = ["League", "LeagueSettings", "PFSP_FLOOR", "SELF_PLAY"]
