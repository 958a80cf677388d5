"""Plots of a tournament's splits: A's win rate by seat (bars with 95% intervals) and deck against deck (heat maps)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from .arena import TournamentResult


def seat_split_figure(result: TournamentResult) -> Figure:
    """Per pair, bars of A's win rate overall, moving first and moving second, with 95% Wilson intervals."""
    from matplotlib.figure import Figure

    pairs = result.pairs()
    figure = Figure(figsize=(2.0 + 2.2 * len(pairs), 3.6))
    ax = figure.add_subplot()
    bars = (("overall", "", "tab:gray"), ("A moves first", "_a_first", "tab:blue"),
            ("A moves second", "_a_second", "tab:orange"))
    for offset, (label, suffix, colour) in enumerate(bars):
        rates = [_value(row[f"win_rate{suffix or '_a'}"]) for row in pairs]
        errors = [[_below(r, row[f"ci_low{suffix}"]) for r, row in zip(rates, pairs)],
                  [_above(r, row[f"ci_high{suffix}"]) for r, row in zip(rates, pairs)]]
        ax.bar([i + (offset - 1) * 0.27 for i in range(len(pairs))], rates, 0.27, yerr=errors, capsize=3,
               label=label, color=colour)
    ax.axhline(0.5, color="black", linewidth=0.6, linestyle=":")
    ax.set_xticks(range(len(pairs)), [f"{row['agent_a']}\nvs {row['agent_b']}" for row in pairs], fontsize=8)
    ax.set(ylim=(0, 1), ylabel="A's win rate [95% CI]", title="win rate of agent A by seat (seat 0 moves first)")
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    return figure


def deck_matrix_figure(result: TournamentResult, involving: str | None = None) -> Figure:
    """Per pair, a heat map of A's win rate with A's deck (rows) against B's deck (columns); cells show n games.

    ``involving`` keeps only the pairs with that agent (say the learned one: one panel per opponent).
    """
    from matplotlib.figure import Figure

    decks, rows = result.decks, result.matchups()
    n, size = len(decks), len(decks) ** 2
    panels = [rows[start:start + size] for start in range(0, len(rows), size)]
    if involving is not None:
        if involving not in result.agents:
            raise ValueError(f"deck_matrix_figure: no agent {involving!r} in this tournament ({result.agents})")
        panels = [cells for cells in panels if involving in (cells[0]["agent_a"], cells[0]["agent_b"])]
    figure = Figure(figsize=(1.2 + (1.0 + 0.75 * n) * len(panels), 1.6 + 0.75 * n), layout="constrained")
    image = None
    for number, cells in enumerate(panels):
        ax = figure.add_subplot(1, len(panels), number + 1)
        grid = [[_value(cells[i * n + j]["win_rate_a"]) for j in range(n)] for i in range(n)]
        image = ax.imshow(grid, vmin=0.0, vmax=1.0, cmap="RdYlGn")
        for index, cell in enumerate(cells):
            if cell["games"]:
                ax.text(index % n, index // n, f"{cell['win_rate_a']:.2f}\nn={cell['games']}", ha="center",
                        va="center", fontsize=6)
        ax.set_xticks(range(n), decks, rotation=45, ha="right", fontsize=7)
        ax.set_yticks(range(n), decks, fontsize=7)
        ax.set(xlabel="B's deck", ylabel="A's deck", title=f"A = {cells[0]['agent_a']}\nB = {cells[0]['agent_b']}")
    if image is not None:
        figure.colorbar(image, ax=figure.axes, fraction=0.03, label="A's win rate (cells: rate, games)")
    return figure


def _value(rate: Any) -> float:
    return float("nan") if rate is None else float(rate)


def _below(rate: float, low: float) -> float:
    return 0.0 if math.isnan(rate) else max(0.0, rate - low)


def _above(rate: float, high: float) -> float:
    return 0.0 if math.isnan(rate) else max(0.0, high - rate)
