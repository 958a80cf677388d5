"""The learning-curve PNG both training backends draw beside ``eval.csv``: greedy win rate against env steps."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Sequence

if TYPE_CHECKING:
    from .train import EvalResult


def plot_learning_curve(history: Sequence[EvalResult], path: Path, title: str) -> None:
    """Write the win rate of each evaluation against timesteps as a PNG at ``path`` (nothing when empty)."""
    if not history:
        return
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(6, 3.5))
    axes.plot([e.timesteps for e in history], [e.win_rate for e in history], marker="o")
    axes.set(xlabel="env steps", ylabel=f"greedy win rate vs {history[-1].opponent}", ylim=(0, 1), title=title)
    axes.grid(alpha=0.3)
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)
