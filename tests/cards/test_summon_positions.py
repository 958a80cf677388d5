"""Rule: summoned minions take Hearthstone's positions on the battlefield.

A deathrattle summons where its minion stood when it died: just left of the nearest minion that stood to its right
and lived, or at the right end if none did (so minions dying beside it do not shift its place). A minion in play summons beside itself, several copies
alternating right, left, right... (Onyxia's whelps fill both sides of her); a battlecry's summon goes to the right
of the played minion. A spell, a secret, or a minion summoning for the other side summons at the right end. A
played minion enters at the right end. The battlefield cap (7) still holds: summons past it are refused.
"""

from __future__ import annotations

from .helpers import ENEMY, ME, attack, end_turn, ids, make_game, minion, play


def test_a_deathrattle_token_appears_where_the_dead_minion_stood():
    game = make_game({"battlefield": ["wisp", "harvest_golem", "river_crocolisk"]},
                     {"battlefield": ["chillwind_yeti"]})
    attack(game, minion(game, ME, 1), minion(game, ENEMY))
    assert ids(game.player(ME).battlefield) == ["wisp", "damaged_golem", "river_crocolisk"]


def test_a_deathrattle_token_at_the_left_end_stays_at_the_left_end():
    game = make_game({"hand": ["fireball"]},
                     {"battlefield": ["harvest_golem", "wisp", "river_crocolisk"]})
    play(game, "fireball", minion(game, ENEMY, 0))
    assert ids(game.player(ENEMY).battlefield) == ["damaged_golem", "wisp", "river_crocolisk"]


def test_simultaneous_deaths_each_leave_their_token_in_their_own_place():
    """Hellfire kills two golems at both ends of a board whose middle minion survives."""
    game = make_game({"hand": ["hellfire"]},
                     {"battlefield": ["harvest_golem", "chillwind_yeti", "harvest_golem"]})
    play(game, "hellfire")
    assert ids(game.player(ENEMY).battlefield) == ["damaged_golem", "chillwind_yeti", "damaged_golem"]


def test_a_token_takes_its_place_when_its_left_neighbour_dies_too():
    """Consecration kills a wisp and the golem right of it: the golem's token stands left of the yeti, as the golem
    did (not at the golem's old index 1, which after the wisp's removal is right of the yeti)."""
    game = make_game({"hand": ["consecration"]},
                     {"battlefield": ["wisp", {"card": "harvest_golem", "health": 2}, "chillwind_yeti"]})
    play(game, "consecration")
    assert ids(game.player(ENEMY).battlefield) == ["damaged_golem", "chillwind_yeti"]


def test_adjacent_golems_dying_together_leave_both_tokens_in_their_places():
    game = make_game({"hand": ["hellfire"]},
                     {"battlefield": ["chillwind_yeti", "harvest_golem", "harvest_golem", "chillwind_yeti"]})
    play(game, "hellfire")
    enemy = game.player(ENEMY).battlefield
    assert ids(enemy) == ["chillwind_yeti", "damaged_golem", "damaged_golem", "chillwind_yeti"]


def test_onyxias_whelps_alternate_right_and_left_of_her():
    game = make_game({"hand": ["onyxia"]})
    play(game, "onyxia")
    assert ids(game.player(ME).battlefield) == ["whelp"] * 3 + ["onyxia"] + ["whelp"] * 3
    uids = [c.uid for c in game.player(ME).battlefield]
    first, second, third = sorted(uid for uid, i in zip(uids, ids(game.player(ME).battlefield)) if i == "whelp")[:3]
    assert uids.index(first) == 6 and uids.index(second) == 0 and uids.index(third) == 5  # right, left, right


def test_summons_past_the_battlefield_cap_are_refused():
    game = make_game({"hand": ["onyxia"], "battlefield": ["wisp"] * 5})
    play(game, "onyxia")
    assert ids(game.player(ME).battlefield) == ["wisp"] * 5 + ["onyxia", "whelp"]
    assert sum(1 for e in game.log if e.kind == "Summon" and e.cancelled) == 5


def test_a_battlecry_summon_goes_to_the_right_of_the_played_minion():
    """Illidan's flame goes right of Illidan; then the Tidehunter's scout goes right of the Tidehunter."""
    game = make_game({"hand": ["murloc_tidehunter"], "battlefield": ["illidan_stormrage", "wisp"]})
    play(game, "murloc_tidehunter")
    assert ids(game.player(ME).battlefield) == ["illidan_stormrage", "flame_of_azzinoth", "wisp",
                                               "murloc_tidehunter", "murloc_scout"]


def test_a_minions_turn_end_summon_goes_to_its_right():
    game = make_game({"battlefield": ["imp_master", "wisp"]})
    end_turn(game)
    assert ids(game.player(ME).battlefield) == ["imp_master", "imp", "wisp"]


def test_a_spells_summons_go_to_the_right_end():
    game = make_game({"hand": ["mirror_image"], "battlefield": ["wisp", "river_crocolisk"]})
    play(game, "mirror_image")
    assert ids(game.player(ME).battlefield) == ["wisp", "river_crocolisk", "mirror_image_minion",
                                               "mirror_image_minion"]


def test_a_secrets_summons_go_to_the_right_end():
    game = make_game({"hand": ["arcane_intellect"], "deck": ["wisp"] * 3},
                     {"battlefield": ["wisp", "river_crocolisk"], "secrets": ["cat_trick"]})
    play(game, "arcane_intellect")
    assert ids(game.player(ENEMY).battlefield) == ["wisp", "river_crocolisk", "jungle_panther"]


def test_a_minion_summoning_for_the_other_side_summons_at_its_right_end():
    """Leeroy's whelps go to the enemy's right end (Leeroy is not on that side to stand beside)."""
    game = make_game({"hand": ["leeroy_jenkins"]}, {"battlefield": ["wisp", "river_crocolisk"]})
    play(game, "leeroy_jenkins")
    assert ids(game.player(ENEMY).battlefield) == ["wisp", "river_crocolisk", "whelp", "whelp"]
