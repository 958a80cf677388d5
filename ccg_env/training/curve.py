"""The learning curve both training backends draw beside ``eval.csv``, and the notebooks draw from it: greedy win
rate against env steps, a line and a 95% Wilson band per evaluation opponent."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from ..intervals import wilson_interval

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from .train import EvalResult


def learning_curve_figure(rows: Sequence[Mapping[str, Any]], title: str = "greedy win rate during training") -> Figure:
    """Win rate against each evaluation opponent by timestep, in the order first met, with its 95% Wilson band.

    ``rows`` are ``eval.csv`` rows (``timesteps``, ``opponent``, ``games``, ``wins``, ``win_rate``), as
    :meth:`EvalResult.row` writes them or as read back with numbers. Built without pyplot, so it renders the same in
    a notebook kernel, a test and a training run.
    """
    from matplotlib.figure import Figure

    figure = Figure(figsize=(6.0, 3.2), dpi=80, layout="constrained")
    ax = figure.add_subplot()
    for opponent in dict.fromkeys(row.get("opponent", "?") for row in rows):
        met = [row for row in rows if row.get("opponent", "?") == opponent]
        steps = [row["timesteps"] for row in met]
        bands = [wilson_interval(row["wins"], int(row["games"])) for row in met]
        line, = ax.plot(steps, [row["win_rate"] for row in met], marker="o", label=f"vs {opponent}")
        ax.fill_between(steps, [b[0] for b in bands], [b[1] for b in bands], alpha=0.2, color=line.get_color())
    ax.axhline(0.5, color="grey", linestyle=":", linewidth=1)
    ax.set(xlabel="training timesteps", ylabel="win rate (95% band)", ylim=(0.0, 1.0), title=title)
    ax.legend(loc="lower right", fontsize=8)
    return figure


def plot_learning_curve(history: Sequence[EvalResult], path: Path, title: str) -> None:
    """Write :func:`learning_curve_figure` of a run's evaluations as a PNG at ``path`` (nothing when empty)."""
    if history:
        learning_curve_figure([result.row() for result in history], title).savefig(path, dpi=100)
