"""Small helpers the notebooks share: observation tables and plots, training curves, policy probes, disagreements.

Used by ``notebooks/quickstart.ipynb`` (reading an observation by its named pieces and a mask) and
``notebooks/heuristic_vs_learned.ipynb`` (continuing a training run, the learning curve, the arena's win rates
with intervals, and positions where the learned policy and the heuristic choose differently). Matplotlib
figures are built without pyplot, so they render the same in a kernel and in a test.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Sequence

import numpy as np

from ccg_env.engine import Choice, Game
from ccg_env.engine.choices import describe_choice
from ccg_env.env.codec import ActionCodec
from ccg_env.env.core import Match
from ccg_env.env.masks import legal_mask
from ccg_env.env.observation import ObservationEncoder
from ccg_env.env.render import render_text
from ccg_env.engine.view import GameView
from ccg_env.training.curve import learning_curve_figure  # noqa: F401 (the notebooks import it from here)

from .heuristic import HeuristicAgent
from .match import MatchRunner
from .stats import wilson_interval

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from ccg_env.training.train import TrainConfig, TrainResult

    from .arena import TournamentResult

# --- reading an observation --------------------------------------------------------------------------------


def head_columns(encoder: ObservationEncoder, piece: str) -> list[str]:
    """The feature names of a piece's last axis, without the card one-hot columns (``card_<id>``)."""
    return [c for c in encoder.columns[piece] if not c.startswith("card_")]


def slot_card_names(encoder: ObservationEncoder, piece: str, rows: np.ndarray) -> list[str | None]:
    """The card name encoded in each slot row of ``piece`` by its one-hot (None for an empty slot)."""
    first_card = len(head_columns(encoder, piece))
    names: list[str | None] = []
    for row in rows:
        hits = np.flatnonzero(row[first_card:])
        names.append(encoder.cards[int(hits[0])].name if row[0] and hits.size else None)
    return names


def piece_table(encoder: ObservationEncoder, observation: np.ndarray, piece: str) -> str:
    """One piece of an observation as text: named values, or one line per occupied slot with its card name."""
    values = encoder.view(np.asarray(observation, dtype=np.float32))[piece]
    columns = encoder.columns[piece]
    if piece == "own_secrets":
        return f"{piece}: " + (", ".join(f"{encoder.cards[i].name} x{int(values[i])}"
                                          for i in np.flatnonzero(values)) or "(none)")
    if values.ndim == 1:
        return f"{piece}: " + ", ".join(f"{c}={v:g}" for c, v in zip(columns, values))
    if piece == "zone_sizes":
        rows = [", ".join(f"{c}={v:g}" for c, v in zip(columns, row)) for row in values]
        return f"{piece}:\n  own:   {rows[0]}\n  enemy: {rows[1]}"
    return _slot_table(encoder, piece, values)


def _slot_table(encoder: ObservationEncoder, piece: str, values: np.ndarray) -> str:
    heads = head_columns(encoder, piece)
    names = slot_card_names(encoder, piece, values)
    lines = [f"{piece}: {values.shape[0]} slots x {values.shape[1]} features "
             f"({len(heads)} named below + {values.shape[1] - len(heads)} card one-hot)"]
    for slot, (row, name) in enumerate(zip(values, names)):
        if name is None:
            continue
        flags = [c for c, v in zip(heads[1:], row[1:]) if v and c.startswith(("keyword_", "type_"))]
        numbers = [f"{c}={v:g}" for c, v in zip(heads[1:], row[1:]) if not c.startswith(("keyword_", "type_"))]
        lines.append(f"  slot {slot}: {name:<22} " + " ".join(numbers) + (f"  [{', '.join(flags)}]" if flags else ""))
    if len(lines) == 1:
        lines.append("  (empty)")
    return "\n".join(lines)


def board_pieces_figure(encoder: ObservationEncoder, observation: np.ndarray,
                        pieces: Sequence[str] = ("own_hand", "own_battlefield", "enemy_battlefield")) -> Figure:
    """Heat maps of the named (non-card) features of slot pieces: one row per slot labelled with its card,
    raw values written in the cells, colour = value / the column's largest value."""
    from matplotlib.figure import Figure

    views = encoder.view(np.asarray(observation, dtype=np.float32))
    figure = Figure(figsize=(4.4 * len(pieces), 3.6), dpi=80, layout="constrained")
    for ax, piece in zip(figure.subplots(1, len(pieces)), pieces):
        heads = head_columns(encoder, piece)
        values = views[piece][:, :len(heads)]
        ax.imshow(values / np.maximum(values.max(axis=0), 1.0), vmin=0.0, vmax=1.6, cmap="Blues",
                  aspect="auto")  # vmax above 1 keeps the darkest cell light enough to read its number
        for slot, column in zip(*np.nonzero(values)):
            ax.text(column, slot, f"{values[slot, column]:g}", ha="center", va="center", fontsize=6)
        names = slot_card_names(encoder, piece, views[piece])
        ax.set_yticks(range(len(names)), [f"{i}: {n or '-'}" for i, n in enumerate(names)], fontsize=7)
        ax.set_xticks(range(len(heads)), [h.removeprefix("keyword_") for h in heads], rotation=90, fontsize=6)
        ax.set_title(piece, fontsize=9)
    return figure


