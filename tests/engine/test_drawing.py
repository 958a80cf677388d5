"""Drawing, fatigue and overdraw, exactly as the Drawing Exceptions lesson computes them."""

import pytest

from ccg_env.engine import Game
from ccg_env.engine.actions import DrawCards
from ccg_env.engine.systems.player import draw_split

from .helpers import board

# (amount, deck, hand, max_hand) -> (fatigue, overdraw, drawn)
SPLITS = [
    (3, 10, 0, 10, (0, 0, 3)),  # lesson: enough cards, no fatigue
    (4, 2, 0, 10, (2, 0, 2)),  # lesson: two short -> two fatigue
    (2, 1, 7, 10, (1, 0, 1)),  # lesson: amount 2, fatigue 1, room 3 -> no overdraw
    (1, 5, 10, 10, (0, 1, 0)),  # lesson: full hand -> one overdraw
    (3, 5, 9, 10, (0, 2, 1)),  # partly fits
    (3, 1, 10, 10, (2, 1, 0)),  # fatigue first, the one real card burns
    (0, 0, 0, 10, (0, 0, 0)),
    (5, 0, 3, 10, (5, 0, 0)),
]


@pytest.mark.parametrize("amount, deck, hand, max_hand, expected", SPLITS)
def test_draw_split_table(amount, deck, hand, max_hand, expected):
    assert draw_split(amount, deck, hand, max_hand) == expected


@pytest.mark.parametrize("amount, deck, hand, max_hand, expected", SPLITS)
def test_draw_action_moves_cards_and_counts_fatigue(amount, deck, hand, max_hand, expected):
    fatigue, overdraw, drawn = expected
    game = Game.from_scenario(board({"deck": ["wisp"] * deck, "hand": ["river_crocolisk"] * hand}))
    me = game.player(0)
    game.perform(DrawCards(0, amount))
    assert len(me.hand) == hand + drawn
    assert len(me.deck) == deck - drawn - overdraw
    assert [c.definition.id for c in me.graveyard] == ["wisp"] * overdraw
    assert me.fatigue == fatigue
    assert me.hero.health == 30 - sum(range(1, fatigue + 1))  # fatigue damage 1, 2, 3...
    logged = [e.kind for e in game.log]
    assert logged.count("Fatigue") == fatigue
    assert logged.count("Overdraw") == (1 if overdraw else 0)


def test_fatigue_keeps_growing_across_draws():
    game = Game.from_scenario(board())
    for _ in range(4):
        game.perform(DrawCards(0, 1))
    assert game.player(0).fatigue == 4
    assert game.player(0).hero.health == 30 - (1 + 2 + 3 + 4)


def test_drawing_into_a_full_hand_burns_the_card_not_loses_it():
    game = Game.from_scenario(board({"deck": ["wisp", "core_hound"], "hand": ["wisp"] * 10}))
    game.perform(DrawCards(0, 1))
    me = game.player(0)
    assert [c.definition.id for c in me.graveyard] == ["core_hound"]  # the top card (last in list) burns
    assert len(me.hand) == 10 and len(me.deck) == 1


def test_fatigue_can_end_the_game():
    game = Game.from_scenario(board({"health": 3}))
    game.perform(DrawCards(0, 2))  # fatigue 1 + 2 = 3
    assert game.is_over and game.winner == 1 and game.result.value == "win"
