"""Draft agents: card value, the heuristic's picks by value and curve, random and composite drafters, the builder."""

import statistics

import numpy as np
import pytest
import yaml

from ccg_env.agents.card_value import CURVES, bucket, card_value, curve_need
from ccg_env.agents.draft import CLASS_CARDS, build_deck, deck_yaml, heuristic_pick
from ccg_env.agents.heuristic import HeuristicAgent
from ccg_env.agents.random_agent import RandomAgent
from ccg_env.engine import CardClass, CardSet, Rules, default_cards
from ccg_env.engine.decks import parse_deck
from ccg_env.engine.draft import Draft, DraftView
from ccg_env.agents.match import MatchRunner

CARDS, RULES = default_cards(), Rules.load()


def view_of(offer, picks=()):
    return DraftView(0, CardClass.MAGE, len(picks), tuple(CARDS[i] for i in offer), tuple(CARDS[i] for i in picks),
                     RULES, 235, CARDS)


@pytest.mark.parametrize("card_id, value", [
    ("bloodfen_raptor", 0.0),   # 3/2 for 2: exactly fair (2 * 2 + 1 = 5)
    ("chillwind_yeti", 0.0),    # 4/5 for 4
    ("wisp", 1.0),              # 1/1 for 0: power 2 against 1
    ("fireball", 0.0),          # 6 damage x 1.5 = 9 for 4
    ("arcane_intellect", -1.0),  # draw 2 x 3 = 6 for 3 (fair 7)
])
def test_card_value_is_power_minus_the_fair_power_of_the_cost(card_id, value):
    assert card_value(CARDS[card_id], CARDS) == pytest.approx(value)


def test_cost_buckets_and_curve_need():
    assert [bucket(c) for c in range(11)] == [0, 0, 1, 2, 3, 4, 5, 6, 6, 6, 6]
    curve = CURVES["curve"]
    assert sum(curve) == 30
    assert curve_need(curve, [], 2, 30, 0) == pytest.approx(6 / 30)
    assert curve_need(curve, [2] * 5, 2, 30, 5) == pytest.approx(6 * 6 / 30 - 5)


def test_heuristic_picks_the_best_value_and_fills_the_curve():
    assert heuristic_pick(view_of(["arcane_intellect", "wisp", "assassinate"])) == 1
    # equal values (0): with ten 2-drops picked, a 4-drop fills the curve better than another 2-drop
    assert heuristic_pick(view_of(["bloodfen_raptor", "chillwind_yeti"], ["river_crocolisk"] * 10)) == 1
    assert heuristic_pick(view_of(["chillwind_yeti", "bloodfen_raptor"])) == 1  # early: 2-drops lag first


def test_heuristic_agent_drafts_through_act_and_draft_pick():
    agent, view = HeuristicAgent(), view_of(["arcane_intellect", "wisp", "assassinate"])
    assert agent.draft_pick(view) == 1 and agent.act(None, np.ones(238, np.int8), view) == 236


def mean_value(decks):
    return statistics.mean(card_value(CARDS[i], CARDS) for deck in decks for i in deck.cards)


def test_heuristic_drafts_decks_of_higher_value_than_random_drafts():
    runner = MatchRunner(mode="draft")
    by_agent = {}
    for name, agent in (("heuristic", HeuristicAgent()), ("random", RandomAgent(seed=0))):
        decks = []
        for seed in range(4):
            decks.extend(runner.draft_game([agent, agent], seed).draft.decks())
        by_agent[name] = decks
    assert mean_value(by_agent["heuristic"]) > mean_value(by_agent["random"]) + 0.5


def test_random_agent_drafts_uniformly_from_the_mask():
    runner, agent, seen = MatchRunner(mode="draft"), RandomAgent(seed=3), set()
    game = runner.new_game(0)
    for _ in range(30):
        seen.add(runner.decide(game, agent).source)
        game.apply(game.legal_actions()[0])
    assert seen == {0, 1, 2}


@pytest.mark.parametrize("hero", list(CardClass))
@pytest.mark.parametrize("strategy", ["curve", "aggro", "control"])
def test_every_built_deck_validates(hero, strategy):
    deck = build_deck(CARDS, RULES, hero, strategy)
    loaded = parse_deck(yaml.safe_load(deck_yaml(deck)), CARDS, RULES, source="<built>")
    assert loaded.hero is hero and sorted(loaded.cards) == sorted(deck.cards) and len(deck.cards) == 30
    assert all(CARDS[i].card_class in (CardClass.NEUTRAL, hero) for i in deck.cards)


CLASS_HEROES = [hero for hero in CardClass if hero is not CardClass.NEUTRAL]


@pytest.mark.parametrize("hero", CLASS_HEROES)
@pytest.mark.parametrize("strategy", ["curve", "aggro", "control"])
def test_a_built_class_deck_holds_its_class_cards(hero, strategy):
    deck = build_deck(CARDS, RULES, hero, strategy, seed=3)
    assert sum(1 for i in deck.cards if CARDS[i].card_class is hero) >= CLASS_CARDS


def test_a_class_with_few_cards_gives_the_deck_all_it_has():
    few = [card for card in CARDS.values() if card.card_class is not CardClass.MAGE or card.id == "pyroblast"]
    deck = build_deck(CardSet({card.id: card for card in few}, ()), RULES, CardClass.MAGE, "aggro")
    assert deck.cards.count("pyroblast") == RULES.max_copies


def test_strategies_shape_the_curve_and_the_seed_varies_the_deck():
    mean_cost = {s: statistics.mean(CARDS[i].cost for i in build_deck(CARDS, RULES, CardClass.ROGUE, s).cards)
                 for s in ("aggro", "curve", "control")}
    assert mean_cost["aggro"] < mean_cost["curve"] < mean_cost["control"]
    assert build_deck(CARDS, RULES, CardClass.MAGE, seed=1) == build_deck(CARDS, RULES, CardClass.MAGE, seed=1)
    assert build_deck(CARDS, RULES, CardClass.MAGE, seed=1).cards != build_deck(CARDS, RULES, CardClass.MAGE).cards
    with pytest.raises(ValueError, match="strategy"):
        build_deck(CARDS, RULES, CardClass.MAGE, "tempo")
