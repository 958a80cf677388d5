"""The ladder: its schedule, decision timer, rating against the fixed pool, files, leaderboard and pool-file checks."""

from __future__ import annotations

import csv
import json
import time

import numpy as np
import pytest

import ccg_env.agents.ladder_report as ladder_report
from ccg_env.agents.arena import Task
from ccg_env.agents.ladder import (MEMBER_COLUMNS, TimedAgent, decision_summary, ladder_agent_spec, pair_schedule,
                                   run_ladder)
from ccg_env.agents.pool import load_pool
from ccg_env.agents.report import deal_points
from ccg_env.agents.stats import bootstrap_rating, rating_against

POOL = """\
pool: test
anchor: {member: heuristic, rating: 1000}
members:
  - {name: random, spec: random, rating: 600, low: 550, high: 650, games: 4, quick_games: 2}
  - {name: heuristic, spec: heuristic, rating: 1000, low: 1000, high: 1000, games: 6, quick_games: 2}
"""


@pytest.fixture
def pool_file(tmp_path):
    path = tmp_path / "pool.yaml"
    path.write_text(POOL)
    return path


def test_pair_schedule_deals_each_pair_from_both_seats_on_the_arenas_deals():
    tasks = pair_schedule([(0, 1, 3), (0, 2, 2)], seed=10, n_decks=2)
    assert tasks == [Task(0, 0, 1, 10, 0, 0), Task(1, 1, 0, 10, 0, 0), Task(2, 0, 1, 11, 1, 1),
                     Task(3, 0, 2, 10, 0, 0), Task(4, 2, 0, 10, 0, 0)]
    rounds = pair_schedule([(0, 1, 8)], seed=0, n_decks=2)  # deal j: the j-th ordered pair (0,0) (1,1) (0,1) (1,0)
    assert [(t.deck0, t.deck1) for t in rounds[::2]] == [(0, 0), (1, 1), (0, 1), (1, 0)]


class _Slow:
    name = "slow"
    can_draft = False

    def act(self, observation, action_mask, view=None):
        time.sleep(0.01)
        return int(np.flatnonzero(action_mask)[0])

    def reset(self, seed=None):
        self.seed = seed


def test_the_timed_agent_records_each_decision_and_passes_the_rest_through():
    agent = TimedAgent(_Slow())
    assert agent.act(np.zeros(3), np.array([0, 1, 1])) == 1 and agent.act(np.zeros(3), np.array([1, 0, 0])) == 0
    agent.reset(seed=5)
    assert agent.agent.seed == 5 and agent.can_draft is False and agent.name == "slow"
    agent.act(np.zeros(3), np.array([0, 0, 1]))
    times, warmup = agent.take_times()  # the first decision of the process is the warm-up, apart from the others
    assert len(warmup) == 1 and len(times) == 2 and all(0.01 <= t < 1.0 for t in times + warmup)
    assert agent.take_times() == ([], [])
    agent.act(np.zeros(3), np.array([0, 0, 1]))
    assert [len(part) for part in agent.take_times()] == [1, 0]  # one warm-up per process, not per game
    agent.name = "renamed"
    assert agent.agent.name == "renamed"


def test_decision_summary_counts_decisions_over_the_limit_and_keeps_the_warm_up_apart():
    summary = decision_summary([0.001, 0.002, 0.003, 2.0], 1.0, [30.0, 0.5])
    assert summary == {"decisions": 6, "mean_ms": pytest.approx(501.5), "median_ms": pytest.approx(2.5),
                       "p95_ms": pytest.approx(np.percentile([1, 2, 3, 2000], 95)), "max_ms": pytest.approx(2000.0),
                       "limit_s": 1.0, "over_limit": 1, "warmup_ms": [30000.0, 500.0]}
    assert decision_summary([1.0], 1.0)["over_limit"] == 0  # at the limit is not over it
    assert decision_summary([], 0.5, [2.0]) == {"decisions": 1, "mean_ms": None, "median_ms": None, "p95_ms": None,
                                                "max_ms": None, "limit_s": 0.5, "over_limit": 0, "warmup_ms": [2000.0]}


