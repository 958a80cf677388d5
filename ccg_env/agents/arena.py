"""Round-robin tournaments between agents over a pool of decks, both seats: win rates, intervals, splits, ratings.

Example::

    from ccg_env.agents.arena import run_tournament
    result = run_tournament(["random", "heuristic", "search:iterations=16"], games_per_pair=98, seed=0)
    print(result.table())
    result.save("arena_out")          # results.json, pairs.csv, seats.csv, decks.csv, matchups.csv, ... (see report)

Agents are given as registered names (``"heuristic"``), names with keyword arguments
(``"search:iterations=16,horizon=1"``; values are read as int, float, true/false or text), or agent objects
(picklable when ``workers > 1``).

The protocol: decks are dealt independently of seats and agents. A *deal* is ``(game seed, deck for seat 0,
deck for seat 1)``; deal ``j`` has seed ``seed + j`` and the ``j``-th ordered deck pair of the pool (all
packaged decks by default, mirror matches included), and every pair of agents plays every deal twice, once
with each agent in seat 0 (who moves first). Game ``k`` of a pair is deal ``k // 2`` with the pair's first
agent in seat ``k % 2``, so every pair sees the same deals. A *cycle* is every ordered deck pair from both
seats, ``2 * n_decks ** 2`` games (98 with the 7 packaged decks): after whole cycles each agent has played
every deck against every deck from each seat equally often. Deck pairs run in *rounds* (round ``r`` deals deck
``i`` to seat 0 against deck ``(i + r) % n`` to seat 1, for every ``i``), so any multiple of ``2 * n_decks``
games is still balanced in deck x seat x agent (each agent plays each deck from each seat equally often),
only not over every deck matchup; a count that is not even such a multiple gives the last, partial round
to its first decks, and :func:`balance_note` says so (the table and the CLI print it). Results do not depend on
the number of workers.

The report (see :mod:`ccg_env.agents.report`) gives, for every pair, the overall win rate with its 95% Wilson interval,
its interval computed per deal (the deal's two games as one unit) with the deal categories (won from both seats,
split, lost from both), and its splits: by seat (A moving first / second), by A's deck, and deck against deck.

``mode="draft"`` plays draft matches (``ccg-env arena --mode draft``): each game starts with a draft from the game's
seed (:mod:`ccg_env.engine.draft`), each agent drafting its seat's deck with its draft strategy, then the battle
with the drafted decks; the deal is then just the seed (the same draft offers for each seat, from both seats) and
the deck splits are by the hero class each agent drafted for. An agent's draft strategy is the spec's ``draft=``
option (``"heuristic:draft=random"``: drafts at random, battles as the heuristic; ``draft=heuristic``,
``draft=random`` or ``draft=PATH`` for a model trained on ``ccg_env/Draft-v1``), else the agent itself when it
drafts (the heuristic, random and learned agents), else the heuristic drafter (:mod:`ccg_env.agents.draft`).

``save_games=K`` also writes the first ``K`` games of every pair as replay files (the format of
:mod:`ccg_env.viewer.replay`, which ``ccg-env view`` and ``ccg-env replay`` open) into
``<out_dir>/games/<A>-vs-<B>/game_<k>.json``, ``k`` numbering the pair's games as above; each file records the
decks dealt (packaged names replay as they are; deck files by their path, given again with ``--decks``).
"""

from __future__ import annotations

import dataclasses
import multiprocessing
import re
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Any, Callable, Iterator, NamedTuple, Sequence

from tqdm import tqdm

from ccg_env.agent_api import Agent, make_agent
from ccg_env.engine import Deck, Rules
from ccg_env.engine.decks import default_deck_paths, resolve_deck
from ccg_env.engine.game_setup import default_pool, resolve_cards
from ccg_env.env.deals import deck_pairs
from ccg_env.viewer.replay import save_replay

from .match import GameRecord, MatchRunner, deck_label
from .report import format_table, pair_rows, rating_rows, save_result
from .splits import deck_rows, matchup_rows, seat_rows
from .stats import bradley_terry

