"""The learning-curve PNG both training backends draw beside ``eval.csv``: greedy win rate against env steps."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Sequence

if TYPE_CHECKING:
    from .train import EvalResult


def plot_learning_curve(history: Sequence[EvalResult], path: Path, title: str) -> None:
    """Write the win rate of each evaluation against timesteps as a PNG at ``path``, a line per opponent in the
    order first met (nothing when empty)."""
    if not history:
        return
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(6, 3.5))
    opponents = list(dict.fromkeys(e.opponent for e in history))
    for opponent in opponents:
        met = [e for e in history if e.opponent == opponent]
        axes.plot([e.timesteps for e in met], [e.win_rate for e in met], marker="o", label=f"vs {opponent}")
    ylabel = "greedy win rate" + (f" vs {opponents[0]}" if len(opponents) == 1 else "")
    axes.set(xlabel="env steps", ylabel=ylabel, ylim=(0, 1), title=title)
    if len(opponents) > 1:
        axes.legend()
    axes.grid(alpha=0.3)
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)
