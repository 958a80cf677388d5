"""A bounded run of the fuzz benchmark in the normal test suite: random and heuristic play, every check."""

from __future__ import annotations

from ccg_env.engine.decks import default_deck_paths

from .fuzzing import fuzz


def test_bounded_fuzz_run_is_clean(tmp_path):
    config = fuzz.FuzzConfig(exhaustive_rate=0.05, round_trip_rate=0.1, restore_rate=0.03, out_dir=str(tmp_path))
    totals = fuzz.run(actions=12_000, seed=90_000, workers=1, config=config, progress=False)
    assert totals.failures == [], fuzz.report(totals, 1.0)
    assert list(tmp_path.iterdir()) == []
    assert totals.actions >= 12_000 and totals.games >= 100
    assert sum(totals.results.values()) == totals.games and "failed" not in totals.results
    assert totals.policies["random"] > 40 and totals.policies[fuzz.heuristic_name()] > 40
    assert totals.rules["tight"] > 15
    decks_seen = {deck for pair in totals.deck_pairs for deck in pair}
    assert decks_seen == set(default_deck_paths())
    checks = totals.checks
    assert checks["exhaustive"] > 200 and checks["round_trips"] > 500 and checks["restores"] > 100


def test_every_game_plan_uses_packaged_decks_and_both_policies():
    plans = [fuzz.plan_game(seed) for seed in range(200)]
    assert {p.policy for p in plans} == {"random", "heuristic"} and {p.log for p in plans} == {True, False}
    assert {p.rules for p in plans} == set(fuzz.RULE_VARIANTS)
    assert {d for p in plans for d in p.decks} == set(default_deck_paths())
    assert fuzz.plan_game(17) == fuzz.plan_game(17)
