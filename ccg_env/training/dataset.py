"""Offline datasets in Minari's format: one agent's decisions over the arena's deals, each game also saved as a replay.

:func:`generate` (``ccg-env dataset``) lets an agent play the arena's deals (:func:`ccg_env.env.deals.balanced_deals`:
deal ``j`` has seed ``seed + j`` and the ``j``-th ordered deck pair of the pool, played twice, the agent in seat 0
and then in seat 1) against an opponent, until at least ``decisions`` of the agent's decisions are recorded (games
are kept whole). Each game is one Minari episode, seen from the agent's seat:

- ``observations``: a dict of ``observation`` (the env's normalized observation, float32, as
  ``normalize_observations=True`` gives it) and ``action_mask`` (int8), one row per decision plus the agent's view
  of the final position (an all-zero mask);
- ``actions``: the agent's action ids; ``rewards``: 0 until the last decision, then the agent's final reward
  (+1 win, -1 loss, 0 draw or turn limit), as the core's step scores it; ``terminations`` / ``truncations``: set on
  the last decision (a win or draw terminates, the turn limit or a reaction loop truncates);
- ``infos`` (one row per observation, Minari's convention): ``game_seed``, ``deal`` (the deal's index), ``seat``,
  ``decks`` (the two seats' deck indices into the pool, whose names the dataset's description lists) and, where a
  plain search agent played, ``visit_counts`` (its root visits over action ids; zero where it did not search: one
  legal choice, or the mulligan).

The episode's ``seed`` is the game seed and its ``options`` name the seat, both decks, the opponent and the game's
replay file: ``replays/episode_<k>.json`` inside the dataset's folder, which ``ccg-env replay`` and ``ccg-env view``
open. The dataset is created empty with Minari's ``create_dataset_from_buffers`` under ``out/<dataset id>/`` (``out``
is the ``MINARI_DATASETS_PATH`` that :func:`load`, ``minari.load_dataset``, reads it from), and games are added to it
:data:`CHUNK` at a time as they end.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator

import numpy as np

from ccg_env.env.deals import Deal, balanced_deals

if TYPE_CHECKING:
    from ccg_env.agents.match import MatchRunner
    from ccg_env.engine import Choice, Game
    from ccg_env.engine.view import GameView

#: The most decisions one command may record.
MAX_DECISIONS = 2_000_000
#: Games added to the dataset at once (memory holds their observations: about 2 MB a game).
CHUNK = 64
#: Minari's storage format: parquet compresses the mostly-zero observations (hdf5, Minari's default, stores them
#: whole: about 20 kB a decision).
DATA_FORMAT = "parquet"
#: Minari's warnings about metadata a generated dataset has no value for (no author, link or Gymnasium env spec:
#: the duel's observation here is the AEC env's dict, which no registered Gymnasium env returns).
UNSET_METADATA = r"`(code_permalink|author|author_email|eval_env)` is set to None|env_spec is None"
#: The folder beside Minari's ``data/`` that holds each episode's replay file.
REPLAYS = "replays"
#: What ``--agent search:N`` stands for (the arena's spelling of the same agent).
SEARCH_SHORTHAND = re.compile(r"^search:(\d+)$")
#: Minari's dataset id: ``(namespace/)(env_name/)dataset_name(-v<version>)``, here without a namespace folder.
DATASET_ID = re.compile(r"^[A-Za-z0-9_.]+(?:-[A-Za-z0-9_.]+)*-v\d+$")


def agent_spec(spec: str) -> str:
    """The arena spec of ``--agent``: ``search:N`` is ``search:iterations=N``; anything else as given."""
    shorthand = SEARCH_SHORTHAND.match(spec.strip())
    return f"search:iterations={shorthand.group(1)}" if shorthand else spec.strip()


def default_dataset_id(spec: str) -> str:
    """``duel-<agent>-v0``, the agent spec's letters and digits only (``search:iterations=48`` -> ``duel-search48-v0``)."""
    name, _, options = agent_spec(spec).partition(":")
    digits = "".join(re.findall(r"\d+", options)) if name == "search" else ""
    return f"duel-{re.sub(r'[^A-Za-z0-9_]+', '_', name)}{digits}-v0"


def check_dataset_id(dataset_id: str) -> str:
    """``dataset_id`` if it is a Minari dataset id without namespace (``name-v0``), else a ValueError naming it."""
    if not DATASET_ID.match(dataset_id):
        raise ValueError(f"--dataset-id {dataset_id!r}: expected a Minari dataset id such as 'duel-heuristic-v0' "
                         "(letters, digits, '_', '.', parts joined by '-', ending in -v<version>)")
    return dataset_id


