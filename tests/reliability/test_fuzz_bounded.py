"""A bounded run of the fuzz benchmark in the normal test suite: random and heuristic play, every check."""

from __future__ import annotations

import pytest

from ccg_env.engine import CardClass
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
    assert {h for p in plans for h in p.heroes} == {c.value for c in CardClass}  # every hero power is fuzzed
    assert fuzz.plan_game(17) == fuzz.plan_game(17)


def test_bounded_random_card_fuzz_is_clean(tmp_path):
    """Randomly generated card sets in random play: no crash, no hang, every invariant, loops ended as loops."""
    config = fuzz.FuzzConfig(exhaustive_rate=0.03, round_trip_rate=0.1, restore_rate=0.03, out_dir=str(tmp_path),
                             cards="random")
    totals = fuzz.run(actions=4_000, seed=70_000, workers=1, config=config, progress=False)
    assert totals.failures == [], fuzz.report(totals, 1.0)
    assert list(tmp_path.iterdir()) == []
    assert totals.actions >= 4_000 and "failed" not in totals.results
    assert totals.results["loop"] >= 3 and totals.checks["loops"] == totals.results["loop"]
    assert totals.results["win"] > 20
    assert 0 < totals.most_actions <= fuzz.MAX_ACTIONS_PER_ROOT + 1
    assert totals.checks["exhaustive"] > 50 and totals.checks["round_trips"] > 200


def test_random_cards_cover_the_whole_vocabulary():
    from ccg_env.engine.targeting import PREDICATES
    from ccg_env.engine.vocabulary import KEYWORD_NAMES, EffectKind, Selector, Trigger

    cards = [card for seed in range(60) for card in fuzz.random_card_file(seed)]
    abilities = [ability for card in cards for ability in card["abilities"]]
    assert {card["type"] for card in cards} == {"minion", "spell", "weapon", "secret"}
    assert {a["trigger"] for a in abilities} == {t.value for t in Trigger}
    assert {a["effect"] for a in abilities} == {e.value for e in EffectKind}
    assert {a.get("select") for a in abilities} - {None} == {s.value for s in Selector}
    assert {k for card in cards for k in card.get("keywords", [])} == set(KEYWORD_NAMES)
    marks = [a["mark"] for a in abilities if "mark" in a]
    assert {f for mark in marks for f in mark.get("filters", [])} == set(PREDICATES)
    assert any(card["id"] == "fuzz_phoenix" for card in cards)  # the loopers are in some sets


def test_random_card_sets_load_and_repeat_by_seed():
    first, again = fuzz.random_card_set(5), fuzz.random_card_set(5)
    assert sorted(first) == sorted(again) and "fuzz_0" in first and "wisp" in first
    decks = fuzz.random_decks(5, first)
    assert [len(deck.cards) for deck in decks] == [30, 30]
    assert fuzz.plan_game(8, "random").new_game().to_json() == fuzz.plan_game(8, "random").new_game().to_json()


def test_bounded_draft_fuzz_is_clean(tmp_path):
    """Random drafts (every pick checked, sampled picks tried id by id) then random battles with the drafted decks."""
    config = fuzz.FuzzConfig(exhaustive_rate=0.03, round_trip_rate=0.1, restore_rate=0.03, out_dir=str(tmp_path),
                             mode="draft")
    totals = fuzz.run(actions=4_000, seed=50_000, workers=1, config=config, progress=False)
    assert totals.failures == [], fuzz.report(totals, 1.0)
    assert list(tmp_path.iterdir()) == []
    assert totals.deck_pairs == {("draft", "draft")} and "failed" not in totals.results
    assert totals.checks["draft_picks"] == 60 * totals.games and totals.checks["draft_exhaustive"] > 20
    assert totals.actions > totals.checks["draft_picks"]  # the battles' actions count too


def test_draft_checks_can_fail():
    from ccg_env.env.core import EnvCore

    core = EnvCore(mode="draft")
    game = core.new_game(3)
    fuzz.check_offer(game, core)
    fuzz.check_every_pick(game, core)
    side = game.draft.sides[0]
    side.counts[side.offer[0]] = core.rules.max_copies  # as if the offer ignored the copy limit
    with pytest.raises(fuzz.FuzzFailure, match="copy limit"):
        fuzz.check_offer(game, core)
    side.counts.clear()
    side.offer = (side.offer[0], side.offer[0], side.offer[1])
    with pytest.raises(fuzz.FuzzFailure, match="distinct"):
        fuzz.check_offer(game, core)


def test_a_draft_failure_file_replays_the_draft_and_the_battle(tmp_path):
    plan = fuzz.plan_game(12, mode="draft")
    config = fuzz.FuzzConfig(out_dir=str(tmp_path), mode="draft")
    taken: list = []
    game, _ = fuzz.play(plan, config, taken)
    path = fuzz.write_failure(plan, taken[:25], "test", config)
    replayed = fuzz.replay(path)
    again = plan.new_game(fuzz.fuzz_draft(plan, config)[0])
    for choice in taken[:25]:
        again.apply(choice)
    assert replayed.to_json() == again.to_json()