def legal_action_lines(game: Game, codec: ActionCodec, mask: np.ndarray) -> list[str]:
    """One line per legal id: the id, its slot meaning (``ActionLayout.describe``) and the card-level choice."""
    lines = []
    for action_id in np.flatnonzero(mask).tolist():
        choice = codec.decode(game, action_id)
        lines.append(f"{action_id:>4}  {codec.layout.describe(action_id):<40} {describe_choice(game, choice)}")
    return lines


# --- training curves and arena tables ----------------------------------------------------------------------


#: ``eval.csv``'s text columns: the opponent, and the environment version and spec hash the run trained on.
EVAL_TEXT_COLUMNS = ("opponent", "env_version", "spec_hash")


def read_eval_csv(path: str | Path) -> list[dict[str, Any]]:
    """The rows of a run's ``eval.csv`` with numeric columns as numbers."""
    with Path(path).open(newline="", encoding="utf-8") as handle:
        return [{k: (v if k in EVAL_TEXT_COLUMNS else float(v)) for k, v in row.items()}
                for row in csv.DictReader(handle)]


def rating_curve(rows: Sequence[dict[str, Any]], anchors: dict[str, float]) -> list[dict[str, float]]:
    """The learner's rating at each evaluation of ``eval.csv``, fitted against opponents of known rating.

    ``anchors`` maps an evaluation opponent (the ``opponent`` column) to its rating, say the Bradley-Terry
    ratings of an arena that also played them; rows against other opponents (``best``, whose strength moves)
    are left out. Returns per timestep the rating and its 95% interval (:func:`ccg_env.agents.stats.rating_against`).
    """
    from .stats import rating_against

    curve = []
    for step in sorted({row["timesteps"] for row in rows}):
        results = [(anchors[row["opponent"]], row["wins"] + row.get("draws", 0.0) / 2, int(row["games"]))
                   for row in rows if row["timesteps"] == step and row.get("opponent") in anchors]
        if results:
            rating, low, high = rating_against(results)
            curve.append({"timesteps": step, "rating": rating, "low": low, "high": high})
    return curve


def rating_curve_figure(curve: Sequence[dict[str, float]], anchors: dict[str, float],
                        title: str = "learner's rating during training") -> Figure:
    """The learner's rating by timestep with its 95% band, beside the anchors' ratings as dotted lines."""
    from matplotlib.figure import Figure

    figure = Figure(figsize=(6.0, 3.2), dpi=80, layout="constrained")
    ax = figure.add_subplot()
    steps = [point["timesteps"] for point in curve]
    ax.fill_between(steps, [p["low"] for p in curve], [p["high"] for p in curve], alpha=0.25, label="95% interval")
    ax.plot(steps, [p["rating"] for p in curve], marker="o", label="learner")
    for (name, rating), colour in zip(anchors.items(), ("tab:red", "tab:green", "tab:purple", "tab:brown")):
        ax.axhline(rating, color=colour, linestyle=":", linewidth=1.2, label=f"{name} ({rating:.0f})")
    ax.set(xlabel="training timesteps", ylabel="Bradley-Terry rating (Elo scale)", title=title)
    ax.legend(loc="lower right", fontsize=8)
    return figure


def read_league_csv(path: str | Path) -> list[dict[str, Any]]:
    """The rows of a league run's ``league.csv``: timesteps, member, games, learner_win_rate (None before the first
    game) and chance."""
    with Path(path).open(newline="", encoding="utf-8") as handle:
        return [{"timesteps": int(row["timesteps"]), "member": row["member"], "games": int(row["games"]),
                 "learner_win_rate": float(row["learner_win_rate"]) if row["learner_win_rate"] else None,
                 "chance": float(row["chance"])} for row in csv.DictReader(handle)]


