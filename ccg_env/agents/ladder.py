"""The ladder: one agent against a frozen reference pool on the arena's deals, rated on the pool's fixed scale.

Example::

    from ccg_env.agents.ladder import run_ladder
    result = run_ladder("search:iterations=48", quick=True)
    print(result.table())
    result.save("ladder_out")            # results.json, members.csv, ladder.txt, ladder.png

The pool (:func:`load_pool`, default ``ccg_env/benchmark/pool_v1.yaml``) lists its members (an agent spec and
a name each), their ratings on one anchored Bradley-Terry / Elo scale (400 points are 10:1 odds) with 95%
intervals, and how many games a ladder run plays against each (``games``; ``quick_games`` with ``quick=True``).
The ladder plays the agent against every member on the arena's protocol (:mod:`ccg_env.agents.arena`): game ``k``
against a member is deal ``k // 2`` (seed ``seed + k // 2``, the ``k // 2``-th ordered pair of the packaged
decks, round by round) with the agent in seat ``k % 2``, so every deal is played from both seats. It then fits
the agent's rating with the members' ratings held fixed (:func:`ccg_env.agents.stats.bootstrap_rating`: the
maximum-likelihood rating, with a 95% bootstrap interval over deals that also redraws the members' ratings from
the pool fit's bootstrap samples when the pool file records them). Per member it reports the agent's win rate
with the Wilson interval and the interval computed per deal, and the deal categories; and the agent's decision times against a per-decision time limit (decisions over
it are counted, not forfeited). The ladder's default seed differs from the pool fit's, so its deals are new ones.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from ccg_env.agent_api import Agent

from . import arena
from .arena import Task, TournamentResult, build_agent, resolve_pool
from .match import GameRecord
from .pool import Pool, load_pool
from .report import DEAL_SPLIT_COLUMNS, deal_points, pair_rows
from .stats import bootstrap_rating

#: The ladder's first deal seed: far from the pool fit's (seed 0), so a ladder run plays deals the fit did not.
LADDER_SEED = 1_000_000
#: Seconds one decision may take before it counts as over the limit.
DEFAULT_TIME_LIMIT = 1.0
#: Bootstrap samples of the rating interval.
BOOTSTRAP_SAMPLES = 1000


class TimedAgent:
    """An agent whose every ``act`` is timed (seconds, :func:`time.perf_counter`); other attributes pass through.

    The first decision in a process is kept apart (``warmup``): it pays for what the agent loads once (a model
    file, torch), not for deciding.
    """

    def __init__(self, agent: Agent) -> None:
        self.agent = agent
        self.times: list[float] = []
        self.warmup: list[float] = []
        self.warm = False  # whether this process has seen its first decision

    def __getattr__(self, name: str) -> Any:
        return getattr(self.__dict__["agent"], name)

    @property
    def name(self) -> str:
        return str(self.agent.name)

    @name.setter
    def name(self, value: str) -> None:
        self.agent.name = value

    def act(self, observation: np.ndarray, action_mask: np.ndarray, view: Any = None) -> int:
        start = time.perf_counter()
        action = self.agent.act(observation, action_mask, view)
        (self.times if self.warm else self.warmup).append(time.perf_counter() - start)
        self.warm = True
        return action

    def reset(self, seed: int | None = None) -> None:
        self.agent.reset(seed=seed)

    def take_times(self) -> tuple[list[float], list[float]]:
        """The decision times and the warm-up decision's time recorded since the last call, and forget them."""
        times, warmup, self.times, self.warmup = self.times, self.warmup, [], []
        return times, warmup


