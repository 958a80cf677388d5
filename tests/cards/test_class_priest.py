"""Scenario tests for configs/cards/class_priest.yaml: healing, health buffs, removal and hero damage."""

from __future__ import annotations

import pytest

from .helpers import ENEMY, ME, board, covers, hero, ids, make_game, minion, play, play_targets


@covers("holy_smite")
def test_holy_smite_deals_two_damage():
    game = make_game({"hand": ["holy_smite"]}, {"battlefield": ["river_crocolisk"]})
    play(game, "holy_smite", minion(game, ENEMY))
    assert board(game, ENEMY) == [("river_crocolisk", 2, 1)]


@covers("flash_heal")
def test_flash_heal_restores_five_never_above_maximum():
    game = make_game({"hand": ["flash_heal", "flash_heal"], "health": 22,
                      "battlefield": [{"card": "chillwind_yeti", "health": 3}]})
    play(game, "flash_heal", hero(game, ME))
    play(game, "flash_heal", minion(game, ME))
    assert hero(game, ME).health == 27 and board(game, ME) == [("chillwind_yeti", 4, 5)]


@covers("kul_tiran_chaplain")
def test_kul_tiran_chaplain_gives_a_friendly_minion_two_health():
    game = make_game({"hand": ["kul_tiran_chaplain"], "battlefield": ["wisp"]}, {"battlefield": ["wisp"]})
    assert play_targets(game, "kul_tiran_chaplain") == [None, minion(game, ME).uid]
    play(game, "kul_tiran_chaplain", minion(game, ME))
    assert board(game, ME) == [("wisp", 1, 3), ("kul_tiran_chaplain", 2, 3)]
    assert minion(game, ME).max_health == 3


@covers("mind_blast")
def test_mind_blast_hits_the_enemy_hero_for_five():
    game = make_game({"hand": ["mind_blast"]}, {"battlefield": ["wisp"]})
    play(game, "mind_blast")
    assert hero(game, ENEMY).health == 25 and board(game, ENEMY) == [("wisp", 1, 1)]


@covers("spirit_lash")
def test_spirit_lash_hits_every_minion_and_heals_your_hero_for_the_damage():
    game = make_game({"hand": ["spirit_lash"], "health": 20, "battlefield": ["chillwind_yeti"]},
                     {"battlefield": ["wisp", "river_crocolisk"]})
    play(game, "spirit_lash")
    assert board(game, ME) == [("chillwind_yeti", 4, 4)] and board(game, ENEMY) == [("river_crocolisk", 2, 2)]
    assert hero(game, ME).health == 23


@covers("dark_cultist")
def test_dark_cultist_gives_a_friendly_minion_three_health_when_it_dies():
    game = make_game({"battlefield": ["dark_cultist", "wisp"]}, {"hand": ["assassinate"]}, current=ENEMY)
    play(game, "assassinate", minion(game, ME))
    assert board(game, ME) == [("wisp", 1, 4)]


@covers("shadow_word_death")
def test_shadow_word_death_destroys_only_a_minion_with_three_or_more_attack():
    game = make_game({"hand": ["shadow_word_death"], "battlefield": ["river_crocolisk"]},
                     {"battlefield": ["wisp", "bloodfen_raptor"]})
    raptor = minion(game, ENEMY, 1)
    assert play_targets(game, "shadow_word_death") == [raptor.uid]
    play(game, "shadow_word_death", raptor)
    assert board(game, ENEMY) == [("wisp", 1, 1)] and ids(game.player(ENEMY).graveyard) == ["bloodfen_raptor"]


@covers("temple_enforcer")
def test_temple_enforcer_gives_a_friendly_minion_three_health():
    game = make_game({"hand": ["temple_enforcer"], "battlefield": ["river_crocolisk"]})
    play(game, "temple_enforcer", minion(game, ME))
    assert board(game, ME) == [("river_crocolisk", 2, 6), ("temple_enforcer", 6, 6)]


@covers("holy_fire")
@pytest.mark.parametrize("target", ["hero", "minion"])
def test_holy_fire_deals_five_and_heals_your_hero_five(target):
    game = make_game({"hand": ["holy_fire"], "health": 10}, {"battlefield": ["chillwind_yeti"]})
    play(game, "holy_fire", hero(game, ENEMY) if target == "hero" else minion(game, ENEMY))
    assert hero(game, ME).health == 15
    assert (hero(game, ENEMY).health, board(game, ENEMY)) == (
        (25, [("chillwind_yeti", 4, 5)]) if target == "hero" else (30, []))


@covers("holy_fire")
def test_holy_fire_on_your_own_hero_at_five_health_kills_it_before_the_heal():
    """A character brought to 0 health is not healed back by what resolves next (the heal finds it dead)."""
    game = make_game({"hand": ["holy_fire"], "health": 5})
    play(game, "holy_fire", hero(game, ME))
    assert hero(game, ME).health == 0
    assert game.is_over and game.winner == ENEMY
