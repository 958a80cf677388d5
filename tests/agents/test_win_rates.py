"""Seeded strength checks (deterministic, not timing tests): heuristic >> random, search > heuristic.

Each runs whole arena cycles (every ordered pair of the 7 packaged decks from both seats, 98 games).
"""

from __future__ import annotations

from ccg_env.agents.arena import run_tournament


def _wins(result, agent: str) -> int:
    row = result.pairs()[0]
    return row["wins_a"] if row["agent_a"] == agent else row["wins_b"]


def test_heuristic_beats_random_in_at_least_90_percent_of_196_seeded_games():
    result = run_tournament(["heuristic", "random"], games_per_pair=196, seed=0, workers=2, progress=False)
    assert _wins(result, "heuristic") >= 177


def test_search_beats_heuristic_in_at_least_60_percent_of_98_seeded_games_at_its_default_budget():
    result = run_tournament(["search", "heuristic"], games_per_pair=98, seed=0, workers=2, progress=False)
    assert _wins(result, "search") >= 59