@dataclass
class TournamentResult:
    """All games of a tournament and the statistics computed from them (see :mod:`ccg_env.agents.report`)."""

    agents: list[str]
    games: list[GameRecord]
    seats: list[tuple[int, int]]  # per game: (agent index in seat 0, agent index in seat 1)
    config: dict[str, Any] = field(default_factory=dict)
    decks: list[str] = field(default_factory=list)  # the deck pool, in schedule order (records name their decks)
    replays: list[str] = field(default_factory=list)  # the sample games' replay files (``save_games``), in game order

    def __post_init__(self) -> None:
        for record in self.games:  # results built by hand may leave out the pool: take it from the records
            for name in (record.deck0, record.deck1):
                if name not in self.decks:
                    self.decks.append(name)

    def pairs(self) -> list[dict[str, Any]]:
        """One row per pair: wins, draws, win rate of the first agent with its 95% Wilson interval, lengths,
        and that win rate split by seat (``*_a_first``: A in seat 0; ``*_a_second``: A in seat 1)."""
        return pair_rows(self)

    def seat_splits(self) -> list[dict[str, Any]]:
        """Two rows per pair: the first agent's results from seat 0 (moving first) and from seat 1."""
        return seat_rows(self)

    def deck_splits(self) -> list[dict[str, Any]]:
        """One row per pair and deck of the pool: the first agent's results when it played that deck."""
        return deck_rows(self)

    def matchups(self) -> list[dict[str, Any]]:
        """One row per pair and ordered (A's deck, B's deck): the first agent's results in that matchup."""
        return matchup_rows(self)

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
        """The pair table, its seat and deck splits, the protocol and the rating table as aligned text."""
        return format_table(self)

    def save(self, out_dir: str) -> dict[str, str]:
        """Write the files listed in :mod:`ccg_env.agents.report` (results.json, CSVs, plots); return their paths."""
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


def build_drafting_agent(spec: Any) -> Agent:
    """Draft mode's agent for a spec: its ``draft=`` option (a drafter name or a model path) drafts, the rest of the
    spec battles; without ``draft=``, the agent drafts itself if it can, else the heuristic drafter drafts for it.
    """
    from .draft import DraftingAgent, HeuristicDrafter, drafts_itself

    if not isinstance(spec, str):
        agent = make_agent(spec)
        return agent if drafts_itself(agent) else DraftingAgent(agent, HeuristicDrafter())
    name, kwargs = parse_agent_spec(spec)
    draft_spec = kwargs.pop("draft", None)
    rest = ",".join(f"{key}={value}" for key, value in kwargs.items())
    battler = build_agent(f"{name}:{rest}" if rest else name)
    if draft_spec is None:
        drafter = battler if drafts_itself(battler) else HeuristicDrafter()
    else:
        text = str(draft_spec)
        drafter = build_agent(f"learned:path={text}" if text.endswith((".ccgmodel", ".zip")) else text)
        if not drafts_itself(drafter):
            raise ValueError(f"agent spec {spec!r}: draft={text} names an agent that does not draft "
                             f"(drafters: random, heuristic, or a model file trained on ccg_env/Draft-v1)")
    agent = DraftingAgent(battler, drafter) if drafter is not battler else battler
    agent.name = spec
    return agent


def _unique_names(agents: list[Agent]) -> list[str]:
    names: list[str] = []
    for agent in agents:
        base = str(getattr(agent, "name", type(agent).__name__))
        name, k = base, 2
        while name in names:
            name, k = f"{base}#{k}", k + 1
        names.append(name)
    return names


# --- the deck pool and the schedule -------------------------------------------------------------------


class Task(NamedTuple):
    """One game of the schedule: agents and deck (indices into the pool) per seat, and the game seed."""

    game: int  # index in the schedule (and in the result's games)
    seat0: int
    seat1: int
    seed: int
    deck0: int = 0
    deck1: int = 0


def schedule(n_agents: int, games_per_pair: int, seed: int, n_decks: int = 1) -> list[Task]:
    """Every game, pair by pair: game ``k`` of a pair is deal ``k // 2`` with the pair's first agent in seat ``k % 2``.

    Deal ``j`` has game seed ``seed + j`` and the ``j``-th ordered deck pair (cycling through
    :func:`deck_pairs`), the same for every pair of agents.
    """
    pairs = deck_pairs(n_decks)
    tasks: list[Task] = []
    for a, b in combinations(range(n_agents), 2):
        for k in range(games_per_pair):
            deal = k // 2
            deck0, deck1 = pairs[deal % len(pairs)]
            seats = (a, b) if k % 2 == 0 else (b, a)
            tasks.append(Task(len(tasks), *seats, seed + deal, deck0, deck1))
    return tasks


