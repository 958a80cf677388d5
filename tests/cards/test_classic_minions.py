"""Scenario tests for configs/cards/classic_minions.yaml: keyword minions, battlecries, deathrattles, tokens."""

from __future__ import annotations

import pytest

from ccg_env.engine import Keyword

from .helpers import (
    ENEMY, ME, attack, board, can_attack, covers, done_kinds, end_turn, has, hero, ids, kinds, make_game, minion,
    play, play_targets,
)

# --- keywords ------------------------------------------------------------------------------------


@covers("stonetusk_boar")
def test_stonetusk_boar_charges():
    game = make_game({"hand": ["stonetusk_boar"]})
    boar = play(game, "stonetusk_boar")
    attack(game, boar, hero(game, ENEMY))
    assert hero(game, ENEMY).health == 29 and game.player(ME).mana == 9


@covers("argent_squire")
def test_argent_squire_divine_shield_absorbs_the_first_damage():
    game = make_game({"battlefield": ["argent_squire"]}, {"battlefield": ["river_crocolisk"]})
    squire = minion(game, ME)
    attack(game, squire, minion(game, ENEMY))
    assert board(game, ME) == [("argent_squire", 1, 1)] and not has(squire, Keyword.DIVINE_SHIELD)
    assert board(game, ENEMY) == [("river_crocolisk", 2, 2)]


@covers("worgen_infiltrator")
def test_worgen_infiltrator_cannot_be_targeted_until_it_attacks():
    game = make_game({"battlefield": ["worgen_infiltrator"]},
                     {"hand": ["fireball"], "battlefield": ["bloodfen_raptor"]}, current=ENEMY)
    worgen, raptor = minion(game, ME), minion(game, ENEMY)
    assert worgen.uid not in play_targets(game, "fireball")
    assert {c.target for c in game.legal_actions() if c.source == raptor.uid} == {hero(game, ME).uid}
    mine = make_game({"battlefield": ["worgen_infiltrator"]})
    attack(mine, minion(mine, ME), hero(mine, ENEMY))
    assert hero(mine, ENEMY).health == 28 and not has(minion(mine, ME), Keyword.STEALTH)


@covers("young_dragonhawk")
def test_young_dragonhawk_attacks_twice_per_turn():
    game = make_game({"battlefield": ["young_dragonhawk"]})
    hawk = minion(game, ME)
    attack(game, hawk, hero(game, ENEMY))
    attack(game, hawk, hero(game, ENEMY))
    assert hero(game, ENEMY).health == 28 and not can_attack(game, hawk)


@covers("emperor_cobra")
def test_emperor_cobra_destroys_any_minion_it_damages():
    game = make_game({"battlefield": ["emperor_cobra"]}, {"battlefield": ["boulderfist_ogre"]})
    attack(game, minion(game, ME), minion(game, ENEMY))
    assert board(game, ENEMY) == [] and ids(game.player(ENEMY).graveyard) == ["boulderfist_ogre"]
    assert board(game, ME) == [] and "Destroy" in done_kinds(game)


@covers("jungle_panther")
def test_jungle_panther_stealth_stops_targets_not_area_damage():
    game = make_game({"battlefield": ["jungle_panther"]}, {"hand": ["fireball", "consecration"]}, current=ENEMY)
    panther = minion(game, ME)
    assert panther.uid not in play_targets(game, "fireball")
    play(game, "consecration")
    assert board(game, ME) == [] and ids(game.player(ME).graveyard) == ["jungle_panther"]


@covers("water_elemental")
def test_water_elemental_freezes_what_it_damages():
    game = make_game({"battlefield": ["water_elemental"], "deck": ["wisp"]},
                     {"battlefield": ["chillwind_yeti"], "deck": ["wisp"]})
    yeti = minion(game, ENEMY)
    attack(game, minion(game, ME), yeti)
    assert board(game, ENEMY) == [("chillwind_yeti", 4, 2)] and yeti.is_frozen
    end_turn(game)
    assert not can_attack(game, yeti)
    end_turn(game)
    assert not yeti.is_frozen  # thawed at the end of its owner's turn


@covers("vampire_bat")
def test_vampire_bat_lifesteal_heals_its_hero():
    game = make_game({"battlefield": ["vampire_bat"], "health": 20})
    attack(game, minion(game, ME), hero(game, ENEMY))
    assert hero(game, ENEMY).health == 28 and hero(game, ME).health == 22
    assert done_kinds(game) == ["Attack", "Damage", "Heal"]


@covers("argent_commander")
def test_argent_commander_charges_behind_a_divine_shield():
    game = make_game({"hand": ["argent_commander"]}, {"battlefield": ["chillwind_yeti"]})
    commander = play(game, "argent_commander")
    attack(game, commander, minion(game, ENEMY))
    assert board(game, ME) == [("argent_commander", 4, 2)] and not has(commander, Keyword.DIVINE_SHIELD)
    assert board(game, ENEMY) == [("chillwind_yeti", 4, 1)]


# --- battlecries ---------------------------------------------------------------------------------


