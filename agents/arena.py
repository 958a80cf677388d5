"""Round-robin tournaments between agents: seeded games in worker processes, win rates, intervals, ratings.

Example::

    from agents.arena import run_tournament
    result = run_tournament(["random", "heuristic", "search:iterations=16"], games_per_pair=100, seed=0)
    print(result.table())
    result.save("arena_out")          # results.json, pairs.csv, ratings.csv, games.csv, winrate_matrix.png

Agents are given as registered names (``"heuristic"``), names with keyword arguments
(``"search:iterations=16,horizon=1"``; values are read as int, float, true/false or text), or agent objects
(picklable when ``workers > 1``). Every pair plays ``games_per_pair`` games; game ``k`` of a pair uses game
seed ``seed + k // 2`` and puts the pair's first agent in seat ``k % 2``, so each deal is played from both
seats and every pair sees the same deals. Results do not depend on the number of workers.
"""

from __future__ import annotations

import multiprocessing
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, Iterator, Sequence

from tqdm import tqdm

from ccg_env.agent_api import Agent, make_agent

from .match import GameRecord, MatchRunner
from .report import format_table, pair_rows, rating_rows, save_result
from .stats import bradley_terry

@dataclass
class TournamentResult:
    """All games of a tournament and the statistics computed from them (see :mod:`agents.report`)."""

    agents: list[str]
    games: list[GameRecord]
    seats: list[tuple[int, int]]  # per game: (agent index in seat 0, agent index in seat 1)
    config: dict[str, Any] = field(default_factory=dict)

    def pairs(self) -> list[dict[str, Any]]:
        """One row per pair: wins, draws, win rate of the first agent with its 95% Wilson interval, lengths."""
        return pair_rows(self)

    def win_matrix(self) -> list[list[float]]:
        """``m[i][j]`` = games agent ``i`` won against ``j``, draws counted as half a win for each."""
        n = len(self.agents)
        wins = [[0.0] * n for _ in range(n)]
        for record, seats in zip(self.games, self.seats):
            if record.winner is None:
                wins[seats[0]][seats[1]] += 0.5
                wins[seats[1]][seats[0]] += 0.5
            else:
                wins[seats[record.winner]][seats[1 - record.winner]] += 1.0
        return wins

    def ratings(self) -> dict[str, float]:
        """Bradley-Terry ratings on the Elo scale (mean strength = 1500), fitted on every game."""
        return dict(zip(self.agents, bradley_terry(self.win_matrix())))

    def agent_rows(self) -> list[dict[str, Any]]:
        """One row per agent: games, wins, losses, draws, score and rating."""
        return rating_rows(self)

    def table(self) -> str:
        """The pair table and the rating table as aligned text."""
        return format_table(self)

    def save(self, out_dir: str) -> dict[str, str]:
        """Write results.json, pairs.csv, ratings.csv, games.csv and winrate_matrix.png; return their paths."""
        return save_result(self, out_dir)


def parse_agent_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """Split ``"name:key=value,key=value"`` into the registered name and its keyword arguments."""
    name, _, params = spec.partition(":")
    kwargs: dict[str, Any] = {}
    for item in filter(None, (p.strip() for p in params.split(","))):
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"agent spec {spec!r}: expected key=value after ':', got {item!r}")
        kwargs[key.strip()] = _parse_value(value.strip())
    return name.strip(), kwargs


def _parse_value(text: str) -> Any:
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if lowered in ("none", "null"):
        return None
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def build_agent(spec: Any) -> Agent:
    """An agent from a spec string (see :func:`parse_agent_spec`) or an agent object / callable.

    Raises:
        ValueError: the spec names an unknown agent or options the agent does not accept (the message
            names the spec and the option; construction errors of the agent are reported the same way).
    """
    if isinstance(spec, str):
        name, kwargs = parse_agent_spec(spec)
        try:
            agent = make_agent(name, **kwargs)
        except (TypeError, ValueError) as error:
            if not kwargs and isinstance(error, ValueError):
                raise  # the message already names the agent, and the spec is just that name
            raise ValueError(f"agent spec {spec!r}: {error}") from error
        if kwargs and "name" not in kwargs:  # an explicit name= is the display name; else the whole spec
            agent.name = spec
        return agent
    return make_agent(spec)