@dataclass
class Episode:
    """One game from the recorded agent's seat, as Minari's episode buffer takes it (see the module docstring)."""

    deal: Deal
    deal_index: int
    observations: list[np.ndarray] = field(default_factory=list)
    masks: list[np.ndarray] = field(default_factory=list)
    actions: list[int] = field(default_factory=list)
    visits: list[np.ndarray] | None = None
    reward: float = 0.0
    terminated: bool = False
    truncated: bool = False

    def __len__(self) -> int:
        return len(self.actions)

    def buffer(self, episode_id: int, options: dict[str, Any]) -> Any:
        """The ``minari.data_collector.EpisodeBuffer`` of this game."""
        from minari.data_collector import EpisodeBuffer  # type: ignore[import-untyped]

        steps = len(self.actions)
        rewards = [0.0] * steps
        rewards[-1] = self.reward
        infos: dict[str, Any] = {
            "game_seed": [self.deal.seed] * (steps + 1),  # lists: Minari's arrow storage reads 1-D arrays back wrong
            "deal": [self.deal_index] * (steps + 1),
            "seat": [self.deal.seat] * (steps + 1),
            "decks": np.tile(np.asarray(self.deal.decks or (0, 0), dtype=np.int64), (steps + 1, 1)),
        }
        if self.visits is not None:
            infos["visit_counts"] = np.stack(self.visits)
        return EpisodeBuffer(id=episode_id, seed=self.deal.seed, options=options,
                             observations={"observation": np.stack(self.observations),
                                           "action_mask": np.stack(self.masks)},
                             actions=np.asarray(self.actions, dtype=np.int64), rewards=rewards,
                             terminations=[False] * (steps - 1) + [self.terminated],
                             truncations=[False] * (steps - 1) + [self.truncated], infos=infos)


class RecordingAgent:
    """The recorded agent as the match runner asks it: it plays the wrapped agent's moves and keeps, for each, the
    normalized observation, the mask, the action id and (a plain search agent) the root's visit counts."""

    def __init__(self, agent: Any, scale: np.ndarray, action_size: int) -> None:
        self.agent = agent
        self.name = getattr(agent, "name", type(agent).__name__)
        self.scale = scale
        self.action_size = action_size
        self.searches = _plain_search(agent)
        self.episode: Episode | None = None

    def reset(self, seed: int | None = None) -> None:
        self.agent.reset(seed=seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray, view: GameView | None = None) -> int:
        """The wrapped agent's action id, recorded in the current episode."""
        episode = self.episode
        assert episode is not None, "RecordingAgent.act outside a recorded game"
        if self.searches:
            assert view is not None
            choice, visits = search_decision(self.agent, view)
            action = view.action_ids([choice])[0]
            counts: np.ndarray = np.zeros(self.action_size, dtype=np.int32)
            if visits:
                counts[view.action_ids(list(visits))] = list(visits.values())
            assert episode.visits is not None
            episode.visits.append(counts)
        else:
            action = int(self.agent.act(observation, action_mask, view))
        self.add_observation(observation, action_mask)
        episode.actions.append(action)
        return action

    def add_observation(self, observation: np.ndarray, action_mask: np.ndarray) -> None:
        """Record one observation (normalized) and its mask in the current episode."""
        assert self.episode is not None
        self.episode.observations.append(np.asarray(observation, dtype=np.float32) * self.scale)
        self.episode.masks.append(np.asarray(action_mask, dtype=np.int8).copy())


def _plain_search(agent: Any) -> bool:
    """Whether ``agent`` is a :class:`~ccg_env.agents.search.SearchAgent` that decides as that class does."""
    from ccg_env.agents.search import SearchAgent

    return isinstance(agent, SearchAgent) and type(agent).choose is SearchAgent.choose


def search_decision(agent: Any, view: GameView) -> tuple[Choice, dict[Choice, int]]:
    """What ``SearchAgent.choose`` decides, with the root's visit count of each tried choice (empty when it did
    not search)."""
    from ccg_env.agents.heuristic import choose as heuristic_choice
    from ccg_env.agents.search import choice_without_search, most_visited

    choices = view.legal_choices()
    settled = choice_without_search(view, choices)
    if settled is not None:
        return settled, {}
    root = agent.search(view)
    return most_visited(root, heuristic_choice(view, choices)), {c: n.visits for c, n in root.children.items()}


def deals(seed: int, n_decks: int) -> Iterator[tuple[int, Deal]]:
    """The arena's games without end: (deal index, deal) with the recorded agent's seat, cycle by cycle."""
    cycle = 2 * n_decks * n_decks
    done = 0
    while True:
        for k, deal in enumerate(balanced_deals(done + cycle, seed, n_decks)[done:], start=done):
            yield k // 2, deal
        done += cycle