def cycle_games(n_decks: int) -> int:
    """Games per pair of agents that play every ordered deck pair from both seats once."""
    return 2 * n_decks * n_decks


def balance_note(games_per_pair: int, n_decks: int) -> str:
    """One sentence saying how balanced ``games_per_pair`` games over ``n_decks`` decks are, and what would be."""
    cycle, whole = cycle_games(n_decks), games_per_pair // cycle_games(n_decks)
    extra = games_per_pair % cycle
    if extra == 0:
        return (f"{games_per_pair} games per pair = {whole} whole cycle{'s' * (whole != 1)} of {cycle} (every ordered "
                f"pair of {n_decks} decks from both seats): balanced in deck, seat and agent")
    if games_per_pair % (2 * n_decks) == 0:
        return (f"{games_per_pair} games per pair = {whole} whole cycle{'s' * (whole != 1)} of {cycle} + {extra} "
                f"games: each agent plays each deck from each seat equally often, but not every deck matchup "
                f"equally often; use a multiple of {cycle} for a full balance")
    return (f"{games_per_pair} games per pair = {whole} whole cycle{'s' * (whole != 1)} of {cycle} + {extra} games: "
            f"the last, partial round deals only its first decks, so deck and seat splits are uneven; use a "
            f"multiple of {2 * n_decks} (deck x seat balance) or of {cycle} (every matchup)")


def resolve_pool(decks: Sequence[Any] | None, rules: Rules | None = None, cards: Any = None) -> list[Deck]:
    """The deck pool as validated ``Deck`` objects named by :func:`ccg_env.agents.match.deck_label` (default: every
    packaged deck).

    Raises:
        ValueError: an empty pool, a deck given twice, or a deck that is unknown or invalid (``DataError``,
            naming the deck and listing the packaged ones).
    """
    if isinstance(decks, (str, Path, Deck)) or (decks is not None and not list(decks)):
        raise ValueError(f"the deck pool must be a non-empty list of decks, got {decks!r}")
    rules = rules or Rules.load()
    cards = resolve_cards(cards)
    specs = default_pool(cards, rules) if decks is None else list(decks)
    pool: list[Deck] = []
    for spec in specs:
        label = deck_label(spec)
        if any(deck.name == label for deck in pool):
            raise ValueError(f"deck {label!r} is in the pool twice")
        pool.append(dataclasses.replace(resolve_deck(spec, cards, rules), name=label))
    return pool


# --- running games (in this process or in workers) ----------------------------------------------------

WORKER: dict[str, Any] = {}


def init_worker(specs: Sequence[Any], names: Sequence[str], runner_kwargs: dict[str, Any],
                pool: Sequence[Deck] = (), saves: dict[int, tuple[str, dict[str, Any]]] | None = None) -> None:
    build = build_drafting_agent if runner_kwargs.get("mode") == "draft" else build_agent
    agents = [build(spec) for spec in specs]
    for agent, name in zip(agents, names):
        agent.name = name
    WORKER["agents"] = agents
    pair = {"decks": (pool[0], pool[-1])} if pool else {}  # the runner's own default pair may not fit the cards
    WORKER["runner"] = MatchRunner(**runner_kwargs, **pair)
    WORKER["pool"] = list(pool)
    WORKER["saves"] = saves or {}


def play_task(task: Task) -> tuple[int, GameRecord]:
    agents, pool, runner = WORKER["agents"], WORKER["pool"], WORKER["runner"]
    decks = (pool[task.deck0], pool[task.deck1]) if pool else None
    seated = (agents[task.seat0], agents[task.seat1])
    save = WORKER["saves"].get(task.game)
    if save is None:
        return task.game, runner.play(seated, task.seed, decks=decks)
    path, sources = save
    game, choices = runner.new_game(task.seed, decks=decks), []
    record = runner.play(seated, task.seed, game=game, decks=decks, choices=choices)
    save_replay(path, task.seed, [record.seat0, record.seat1], choices, game, sources)
    return task.game, record


def safe_name(name: str) -> str:
    """``name`` as one file-name part: runs of characters other than letters, digits, ``.``, ``_`` and ``-`` become
    ``_`` (``search:iterations=16`` -> ``search_iterations_16``), at most 60 characters, never empty or dots only."""
    text = re.sub(r"[^A-Za-z0-9._-]+", "_", name)[:60]
    return text if text.strip(".") else f"_{text}"


