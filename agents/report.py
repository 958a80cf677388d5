"""Tournament reports: per-pair and per-agent tables, text output, JSON / CSV files and the win-rate plot.

Files written by :func:`save_result` (``TournamentResult.save``):

``pairs.csv``, one row per pair of agents:
    ``agent_a``, ``agent_b``: the pair. ``games``: games played. ``wins_a``, ``wins_b``, ``draws``:
    outcomes (a draw is a simultaneous death or the turn limit). ``win_rate_a``: ``wins_a / games``.
    ``ci_low``, ``ci_high``: its 95% Wilson score interval. ``score_a``: ``(wins_a + draws / 2) / games``.
    ``avg_turns``: mean game length in turns (both players' turns counted). ``avg_decisions``: mean number
    of actions chosen per game (both players).
``ratings.csv``, one row per agent, best first:
    ``rank``, ``agent``. ``rating``: Bradley-Terry strength on the Elo scale (mean 1500; +400 = 10:1 odds).
    ``games``, ``wins``, ``losses``, ``draws``. ``score``: ``(wins + draws / 2) / games``.
``games.csv``, one row per game:
    ``game``: index. ``seat0``, ``seat1``: agent names (seat 0 moves first). ``seed``: game seed.
    ``winner``: the winning agent's name (empty for a draw). ``result``: ``win``, ``draw`` or
    ``turn_limit``. ``turns``. ``decisions``.
``results.json``:
    ``{"config", "agents", "pairs", "ratings", "games"}`` holding the same rows.
``winrate_matrix.png``:
    Heat map of the row agent's score against the column agent.
"""

from __future__ import annotations

import csv
import json
from itertools import product
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .stats import wilson_interval

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from .arena import TournamentResult

PAIR_COLUMNS = ("agent_a", "agent_b", "games", "wins_a", "wins_b", "draws", "win_rate_a", "ci_low", "ci_high",
                "score_a", "avg_turns", "avg_decisions")
RATING_COLUMNS = ("rank", "agent", "rating", "games", "wins", "losses", "draws", "score")
GAME_COLUMNS = ("game", "seat0", "seat1", "seed", "winner", "result", "turns", "decisions")


def pair_rows(result: TournamentResult) -> list[dict[str, Any]]:
    """One dict per pair (keys ``PAIR_COLUMNS``), pairs in the order they were scheduled."""
    groups: dict[tuple[int, int], list[int]] = {}
    for index, (s0, s1) in enumerate(result.seats):
        groups.setdefault((min(s0, s1), max(s0, s1)), []).append(index)
    return [_pair_row(result, a, b, indices) for (a, b), indices in groups.items()]


def _pair_row(result: TournamentResult, a: int, b: int, indices: list[int]) -> dict[str, Any]:
    wins_a, wins_b, draws = _outcomes(result, a, indices)
    n = len(indices)
    low, high = wilson_interval(wins_a, n)
    return {"agent_a": result.agents[a], "agent_b": result.agents[b], "games": n, "wins_a": wins_a,
            "wins_b": wins_b, "draws": draws, "win_rate_a": wins_a / n, "ci_low": low, "ci_high": high,
            "score_a": (wins_a + draws / 2) / n,
            "avg_turns": sum(result.games[i].turns for i in indices) / n,
            "avg_decisions": sum(result.games[i].decisions for i in indices) / n}


def _outcomes(result: TournamentResult, agent: int, indices: list[int]) -> tuple[int, int, int]:
    """(wins, losses, draws) of ``agent`` over the games at ``indices``."""
    wins = losses = draws = 0
    for i in indices:
        winner = result.games[i].winner
        if winner is None:
            draws += 1
        elif result.seats[i][winner] == agent:
            wins += 1
        else:
            losses += 1
    return wins, losses, draws


def rating_rows(result: TournamentResult) -> list[dict[str, Any]]:
    """One dict per agent (keys ``RATING_COLUMNS``), highest rating first."""
    ratings = result.ratings()
    rows = []
    for index, name in enumerate(result.agents):
        played = [i for i, seats in enumerate(result.seats) if index in seats]
        wins, losses, draws = _outcomes(result, index, played)
        games = len(played)
        rows.append({"agent": name, "rating": ratings[name], "games": games, "wins": wins, "losses": losses,
                     "draws": draws, "score": (wins + draws / 2) / games if games else 0.0})
    rows.sort(key=lambda row: -row["rating"])
    return [{"rank": rank, **row} for rank, row in enumerate(rows, 1)]


