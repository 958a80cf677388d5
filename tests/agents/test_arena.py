"""The arena: schedule, statistics, output files and their documented columns, errors on illegal actions."""

from __future__ import annotations

import csv
import json
import math

import pytest

import ccg_env.agents.report as report
from ccg_env.agents.arena import build_agent, parse_agent_spec, run_tournament, schedule
from ccg_env.agents.stats import bradley_terry, rating_against, wilson_interval
from ccg_env.engine import IllegalActionError


def test_wilson_interval_matches_known_values():
    low, high = wilson_interval(5, 10)
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)
    low, high = wilson_interval(0, 10)
    assert low == 0.0 and round(high, 4) == 0.2775
    assert wilson_interval(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError, match="within"):
        wilson_interval(11, 10)


def test_bradley_terry_recovers_odds_and_symmetry():
    even = bradley_terry([[0, 5], [5, 0]])
    assert even == pytest.approx([1500.0, 1500.0])
    three_to_one = bradley_terry([[0, 3], [1, 0]], prior_draws=0.0)
    assert three_to_one[0] - three_to_one[1] == pytest.approx(400 * math.log10(3), abs=1e-6)
    chain = bradley_terry([[0, 8, 10], [2, 0, 8], [0, 2, 0]])
    assert chain[0] > chain[1] > chain[2] and all(math.isfinite(r) for r in chain)


def test_rating_against_known_opponents_inverts_the_elo_odds():
    rating, low, high = rating_against([(1600.0, 75, 100)], prior_draws=0.0)
    assert rating == pytest.approx(1600 + 400 * math.log10(3), abs=1e-6)  # 3:1 odds
    assert low < rating < high and high - low == pytest.approx(2 * 1.959964 * 400 / math.log(10) / math.sqrt(18.75))
    assert rating_against([(1500.0, 5, 10), (1700.0, 5, 10)], prior_draws=0.0)[0] == pytest.approx(1600.0)
    assert rating_against([(1400.0, 10, 10)])[0] > 1400 + 400  # all won: finite, thanks to the prior draw
    more = rating_against([(1600.0, 750, 1000)], prior_draws=0.0)
    assert more[0] == pytest.approx(rating) and more[2] - more[1] < (high - low) / 3
    with pytest.raises(ValueError, match="at least one opponent"):
        rating_against([(1500.0, 0, 0)])
    with pytest.raises(ValueError, match="12 wins of 10 games"):
        rating_against([(1500.0, 12, 10)], prior_draws=0.0)


def test_schedule_swaps_seats_and_shares_deals_across_pairs():
    tasks = schedule(3, 4, seed=10)
    assert len(tasks) == 12
    first_pair = tasks[:4]
    assert [(t[1], t[2], t[3]) for t in first_pair] == [(0, 1, 10), (1, 0, 10), (0, 1, 11), (1, 0, 11)]
    assert [t[3] for t in tasks[4:8]] == [10, 10, 11, 11]


def test_parse_agent_spec_reads_typed_keyword_arguments():
    assert parse_agent_spec("search:iterations=16,horizon=2,time_limit=0.5,name=s") == \
        ("search", {"iterations": 16, "horizon": 2, "time_limit": 0.5, "name": "s"})
    assert parse_agent_spec("heuristic") == ("heuristic", {})
    with pytest.raises(ValueError, match="key=value"):
        parse_agent_spec("search:16")


def _header(path) -> list[str]:
    with open(path, newline="") as handle:
        return next(csv.reader(handle))


