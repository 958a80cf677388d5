"""Scenario tests for configs/cards/class_mage.yaml: damage spells, freezing, and spell-triggered minions."""

from __future__ import annotations

import pytest

from ccg_env.engine import Keyword

from .helpers import (
    ENEMY, ME, attack, board, can_attack, covers, end_turn, has, hero, make_game, minion, play, play_targets,
)


@covers("ice_lance")
def test_ice_lance_deals_one_damage_and_freezes_the_target():
    game = make_game({"hand": ["ice_lance"]}, {"battlefield": ["chillwind_yeti"]})
    yeti = minion(game, ENEMY)
    play(game, "ice_lance", yeti)
    assert (yeti.health, yeti.is_frozen) == (4, True)
    end_turn(game)
    assert not can_attack(game, yeti)  # frozen: it loses its next attack


@covers("arcane_blast")
def test_arcane_blast_hits_only_minions_for_two():
    game = make_game({"hand": ["arcane_blast"]}, {"battlefield": ["bloodfen_raptor"]})
    raptor = minion(game, ENEMY)
    assert play_targets(game, "arcane_blast") == [raptor.uid]
    play(game, "arcane_blast", raptor)
    assert board(game, ENEMY) == [] and hero(game, ENEMY).health == 30


@covers("glacial_shard")
def test_glacial_shard_freezes_an_enemy_and_cannot_target_friends():
    game = make_game({"hand": ["glacial_shard"], "battlefield": ["wisp"]}, {"battlefield": ["chillwind_yeti"]})
    yeti = minion(game, ENEMY)
    assert play_targets(game, "glacial_shard") == [hero(game, ENEMY).uid, yeti.uid]
    play(game, "glacial_shard", yeti)
    assert yeti.is_frozen and board(game, ME) == [("wisp", 1, 1), ("glacial_shard", 2, 1)]


@covers("snowchugger")
def test_snowchugger_freezes_what_it_damages():
    game = make_game({"battlefield": ["snowchugger", "snowchugger"]}, {"battlefield": ["chillwind_yeti"]})
    first, second = game.player(ME).battlefield
    yeti = minion(game, ENEMY)
    assert has(first, Keyword.FREEZE)
    attack(game, first, hero(game, ENEMY))
    assert (hero(game, ENEMY).health, hero(game, ENEMY).is_frozen) == (28, True)
    attack(game, second, yeti)
    assert (yeti.health, yeti.is_frozen) == (3, True) and board(game, ME) == [("snowchugger", 2, 3)]


@covers("flamecannon")
@pytest.mark.parametrize("seed", range(4))
def test_flamecannon_hits_one_random_enemy_minion_for_four(seed):
    game = make_game({"hand": ["flamecannon"], "battlefield": ["chillwind_yeti"]},
                     {"battlefield": ["chillwind_yeti", "boulderfist_ogre"]}, seed=seed)
    play(game, "flamecannon")
    assert sorted(c.health for c in game.player(ENEMY).battlefield) in ([3, 5], [1, 7])
    assert hero(game, ENEMY).health == 30 and board(game, ME) == [("chillwind_yeti", 4, 5)]


@covers("flamewaker")
@pytest.mark.parametrize("seed", range(4))
def test_flamewaker_splits_two_damage_among_enemies_on_each_spell(seed):
    game = make_game({"hand": ["ice_lance", "arcane_intellect"], "battlefield": ["flamewaker"],
                      "deck": ["wisp"] * 4}, {"battlefield": ["boulderfist_ogre"]}, seed=seed)
    ogre = minion(game, ENEMY)
    play(game, "arcane_intellect")
    assert (30 - hero(game, ENEMY).health) + (7 - ogre.health) == 2
    play(game, "ice_lance", hero(game, ENEMY))
    assert (30 - hero(game, ENEMY).health) + (7 - ogre.health) == 5
    assert hero(game, ME).health == 30 and minion(game, ME).health == 4


@covers("ethereal_arcanist")
def test_ethereal_arcanist_grows_with_each_spell_but_not_with_minions():
    game = make_game({"hand": ["arcane_blast", "ice_lance", "wisp"], "battlefield": ["ethereal_arcanist"]},
                     {"battlefield": ["chillwind_yeti"]})
    play(game, "arcane_blast", minion(game, ENEMY))
    play(game, "wisp")
    play(game, "ice_lance", hero(game, ENEMY))
    assert board(game, ME)[0] == ("ethereal_arcanist", 5, 5)


@covers("cone_of_cold")
def test_cone_of_cold_damages_and_freezes_every_enemy_minion_only():
    game = make_game({"hand": ["cone_of_cold"], "battlefield": ["wisp"]},
                     {"battlefield": ["chillwind_yeti", "river_crocolisk", "wisp"]})
    play(game, "cone_of_cold")
    assert board(game, ENEMY) == [("chillwind_yeti", 4, 4), ("river_crocolisk", 2, 2)]
    assert all(m.is_frozen for m in game.player(ENEMY).battlefield)
    assert board(game, ME) == [("wisp", 1, 1)] and not hero(game, ENEMY).is_frozen


@covers("pyroblast")
def test_pyroblast_deals_ten_damage_to_a_hero():
    game = make_game({"hand": ["pyroblast"]}, {"health": 12, "armor": 1})
    play(game, "pyroblast", hero(game, ENEMY))
    assert (hero(game, ENEMY).armor, hero(game, ENEMY).health) == (0, 3)