def game_rows(result: TournamentResult) -> list[dict[str, Any]]:
    """One dict per game (keys ``GAME_COLUMNS``)."""
    return [{"game": i, "seat0": r.seat0, "seat1": r.seat1, "seed": r.seed, "winner": r.winner_name or "",
             "result": r.result, "turns": r.turns, "decisions": r.decisions} for i, r in enumerate(result.games)]


def format_table(result: TournamentResult) -> str:
    """Aligned text: the pair table (win rate with its 95% interval) and the ratings."""
    lines = [f"{'agent A':<24}{'agent B':<24}{'games':>6}{'A wins':>7}{'B wins':>7}{'draws':>6}"
             f"{'A win rate [95% CI]':>24}{'turns':>7}{'decisions':>10}"]
    for row in pair_rows(result):
        rate = f"{row['win_rate_a']:.3f} [{row['ci_low']:.3f}, {row['ci_high']:.3f}]"
        lines.append(f"{row['agent_a']:<24}{row['agent_b']:<24}{row['games']:>6}{row['wins_a']:>7}"
                     f"{row['wins_b']:>7}{row['draws']:>6}{rate:>24}{row['avg_turns']:>7.1f}"
                     f"{row['avg_decisions']:>10.1f}")
    lines += ["", f"{'rank':<6}{'agent':<24}{'rating':>8}{'games':>7}{'wins':>6}{'losses':>8}{'draws':>7}"
              f"{'score':>7}"]
    for row in rating_rows(result):
        lines.append(f"{row['rank']:<6}{row['agent']:<24}{row['rating']:>8.0f}{row['games']:>7}{row['wins']:>6}"
                     f"{row['losses']:>8}{row['draws']:>7}{row['score']:>7.3f}")
    return "\n".join(lines)


def score_matrix(result: TournamentResult) -> list[list[float | None]]:
    """``m[i][j]`` = score of agent ``i`` against ``j`` (wins plus half the draws, over games); None on the diagonal."""
    wins = result.win_matrix()
    n = len(result.agents)
    out: list[list[float | None]] = [[None] * n for _ in range(n)]
    for i in range(n):
        for j in range(n):
            total = wins[i][j] + wins[j][i]
            if i != j and total > 0:
                out[i][j] = wins[i][j] / total
    return out


def win_rate_figure(result: TournamentResult) -> Figure:
    """A matplotlib figure of the score matrix (row agent against column agent), without touching pyplot."""
    from matplotlib.figure import Figure

    matrix = score_matrix(result)
    n = len(result.agents)
    figure = Figure(figsize=(1.6 + 1.1 * n, 1.2 + 1.0 * n))
    ax = figure.add_subplot()
    image = ax.imshow([[float("nan") if v is None else v for v in row] for row in matrix], vmin=0.0, vmax=1.0,
                      cmap="RdYlGn")
    for (i, j), value in ((ij, matrix[ij[0]][ij[1]]) for ij in product(range(n), range(n))):
        if value is not None:
            ax.text(j, i, f"{value:.0%}", ha="center", va="center", fontsize=9)
    ax.set_xticks(range(n), result.agents, rotation=30, ha="right")
    ax.set_yticks(range(n), result.agents)
    ax.set(xlabel="opponent", ylabel="agent", title="score (wins + draws/2) of row vs column")
    figure.colorbar(image, ax=ax, fraction=0.046)
    return figure


def save_result(result: TournamentResult, out_dir: str | Path) -> dict[str, str]:
    """Write the files described in this module's docstring into ``out_dir``; return name -> path."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    pairs, ratings, games = pair_rows(result), rating_rows(result), game_rows(result)
    paths = {name: str(out / name) for name in
             ("results.json", "pairs.csv", "ratings.csv", "games.csv", "winrate_matrix.png")}
    document = {"config": result.config, "agents": result.agents, "pairs": pairs, "ratings": ratings,
                "games": games}
    Path(paths["results.json"]).write_text(json.dumps(document, indent=2) + "\n")
    _write_csv(paths["pairs.csv"], PAIR_COLUMNS, pairs)
    _write_csv(paths["ratings.csv"], RATING_COLUMNS, ratings)
    _write_csv(paths["games.csv"], GAME_COLUMNS, games)
    figure = win_rate_figure(result)  # a bare Figure (no pyplot) renders with Agg
    figure.savefig(paths["winrate_matrix.png"], dpi=120, bbox_inches="tight")
    return paths


def _write_csv(path: str, columns: tuple[str, ...], rows: list[dict[str, Any]]) -> None:
    with open(path, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=columns)
        writer.writeheader()
        for row in rows:
            writer.writerow({k: f"{v:.6g}" if isinstance(v, float) else v for k, v in row.items()})