def _member_group(member: str) -> str:
    """Snapshots of the learner (``step_<n>``) and saved checkpoints (``checkpoint:<stem>``) plot as one band."""
    return "snapshots" if member.startswith(("step_", "checkpoint:")) else member


def league_chances_figure(rows: Sequence[dict[str, Any]], title: str = "league: chance of each opponent") -> Figure:
    """Each league member's chance of being drawn as the next opponent, stacked, by timestep (snapshots summed)."""
    from matplotlib.figure import Figure

    steps = sorted({row["timesteps"] for row in rows})
    groups = list(dict.fromkeys(_member_group(row["member"]) for row in rows))
    chance = {(group, step): 0.0 for group in groups for step in steps}
    for row in rows:
        group = _member_group(row["member"])
        chance[group, row["timesteps"]] += row["chance"]
    figure = Figure(figsize=(6.0, 3.2), dpi=80, layout="constrained")
    ax = figure.add_subplot()
    ax.stackplot(steps, [[chance[group, step] for step in steps] for group in groups], labels=groups, alpha=0.8)
    ax.set(xlabel="training timesteps", ylabel="chance of the next draw", ylim=(0.0, 1.0), title=title)
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8)
    return figure


def win_rate_matrix_text(result: TournamentResult) -> str:
    """The row agent's win rate against each column agent with its 95% Wilson interval, as aligned text."""
    names, wins = result.agents, result.win_matrix()
    width = max(18, *(len(n) + 2 for n in names))
    lines = [" " * width + "".join(f"{n:>{width}}" for n in names)]
    for i, name in enumerate(names):
        cells = []
        for j in range(len(names)):
            games = wins[i][j] + wins[j][i]
            if i == j or not games:
                cells.append(f"{'-':>{width}}")
                continue
            low, high = wilson_interval(wins[i][j], round(games))
            cells.append(f"{f'{wins[i][j] / games:.2f} [{low:.2f},{high:.2f}]':>{width}}")
        lines.append(f"{name:<{width}}" + "".join(cells))
    return "\n".join(lines)


def continue_training(model_path: str | Path, config: TrainConfig, trust_model: bool = False) -> TrainResult:
    """Train an existing model ``config.total_timesteps`` more steps, logging like ``train``.

    The environments, callbacks and run folder (``eval.csv``, checkpoints, ``model.zip`` and ``model.ccgmodel``)
    are those of :func:`ccg_env.training.train.train` (``league.csv`` too in a league), and the curve starts with an
    evaluation of the model as loaded, at timestep 0. A ``.ccgmodel`` model file gives the starting weights of the
    model ``config`` describes (Adam starts afresh); a stable-baselines3 zip (``trust_model=True`` only: it is
    unpickled) is loaded whole, with its own PPO settings and optimizer state. Timesteps in the curve count
    from the start of this continuation.
    """
    import time

    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import CallbackList
    from stable_baselines3.common.logger import configure

    from ccg_env.training import train as training
    from ccg_env.model_file import UntrustedModelError, model_kind, untrusted_zip_message

    torch.set_num_threads(config.torch_threads)
    env, pool = training.make_training_env(config)
    eval_env = training.make_vec_env(config, config.eval_envs, training.eval_opponent(config))
    if model_kind(model_path) == "ccg-env":
        model = training.make_model(config, env)
        training.load_initial_weights(model, model_path, trust=False)
    elif trust_model:
        model = MaskablePPO.load(str(model_path), env=env, device=config.device)
    else:
        raise UntrustedModelError(untrusted_zip_message(model_path))
    run_dir = training.prepare_run_dir(config)
    model.set_logger(configure(str(run_dir), ["tensorboard", "csv"]))
    history: list = []
    callbacks = [training.make_eval_callback(config, eval_env, run_dir, history, evaluate_at_start=True)]
    if pool is not None:
        callbacks.append(training.make_league_callback(pool, run_dir))
    started = time.perf_counter()
    model.learn(config.total_timesteps, callback=CallbackList(callbacks))
    training.save_model_files(model, run_dir / "model.zip", eval_env.batch.setup, config.name)
    return training.TrainResult(config, run_dir, run_dir / "model.zip", model.num_timesteps,
                                time.perf_counter() - started, history)


# --- where learned and heuristic play differ ---------------------------------------------------------------


