"""Ladder reports: the text table, the files a run writes, its plot, and a leaderboard row.

Files written by :func:`save_ladder` (``LadderResult.save``):

``results.json``:
    ``agent``: the agent's name. ``rating``: the agent's ``rating`` on the pool's scale with ``low`` and ``high``,
    its 95% bootstrap interval over deals (and the pool fit's samples, when the pool records them). ``members``: the rows of ``members.csv``. ``decision_times``: the agent's
    ``decisions`` (all of them), and over all but the first decision of each worker process: ``mean_ms``,
    ``median_ms``, ``p95_ms``, ``max_ms`` (milliseconds per decision), ``limit_s`` (the per-decision time limit) and
    ``over_limit`` (decisions that took longer); ``warmup_ms``: the first decision of each worker process, which
    pays for loading (a model file, torch), in milliseconds. ``config``: the run's options.
    ``pool``: the pool file's data. ``environment``: the environment version, spec hash and package version of this
    run. ``games``: one row per game (as the arena's ``games.csv``).
``members.csv``, one row per pool member:
    ``member``: the member's name. ``member_rating``: its rating in the pool. ``games``, ``wins``, ``losses``,
    ``draws``: the agent's games against it. ``win_rate``: ``wins / games``, with ``ci_low``, ``ci_high``, its 95%
    Wilson interval (every game independent). ``deals``: deals played (a seed and deck pair, from both seats).
    ``deal_ci_low``, ``deal_ci_high``: the win rate's 95% interval computed per deal
    (:func:`ccg_env.agents.stats.deal_interval`). ``deals_won_both``, ``deals_split``, ``deals_lost_both``,
    ``deals_other``: deals the agent won from both seats, won from one seat, lost from both, and those with a draw
    or a single game. ``score``: ``(wins + draws / 2) / games``, what the rating is fitted on.
``ladder.txt``:
    The text of :func:`format_ladder`.
``ladder.png``:
    Left, the agent's win rate against each member with the per-deal interval; right, the pool's ratings with
    their intervals and the agent's rating with its interval, on the pool's scale.
"""

from __future__ import annotations

import csv
import json
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

from .pool import environment_stamp
from .report import game_rows

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from .ladder import LadderResult

#: every file :func:`save_ladder` writes
LADDER_FILES = ("results.json", "members.csv", "ladder.txt", "ladder.png")
#: the leaderboard's columns (Markdown table)
LEADERBOARD_HEADER = ("agent", "rating", "95% interval", "games", "run", "env version", "spec hash", "date")


def _rate(rate: float | None, low: float, high: float) -> str:
    return "-" if rate is None else f"{rate:.3f} [{low:.3f}, {high:.3f}]"


def format_ladder(result: LadderResult) -> str:
    """The rating line, one line per member and the decision times, as aligned text."""
    rating, low, high = result.rating
    pool = result.pool
    width = max(24, *(len(m.name) + 2 for m in pool.members))
    method = ("over deals and the pool fit's samples" if result.config.get("pool_uncertainty")
              else "over deals, the pool's ratings held fixed")
    lines = [f"{result.agent}: rating {rating:.0f} [95% {low:.0f}, {high:.0f}] on the pool's scale "
             f"({pool.anchor} = {pool.anchor_rating:g}; bootstrap {method})", "",
             f"{'member':<{width}}{'rating':>7}{'games':>7}{'win rate [95% Wilson]':>24}"
             f"{'[95% per deal]':>17}{'won both':>9}{'split':>7}{'lost both':>10}{'other':>7}"]
    for row in result.members():
        per_deal = "-" if row["win_rate"] is None else f"[{row['deal_ci_low']:.3f}, {row['deal_ci_high']:.3f}]"
        lines.append(f"{row['member']:<{width}}{row['member_rating']:>7.0f}{row['games']:>7}"
                     f"{_rate(row['win_rate'], row['ci_low'], row['ci_high']):>24}{per_deal:>17}"
                     f"{row['deals_won_both']:>9}{row['deals_split']:>7}{row['deals_lost_both']:>10}"
                     f"{row['deals_other']:>7}")
    times = result.decision_times
    if times["mean_ms"] is not None:
        lines += ["", f"decision times of {result.agent}: {times['decisions']} decisions, mean {times['mean_ms']:.1f} "
                      f"ms, median {times['median_ms']:.1f} ms, 95th percentile {times['p95_ms']:.1f} ms, longest "
                      f"{times['max_ms']:.1f} ms; {times['over_limit']} over the {times['limit_s']:g} s limit"
                      f" (the first decision of each worker, loading included, apart: "
                      f"{', '.join(f'{t:.0f}' for t in times['warmup_ms'])} ms)"]
    return "\n".join(lines)