@covers("abusive_sergeant")
def test_abusive_sergeant_optionally_buffs_any_minion_but_no_hero():
    game = make_game({"hand": ["abusive_sergeant", "abusive_sergeant"], "battlefield": ["river_crocolisk"]},
                     {"battlefield": ["wisp"]})
    croc, wisp = minion(game, ME), minion(game, ENEMY)
    assert play_targets(game, "abusive_sergeant") == [None, croc.uid, wisp.uid]
    play(game, "abusive_sergeant", croc)
    play(game, "abusive_sergeant")
    assert board(game, ME) == [("river_crocolisk", 4, 3), ("abusive_sergeant", 1, 1), ("abusive_sergeant", 1, 1)]


@covers("elven_archer")
def test_elven_archer_requires_a_target_and_pings_it():
    game = make_game({"hand": ["elven_archer"]}, {"battlefield": ["wisp"]})
    assert None not in play_targets(game, "elven_archer")
    play(game, "elven_archer", minion(game, ENEMY))
    assert board(game, ENEMY) == [] and board(game, ME) == [("elven_archer", 1, 1)]


@covers("voodoo_doctor")
def test_voodoo_doctor_restores_two_health():
    game = make_game({"hand": ["voodoo_doctor"], "health": 25})
    assert None in play_targets(game, "voodoo_doctor")
    play(game, "voodoo_doctor", hero(game, ME))
    assert hero(game, ME).health == 27


@covers("novice_engineer")
def test_novice_engineer_draws_a_card():
    game = make_game({"hand": ["novice_engineer"], "deck": ["wisp", "core_hound"]})
    play(game, "novice_engineer")
    assert ids(game.player(ME).hand) == ["core_hound"] and ids(game.player(ME).deck) == ["wisp"]


@covers("murloc_tidehunter", "murloc_scout")
def test_murloc_tidehunter_summons_a_scout_beside_it():
    game = make_game({"hand": ["murloc_tidehunter"]})
    play(game, "murloc_tidehunter")
    assert board(game, ME) == [("murloc_tidehunter", 2, 1), ("murloc_scout", 1, 1)]
    assert done_kinds(game) == ["PlayCard", "Summon", "TriggerAbility", "Summon"]


@covers("acidic_swamp_ooze")
def test_acidic_swamp_ooze_destroys_the_enemy_weapon():
    game = make_game({"hand": ["acidic_swamp_ooze"]}, {"weapon": "fiery_war_axe"})
    assert hero(game, ENEMY).attack == 3
    play(game, "acidic_swamp_ooze")
    assert game.player(ENEMY).weapon == [] and hero(game, ENEMY).attack == 0
    assert ids(game.player(ENEMY).graveyard) == ["fiery_war_axe"]


@covers("mad_bomber")
@pytest.mark.parametrize("seed", range(6))
def test_mad_bomber_splits_three_damage_among_other_characters(seed):
    game = make_game({"hand": ["mad_bomber"], "battlefield": ["boulderfist_ogre"]},
                     {"battlefield": ["boulderfist_ogre"]}, seed=seed)
    others = [hero(game, ME), hero(game, ENEMY), minion(game, ME), minion(game, ENEMY)]
    before = sum(c.health for c in others)
    bomber = play(game, "mad_bomber")
    assert before - sum(c.health for c in others) == 3
    assert (bomber.attack, bomber.health) == (3, 2)
    assert done_kinds(game).count("Damage") == 3


@covers("shattered_sun_cleric")
def test_shattered_sun_cleric_buffs_a_friendly_minion_or_nothing():
    game = make_game({"hand": ["shattered_sun_cleric", "shattered_sun_cleric"], "battlefield": ["river_crocolisk"]},
                     {"battlefield": ["wisp"]})
    croc = minion(game, ME)
    assert play_targets(game, "shattered_sun_cleric") == [None, croc.uid]
    play(game, "shattered_sun_cleric", croc)
    assert board(game, ME) == [("river_crocolisk", 3, 4), ("shattered_sun_cleric", 3, 2)]
    empty = make_game({"hand": ["shattered_sun_cleric"]})
    play(empty, "shattered_sun_cleric")
    assert board(empty, ME) == [("shattered_sun_cleric", 3, 2)]


@covers("earthen_ring_farseer")
def test_earthen_ring_farseer_restores_three_health_up_to_the_maximum():
    game = make_game({"hand": ["earthen_ring_farseer"], "battlefield": [{"card": "chillwind_yeti", "health": 1}]})
    play(game, "earthen_ring_farseer", minion(game, ME))
    assert board(game, ME)[0] == ("chillwind_yeti", 4, 4)
    capped = make_game({"hand": ["earthen_ring_farseer"], "health": 29})
    play(capped, "earthen_ring_farseer", hero(capped, ME))
    assert hero(capped, ME).health == 30


@covers("arathi_weaponsmith", "battle_axe")
def test_arathi_weaponsmith_equips_a_battle_axe():
    game = make_game({"hand": ["arathi_weaponsmith"]})
    play(game, "arathi_weaponsmith")
    assert ids(game.player(ME).weapon) == ["battle_axe"]
    assert hero(game, ME).attack == 2 and game.player(ME).weapon[0].durability == 2
    attack(game, hero(game, ME), hero(game, ENEMY))
    assert hero(game, ENEMY).health == 28


