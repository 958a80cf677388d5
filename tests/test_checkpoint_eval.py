"""`ccg-env evaluate`: a run's checkpoints re-evaluated on the arena's deals, the CSV and plot it writes, its errors."""

import csv
import importlib.util
import re

import pytest
import yaml

from ccg_env.cli import main as cli_main
from ccg_env.training.checkpoint_eval import CHECKPOINT_EVAL_CSV, CHECKPOINT_EVAL_PNG, evaluate_checkpoints
from ccg_env.training.train import load_config, train


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    """A smoke run with checkpoints at 1,024 and 2,048 steps, evaluated against the heuristic and a small search."""
    runs = tmp_path_factory.mktemp("runs")
    train(load_config("smoke", {"runs_dir": str(runs), "opponent": "heuristic", "decks": "random", "seat": "random",
                                "eval_opponents": [{"name": "search", "iterations": 2}]}))
    return runs / "smoke"


def test_on_training_s_own_deals_it_reproduces_the_training_evaluations(run_dir):
    config = load_config(run_dir / "config.yaml")
    results = evaluate_checkpoints(run_dir, games=config.eval_games, seed=config.eval_seed, envs=config.eval_envs)
    assert [r.timesteps for r in results] == [1024, 2048]
    with open(run_dir / "eval.csv", newline="") as file:
        rows = list(csv.DictReader(file))
    trained = {int(row["timesteps"]): int(row["wins"]) for row in rows if row["opponent"] == "heuristic"}
    assert {r.timesteps: r.wins for r in results} == trained
    assert all(r.games == config.eval_games and r.training_games == config.eval_games for r in results)


def test_an_opponent_with_options_is_labelled_and_replayed_as_training_s_eval_opponents(run_dir):
    config = load_config(run_dir / "config.yaml")
    results = evaluate_checkpoints(run_dir, games=config.eval_games, seed=config.eval_seed, envs=config.eval_envs,
                                   opponent={"name": "search", "iterations": 2})
    with open(run_dir / "eval.csv", newline="") as file:
        trained = {int(row["timesteps"]): int(row["wins"]) for row in csv.DictReader(file)
                   if row["opponent"] == "search(iterations=2)"}
    assert len(trained) == 2 and {r.timesteps: r.training_wins for r in results} == trained
    assert {r.timesteps: r.wins for r in results} == trained and results[0].opponent == "search(iterations=2)"


def test_the_command_takes_an_opponent_spec_and_names_a_bad_one(run_dir, capsys):
    assert cli_main(["evaluate", str(run_dir), "--games", "14", "--opponent", "search:iterations=2",
                     "--no-progress"]) == 0
    assert "against search(iterations=2) over 14 games" in capsys.readouterr().out
    for spec, message in (("search:depth=3", "the opponent: .*depth"), ("league", "the opponent: 'league'"),
                          ("best", "the opponent must be an agent; 'best'")):
        with pytest.raises(SystemExit) as stop:
            cli_main(["evaluate", str(run_dir), "--opponent", spec, "--no-progress"])
        assert stop.value.code == 2
        assert re.search(message, capsys.readouterr().err), spec


def test_it_writes_one_row_per_checkpoint_with_an_interval_and_a_plot(run_dir):
    seen = []
    results = evaluate_checkpoints(run_dir, games=14, seed=5, envs=14, on_result=lambda r, n: seen.append(n))
    assert seen == [2, 2]
    with open(run_dir / CHECKPOINT_EVAL_CSV, newline="") as file:
        rows = list(csv.DictReader(file))
    assert [int(row["timesteps"]) for row in rows] == [1024, 2048]
    for row, result in zip(rows, results):
        assert int(row["games"]) == 14 and int(row["wins"]) == result.wins
        assert float(row["ci_low"]) <= float(row["win_rate"]) <= float(row["ci_high"])
        assert float(row["training_minutes"]) > 0 and row["opponent"] == "heuristic"
    assert (run_dir / CHECKPOINT_EVAL_PNG).read_bytes().startswith(b"\x89PNG")