def test_arena_writes_files_with_the_documented_columns(tmp_path):
    result = run_tournament(["random", "heuristic", "search:iterations=4"], games_per_pair=4, seed=0, workers=1,
                            out_dir=str(tmp_path), progress=False)
    assert _header(tmp_path / "pairs.csv") == list(report.PAIR_COLUMNS)
    assert _header(tmp_path / "ratings.csv") == list(report.RATING_COLUMNS)
    assert _header(tmp_path / "games.csv") == list(report.GAME_COLUMNS)
    assert _header(tmp_path / "seats.csv") == list(report.SEAT_COLUMNS)
    assert _header(tmp_path / "decks.csv") == list(report.DECK_COLUMNS)
    assert _header(tmp_path / "matchups.csv") == list(report.MATCHUP_COLUMNS)
    for column in (*report.PAIR_COLUMNS, *report.RATING_COLUMNS, *report.GAME_COLUMNS, *report.SEAT_COLUMNS,
                   *report.DECK_COLUMNS, *report.MATCHUP_COLUMNS):
        assert f"``{column}``" in report.__doc__, f"column {column!r} is not documented in ccg_env/agents/report.py"
    assert {p.name for p in tmp_path.iterdir()} == set(report.OUTPUT_FILES)
    for name in report.OUTPUT_FILES:
        assert f"``{name}``" in report.__doc__, f"file {name!r} is not documented in ccg_env/agents/report.py"
    document = json.loads((tmp_path / "results.json").read_text())
    assert set(document) == {"env_version", "spec_hash", "config", "agents", "decks", "pairs", "seat_splits",
                             "deck_splits", "matchups", "ratings", "games"}
    assert len(document["games"]) == 12 and len(document["pairs"]) == 3 and len(document["seat_splits"]) == 6
    assert document["decks"] == document["config"]["decks"] == ["aggro", "buffs", "control", "midrange", "ramp",
                                                                 "spells", "traps"]
    assert {(g["deck0"], g["deck1"]) for g in document["games"]} == {("aggro", "aggro"), ("buffs", "buffs")}
    for name in ("winrate_matrix.png", "seat_split.png", "deck_matrix.png"):
        assert (tmp_path / name).read_bytes()[:4] == b"\x89PNG"
    ratings = {row["agent"]: row["rating"] for row in result.agent_rows()}
    assert ratings["random"] < ratings["heuristic"]
    assert "A win rate [95% CI]" in result.table()


def test_pair_rows_count_wins_draws_and_intervals():
    result = run_tournament(["heuristic", "random"], games_per_pair=6, seed=0, workers=1, progress=False)
    row = result.pairs()[0]
    assert row["wins_a"] + row["wins_b"] + row["draws"] == row["games"] == 6
    assert row["ci_low"] <= row["win_rate_a"] <= row["ci_high"]
    assert row["avg_decisions"] > row["avg_turns"] > 0


def test_results_do_not_depend_on_the_number_of_workers():
    spec = ["random", "heuristic", "search:iterations=4"]
    one = run_tournament(spec, games_per_pair=4, seed=3, workers=1, progress=False)
    two = run_tournament(spec, games_per_pair=4, seed=3, workers=2, progress=False)
    assert one.games == two.games


def test_an_illegal_action_raises_naming_the_agent():
    def always_attacks(observation, mask, view):
        return len(mask) - 1

    with pytest.raises(IllegalActionError, match="always_attacks.*forbids"):
        run_tournament([always_attacks, "random"], games_per_pair=2, workers=1, progress=False)


def test_the_table_keeps_a_gap_after_a_long_agent_name():
    long_name = "learned:path=ccg_env/models/ppo_vs_heuristic.ccgmodel,name=a_rather_long_learned_agent_name"
    result = run_tournament(["random", long_name, "heuristic"], games_per_pair=2, workers=1, progress=False)
    lines = result.table().splitlines()
    assert any(line.startswith("a_rather_long_learned_agent_name  heuristic ") for line in lines)  # pairs, seats, decks
    assert len({len(line.split()) for line in lines[1:4]}) == 1  # every pair line splits into the same columns
    assert any(line.split()[1:3] == ["a_rather_long_learned_agent_name", str(round(result.ratings()[
        "a_rather_long_learned_agent_name"]))] for line in lines)  # the ratings table


def test_bad_tournaments_are_refused():
    with pytest.raises(ValueError, match="at least two agents"):
        run_tournament(["random"], games_per_pair=2)
    with pytest.raises(ValueError, match="unknown agent 'nobody'"):
        run_tournament(["nobody", "random"], games_per_pair=2, workers=1)


def test_duplicate_agent_names_are_made_unique():
    result = run_tournament(["random", "random"], games_per_pair=2, workers=1, progress=False)
    assert result.agents == ["random", "random#2"]


def test_a_spec_with_name_is_shown_by_that_name_and_others_by_the_whole_spec():
    assert build_agent("search:iterations=4,name=quick").name == "quick"
    assert build_agent("search:iterations=4").name == "search:iterations=4"
    assert build_agent("heuristic").name == "heuristic"