def play_episode(runner: MatchRunner, recorder: RecordingAgent, opponent: Any, deal: Deal, deal_index: int,
                 pool: list[Any]) -> tuple[Episode, Game, list[Choice]]:
    """Play one deal, the recorder in ``deal.seat``; return its episode, the finished game and every choice made.

    The agents are reset as the arena's match runner resets them (seat ``i`` with ``seed * 2 + i``).
    """
    seats = [recorder, opponent] if deal.seat == 0 else [opponent, recorder]
    for seat, agent in enumerate(seats):
        agent.reset(seed=deal.seed * 2 + seat)
    episode = Episode(deal, deal_index, visits=[] if recorder.searches else None)
    recorder.episode = episode
    decks = [pool[i] for i in deal.decks] if deal.decks is not None else None
    match = runner.core.new_match(deal.seed, decks=decks)
    choices: list[Choice] = []

    def choose(game: Game, player: int) -> Choice:
        choice = runner.decide(game, seats[player], deal.seed)
        choices.append(choice)
        return choice

    step = runner.core.play_until(match, -1, choose)
    final: np.ndarray = np.zeros(runner.core.observation_encoder.size, dtype=np.float32)
    runner.core.observation_writer(final)(match.game, deal.seat, [])
    recorder.add_observation(final, np.zeros(runner.core.size, dtype=np.int8))
    if recorder.searches:
        assert episode.visits is not None
        episode.visits.append(np.zeros(runner.core.size, dtype=np.int32))
    episode.reward = float(step.rewards[deal.seat])
    episode.terminated, episode.truncated = bool(step.terminated), bool(step.truncated)
    return episode, match.game, choices


@dataclass(frozen=True)
class DatasetSummary:
    """What :func:`generate` wrote: where, how many games and decisions, and the agent's results."""

    path: Path
    dataset_id: str
    episodes: int
    decisions: int
    wins: int
    losses: int
    draws: int

    def line(self) -> str:
        """One line for the command's output."""
        return (f"wrote {self.dataset_id} to {self.path}: {self.decisions:,} decisions in {self.episodes:,} games "
                f"(agent won {self.wins}, lost {self.losses}, drew {self.draws}); load it with "
                f"MINARI_DATASETS_PATH={self.path.parent} and minari.load_dataset({self.dataset_id!r})")


@contextlib.contextmanager
def datasets_root(out: str | Path) -> Iterator[None]:
    """Minari's ``MINARI_DATASETS_PATH`` set to ``out`` inside the block, restored after."""
    before = os.environ.get("MINARI_DATASETS_PATH")
    os.environ["MINARI_DATASETS_PATH"] = str(Path(out).resolve())
    try:
        yield
    finally:
        if before is None:
            del os.environ["MINARI_DATASETS_PATH"]
        else:
            os.environ["MINARI_DATASETS_PATH"] = before


def load(out: str | Path, dataset_id: str) -> Any:
    """``minari.load_dataset(dataset_id)`` from the folder ``out`` that :func:`generate` wrote it under."""
    import minari  # type: ignore[import-untyped]

    with datasets_root(out):
        return minari.load_dataset(dataset_id)


def generate(agent: str, decisions: int, seed: int, out: str | Path, dataset_id: str | None = None,
             opponent: str = "heuristic", progress: Callable[[int], None] | None = None) -> DatasetSummary:
    """Record at least ``decisions`` of ``agent``'s decisions (an arena spec, or ``search:N``) against ``opponent``
    and write them as the Minari dataset ``dataset_id`` under ``out``, with one replay file per game.

    Games are added to the dataset :data:`CHUNK` at a time, so memory holds one chunk, not the dataset.
    ``progress(n)`` is told how many decisions each finished game added.

    Raises:
        ValueError: a bad agent spec, decision count or dataset id, or a dataset of that id already under ``out``
            (said before anything is written).
        MissingExtraError: the ``dataset`` extra (minari, pyarrow) is not installed.
    """
    from ccg_env.agents.arena import build_agent
    from ccg_env.extras import require_extra

    require_extra("dataset", "ccg-env dataset")
    spec = agent_spec(agent)
    dataset_id = check_dataset_id(dataset_id or default_dataset_id(spec))
    if not 1 <= decisions <= MAX_DECISIONS:
        raise ValueError(f"--decisions: expected 1 to {MAX_DECISIONS:,}, got {decisions}")
    target = Path(out) / dataset_id
    if Path(out).exists() and not Path(out).is_dir():
        raise ValueError(f"--out {str(out)!r} is a file, not a folder")
    if target.exists():
        raise ValueError(f"--out {str(out)!r} already holds a dataset {dataset_id!r} ({target}); "
                         "choose another --dataset-id or folder")
    player = DealPlayer(build_agent(spec), build_agent(opponent), opponent)  # a bad spec stops here
    dataset = _new_dataset(Path(out), dataset_id, spec, f"{spec} against {opponent} over the arena's deals from "
                                                        f"seed {seed}", player.deck_names)
    (target / REPLAYS).mkdir()
    rewards = _fill(dataset, player, target, decisions, seed, progress)
    return DatasetSummary(target, dataset_id, len(rewards), int(dataset.total_steps), rewards.count(1.0),
                          rewards.count(-1.0), rewards.count(0.0))