def ladder_figure(result: LadderResult) -> Figure:
    """Win rates per member (per-deal intervals) and the rating scale, as a bare matplotlib Figure."""
    from matplotlib.figure import Figure

    rows = result.members()
    figure = Figure(figsize=(11, 0.6 + 0.5 * max(4, len(rows))))
    rates, scale = figure.subplots(1, 2)
    names = [row["member"] for row in rows]
    for y, row in enumerate(rows):
        if row["win_rate"] is not None:
            rates.errorbar(row["win_rate"], y, xerr=[[row["win_rate"] - row["deal_ci_low"]],
                                                     [row["deal_ci_high"] - row["win_rate"]]], fmt="o", color="C0")
    rates.axvline(0.5, color="grey", lw=0.8, ls="--")
    rates.set(xlim=(0, 1), yticks=range(len(rows)), yticklabels=names, xlabel="win rate (95% interval per deal)",
              title=f"{result.agent} against each member")
    members = sorted(result.pool.members, key=lambda m: m.rating)
    for y, member in enumerate(members):
        scale.errorbar(member.rating, y, xerr=[[member.rating - member.low], [member.high - member.rating]],
                       fmt="s", color="C1")
    rating, low, high = result.rating
    scale.axvspan(low, high, color="C0", alpha=0.2)
    scale.axvline(rating, color="C0", label=f"{result.agent}: {rating:.0f}")
    scale.set(yticks=range(len(members)), yticklabels=[m.name for m in members], xlabel="rating",
              title=f"the pool's scale ({result.pool.anchor} = {result.pool.anchor_rating:g})")
    scale.legend(loc="lower right", fontsize=8)
    figure.tight_layout()
    return figure


def save_ladder(result: LadderResult, out_dir: str | Path) -> dict[str, str]:
    """Write ``LADDER_FILES`` into ``out_dir`` (described in this module's docstring); return name -> path."""
    from .ladder import MEMBER_COLUMNS

    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise ValueError(f"out_dir {str(out)!r} is a file, not a folder")
    out.mkdir(parents=True, exist_ok=True)
    paths = {name: str(out / name) for name in LADDER_FILES}
    members = result.members()
    rating, low, high = result.rating
    document = {"agent": result.agent, "rating": {"rating": rating, "low": low, "high": high}, "members": members,
                "decision_times": result.decision_times, "config": result.config, "pool": result.pool.to_dict(),
                "environment": environment_stamp(), "games": game_rows(result.games)}
    Path(paths["results.json"]).write_text(json.dumps(document, indent=2) + "\n")
    with open(paths["members.csv"], "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=MEMBER_COLUMNS)
        writer.writeheader()
        writer.writerows({k: f"{v:.6g}" if isinstance(v, float) else v for k, v in row.items()} for row in members)
    Path(paths["ladder.txt"]).write_text(format_ladder(result) + "\n")
    ladder_figure(result).savefig(paths["ladder.png"], dpi=110, bbox_inches="tight")
    return paths


def leaderboard_row(result: LadderResult) -> list[str]:
    """The cells of the agent's leaderboard row (``LEADERBOARD_HEADER``)."""
    rating, low, high = result.rating
    stamp = environment_stamp()
    games = sum(row["games"] for row in result.members())
    return [result.agent.replace("|", "/"), f"{rating:.0f}", f"[{low:.0f}, {high:.0f}]", str(games),
            "quick" if result.config.get("quick") else "default", stamp.get("env_version", "-"),
            stamp.get("spec_hash", "-")[:12], datetime.now(timezone.utc).strftime("%Y-%m-%d")]


def append_leaderboard(result: LadderResult, path: str | Path) -> str:
    """Add the agent's row at the end of the leaderboard table in the Markdown file at ``path`` (the first table
    with ``LEADERBOARD_HEADER``; a file without one gets the table at its end, a new file just the table); return
    the row's text."""
    return append_table_row(path, LEADERBOARD_HEADER, leaderboard_row(result))


def append_table_row(path: str | Path, header: Sequence[str], cells: Sequence[str]) -> str:
    """Add a row of ``cells`` at the end of the first Markdown table with ``header`` in the file at ``path`` (a file
    without one gets the table at its end, a new file just the table); return the row's text."""
    target = Path(path)
    if target.exists() and not target.is_file():
        raise ValueError(f"leaderboard {str(target)!r} is not a file")
    row = "| " + " | ".join(cells) + " |"
    header_line = "| " + " | ".join(header) + " |"
    lines = target.read_text(encoding="utf-8").splitlines() if target.exists() else []
    if header_line not in lines:
        lines += ([""] if lines and lines[-1].strip() else []) + [header_line, "|" + " --- |" * len(header)]
    end = lines.index(header_line) + 1
    while end < len(lines) and lines[end].startswith("|"):
        end += 1
    lines.insert(end, row)
    target.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return row
