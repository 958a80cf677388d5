"""Scenario tests for configs/cards/class_paladin.yaml: buffs, Divine Shield, recruits and healing for the hero."""

from __future__ import annotations

from ccg_env.engine import Keyword

from .helpers import (
    ENEMY, ME, attack, board, covers, end_turn, has, hero, ids, make_game, minion, play, play_targets,
)

DECK = ["wisp"] * 3


@covers("blessing_of_might")
def test_blessing_of_might_gives_a_minion_three_attack():
    game = make_game({"hand": ["blessing_of_might"], "battlefield": ["river_crocolisk"]},
                     {"battlefield": ["wisp"]})
    croc = minion(game, ME)
    assert play_targets(game, "blessing_of_might") == [croc.uid, minion(game, ENEMY).uid]  # minions only
    play(game, "blessing_of_might", croc)
    assert board(game, ME) == [("river_crocolisk", 5, 3)]


@covers("noble_sacrifice", "defender")
def test_noble_sacrifice_summons_a_defender_when_a_minion_is_attacked():
    game = make_game({"secrets": ["noble_sacrifice"], "battlefield": ["chillwind_yeti"]},
                     {"battlefield": ["river_crocolisk"]}, current=ENEMY)
    attack(game, minion(game, ENEMY), minion(game, ME))
    assert board(game, ME) == [("chillwind_yeti", 4, 3), ("defender", 2, 1)]
    assert game.player(ME).secrets == [] and ids(game.player(ME).graveyard) == ["noble_sacrifice"]


@covers("argent_protector")
def test_argent_protector_shields_a_friendly_minion():
    game = make_game({"hand": ["argent_protector"], "battlefield": ["river_crocolisk"]},
                     {"battlefield": ["wisp"]})
    croc = minion(game, ME)
    assert play_targets(game, "argent_protector") == [None, croc.uid]  # friendly minions only, or none
    play(game, "argent_protector", croc)
    assert has(croc, Keyword.DIVINE_SHIELD) and not has(minion(game, ME, 1), Keyword.DIVINE_SHIELD)


@covers("shielded_minibot")
def test_shielded_minibot_loses_its_shield_instead_of_health():
    game = make_game({"battlefield": ["shielded_minibot"]}, {"battlefield": ["bloodfen_raptor"]}, current=ENEMY)
    attack(game, minion(game, ENEMY), minion(game, ME))
    assert board(game, ME) == [("shielded_minibot", 2, 2)] and not has(minion(game, ME), Keyword.DIVINE_SHIELD)
    assert board(game, ENEMY) == []  # 3/2 raptor took 2


@covers("muster_for_battle", "silver_hand_recruit")
def test_muster_for_battle_summons_three_recruits_and_equips_lights_justice():
    game = make_game({"hand": ["muster_for_battle"], "battlefield": ["wisp"] * 5})
    play(game, "muster_for_battle")
    assert board(game, ME) == [("wisp", 1, 1)] * 5 + [("silver_hand_recruit", 1, 1)] * 2  # the third does not fit
    assert ids(game.player(ME).weapon) == ["lights_justice"] and hero(game, ME).attack == 1


@covers("seal_of_champions")
def test_seal_of_champions_gives_three_attack_and_divine_shield():
    game = make_game({"hand": ["seal_of_champions"], "battlefield": ["river_crocolisk"]})
    play(game, "seal_of_champions", minion(game, ME))
    assert board(game, ME) == [("river_crocolisk", 5, 3)] and has(minion(game, ME), Keyword.DIVINE_SHIELD)


@covers("hammer_of_wrath")
def test_hammer_of_wrath_deals_three_and_draws():
    game = make_game({"hand": ["hammer_of_wrath"], "deck": DECK})
    play(game, "hammer_of_wrath", hero(game, ENEMY))
    assert hero(game, ENEMY).health == 27 and ids(game.player(ME).hand) == ["wisp"]


@covers("stand_against_darkness")
def test_stand_against_darkness_summons_five_recruits():
    game = make_game({"hand": ["stand_against_darkness"], "battlefield": ["wisp"]})
    play(game, "stand_against_darkness")
    assert board(game, ME) == [("wisp", 1, 1)] + [("silver_hand_recruit", 1, 1)] * 5


@covers("guardian_of_kings")
def test_guardian_of_kings_is_a_taunt_that_heals_your_hero_six():
    game = make_game({"hand": ["guardian_of_kings"], "health": 20})
    play(game, "guardian_of_kings")
    assert hero(game, ME).health == 26 and has(minion(game, ME), Keyword.TAUNT)


@covers("tirion_fordring", "ashbringer")
def test_tirion_fordring_leaves_the_ashbringer_when_he_dies():
    game = make_game({"hand": ["tirion_fordring"], "deck": DECK},
                     {"hand": ["assassinate"], "battlefield": ["wisp"], "deck": DECK})
    play(game, "tirion_fordring")
    tirion = minion(game, ME)
    assert has(tirion, Keyword.TAUNT) and has(tirion, Keyword.DIVINE_SHIELD)
    end_turn(game)
    play(game, "assassinate", tirion)
    assert ids(game.player(ME).weapon) == ["ashbringer"]
    assert (hero(game, ME).attack, game.player(ME).weapon[0].durability) == (5, 3)