def test_the_command_prints_each_checkpoint_and_the_best(run_dir, capsys):
    assert cli_main(["evaluate", str(run_dir), "--games", "14", "--opponent", "random", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "1,024 steps" in out and "2,048 steps" in out and "against random over 14 games" in out


def test_each_opponent_s_results_go_to_files_of_their_own(run_dir, capsys):
    def opponents(name):
        with open(run_dir / name, newline="") as file:
            return {row["opponent"] for row in csv.DictReader(file)}

    evaluate_checkpoints(run_dir, games=14, seed=5, envs=14)
    for spec, label, name in (("random", "random", "checkpoint_eval_random"),
                              ("search:iterations=2", "search(iterations=2)", "checkpoint_eval_search_iterations_2")):
        assert cli_main(["evaluate", str(run_dir), "--games", "14", "--opponent", spec, "--no-progress"]) == 0
        assert f"wrote {run_dir / name}.csv and {name}.png beside it" in capsys.readouterr().out
        assert opponents(f"{name}.csv") == {label}
        assert (run_dir / f"{name}.png").read_bytes().startswith(b"\x89PNG")
    assert opponents("checkpoint_eval_random.csv") == {"random"}  # not overwritten by the second opponent
    assert opponents(CHECKPOINT_EVAL_CSV) == {"heuristic"}        # nor the run's own evaluation opponent's
    assert cli_main(["evaluate", str(run_dir), "--games", "14", "--opponent", "heuristic", "--no-progress"]) == 0
    assert f"wrote {run_dir / CHECKPOINT_EVAL_CSV} and {CHECKPOINT_EVAL_PNG} beside it" in capsys.readouterr().out


def test_bad_run_folders_are_refused_with_the_reason(tmp_path, run_dir):
    with pytest.raises(ValueError, match="not a training run folder"):
        evaluate_checkpoints(tmp_path)
    (tmp_path / "config.yaml").write_text((run_dir / "config.yaml").read_text())
    with pytest.raises(ValueError, match="no checkpoints to evaluate"):
        evaluate_checkpoints(tmp_path)
    settings = yaml.safe_load((run_dir / "config.yaml").read_text())
    (tmp_path / "config.yaml").write_text(yaml.safe_dump({**settings, "backend": "rllib"}))
    (tmp_path / "checkpoints").mkdir()
    with pytest.raises(ValueError, match=r"no checkpoints to evaluate \(training writes checkpoints/step_<timesteps>"
                                         r"\.ccgrllib"):
        evaluate_checkpoints(tmp_path)  # an RLlib run's are policy files of its own format


@pytest.mark.skipif(importlib.util.find_spec("ray") is not None, reason="the rllib extra is installed here")
def test_an_rllib_run_without_the_rllib_extra_names_the_extra(tmp_path, run_dir, capsys):
    settings = yaml.safe_load((run_dir / "config.yaml").read_text())
    (tmp_path / "config.yaml").write_text(yaml.safe_dump({**settings, "backend": "rllib"}))
    (tmp_path / "checkpoints").mkdir()
    (tmp_path / "checkpoints" / "step_1024.ccgrllib").write_bytes(b"not read")
    assert cli_main(["evaluate", str(tmp_path), "--no-progress"]) == 2
    assert "the optional extra 'rllib'" in capsys.readouterr().err


def test_the_command_names_a_folder_that_is_not_a_run(tmp_path, capsys):
    with pytest.raises(SystemExit) as stop:
        cli_main(["evaluate", str(tmp_path / "missing"), "--no-progress"])
    assert stop.value.code == 2
    error = capsys.readouterr().err
    assert "ccg-env evaluate: error:" in error and "missing: not a training run folder" in error


def test_a_damaged_eval_csv_is_named_with_its_line(tmp_path, run_dir):
    import shutil

    copy = tmp_path / "run"
    shutil.copytree(run_dir, copy)
    rows = (copy / "eval.csv").read_text().splitlines()
    (copy / "eval.csv").write_text("\n".join([rows[0], rows[1].replace(rows[1].split(",")[0], "soon", 1)]) + "\n")
    with pytest.raises(ValueError, match=r"eval.csv, line 2: expected eval.csv's numbers"):
        evaluate_checkpoints(copy, games=2)


def test_the_summary_rounds_each_rate_once():
    from ccg_env.training.checkpoint_eval import CheckpointResult, summary

    result = CheckpointResult(4096, 0.0, "heuristic", {"win": 235, "loss": 157})  # 0.59948...: 0.5995 in the CSV
    first, best = summary([result]).splitlines()
    assert first.split()[2] == "0.599" and "steps, 0.599 against heuristic" in best