@covers("nightblade")
def test_nightblade_hits_the_enemy_hero():
    game = make_game({"hand": ["nightblade"]})
    play(game, "nightblade")
    assert hero(game, ENEMY).health == 27 and hero(game, ME).health == 30


@covers("antique_healbot")
def test_antique_healbot_restores_eight_to_your_hero():
    game = make_game({"hand": ["antique_healbot"], "health": 20}, {"health": 10})
    play(game, "antique_healbot")
    assert hero(game, ME).health == 28 and hero(game, ENEMY).health == 10


@covers("leeroy_jenkins", "whelp")
def test_leeroy_jenkins_charges_and_gives_the_opponent_two_whelps():
    game = make_game({"hand": ["leeroy_jenkins"]})
    leeroy = play(game, "leeroy_jenkins")
    assert board(game, ENEMY) == [("whelp", 1, 1), ("whelp", 1, 1)]
    assert all(w.owner == ENEMY for w in game.player(ENEMY).battlefield)
    attack(game, leeroy, hero(game, ENEMY))
    assert hero(game, ENEMY).health == 24


@covers("fire_elemental")
def test_fire_elemental_deals_three_to_its_target():
    game = make_game({"hand": ["fire_elemental"]}, {"battlefield": ["chillwind_yeti"]})
    assert None not in play_targets(game, "fire_elemental")
    play(game, "fire_elemental", minion(game, ENEMY))
    assert board(game, ENEMY) == [("chillwind_yeti", 4, 2)]


@covers("frost_elemental")
def test_frost_elemental_freezes_its_target_through_the_next_turn():
    game = make_game({"hand": ["frost_elemental"], "deck": ["wisp"]},
                     {"battlefield": ["chillwind_yeti"], "deck": ["wisp"]})
    yeti = minion(game, ENEMY)
    play(game, "frost_elemental", yeti)
    assert yeti.is_frozen and yeti.health == 5
    end_turn(game)
    assert not can_attack(game, yeti)


@covers("the_black_knight")
def test_the_black_knight_destroys_only_an_enemy_taunt_minion():
    game = make_game({"hand": ["the_black_knight"], "battlefield": ["goldshire_footman"]},
                     {"battlefield": ["chillwind_yeti", "senjin_shieldmasta"]})
    taunt = minion(game, ENEMY, 1)
    assert play_targets(game, "the_black_knight") == [None, taunt.uid]
    play(game, "the_black_knight", taunt)
    assert board(game, ENEMY) == [("chillwind_yeti", 4, 5)]
    assert ids(game.player(ENEMY).graveyard) == ["senjin_shieldmasta"]


@covers("onyxia")
def test_onyxia_fills_the_battlefield_with_whelps_and_loses_the_rest():
    game = make_game({"hand": ["onyxia"], "battlefield": ["wisp", "wisp"]})
    start = len(game.log)
    play(game, "onyxia")
    # rule changed (issue 21, summon positions): the whelps go right, left, right, left of Onyxia, not all to her right
    assert ids(game.player(ME).battlefield) == ["wisp", "wisp", "whelp", "whelp", "onyxia", "whelp", "whelp"]
    cancelled = [e for e in game.log[start:] if e.cancelled]
    assert len(cancelled) == 2 and {e.kind for e in cancelled} == {"Summon"}


# --- deathrattles --------------------------------------------------------------------------------


@covers("loot_hoarder")
def test_loot_hoarder_draws_when_it_dies():
    game = make_game({"battlefield": ["loot_hoarder"], "deck": ["core_hound"]}, {"battlefield": ["chillwind_yeti"]})
    attack(game, minion(game, ME), minion(game, ENEMY))
    assert board(game, ME) == [] and ids(game.player(ME).hand) == ["core_hound"]
    assert kinds(game)[-3:] == ["Reap", "TriggerAbility", "DrawCards"]


@covers("harvest_golem", "damaged_golem")
def test_harvest_golem_leaves_a_damaged_golem():
    game = make_game({"battlefield": ["harvest_golem"]}, {"battlefield": ["boulderfist_ogre"]})
    attack(game, minion(game, ME), minion(game, ENEMY))
    assert board(game, ME) == [("damaged_golem", 2, 1)]
    assert ids(game.player(ME).graveyard) == ["harvest_golem"]


@covers("abomination")
def test_abomination_deathrattle_hits_every_character():
    game = make_game({"battlefield": ["abomination", "chillwind_yeti"]},
                     {"battlefield": ["boulderfist_ogre", "bloodfen_raptor"]})
    attack(game, minion(game, ME), minion(game, ENEMY))
    assert board(game, ME) == [("chillwind_yeti", 4, 3)]
    assert board(game, ENEMY) == [("boulderfist_ogre", 6, 1)]
    assert hero(game, ME).health == 28 and hero(game, ENEMY).health == 28
