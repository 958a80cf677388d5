"""Scenario tests for configs/cards/classic_spells.yaml: damage, removal, freezing, healing, buffs, summons, draw."""

from __future__ import annotations

import pytest

from ccg_env.engine import Keyword

from .helpers import (
    ENEMY, ME, attack, board, can_attack, covers, done_kinds, end_turn, has, hero, ids, make_game, minion, play,
    play_targets,
)

# --- damage --------------------------------------------------------------------------------------


@covers("arcane_missiles")
@pytest.mark.parametrize("seed", range(6))
def test_arcane_missiles_split_three_damage_among_enemies(seed):
    game = make_game({"hand": ["arcane_missiles"], "battlefield": ["boulderfist_ogre"]},
                     {"battlefield": ["boulderfist_ogre"]}, seed=seed)
    play(game, "arcane_missiles")
    assert (30 - hero(game, ENEMY).health) + (7 - minion(game, ENEMY).health) == 3
    assert hero(game, ME).health == 30 and minion(game, ME).health == 7
    assert done_kinds(game).count("Damage") == 3


@covers("frostbolt")
def test_frostbolt_damages_and_freezes_and_a_killed_target_fizzles_the_freeze():
    game = make_game({"hand": ["frostbolt", "frostbolt"]}, {"battlefield": ["chillwind_yeti", "wisp"]})
    yeti, wisp = game.player(ENEMY).battlefield
    play(game, "frostbolt", yeti)
    assert (yeti.health, yeti.is_frozen) == (2, True)
    start = len(game.log)
    play(game, "frostbolt", wisp)
    assert board(game, ENEMY) == [("chillwind_yeti", 4, 2)] and not wisp.is_frozen
    fizzled = [e.action for e in game.log[start:] if e.kind == "TriggerAbility" and e.action.fizzled]
    assert len(fizzled) == 1 and "Freeze" not in done_kinds(game, start)


@covers("drain_soul")
def test_drain_soul_hits_a_minion_and_heals_your_hero():
    game = make_game({"hand": ["drain_soul"], "health": 20}, {"battlefield": ["chillwind_yeti"]})
    yeti = minion(game, ENEMY)
    assert play_targets(game, "drain_soul") == [yeti.uid]  # minions only
    play(game, "drain_soul", yeti)
    assert yeti.health == 2 and hero(game, ME).health == 23


@covers("multi_shot")
@pytest.mark.parametrize("seed", range(6))
def test_multi_shot_hits_two_different_random_enemy_minions(seed):
    game = make_game({"hand": ["multi_shot"]}, {"battlefield": ["boulderfist_ogre"] * 3}, seed=seed)
    play(game, "multi_shot")
    assert sorted(c.health for c in game.player(ENEMY).battlefield) == [4, 4, 7]
    assert hero(game, ENEMY).health == 30


@covers("hellfire")
def test_hellfire_hits_every_character():
    game = make_game({"hand": ["hellfire"], "battlefield": ["chillwind_yeti"]}, {"battlefield": ["bloodfen_raptor"]})
    play(game, "hellfire")
    assert hero(game, ME).health == 27 and hero(game, ENEMY).health == 27
    assert board(game, ME) == [("chillwind_yeti", 4, 2)] and board(game, ENEMY) == []


@covers("holy_nova")
def test_holy_nova_damages_enemies_and_heals_friends():
    game = make_game({"hand": ["holy_nova"], "health": 25, "battlefield": [{"card": "chillwind_yeti", "health": 2}]},
                     {"battlefield": ["river_crocolisk"]})
    play(game, "holy_nova")
    assert hero(game, ENEMY).health == 28 and board(game, ENEMY) == [("river_crocolisk", 2, 1)]
    assert hero(game, ME).health == 27 and board(game, ME) == [("chillwind_yeti", 4, 4)]


@covers("blizzard")
def test_blizzard_damages_and_freezes_enemy_minions():
    game = make_game({"hand": ["blizzard"], "battlefield": ["wisp"]}, {"battlefield": ["chillwind_yeti", "wisp"]})
    play(game, "blizzard")
    yeti = minion(game, ENEMY)
    assert board(game, ENEMY) == [("chillwind_yeti", 4, 3)] and yeti.is_frozen
    assert not hero(game, ENEMY).is_frozen and not minion(game, ME).is_frozen


@covers("flamestrike")
def test_flamestrike_hits_enemy_minions_for_four():
    game = make_game({"hand": ["flamestrike"], "battlefield": ["wisp"]},
                     {"battlefield": ["chillwind_yeti", "boulderfist_ogre"]})
    play(game, "flamestrike")
    assert board(game, ENEMY) == [("chillwind_yeti", 4, 1), ("boulderfist_ogre", 6, 3)]
    assert board(game, ME) == [("wisp", 1, 1)] and hero(game, ENEMY).health == 30