def test_a_ladder_run_rates_the_agent_against_the_fixed_pool_and_writes_its_documented_files(pool_file, tmp_path):
    out = tmp_path / "out"
    result = run_ladder("search:iterations=2", pool=pool_file, seed=3, workers=1, progress=False,
                        bootstrap_samples=50, out_dir=out)
    rows = result.members()
    assert [(row["member"], row["games"], row["deals"]) for row in rows] == [("random", 4, 2), ("heuristic", 6, 3)]
    assert [row["member_rating"] for row in rows] == [600.0, 1000.0]
    for row in rows:
        assert row["wins"] + row["losses"] + row["draws"] == row["games"]
        assert sum(row[f"deals_{c}"] for c in ("won_both", "split", "lost_both", "other")) == row["deals"]
    opponents = []
    for index, rating in ((1, 600.0), (2, 1000.0)):
        games = [i for i, seats in enumerate(result.games.seats) if index in seats]
        opponents.append((rating, [(sum(p), len(p)) for p in deal_points(result.games, 0, games)]))
    assert result.rating == bootstrap_rating(opponents, samples=50, seed=3)
    totals = [(r, sum(p for p, _ in deals), sum(g for _, g in deals)) for r, deals in opponents]
    assert result.rating[0] == rating_against(totals)[0]
    assert 0 < result.decision_times["decisions"] <= sum(g.decisions for g in result.games.games)
    assert {p.name for p in out.iterdir()} == set(ladder_report.LADDER_FILES)
    for name in (*ladder_report.LADDER_FILES, *MEMBER_COLUMNS):
        assert f"``{name}``" in ladder_report.__doc__, f"{name!r} is not documented in ccg_env/agents/ladder_report.py"
    with open(out / "members.csv", newline="") as handle:
        assert next(csv.reader(handle)) == list(MEMBER_COLUMNS)
    document = json.loads((out / "results.json").read_text())
    assert set(document) == {"agent", "rating", "members", "decision_times", "config", "pool", "environment", "games"}
    for key in (*document["rating"], *document["decision_times"], *document):
        assert f"``{key}``" in ladder_report.__doc__, f"results.json key {key!r} is not documented"
    assert document["config"]["games"] == {"random": 4, "heuristic": 6} and len(document["games"]) == 10
    assert (out / "ladder.png").read_bytes()[:4] == b"\x89PNG"
    text = (out / "ladder.txt").read_text()
    assert text.startswith(f"search:iterations=2: rating {result.rating[0]:.0f} ") and "heuristic = 1000" in text


def test_quick_and_games_choose_the_game_counts_and_a_clashing_name_is_marked(pool_file):
    quick = run_ladder("heuristic", pool=pool_file, quick=True, workers=1, progress=False, bootstrap_samples=5)
    assert quick.agent == "heuristic (candidate)" and quick.config["games"] == {"random": 2, "heuristic": 2}
    assert [row["member"] for row in quick.members()] == ["random", "heuristic"]
    two = run_ladder("random", pool=pool_file, games=2, workers=1, progress=False, bootstrap_samples=5)
    assert [row["games"] for row in two.members()] == [2, 2]
    with pytest.raises(ValueError, match="games: expected a whole number of at least 1, got 0"):
        run_ladder("random", pool=pool_file, games=0, progress=False)
    with pytest.raises(ValueError, match="time_limit: expected a positive number"):
        run_ladder("random", pool=pool_file, time_limit=0, progress=False)


def test_the_leaderboard_gets_a_header_once_and_each_row_at_the_end_of_its_table(pool_file, tmp_path):
    result = run_ladder("random", pool=pool_file, games=2, workers=1, progress=False, bootstrap_samples=5)
    board = tmp_path / "LEADERBOARD.md"
    board.write_text("# Leaderboard\n\nSome text.\n")
    first = ladder_report.append_leaderboard(result, board)
    ladder_report.append_leaderboard(result, board)
    lines = board.read_text().splitlines()
    header = "| " + " | ".join(ladder_report.LEADERBOARD_HEADER) + " |"
    assert lines[:4] == ["# Leaderboard", "", "Some text.", ""] and lines[4] == header and lines[6:] == [first] * 2
    assert first.startswith(f"| random (candidate) | {result.rating[0]:.0f} | [{result.rating[1]:.0f}, {result.rating[2]:.0f}]"
                            f" | 4 | default |")
    lines.append("")
    lines.append("Text after the table.")
    board.write_text("\n".join(lines) + "\n")
    ladder_report.append_leaderboard(result, board)
    assert board.read_text().splitlines()[6:] == [first] * 3 + ["", "Text after the table."]
    with pytest.raises(ValueError, match="is not a file"):
        ladder_report.append_leaderboard(result, tmp_path)


def test_a_model_file_is_the_learned_agents_spec():
    assert ladder_agent_spec("runs/x/model.ccgmodel") == "learned:path=runs/x/model.ccgmodel"
    assert ladder_agent_spec("policy.ccgrllib") == "learned:path=policy.ccgrllib"
    assert ladder_agent_spec("search:iterations=48") == "search:iterations=48"
    assert ladder_agent_spec("learned:path=m.ccgmodel") == "learned:path=m.ccgmodel"
    with pytest.raises(ValueError, match="a path with ',' or '='"):
        ladder_agent_spec("a,b.ccgmodel")