def deck_source(spec: Any) -> str:
    """How a replay file records a pool deck: a packaged name as given, a file by its path, a ``Deck`` by its name."""
    if isinstance(spec, Deck):
        return spec.name
    return spec if isinstance(spec, str) and spec in default_deck_paths() else str(spec)


def sample_games(tasks: Sequence[Task], names: Sequence[str], games_per_pair: int, save_games: int, folder: Path,
                 deck_sources: Sequence[str], sources: dict[str, Any] | None = None
                 ) -> dict[int, tuple[str, dict[str, Any]]]:
    """The replay files of the first ``save_games`` games of each pair: game index -> (path, the replay's
    ``"data"``: the files given in ``sources`` and the two decks dealt). Creates the pair folders."""
    saves: dict[int, tuple[str, dict[str, Any]]] = {}
    used: set[str] = set()
    for start in range(0, len(tasks), games_per_pair):
        first = tasks[start]
        a, b = first.seat0, first.seat1  # game 0 of a pair seats its first agent in seat 0
        pair_name = base = f"{safe_name(names[a])}-vs-{safe_name(names[b])}"
        k = 2
        while pair_name in used:
            pair_name, k = f"{base}_{k}", k + 1
        used.add(pair_name)
        (folder / pair_name).mkdir(parents=True, exist_ok=True)
        for task in tasks[start:start + min(save_games, games_per_pair)]:
            data = {**(sources or {}), "decks": [deck_sources[task.deck0], deck_sources[task.deck1]]}
            saves[task.game] = (str(folder / pair_name / f"game_{task.game - start}.json"),
                                {key: value for key, value in data.items() if value})
    return saves