def _fill(dataset: Any, player: DealPlayer, target: Path, decisions: int, seed: int,
          progress: Callable[[int], None] | None) -> list[float]:
    """Play deals into ``dataset`` (and their replays into ``target``) until ``decisions`` are in; return each
    game's reward. Stopped by Ctrl-C, it still adds the games played so far, so the dataset stays whole."""
    chunk: list[Any] = []
    rewards: list[float] = []
    total = 0
    try:
        for deal_index, deal in deals(seed, len(player.deck_names)):
            if total >= decisions:
                break
            episode, options, replay = player.play(deal, deal_index, f"{REPLAYS}/episode_{len(rewards)}.json")
            (target / options["replay"]).write_text(json.dumps(replay, indent=1) + "\n", encoding="utf-8")
            chunk.append(episode.buffer(len(rewards), options))
            if len(chunk) == CHUNK:
                full, chunk = chunk, []
                dataset.update_dataset_from_buffer(full)
            rewards.append(episode.reward)
            total += len(episode)
            if progress is not None:
                progress(len(episode))
    finally:
        if chunk:
            dataset.update_dataset_from_buffer(chunk)
    return rewards


class DealPlayer:
    """Plays the recorded agent against the opponent on the packaged deck pool, one deal at a time."""

    def __init__(self, recorded: Any, opponent: Any, opponent_spec: str) -> None:
        from ccg_env.agents.arena import resolve_pool
        from ccg_env.agents.match import MatchRunner

        self.pool = resolve_pool(None)  # the packaged decks, whose names a replay file records as they are
        self.deck_names = [deck.name for deck in self.pool]
        self.runner = MatchRunner(decks=(self.pool[0], self.pool[-1]))
        core = self.runner.core
        self.recorder = RecordingAgent(recorded, core.observation_encoder.scale.astype(np.float32), core.size)
        self.opponent, self.opponent_spec = opponent, opponent_spec

    def play(self, deal: Deal, deal_index: int, replay_path: str) -> tuple[Episode, dict[str, Any], dict[str, Any]]:
        """One game: its episode, the episode's options (Minari's episode metadata) and its replay document."""
        from ccg_env.viewer.replay import replay_document

        episode, game, choices = play_episode(self.runner, self.recorder, self.opponent, deal, deal_index, self.pool)
        names = [self.recorder.name, self.opponent.name]
        assert deal.decks is not None
        decks = [self.deck_names[i] for i in deal.decks]
        options = {"seat": deal.seat, "deck0": decks[0], "deck1": decks[1], "opponent": self.opponent_spec,
                   "replay": replay_path}
        return episode, options, replay_document(deal.seed, names if deal.seat == 0 else names[::-1], choices, game,
                                                 {"decks": decks})


def _new_dataset(out: Path, dataset_id: str, spec: str, played: str, pool: list[str]) -> Any:
    """An empty Minari dataset ``out/dataset_id`` of the duel's spaces, described; episodes are added to it."""
    import gymnasium
    import minari  # type: ignore[import-untyped]

    from ccg_env import __version__
    from ccg_env.env.core import EnvCore
    from ccg_env.env.versions import env_record

    core = EnvCore()
    high = (core.observation_encoder.high * core.observation_encoder.scale).astype(np.float32)
    observation_space = gymnasium.spaces.Dict({
        "observation": gymnasium.spaces.Box(np.zeros_like(high), high, dtype=np.float32),
        "action_mask": gymnasium.spaces.Box(0, 1, (core.size,), dtype=np.int8)})
    record = env_record()
    description = (f"ccg-env {__version__} duel (environment {record['env_version']}, spec hash "
                   f"{record['spec_hash']}): {played}; deck indices into the pool {', '.join(pool)}; one episode "
                   f"per game from the agent's seat; {REPLAYS}/episode_<k>.json beside data/ replays episode k")
    with datasets_root(out), warnings.catch_warnings():
        warnings.filterwarnings("ignore", UNSET_METADATA, UserWarning)
        return minari.create_dataset_from_buffers(
            dataset_id, [], observation_space=observation_space, action_space=gymnasium.spaces.Discrete(core.size),
            algorithm_name=spec, description=description, requirements=[f"ccg-env=={__version__}"],
            data_format=DATA_FORMAT)