@pytest.mark.parametrize("text, message", [
    ("members: [1, 2", "not a YAML file"),
    ("- 1\n", "expected a mapping with 'members'"),
    ("anchor: {member: x, rating: 1}\nmembers: []\n", "field 'members' must be a list of 1 to 64"),
    (POOL.replace("member: heuristic", "member: nobody"), "field 'anchor' must be"),
    (POOL.replace("rating: 1000}", "rating: .nan}"), "field 'anchor.rating' must be a finite number"),
    (POOL.replace("low: 550", "low: 650.5"), r"members\[0\]: the interval \[650.5, 650.0\] does not hold"),
    (POOL.replace("games: 4,", "games: 0,"), r"members\[0\]: field 'games' must be a whole number from 1"),
    (POOL.replace("quick_games: 2}", "quick_games: true}", 1), r"members\[0\]: field 'quick_games' must be"),
    (POOL.replace("name: heuristic", "name: random"), r"members\[1\]: member name 'random' is given twice"),
    (POOL.replace("spec: random", "spec: 'learned:path=x.zip,trust=true'"), "asks to trust a model file"),
    (POOL.replace("spec: random", "spec: 'search:8'"), r"members\[0\]: agent spec 'search:8': expected key=value"),
    (POOL.replace("spec: random", "spec: ''"), "fields 'name' and 'spec' must be texts"),
    (POOL.replace("quick_games: 2}", "quick_games: 2, samples: [1, x]}", 1), r"members\[0\]: field 'samples' must be"),
    (POOL.replace("quick_games: 2}", "quick_games: 2, samples: 5}", 1), r"field 'samples' must be a list of at most"),
    (POOL.replace("quick_games: 2}", "quick_games: 2, samples: [1, 2]}", 1),
     "every member needs as many 'samples' as the others"),
    (POOL.replace("{name: random", "[random").replace("quick_games: 2}\n  - {name: h", "quick_games: 2]\n  - {name: h"),
     r"members\[0\]: expected a mapping"),
])
def test_a_bad_pool_file_is_refused_naming_the_file_and_field(tmp_path, text, message):
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    with pytest.raises(ValueError, match=message) as error:
        load_pool(path)
    assert str(path) in str(error.value)


def test_a_missing_or_huge_pool_file_is_refused(tmp_path):
    with pytest.raises(ValueError, match="cannot read it"):
        load_pool(tmp_path / "none.yaml")
    huge = tmp_path / "huge.yaml"
    huge.write_text("#" * 1_000_001)
    with pytest.raises(ValueError, match="larger than 1000000 bytes"):
        load_pool(huge)


def test_a_pool_file_round_trips_through_write_pool(pool_file, tmp_path):
    from ccg_env.agents.pool import write_pool

    pool = load_pool(pool_file)
    write_pool(pool, tmp_path / "again.yaml", ["a comment"])
    again = load_pool(tmp_path / "again.yaml")
    assert (again.members, again.anchor, again.anchor_rating, again.stamp) == \
        (pool.members, "heuristic", 1000.0, {"pool": "test"})
    assert (tmp_path / "again.yaml").read_text().startswith("# a comment\n")


def test_the_packaged_pool_holds_the_reference_members_anchored_at_the_heuristic():
    pool = load_pool()
    assert [m.name for m in pool.members] == ["random", "heuristic", "search-8", "search-48", "search-192", "learned"]
    assert (pool.anchor, pool.anchor_rating) == ("heuristic", 1000.0)
    assert {"pool", "env_version", "spec_hash", "package_version"} <= set(pool.stamp)
    assert {"games_per_pair", "games", "seed", "command", "seconds"} <= set(pool.fit)
    assert all(len(m.samples) == pool.fit["bootstrap_samples"] for m in pool.members)
    assert set(pool.members[1].samples) == {1000.0}  # the anchor is 1000 in every sample


