"""eval.csv is appended to only when its columns and environment spec are this version's."""

import csv

import pytest

from ccg_env.env.versions import env_record
from ccg_env.training.run import EvalResult, _check_resumable, append_csv


def _result() -> EvalResult:
    return EvalResult(timesteps=10, seconds=1.5, opponent="random", outcomes={"win": 3, "loss": 1})


def test_rows_append_under_one_header(tmp_path):
    path = tmp_path / "eval.csv"
    append_csv(path, _result().row())
    append_csv(path, _result().row())
    rows = list(csv.DictReader(path.open()))
    assert len(rows) == 2 and rows[1]["wins"] == "3" and rows[1]["spec_hash"] == env_record()["spec_hash"]


def test_a_file_with_other_columns_is_refused_not_misaligned(tmp_path):
    path = tmp_path / "eval.csv"
    path.write_text("timesteps,seconds,opponent,games,wins\n10,1.0,random,4,3\n")
    with pytest.raises(ValueError, match="eval.csv: its columns .* are not the ones this version"):
        append_csv(path, _result().row())
    assert path.read_text().count("\n") == 2  # nothing written


def test_resuming_a_run_of_another_spec_is_refused_by_name(tmp_path):
    row = {**_result().row(), "env_version": "v1", "spec_hash": "0" * 64}
    with (tmp_path / "eval.csv").open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(row))
        writer.writeheader()
        writer.writerow(row)
    with pytest.raises(ValueError, match="cannot resume this run: it was made for environment v1 \\(spec hash 0000"):
        _check_resumable(tmp_path)


def test_resuming_a_run_written_before_versions_is_refused(tmp_path):
    (tmp_path / "eval.csv").write_text("timesteps,seconds,opponent\n10,1.0,random\n")
    with pytest.raises(ValueError, match="written by another version"):
        _check_resumable(tmp_path)


def test_resuming_this_versions_run_or_an_empty_folder_is_allowed(tmp_path):
    _check_resumable(tmp_path)
    append_csv(tmp_path / "eval.csv", _result().row())
    _check_resumable(tmp_path)
