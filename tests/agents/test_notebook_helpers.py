"""The notebook helpers that read a run's files: learning curves per opponent, ratings over time, the league."""

from __future__ import annotations

import csv

import pytest

from ccg_env.agents.notebook_helpers import (
    league_chances_figure, learning_curve_figure, rating_curve, rating_curve_figure, read_league_csv,
)
from ccg_env.agents.stats import rating_against


def eval_row(step: int, opponent: str, wins: int, games: int = 100) -> dict:
    return {"timesteps": float(step), "seconds": step / 1000, "opponent": opponent, "games": float(games),
            "wins": float(wins), "losses": float(games - wins), "draws": 0.0, "win_rate": wins / games}


ROWS = [eval_row(0, "heuristic", 40), eval_row(0, "search(iterations=8)", 30),
        eval_row(500, "heuristic", 60), eval_row(500, "search(iterations=8)", 45), eval_row(500, "best", 55)]


def test_learning_curve_draws_a_line_and_a_band_per_opponent():
    axes = learning_curve_figure(ROWS).axes[0]
    assert [line.get_label() for line in axes.lines if line.get_label().startswith("vs ")] == [
        "vs heuristic", "vs search(iterations=8)", "vs best"]
    assert len(axes.collections) == 3  # the Wilson bands
    heuristic = next(line for line in axes.lines if line.get_label() == "vs heuristic")
    assert list(heuristic.get_xdata()) == [0.0, 500.0] and list(heuristic.get_ydata()) == [0.4, 0.6]


def test_rating_curve_fits_each_step_against_the_anchored_opponents_only():
    anchors = {"heuristic": 1450.0, "search(iterations=8)": 1550.0}
    curve = rating_curve(ROWS, anchors)
    assert [point["timesteps"] for point in curve] == [0.0, 500.0]
    expected = rating_against([(1450.0, 60.0, 100), (1550.0, 45.0, 100)])  # "best" moves: left out
    assert (curve[1]["rating"], curve[1]["low"], curve[1]["high"]) == pytest.approx(expected)
    assert curve[0]["rating"] < curve[1]["rating"]
    assert rating_curve(ROWS, {"random": 1000.0}) == []  # no anchored opponent: no point
    axes = rating_curve_figure(curve, anchors).axes[0]
    assert list(axes.lines[0].get_ydata()) == [p["rating"] for p in curve]
    assert {line.get_label() for line in axes.lines[1:]} == {"heuristic (1450)", "search(iterations=8) (1550)"}


def test_league_csv_is_read_and_its_snapshots_plot_as_one_band(tmp_path):
    path = tmp_path / "league.csv"
    with path.open("w", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["timesteps", "member", "games", "learner_win_rate", "chance"])
        writer.writerows([[4096, "heuristic", 0, "", 0.8], [4096, "search", 0, "", 0.2],
                          [8192, "heuristic", 30, 0.5, 0.5], [8192, "search", 10, 0.3, 0.2],
                          [8192, "step_4096", 2, 1.0, 0.1], [8192, "checkpoint:old", 3, 0.0, 0.2]])
    rows = read_league_csv(path)
    assert rows[0] == {"timesteps": 4096, "member": "heuristic", "games": 0, "learner_win_rate": None, "chance": 0.8}
    assert rows[2]["learner_win_rate"] == 0.5 and rows[4]["games"] == 2
    axes = league_chances_figure(rows).axes[0]
    assert axes.get_legend_handles_labels()[1] == ["heuristic", "search", "snapshots"]
    bands = axes.collections  # stacked: each band's top edge is the running sum
    tops = [band.get_paths()[0].vertices[:, 1].max() for band in bands]
    assert tops == pytest.approx([0.8, 1.0, 1.0])


def test_read_eval_csv_reads_back_what_a_run_writes(tmp_path):
    from ccg_env.agents.notebook_helpers import read_eval_csv
    from ccg_env.env.versions import env_record
    from ccg_env.training.run import EvalResult, append_csv

    append_csv(tmp_path / "eval.csv", EvalResult(64, 2.5, "heuristic", {"win": 3, "loss": 1}).row())
    (row,) = read_eval_csv(tmp_path / "eval.csv")
    assert row["timesteps"] == 64.0 and row["wins"] == 3.0 and row["win_rate"] == 0.75
    assert row["opponent"] == "heuristic" and row["env_version"] == env_record()["env_version"]
