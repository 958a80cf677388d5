"""Scenario tests for configs/cards/class_rogue.yaml: cheap tempo spells, Stealth, weapons; and the rogue's dagger."""

from __future__ import annotations

from ccg_env.engine import Keyword

from .helpers import (
    ENEMY, ME, attack, board, can_attack, covers, end_turn, has, hero, ids, make_game, minion, play, play_targets,
)

DECK = ["wisp"] * 3


@covers("backstab")
def test_backstab_hits_only_an_undamaged_minion():
    game = make_game({"hand": ["backstab"]},
                     {"battlefield": ["river_crocolisk", {"card": "chillwind_yeti", "health": 4}]})
    croc = minion(game, ENEMY)
    assert play_targets(game, "backstab") == [croc.uid]
    play(game, "backstab", croc)
    assert board(game, ENEMY) == [("river_crocolisk", 2, 1), ("chillwind_yeti", 4, 4)]
    assert game.player(ME).mana == 10  # it costs nothing


@covers("sinister_strike")
def test_sinister_strike_hits_the_enemy_hero_for_three():
    game = make_game({"hand": ["sinister_strike"]}, {"battlefield": ["wisp"]})
    play(game, "sinister_strike")
    assert hero(game, ENEMY).health == 27 and board(game, ENEMY) == [("wisp", 1, 1)]


@covers("shiv")
def test_shiv_deals_one_damage_and_draws():
    game = make_game({"hand": ["shiv"], "deck": DECK}, {"battlefield": ["wisp"]})
    play(game, "shiv", minion(game, ENEMY))
    assert board(game, ENEMY) == [] and ids(game.player(ME).hand) == ["wisp"]


@covers("defias_ringleader", "defias_bandit")
def test_defias_ringleader_brings_a_bandit():
    game = make_game({"hand": ["defias_ringleader"]})
    play(game, "defias_ringleader")
    assert board(game, ME) == [("defias_ringleader", 2, 2), ("defias_bandit", 1, 1)]


@covers("fan_of_knives")
def test_fan_of_knives_hits_enemy_minions_and_draws():
    game = make_game({"hand": ["fan_of_knives"], "battlefield": ["wisp"], "deck": DECK},
                     {"battlefield": ["wisp", "river_crocolisk"]})
    play(game, "fan_of_knives")
    assert board(game, ENEMY) == [("river_crocolisk", 2, 2)] and board(game, ME) == [("wisp", 1, 1)]
    assert hero(game, ENEMY).health == 30 and ids(game.player(ME).hand) == ["wisp"]


@covers("si7_agent")
def test_si7_agent_deals_two_damage_or_comes_without_a_target():
    game = make_game({"hand": ["si7_agent", "si7_agent"]}, {"battlefield": ["river_crocolisk"]})
    play(game, "si7_agent", minion(game, ENEMY))
    play(game, "si7_agent")
    assert board(game, ENEMY) == [("river_crocolisk", 2, 1)] and board(game, ME) == [("si7_agent", 3, 2)] * 2


@covers("shadow_rager")
def test_shadow_rager_cannot_be_targeted_until_it_attacks():
    game = make_game({"battlefield": ["shadow_rager"]}, {"hand": ["fireball"], "battlefield": ["wisp"]},
                     current=ENEMY)
    rager = minion(game, ME)
    assert has(rager, Keyword.STEALTH) and rager.uid not in play_targets(game, "fireball")
    end_turn(game)
    attack(game, rager, hero(game, ENEMY))
    assert hero(game, ENEMY).health == 25 and not has(rager, Keyword.STEALTH)


@covers("master_of_disguise")
def test_master_of_disguise_gives_another_friendly_minion_stealth():
    game = make_game({"hand": ["master_of_disguise"], "battlefield": ["chillwind_yeti"]}, {"battlefield": ["wisp"]})
    yeti = minion(game, ME)
    assert play_targets(game, "master_of_disguise") == [None, yeti.uid]
    play(game, "master_of_disguise", yeti)
    assert has(yeti, Keyword.STEALTH) and not has(minion(game, ME, 1), Keyword.STEALTH)


@covers("assassins_blade")
def test_assassins_blade_swings_for_three_four_times():
    game = make_game({"hand": ["assassins_blade"], "deck": DECK * 2}, {"deck": DECK * 2})
    play(game, "assassins_blade")
    for _ in range(4):
        attack(game, hero(game, ME), hero(game, ENEMY))
        end_turn(game)
        end_turn(game)
    assert hero(game, ENEMY).health == 30 - 4 * 3
    assert game.player(ME).weapon == [] and not can_attack(game, hero(game, ME))


@covers("wicked_knife")
def test_wicked_knife_the_rogue_hero_power_dagger_swings_for_one_twice():
    game = make_game({"weapon": "wicked_knife"}, {"battlefield": ["wisp"]})
    attack(game, hero(game, ME), minion(game, ENEMY))
    assert board(game, ENEMY) == [] and hero(game, ME).health == 29
    assert game.player(ME).weapon[0].durability == 1
