"""Scenario tests for configs/cards/class_warrior.yaml: armor, weapons and minions that profit from damage."""

from __future__ import annotations

from ccg_env.engine import Keyword

from .helpers import ENEMY, ME, attack, board, can_attack, covers, has, hero, ids, make_game, minion, play

DECK = ["wisp"] * 3


@covers("whirlwind")
def test_whirlwind_hits_every_minion_but_no_hero():
    game = make_game({"hand": ["whirlwind"], "battlefield": ["acolyte_of_pain", "wisp"], "deck": DECK},
                     {"battlefield": ["bloodfen_raptor", "wisp"]})
    play(game, "whirlwind")
    assert board(game, ME) == [("acolyte_of_pain", 1, 2)] and board(game, ENEMY) == [("bloodfen_raptor", 3, 1)]
    assert hero(game, ME).health == 30 and hero(game, ENEMY).health == 30
    assert len(game.player(ME).hand) == 1  # the acolyte drew


@covers("upgrade")
def test_upgrade_equips_a_battle_axe_replacing_the_old_weapon():
    game = make_game({"hand": ["upgrade"], "weapon": "lights_justice"})
    play(game, "upgrade")
    assert ids(game.player(ME).weapon) == ["battle_axe"] and "lights_justice" in ids(game.player(ME).graveyard)
    attack(game, hero(game, ME), hero(game, ENEMY))
    assert hero(game, ENEMY).health == 28 and game.player(ME).weapon[0].durability == 1


@covers("slam")
def test_slam_damages_a_minion_and_draws():
    game = make_game({"hand": ["slam"], "deck": DECK}, {"battlefield": ["chillwind_yeti"]})
    play(game, "slam", minion(game, ENEMY))
    assert board(game, ENEMY) == [("chillwind_yeti", 4, 3)] and ids(game.player(ME).hand) == ["wisp"]


@covers("cruel_taskmaster")
def test_cruel_taskmaster_hurts_and_enrages_a_minion_or_is_played_without_target():
    game = make_game({"hand": ["cruel_taskmaster", "cruel_taskmaster"], "battlefield": ["gurubashi_berserker"]})
    berserker = minion(game, ME)
    play(game, "cruel_taskmaster", berserker)
    assert board(game, ME)[0] == ("gurubashi_berserker", 2 + 3 + 2, 6)  # +3 from its own trigger, +2 from the buff
    play(game, "cruel_taskmaster")
    assert board(game, ME)[1:] == [("cruel_taskmaster", 2, 2)] * 2


@covers("armorsmith")
def test_armorsmith_gains_armor_each_time_it_is_damaged():
    game = make_game({"battlefield": ["armorsmith"]}, {"hand": ["arcane_explosion"], "battlefield": ["wisp"]},
                     current=ENEMY)
    play(game, "arcane_explosion")
    attack(game, minion(game, ENEMY), minion(game, ME))
    assert hero(game, ME).armor == 4 and board(game, ME) == [("armorsmith", 1, 2)]


@covers("kings_defender")
def test_kings_defender_equips_a_three_two_weapon_and_gives_armor():
    game = make_game({"hand": ["kings_defender"]})
    play(game, "kings_defender")
    assert hero(game, ME).armor == 3 and hero(game, ME).attack == 3
    assert game.player(ME).weapon[0].durability == 2


@covers("bash")
def test_bash_deals_three_damage_and_gains_three_armor():
    game = make_game({"hand": ["bash"]}, {"battlefield": ["chillwind_yeti"]})
    play(game, "bash", minion(game, ENEMY))
    assert board(game, ENEMY) == [("chillwind_yeti", 4, 2)] and hero(game, ME).armor == 3


@covers("shieldmaiden")
def test_shieldmaiden_gains_five_armor():
    game = make_game({"hand": ["shieldmaiden"], "armor": 2})
    play(game, "shieldmaiden")
    assert hero(game, ME).armor == 7 and board(game, ME) == [("shieldmaiden", 5, 5)]


@covers("grommash_hellscream")
def test_grommash_charges_and_grows_when_damaged():
    game = make_game({"hand": ["grommash_hellscream"]}, {"battlefield": ["river_crocolisk"]})
    play(game, "grommash_hellscream")
    grommash = minion(game, ME)
    assert has(grommash, Keyword.CHARGE) and can_attack(game, grommash)
    attack(game, grommash, minion(game, ENEMY))
    assert board(game, ME) == [("grommash_hellscream", 7, 7)] and board(game, ENEMY) == []