def run_tasks(tasks: list[Task], workers: int, init_args: tuple, progress: bool, *,
              init: Callable[..., None] = init_worker, play: Callable[[Task], tuple[int, Any]] = play_task,
              desc: str = "arena") -> Iterator[tuple[int, Any]]:
    """Play ``tasks`` (in this process or in ``workers`` processes, each set up by ``init(*init_args)``), yielding
    ``play(task)`` as games finish (in schedule order with one worker)."""
    if workers <= 1:
        init(*init_args)
        for task in tqdm(tasks, desc=desc, unit="game", disable=not progress):
            yield play(task)
        return
    context = multiprocessing.get_context()
    with context.Pool(workers, initializer=init, initargs=init_args) as pool:
        chunk = max(1, min(8, len(tasks) // (workers * 8)))
        results = pool.imap_unordered(play, tasks, chunksize=chunk)
        yield from tqdm(results, total=len(tasks), desc=desc, unit="game", disable=not progress)


def run_tournament(agents: Sequence[Any], games_per_pair: int = 98, seed: int = 0, workers: int = 2,
                   out_dir: str | None = None, *, progress: bool = True, rules: Any = None, cards: Any = None,
                   decks: Sequence[Any] | None = None, save_games: int = 0,
                   sources: dict[str, Any] | None = None, mode: str = "duel", card_features: bool = False,
                   card_ids: bool = True) -> TournamentResult:
    """Play a seeded round-robin over a deck pool and return its results (also saved to ``out_dir`` when given).

    Args:
        agents: two or more agent names, ``"name:key=value,..."`` specs or agent objects.
        games_per_pair: games each pair plays; a multiple of ``2 * len(pool) ** 2`` (98 with the 7 packaged
            decks) plays every ordered deck pair from both seats equally often (see :func:`balance_note`).
        seed: first game seed; deal ``j`` (games ``2j`` and ``2j + 1`` of every pair) uses ``seed + j``.
        workers: worker processes; 1 plays every game in this process.
        out_dir: when given, write the result files there (see :meth:`TournamentResult.save`).
        progress: show a tqdm progress bar.
        rules, cards: passed to ``Game.new`` (defaults: packaged rules and cards).
        decks: the deck pool (packaged deck names, ``Deck`` objects or .yaml paths); default: every packaged
            deck. Each game deals two decks of the pool (possibly the same one) to the seats, as scheduled.
        save_games: write the first this many games of every pair as replay files under ``out_dir/games/``
            (see the module docstring); 0 writes none and records no choices.
        sources: the ``--cards`` / ``--rules`` files the games are played with, recorded in those replays as
            ``ccg-env play --save`` does (:attr:`ccg_env.cli_data_options.GameData.sources`).
        mode: ``"duel"`` (default) or ``"draft"``: draft matches (see the module documentation; no deck pool and
            no sample games).
        card_features, card_ids: duel mode: the observation's layout options, as the envs' (the agents'
            observations; a learned agent's model must have been trained with the same).

    Raises:
        ValueError: fewer than two agents, an unknown agent or deck, an empty pool, a deck given twice, or
            ``save_games`` negative or without ``out_dir``.
        IllegalActionError: an agent chose an action its mask forbids (the game is named in the message).
    """
    if len(agents) < 2:
        raise ValueError(f"a tournament needs at least two agents, got {len(agents)}")
    if games_per_pair < 1:
        raise ValueError(f"games_per_pair must be at least 1, got {games_per_pair}")
    if isinstance(save_games, bool) or not isinstance(save_games, int) or save_games < 0:
        raise ValueError(f"save_games must be a whole number of at least 0, got {save_games!r}")
    if save_games and out_dir is None:
        raise ValueError("save_games needs out_dir: the replay files go into out_dir/games/")
    if mode not in ("duel", "draft"):
        raise ValueError(f"mode: expected 'duel' or 'draft', got {mode!r}")
    if mode == "draft":
        return _draft_tournament(agents, games_per_pair, seed, workers, out_dir, progress, rules, cards, decks,
                                 save_games)
    pool = resolve_pool(decks, rules, cards)
    names = _unique_names([build_agent(spec) for spec in agents])
    full = schedule(len(names), games_per_pair, seed, len(pool))
    saves: dict[int, tuple[str, dict[str, Any]]] = {}
    if save_games and out_dir is not None:
        specs = default_pool(resolve_cards(cards), rules or Rules.load()) if decks is None else list(decks)
        saves = sample_games(full, names, games_per_pair, save_games, Path(out_dir) / "games",
                             [deck_source(spec) for spec in specs], sources)
    layout = {"card_features": card_features, "card_ids": card_ids}
    init_args = (list(agents), names, {"rules": rules, "cards": cards, **layout}, pool, saves)
    records: dict[int, GameRecord] = dict(run_tasks(full, workers, init_args, progress))
    labels = [deck.name for deck in pool]
    config = {"agents": names, "games_per_pair": games_per_pair, "seed": seed, "workers": workers, "decks": labels,
              "cycle_games": cycle_games(len(pool)), "balance": balance_note(games_per_pair, len(pool)),
              "save_games": save_games}
    result = TournamentResult(names, [records[t.game] for t in full], [(t.seat0, t.seat1) for t in full], config,
                              list(labels), [path for _, (path, _) in sorted(saves.items())])
    if out_dir is not None:
        result.save(out_dir)
    return result


def _draft_tournament(agents: Sequence[Any], games_per_pair: int, seed: int, workers: int, out_dir: str | None,
                      progress: bool, rules: Any, cards: Any, decks: Any, save_games: int) -> TournamentResult:
    """Draft matches: every deal is a seed whose draft each pair plays from both seats (module documentation)."""
    if decks is not None:
        raise ValueError("draft mode drafts every deck: a deck pool (decks) cannot be given")
    if save_games:
        raise ValueError("draft mode does not save sample games (a replay file names its decks, and drafted decks "
                         "have no file)")
    names = _unique_names([build_drafting_agent(spec) for spec in agents])
    full = schedule(len(names), games_per_pair, seed, 1)
    init_args = (list(agents), names, {"rules": rules, "cards": cards, "mode": "draft"}, [], {})
    records: dict[int, GameRecord] = dict(run_tasks(full, workers, init_args, progress))
    whole, extra = divmod(games_per_pair, 2)
    config = {"agents": names, "games_per_pair": games_per_pair, "seed": seed, "workers": workers, "mode": "draft",
              "balance": f"{games_per_pair} games per pair: {whole} drafts (seeds {seed}..{seed + whole - 1 + extra}) "
                         f"each played from both seats" + (", the last from one seat only" if extra else "")}
    result = TournamentResult(names, [records[t.game] for t in full], [(t.seat0, t.seat1) for t in full], config)
    if out_dir is not None:
        result.save(out_dir)
    return result