class PolicyProbe:
    """A MaskablePPO policy's masked action probabilities for raw observations (normalized as it was trained).

    Args:
        model_path: a ``.ccgmodel`` model file (or a stable-baselines3 ``.zip`` with ``trust=True``).
        encoder: the observation encoder of the games it will see (its ``scale`` normalizes observations
            when the model's observation space lies within ``[0, 1]``).
        trust: allow a stable-baselines3 zip, which is unpickled (runs code from the file).
    """

    def __init__(self, model_path: str | Path, encoder: ObservationEncoder, trust: bool = False) -> None:
        import torch

        from ccg_env.saved_policy import load_model

        torch.set_num_threads(1)
        self.model = load_model(model_path, trust=trust)
        normalized = bool(np.all(np.asarray(self.model.observation_space.high) <= 1.0))
        self.scale = encoder.scale if normalized else None

    def probabilities(self, observation: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The policy's probability of every action id (zero where ``mask`` forbids it)."""
        import torch

        obs = observation * self.scale if self.scale is not None else observation
        tensor, _ = self.model.policy.obs_to_tensor(np.asarray(obs, dtype=np.float32))
        with torch.no_grad():
            distribution = self.model.policy.get_distribution(tensor, action_masks=np.asarray(mask, bool)[None])
        return distribution.distribution.probs[0].cpu().numpy()


@dataclass(frozen=True)
class Disagreement:
    """A position where the learned policy's greedy action differs from the heuristic's."""

    seed: int
    turn: int
    seat: int
    board: str
    learned: str
    heuristic: str
    top: tuple[tuple[str, float], ...]  # the learned policy's most probable choices, described

    def __str__(self) -> str:
        top = "\n".join(f"    {p:6.1%}  {text}" for text, p in self.top)
        return (f"game seed {self.seed}, turn {self.turn}, learned agent in seat {self.seat}\n{self.board}\n"
                f"  learned plays:   {self.learned}\n  heuristic plays: {self.heuristic}\n"
                f"  learned policy's top choices:\n{top}")


def find_disagreements(model_path: str | Path, seeds: Iterable[int], limit: int = 4, top_k: int = 3
                       ) -> list[Disagreement]:
    """Play learned (greedy) against heuristic on ``seeds``; return up to ``limit`` differing positions.

    The learned agent sits in seat ``seed % 2``. At each of its decisions the heuristic is asked too; when
    their action ids differ the position is recorded (the board rendered for the learned seat, both choices
    described with card names and the policy's ``top_k`` probabilities), and the learned agent's move is
    played. The positions returned are spread evenly over all those found.
    """
    runner = MatchRunner()
    probe = PolicyProbe(model_path, runner.encoder)
    found: list[Disagreement] = []
    for seed in seeds:
        found += _disagreements_in_game(runner, probe, seed, top_k)
    if len(found) <= limit:
        return found
    return [found[i] for i in np.linspace(0, len(found) - 1, limit).round().astype(int)]


def _disagreements_in_game(runner: MatchRunner, probe: PolicyProbe, seed: int, top_k: int) -> list[Disagreement]:
    game, seat, heuristic = runner.new_game(seed, log=True), seed % 2, HeuristicAgent()
    names = ("learned", "heuristic") if seat == 0 else ("heuristic", "learned")
    observation, mask = runner.encoder.new_buffer(), np.zeros(runner.codec.layout.size, dtype=np.int8)
    found = []

    def choose(game: Game, player: int) -> Choice:
        if player != seat:
            return runner.decide(game, heuristic, seed)
        runner.encoder.encode(game, seat, observation)
        legal_mask(game, runner.codec, seat, mask)
        probabilities = probe.probabilities(observation, mask)
        learned_id = int(np.argmax(probabilities))
        heuristic_id = heuristic.act(observation, mask, GameView(game, seat, runner.codec))
        if learned_id != heuristic_id:
            found.append(_describe(game, runner.codec, seed, names, probabilities, (learned_id, heuristic_id), top_k))
        return runner.codec.decode(game, learned_id)

    runner.core.play_until(Match(game, seed), -1, choose)
    return found


def _describe(game: Game, codec: ActionCodec, seed: int, names: tuple[str, str], probabilities: np.ndarray,
              ids: tuple[int, int], top_k: int) -> Disagreement:
    def text(action_id: int) -> str:
        choice = describe_choice(game, codec.decode(game, action_id))
        return f"{choice}  [id {action_id}: {codec.layout.describe(action_id)}]"

    best = np.argsort(-probabilities, kind="stable")[:top_k]
    top = tuple((text(int(i)), float(probabilities[i])) for i in best if probabilities[i] > 0)
    board = render_text(game, game.current_player, names=names, recent=1)
    return Disagreement(seed, game.turn, game.current_player, board, text(ids[0]), text(ids[1]), top)
