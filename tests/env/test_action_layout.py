"""Rule: every action id has one meaning, the one the codec's layout table gives, and ``ActionLayout.describe``
says it in slot terms (the words that error messages, logs and the text render show), range by range: the first
and last id of each range, every target slot's name, and the ids just outside the action space.

Default rules (``H`` = 10, ``B`` = 7): ``T = 17`` target slots, ``1 + B = 8`` attackers and defenders; play ids
1..170, attack ids 171..234, hero power ids 235..251, mulligan ids 252..261, and in draft mode the picks 262..264.
"""

from __future__ import annotations

import pytest

from ccg_env.engine import Rules
from ccg_env.env.codec import ActionLayout

LAYOUT = ActionLayout.for_rules(Rules.load())
DRAFT_LAYOUT = ActionLayout.for_rules(Rules.load(), draft=True)

#: target slot -> its name: no target, own hero, own minions 0..6, enemy hero, enemy minions 0..6
TARGET_NAMES = ["no target", "own hero", *(f"own minion {i}" for i in range(7)), "enemy hero",
                *(f"enemy minion {i}" for i in range(7))]


def test_the_ranges_of_the_default_layout():
    assert (LAYOUT.target_slots, LAYOUT.attack_slots) == (17, 8)
    assert (LAYOUT.attack_offset, LAYOUT.hero_power_offset, LAYOUT.mulligan_offset) == (171, 235, 252)
    assert (LAYOUT.draft_offset, LAYOUT.size, DRAFT_LAYOUT.size) == (262, 262, 265)


@pytest.mark.parametrize("slot", range(17))
def test_every_target_slot_of_a_play_and_of_the_hero_power_has_its_name(slot):
    assert LAYOUT.describe(1 + slot) == f"play hand slot 0 at {TARGET_NAMES[slot]}"
    assert LAYOUT.describe(1 + 9 * 17 + slot) == f"play hand slot 9 at {TARGET_NAMES[slot]}"
    assert LAYOUT.describe(235 + slot) == f"use the hero power at {TARGET_NAMES[slot]}"


@pytest.mark.parametrize("action_id, meaning", [
    (0, "end turn"),
    (1, "play hand slot 0 at no target"),  # the first id of the play range
    (18, "play hand slot 1 at no target"),  # one hand slot is 17 ids wide
    (170, "play hand slot 9 at enemy minion 6"),  # the last play id
    (171, "attack with own hero at enemy hero"),  # the first attack id
    (178, "attack with own hero at enemy minion 6"),
    (179, "attack with own minion 0 at enemy hero"),
    (234, "attack with own minion 6 at enemy minion 6"),  # the last attack id
    (235, "use the hero power at no target"),
    (251, "use the hero power at enemy minion 6"),
    (252, "mulligan: put back hand slot 0"),
    (261, "mulligan: put back hand slot 9"),  # the last id of the battle layout
])
def test_describe_names_each_range_at_its_edges(action_id, meaning):
    assert LAYOUT.describe(action_id) == meaning
    assert DRAFT_LAYOUT.describe(action_id) == meaning  # the draft range comes after every battle range


def test_the_draft_picks_are_the_last_ids_and_only_in_draft_mode():
    assert [DRAFT_LAYOUT.describe(262 + k) for k in range(3)] == [f"draft: pick offered card {k}" for k in range(3)]
    assert DRAFT_LAYOUT.describe(265) == "out of range (0..264)"
    assert LAYOUT.describe(262) == "out of range (0..261)"  # no draft range in duel mode: 262 is outside


@pytest.mark.parametrize("outside", [-1, 262, 1000])
def test_ids_outside_the_action_space_are_described_as_out_of_range(outside):
    assert LAYOUT.describe(outside) == "out of range (0..261)"