# --- removal -------------------------------------------------------------------------------------


@covers("execute")
def test_execute_destroys_only_a_damaged_enemy_minion():
    game = make_game({"hand": ["execute"], "battlefield": [{"card": "chillwind_yeti", "health": 1}]},
                     {"battlefield": ["boulderfist_ogre", {"card": "core_hound", "health": 4}]})
    hound = minion(game, ENEMY, 1)
    assert play_targets(game, "execute") == [hound.uid]
    play(game, "execute", hound)
    assert ids(game.player(ENEMY).battlefield) == ["boulderfist_ogre"]
    assert ids(game.player(ENEMY).graveyard) == ["core_hound"]
    unplayable = make_game({"hand": ["execute"]}, {"battlefield": ["boulderfist_ogre"]})
    assert play_targets(unplayable, "execute") == []


@covers("shadow_word_pain")
def test_shadow_word_pain_destroys_a_minion_with_two_or_less_attack():
    game = make_game({"hand": ["shadow_word_pain"], "battlefield": ["river_crocolisk"]},
                     {"battlefield": ["bloodfen_raptor", "wisp"]})
    croc, wisp = minion(game, ME), minion(game, ENEMY, 1)
    assert play_targets(game, "shadow_word_pain") == [croc.uid, wisp.uid]
    play(game, "shadow_word_pain", wisp)
    assert ids(game.player(ENEMY).battlefield) == ["bloodfen_raptor"]


@covers("deadly_shot")
@pytest.mark.parametrize("seed", range(4))
def test_deadly_shot_destroys_one_random_enemy_minion(seed):
    game = make_game({"hand": ["deadly_shot"], "battlefield": ["wisp"]},
                     {"battlefield": ["boulderfist_ogre", "chillwind_yeti", "wisp"]}, seed=seed)
    play(game, "deadly_shot")
    assert len(game.player(ENEMY).battlefield) == 2 and len(game.player(ENEMY).graveyard) == 1
    assert board(game, ME) == [("wisp", 1, 1)]


@covers("assassinate")
def test_assassinate_destroys_an_enemy_minion():
    game = make_game({"hand": ["assassinate"], "battlefield": ["wisp"]}, {"battlefield": ["core_hound"]})
    hound = minion(game, ENEMY)
    assert play_targets(game, "assassinate") == [hound.uid]
    play(game, "assassinate", hound)
    assert board(game, ENEMY) == [] and board(game, ME) == [("wisp", 1, 1)]


@covers("twisting_nether")
def test_twisting_nether_destroys_every_minion():
    game = make_game({"hand": ["twisting_nether"], "battlefield": ["wisp", "abomination"]},
                     {"battlefield": ["core_hound"]})
    play(game, "twisting_nether")
    assert board(game, ME) == [] and board(game, ENEMY) == []
    assert hero(game, ME).health == 28 and hero(game, ENEMY).health == 28  # the abomination's deathrattle


# --- freezing and healing ------------------------------------------------------------------------


@covers("frost_nova")
def test_frost_nova_freezes_enemy_minions_but_not_the_hero():
    game = make_game({"hand": ["frost_nova"], "battlefield": ["wisp"]}, {"battlefield": ["wisp", "chillwind_yeti"]})
    play(game, "frost_nova")
    assert all(m.is_frozen for m in game.player(ENEMY).battlefield)
    assert not hero(game, ENEMY).is_frozen and not minion(game, ME).is_frozen


@covers("circle_of_healing")
def test_circle_of_healing_heals_every_minion_up_to_its_maximum():
    game = make_game({"hand": ["circle_of_healing"], "health": 20,
                      "battlefield": [{"card": "boulderfist_ogre", "health": 1}]},
                     {"battlefield": [{"card": "chillwind_yeti", "health": 4}]})
    play(game, "circle_of_healing")
    assert board(game, ME) == [("boulderfist_ogre", 6, 5)] and board(game, ENEMY) == [("chillwind_yeti", 4, 5)]
    assert hero(game, ME).health == 20


@covers("holy_light")
def test_holy_light_restores_six():
    game = make_game({"hand": ["holy_light"], "health": 20})
    play(game, "holy_light", hero(game, ME))
    assert hero(game, ME).health == 26


# --- buffs and keywords --------------------------------------------------------------------------


@covers("hand_of_protection")
def test_hand_of_protection_gives_divine_shield():
    game = make_game({"hand": ["hand_of_protection"], "battlefield": ["wisp"]}, {"battlefield": ["river_crocolisk"]})
    wisp = minion(game, ME)
    play(game, "hand_of_protection", wisp)
    assert has(wisp, Keyword.DIVINE_SHIELD)
    attack(game, wisp, minion(game, ENEMY))
    assert board(game, ME) == [("wisp", 1, 1)] and not has(wisp, Keyword.DIVINE_SHIELD)