def test_a_pool_with_samples_puts_its_own_uncertainty_into_the_ladders_interval(tmp_path):
    path = tmp_path / "pool.yaml"
    path.write_text(POOL.replace("quick_games: 2}", "quick_games: 2, samples: [560.0, 600.0, 640.0]}", 1)
                    .replace("quick_games: 2}\n", "quick_games: 2, samples: [1000.0, 1000.0, 1000.0]}\n"))
    pool = load_pool(path)
    assert pool.rating_samples() == [(560.0, 600.0, 640.0), (1000.0, 1000.0, 1000.0)]
    result = run_ladder("random", pool=pool, games=2, seed=3, workers=1, progress=False, bootstrap_samples=30)
    opponents = []
    for index, rating in ((1, 600.0), (2, 1000.0)):
        games = [i for i, seats in enumerate(result.games.seats) if index in seats]
        opponents.append((rating, [(sum(p), len(p)) for p in deal_points(result.games, 0, games)]))
    assert result.rating == bootstrap_rating(opponents, samples=30, seed=3, opponent_samples=pool.rating_samples())
    assert result.config["pool_uncertainty"] is True and "bootstrap over deals and the pool fit's samples" in \
        result.table()
    assert pool.to_dict()["members"][0]["samples"] == [560.0, 600.0, 640.0]
    plain = tmp_path / "plain.yaml"
    plain.write_text(POOL)  # the same pool without samples: its ratings held fixed
    fixed = run_ladder("random", pool=plain, games=2, seed=3, workers=1, progress=False, bootstrap_samples=30)
    assert fixed.rating[0] == result.rating[0] and fixed.config["pool_uncertainty"] is False
    assert fixed.rating[2] - fixed.rating[1] < result.rating[2] - result.rating[1]


def test_the_ladder_command_runs_quick_shrunk_against_the_packaged_pool(tmp_path, capsys):
    from ccg_env.cli import main

    out, board = tmp_path / "ladder", tmp_path / "LEADERBOARD.md"
    status = main(["ladder", "random", "--quick", "--games", "2", "--workers", "1", "--no-progress",
                   "--bootstrap-samples", "20", "--out-dir", str(out), "--leaderboard", str(board)])
    printed = capsys.readouterr().out
    assert status == 0 and printed.startswith("random (candidate): rating ")
    assert "heuristic = 1000" in printed and "search-192" in printed and "leaderboard row added" in printed
    assert {p.name for p in out.iterdir()} == set(ladder_report.LADDER_FILES)
    document = json.loads((out / "results.json").read_text())
    assert document["config"]["quick"] is True and set(document["config"]["games"].values()) == {2}
    assert board.read_text().splitlines()[-1].startswith("| random (candidate) | ")


@pytest.mark.parametrize("argv, message", [
    (["nobody"], "unknown agent 'nobody'"),
    (["random", "--out-dir", "{file}"], "--out-dir '{file}' is a file"),
    (["random", "--leaderboard", "{folder}"], "--leaderboard '{folder}' is a folder"),
    (["random", "--pool", "{folder}/none.yaml"], "cannot read it"),
])
def test_the_ladder_command_refuses_bad_input_in_one_line(tmp_path, capsys, argv, message):
    from ccg_env.cli import main

    (tmp_path / "a_file").write_text("x")
    names = {"file": str(tmp_path / "a_file"), "folder": str(tmp_path)}
    with pytest.raises(SystemExit) as exit_:
        main(["ladder", *(arg.format(**names) for arg in argv), "--games", "1", "--workers", "1", "--no-progress"])
    error = capsys.readouterr().err
    assert exit_.value.code == 2 and message.format(**names) in error and len(error.strip().splitlines()) == 1


def test_the_pool_fit_script_writes_a_pool_the_ladder_reads(tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parents[2] / "benchmarks" / "fit_pool.py"
    pool_path, out = tmp_path / "pool.yaml", tmp_path / "fit"
    done = subprocess.run([sys.executable, str(script), "--members", "random", "heuristic", "search-8", "--games", "4",
                           "--samples", "10", "--workers", "1", "--pool", str(pool_path), "--out-dir", str(out),
                           "--quick-games", "2"], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    pool = load_pool(pool_path)
    assert [(m.name, m.spec, m.games, m.quick_games) for m in pool.members] == [
        ("random", "random", 196, 2), ("heuristic", "heuristic", 196, 2), ("search-8", "search:iterations=8", 196, 2)]
    assert (pool.anchor, pool.anchor_rating, pool.members[1].rating) == ("heuristic", 1000.0, 1000.0)
    assert pool.fit["games"] == 12 and pool.fit["games_per_pair"] == 4 and "--members random" in pool.fit["command"]
    assert all(m.low <= m.rating <= m.high and len(m.samples) == 10 for m in pool.members)
    assert (out / "results.json").exists() and "pool written to" in done.stdout
    refused = subprocess.run([sys.executable, str(script), "--members", "random", "--anchor", "heuristic"],
                             capture_output=True, text=True, timeout=120)
    assert refused.returncode == 2 and "--anchor 'heuristic' is not a member (random)" in refused.stderr