def _unique_names(agents: list[Agent]) -> list[str]:
    names: list[str] = []
    for agent in agents:
        base = str(getattr(agent, "name", type(agent).__name__))
        name, k = base, 2
        while name in names:
            name, k = f"{base}#{k}", k + 1
        names.append(name)
    return names


# --- running games (in this process or in workers) ----------------------------------------------------

_WORKER: dict[str, Any] = {}


def _init_worker(specs: Sequence[Any], names: Sequence[str], runner_kwargs: dict[str, Any]) -> None:
    agents = [build_agent(spec) for spec in specs]
    for agent, name in zip(agents, names):
        agent.name = name
    _WORKER["agents"] = agents
    _WORKER["runner"] = MatchRunner(**runner_kwargs)


def _play_task(task: tuple[int, int, int, int]) -> tuple[int, GameRecord]:
    index, seat0, seat1, seed = task
    agents = _WORKER["agents"]
    return index, _WORKER["runner"].play((agents[seat0], agents[seat1]), seed)


def schedule(n_agents: int, games_per_pair: int, seed: int) -> list[tuple[int, int, int, int]]:
    """Every game as ``(index, agent in seat 0, agent in seat 1, game seed)``, pair by pair."""
    tasks = []
    for a, b in combinations(range(n_agents), 2):
        for k in range(games_per_pair):
            seats = (a, b) if k % 2 == 0 else (b, a)
            tasks.append((len(tasks), *seats, seed + k // 2))
    return tasks


def _run(tasks: list[tuple[int, int, int, int]], workers: int, init_args: tuple, progress: bool
         ) -> Iterator[tuple[int, GameRecord]]:
    if workers <= 1:
        _init_worker(*init_args)
        for task in tqdm(tasks, desc="arena", unit="game", disable=not progress):
            yield _play_task(task)
        return
    context = multiprocessing.get_context()
    with context.Pool(workers, initializer=_init_worker, initargs=init_args) as pool:
        chunk = max(1, min(8, len(tasks) // (workers * 8)))
        results = pool.imap_unordered(_play_task, tasks, chunksize=chunk)
        yield from tqdm(results, total=len(tasks), desc="arena", unit="game", disable=not progress)


def run_tournament(agents: Sequence[Any], games_per_pair: int = 100, seed: int = 0, workers: int = 2,
                   out_dir: str | None = None, *, progress: bool = True, rules: Any = None, cards: Any = None,
                   decks: Sequence[Any] | None = None) -> TournamentResult:
    """Play a seeded round-robin and return its results (also saved to ``out_dir`` when given).

    Args:
        agents: two or more agent names, ``"name:key=value,..."`` specs or agent objects.
        games_per_pair: games each pair plays (seats alternate, so even numbers are fairest).
        seed: first game seed; game ``k`` of every pair uses ``seed + k // 2``.
        workers: worker processes; 1 plays every game in this process.
        out_dir: when given, write the result files there (see :meth:`TournamentResult.save`).
        progress: show a tqdm progress bar.
        rules, cards, decks: passed to ``Game.new`` (defaults: packaged rules, cards and decks).

    Raises:
        IllegalActionError: an agent chose an action its mask forbids (the game is named in the message).
    """
    if len(agents) < 2:
        raise ValueError(f"a tournament needs at least two agents, got {len(agents)}")
    if games_per_pair < 1:
        raise ValueError(f"games_per_pair must be at least 1, got {games_per_pair}")
    names = _unique_names([build_agent(spec) for spec in agents])
    full = schedule(len(names), games_per_pair, seed)
    init_args = (list(agents), names, {"rules": rules, "cards": cards, "decks": decks})
    records: dict[int, GameRecord] = dict(_run(full, workers, init_args, progress))
    result = TournamentResult(names, [records[t[0]] for t in full], [(t[1], t[2]) for t in full],
                              {"agents": names, "games_per_pair": games_per_pair, "seed": seed, "workers": workers})
    if out_dir is not None:
        result.save(out_dir)
    return result