@covers("conceal")
def test_conceal_gives_your_minions_stealth():
    game = make_game({"hand": ["conceal"], "battlefield": ["wisp", "chillwind_yeti"]}, {"battlefield": ["wisp"]})
    play(game, "conceal")
    assert all(has(m, Keyword.STEALTH) for m in game.player(ME).battlefield)
    assert not has(minion(game, ENEMY), Keyword.STEALTH)


@covers("power_word_shield")
def test_power_word_shield_adds_health_and_draws():
    game = make_game({"hand": ["power_word_shield"], "battlefield": ["wisp"], "deck": ["core_hound"]})
    play(game, "power_word_shield", minion(game, ME))
    assert board(game, ME) == [("wisp", 1, 3)] and minion(game, ME).max_health == 3
    assert ids(game.player(ME).hand) == ["core_hound"]


@covers("mark_of_the_wild")
def test_mark_of_the_wild_gives_taunt_and_two_two():
    game = make_game({"hand": ["mark_of_the_wild"], "battlefield": ["wisp"]})
    wisp = minion(game, ME)
    play(game, "mark_of_the_wild", wisp)
    assert board(game, ME) == [("wisp", 3, 3)] and has(wisp, Keyword.TAUNT)


@covers("windfury_spell")
def test_windfury_spell_lets_a_minion_attack_twice():
    game = make_game({"hand": ["windfury_spell"], "battlefield": ["river_crocolisk"]})
    croc = minion(game, ME)
    play(game, "windfury_spell", croc)
    attack(game, croc, hero(game, ENEMY))
    attack(game, croc, hero(game, ENEMY))
    assert hero(game, ENEMY).health == 26 and not can_attack(game, croc)


@covers("bloodlust")
def test_bloodlust_gives_your_minions_three_attack():
    game = make_game({"hand": ["bloodlust"], "battlefield": ["wisp", "river_crocolisk"]}, {"battlefield": ["wisp"]})
    play(game, "bloodlust")
    assert board(game, ME) == [("wisp", 4, 1), ("river_crocolisk", 5, 3)] and board(game, ENEMY) == [("wisp", 1, 1)]
    assert hero(game, ME).attack == 0


@covers("blessing_of_kings")
def test_blessing_of_kings_buffs_a_minion_never_a_hero():
    game = make_game({"hand": ["blessing_of_kings"], "battlefield": ["wisp"]}, {"battlefield": ["wisp"]})
    mine, theirs = minion(game, ME), minion(game, ENEMY)
    assert play_targets(game, "blessing_of_kings") == [mine.uid, theirs.uid]
    play(game, "blessing_of_kings", mine)
    assert board(game, ME) == [("wisp", 5, 5)]


# --- summons, cards, armor, mana -----------------------------------------------------------------


@covers("innervate")
def test_innervate_gives_two_mana_this_turn():
    game = make_game({"hand": ["innervate"], "mana": 3})
    play(game, "innervate")
    assert (game.player(ME).mana, game.player(ME).max_mana) == (5, 3)


@covers("mirror_image", "mirror_image_minion")
def test_mirror_image_summons_two_taunt_images():
    game = make_game({"hand": ["mirror_image"]})
    play(game, "mirror_image")
    assert board(game, ME) == [("mirror_image_minion", 0, 2)] * 2
    assert all(has(m, Keyword.TAUNT) for m in game.player(ME).battlefield)


@covers("feral_spirit", "spirit_wolf")
def test_feral_spirit_summons_two_taunt_wolves():
    game = make_game({"hand": ["feral_spirit"]})
    play(game, "feral_spirit")
    assert board(game, ME) == [("spirit_wolf", 2, 3)] * 2
    assert all(has(m, Keyword.TAUNT) for m in game.player(ME).battlefield)


@covers("shield_block")
def test_shield_block_gains_armor_that_absorbs_damage_and_draws():
    game = make_game({"hand": ["shield_block"], "deck": ["wisp"]}, {"hand": ["fireball"], "deck": ["wisp"]})
    play(game, "shield_block")
    assert hero(game, ME).armor == 5 and ids(game.player(ME).hand) == ["wisp"]
    end_turn(game)
    play(game, "fireball", hero(game, ME))
    assert (hero(game, ME).armor, hero(game, ME).health) == (0, 29)


@covers("sprint")
def test_sprint_draws_four():
    game = make_game({"hand": ["sprint"], "deck": ["wisp"] * 5})
    play(game, "sprint")
    assert len(game.player(ME).hand) == 4 and len(game.player(ME).deck) == 1