def pair_schedule(pairs: Sequence[tuple[int, int, int]], seed: int, n_decks: int) -> list[Task]:
    """The arena's games for chosen pairs ``(a, b, games)``: game ``k`` of a pair is deal ``k // 2`` (seed ``seed +
    k // 2``, the ``k // 2``-th ordered deck pair of :func:`ccg_env.env.deals.deck_pairs`) with ``a`` in seat
    ``k % 2``, as :func:`ccg_env.agents.arena.schedule` deals every pair."""
    from ccg_env.env.deals import deck_pairs

    decks = deck_pairs(n_decks)
    tasks: list[Task] = []
    for a, b, games in pairs:
        for k in range(games):
            deck0, deck1 = decks[(k // 2) % len(decks)]
            seats = (a, b) if k % 2 == 0 else (b, a)
            tasks.append(Task(len(tasks), *seats, seed + k // 2, deck0, deck1))
    return tasks


def _init_timed_worker(specs: Sequence[Any], names: Sequence[str], runner_kwargs: dict[str, Any],
                       pool: Sequence[Any], timed: Sequence[int]) -> None:
    arena.init_worker(specs, names, runner_kwargs, pool)
    agents = arena.WORKER["agents"]
    for index in timed:
        agents[index] = TimedAgent(agents[index])


def _play_timed_task(task: Task) -> tuple[int, tuple[GameRecord, dict[int, tuple[list[float], list[float]]]]]:
    game, record = arena.play_task(task)
    times = {index: agent.take_times() for index, agent in enumerate(arena.WORKER["agents"])
             if isinstance(agent, TimedAgent)}
    return game, (record, times)


def play_pairs(specs: Sequence[Any], names: Sequence[str], pairs: Sequence[tuple[int, int, int]], seed: int, *,
               workers: int = 2, progress: bool = True, timed: Sequence[int] = (), rules: Any = None,
               cards: Any = None, config: dict[str, Any] | None = None,
               desc: str = "ladder") -> tuple[TournamentResult, dict[int, tuple[list[float], list[float]]]]:
    """Play the chosen pairs of agents on the arena's deals over the packaged decks (see :func:`pair_schedule`).

    Returns:
        The games as a ``TournamentResult`` (its pair rows carry the per-deal statistics), and for each agent index
        in ``timed`` its decision times and its warm-up decisions' times (seconds; one per process it played in).
    """
    pool = resolve_pool(None, rules, cards)
    tasks = pair_schedule(pairs, seed, len(pool))
    init_args = (list(specs), list(names), {"rules": rules, "cards": cards}, pool, list(timed))
    records: dict[int, GameRecord] = {}
    times: dict[int, tuple[list[float], list[float]]] = {index: ([], []) for index in timed}
    for game, (record, game_times) in arena.run_tasks(tasks, workers, init_args, progress, init=_init_timed_worker,
                                                 play=_play_timed_task, desc=desc):
        records[game] = record
        for index, (values, warmup) in game_times.items():
            times[index][0].extend(values)
            times[index][1].extend(warmup)
    result = TournamentResult(list(names), [records[t.game] for t in tasks], [(t.seat0, t.seat1) for t in tasks],
                              dict(config or {}), [deck.name for deck in pool])
    return result, times


def decision_summary(times: Sequence[float], limit: float, warmup: Sequence[float] = ()) -> dict[str, Any]:
    """Decisions (the warm-up ones included), then over the others: mean, median, 95th percentile and longest time
    (milliseconds) and the decisions over ``limit`` seconds; and the warm-up decisions' times (milliseconds)."""
    first = [t * 1000.0 for t in warmup]
    if not times:
        return {"decisions": len(first), "mean_ms": None, "median_ms": None, "p95_ms": None, "max_ms": None,
                "limit_s": limit, "over_limit": 0, "warmup_ms": first}
    values = np.asarray(times) * 1000.0
    return {"decisions": len(times) + len(first), "mean_ms": float(values.mean()),
            "median_ms": float(np.median(values)), "p95_ms": float(np.percentile(values, 95)),
            "max_ms": float(values.max()), "limit_s": limit, "over_limit": int(sum(t > limit for t in times)),
            "warmup_ms": first}


#: columns of a ladder result's per-member rows (``members.csv``; documented in :mod:`ccg_env.agents.ladder_report`)
MEMBER_COLUMNS = ("member", "member_rating", "games", "wins", "losses", "draws", "win_rate", "ci_low", "ci_high",
                  *DEAL_SPLIT_COLUMNS, "score")


@dataclass
class LadderResult:
    """One ladder run: the agent, the pool, every game, the fitted rating and the decision times."""

    agent: str
    pool: Pool
    games: TournamentResult
    rating: tuple[float, float, float]
    decision_times: dict[str, Any]
    config: dict[str, Any] = field(default_factory=dict)

    def members(self) -> list[dict[str, Any]]:
        """One row per pool member (``MEMBER_COLUMNS``): the agent's results against it."""
        ratings = {member.name: member.rating for member in self.pool.members}
        rows = []
        for pair in pair_rows(self.games):
            games = pair["games"]
            rows.append({"member": pair["agent_b"], "member_rating": ratings[pair["agent_b"]], "games": games,
                         "wins": pair["wins_a"], "losses": pair["wins_b"], "draws": pair["draws"],
                         "win_rate": pair["win_rate_a"], "ci_low": pair["ci_low"], "ci_high": pair["ci_high"],
                         **{key: pair[key] for key in DEAL_SPLIT_COLUMNS}, "score": pair["score_a"]})
        return rows

    def table(self) -> str:
        """The rating, the per-member table and the decision times as aligned text."""
        from .ladder_report import format_ladder

        return format_ladder(self)

    def save(self, out_dir: str | Path) -> dict[str, str]:
        """Write the files listed in :mod:`ccg_env.agents.ladder_report`; return name -> path."""
        from .ladder_report import save_ladder

        return save_ladder(self, out_dir)


def member_games(pool: Pool, quick: bool, games: int | None) -> list[int]:
    """Games against each member: ``games`` for every member when given, else the pool's (quick) counts."""
    if games is not None:
        if isinstance(games, bool) or not isinstance(games, int) or games < 1:
            raise ValueError(f"games: expected a whole number of at least 1, got {games!r}")
        return [games] * len(pool.members)
    return [member.quick_games if quick else member.games for member in pool.members]


def run_ladder(agent: Any, *, pool: Pool | str | Path | None = None, quick: bool = False, games: int | None = None,
               seed: int = LADDER_SEED, workers: int = 2, time_limit: float = DEFAULT_TIME_LIMIT,
               progress: bool = True, bootstrap_samples: int = BOOTSTRAP_SAMPLES,
               out_dir: str | Path | None = None) -> LadderResult:
    """Play ``agent`` against every member of the reference pool and rate it on the pool's scale.

    Args:
        agent: an agent spec as the arena takes (``"search:iterations=48"``, ``"learned:path=m.ccgmodel"``) or an
            agent object (picklable when ``workers > 1``).
        pool: a ``Pool`` or a pool file (default: the packaged pool).
        quick: play each member's ``quick_games`` instead of its ``games`` (a wider interval).
        games: play this many games against every member instead (tests, or a custom run).
        seed: the first deal's seed (deal ``j`` against every member has seed ``seed + j``).
        workers: worker processes; 1 plays in this process.
        time_limit: seconds a decision of ``agent`` may take; longer ones are counted (``over_limit``).
        progress: show a progress bar.
        bootstrap_samples: resamples of the deals for the rating's interval.
        out_dir: when given, write the result files there.

    Raises:
        ValueError: a bad pool file, agent spec, game count or time limit (the message names it).
    """
    if not (isinstance(time_limit, (int, float)) and math.isfinite(time_limit) and time_limit > 0):
        raise ValueError(f"time_limit: expected a positive number of seconds, got {time_limit!r}")
    pool = pool if isinstance(pool, Pool) else load_pool(pool)
    counts = member_games(pool, quick, games)
    candidate = _candidate_name(build_agent(agent), [member.name for member in pool.members])
    names = [candidate, *(member.name for member in pool.members)]
    specs = [agent, *(member.spec for member in pool.members)]
    pairs = [(0, index, count) for index, count in enumerate(counts, 1)]
    config = {"agent": candidate, "spec": agent if isinstance(agent, str) else candidate, "quick": quick,
              "games": dict(zip(names[1:], counts)), "seed": seed, "workers": workers, "time_limit_s": time_limit,
              "bootstrap_samples": bootstrap_samples, "pool_uncertainty": pool.rating_samples() is not None,
              "pool": str(pool.path), "pool_stamp": pool.stamp}
    result, times = play_pairs(specs, names, pairs, seed, workers=workers, progress=progress, timed=[0],
                               config=config)
    opponents = [(member.rating, [(sum(points), len(points)) for points in
                                  deal_points(result, 0, [i for i, s in enumerate(result.seats) if index in s])])
                 for index, member in enumerate(pool.members, 1)]
    rating = bootstrap_rating(opponents, samples=bootstrap_samples, seed=seed, opponent_samples=pool.rating_samples())
    ladder = LadderResult(candidate, pool, result, rating, decision_summary(times[0][0], time_limit, times[0][1]),
                          config)
    if out_dir is not None:
        ladder.save(out_dir)
    return ladder


def _candidate_name(agent: Agent, members: Sequence[str]) -> str:
    """The agent's display name, made distinct from the members' (``heuristic`` against the pool's ``heuristic``
    is ``heuristic (candidate)``)."""
    name = str(getattr(agent, "name", type(agent).__name__))
    return f"{name} (candidate)" if name in members else name


def ladder_agent_spec(text: str) -> str:
    """The agent spec for the ladder's AGENT argument: a model file path (``.ccgmodel``, ``.ccgrllib``, ``.zip``)
    becomes ``learned:path=PATH``; anything else is an agent spec as the arena takes it."""
    if Path(text).suffix in (".ccgmodel", ".ccgrllib", ".zip") and ":" not in text:
        if "," in text or "=" in text:
            raise ValueError(f"model file {text!r}: a path with ',' or '=' cannot be passed as an agent spec; "
                             f"rename or link the file")
        return f"learned:path={text}"
    return text
