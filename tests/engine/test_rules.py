"""Rules from mappings and the turn limit given to a game: bounds and the names errors give."""

from __future__ import annotations

import pytest

from ccg_env.engine import DataError, Rules
from ccg_env.engine.game_setup import resolve_rules


def test_rules_read_from_a_mapping_without_a_source_are_named_rules_in_errors():
    with pytest.raises(DataError, match=r"^<rules>, field 'hero_health': must be between 1 and 1000, got 0$"):
        Rules.from_dict({"hero_health": 0})


def test_a_turn_limit_of_one_is_the_smallest_allowed():
    assert resolve_rules(None, 1).turn_limit == 1
    with pytest.raises(ValueError, match=r"^turn_limit: expected a positive integer, got 0$"):
        resolve_rules(None, 0)


@pytest.mark.parametrize("hand", ["opening_hand_first", "opening_hand_second"])
def test_an_opening_hand_may_fill_the_hand_but_not_exceed_it(hand):
    assert getattr(Rules.from_dict({hand: 5, "max_hand": 5}), hand) == 5
    with pytest.raises(DataError, match=r"^<rules>, field 'max_hand': opening hands cannot exceed max_hand$"):
        Rules.from_dict({hand: 6, "max_hand": 5})
