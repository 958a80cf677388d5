"""Scenario tests for configs/cards/class_warlock.yaml: demons and spells paid for with the warlock's own health."""

from __future__ import annotations

from ccg_env.engine import Keyword

from .helpers import ENEMY, ME, attack, board, can_attack, covers, has, hero, ids, make_game, minion, play, play_targets

DECK = ["wisp"] * 3


@covers("flame_imp")
def test_flame_imp_costs_your_hero_three_health():
    game = make_game({"hand": ["flame_imp"], "armor": 1})
    play(game, "flame_imp")
    assert board(game, ME) == [("flame_imp", 3, 2)] and (hero(game, ME).armor, hero(game, ME).health) == (0, 28)


@covers("voidwalker")
def test_voidwalker_taunts_the_enemy_away_from_your_hero():
    game = make_game({"battlefield": ["voidwalker"]}, {"battlefield": ["bloodfen_raptor"]}, current=ENEMY)
    raptor = minion(game, ENEMY)
    assert has(minion(game, ME), Keyword.TAUNT)
    targets = {c.target for c in game.legal_actions() if c.source == raptor.uid}
    assert targets == {minion(game, ME).uid}
    attack(game, raptor, minion(game, ME))
    assert board(game, ME) == [] and board(game, ENEMY) == [("bloodfen_raptor", 3, 1)]


@covers("soulfire")
def test_soulfire_deals_four_and_two_to_your_own_hero():
    game = make_game({"hand": ["soulfire"]}, {"battlefield": ["chillwind_yeti"]})
    play(game, "soulfire", minion(game, ENEMY))
    assert board(game, ENEMY) == [("chillwind_yeti", 4, 1)] and hero(game, ME).health == 28


@covers("succubus")
def test_succubus_costs_your_hero_two_health():
    game = make_game({"hand": ["succubus"]})
    play(game, "succubus")
    assert board(game, ME) == [("succubus", 4, 3)] and hero(game, ME).health == 28


@covers("sense_demons")
def test_sense_demons_draws_two_for_three_health():
    game = make_game({"hand": ["sense_demons"], "deck": DECK})
    play(game, "sense_demons")
    assert ids(game.player(ME).hand) == ["wisp", "wisp"] and hero(game, ME).health == 27


@covers("shadow_bolt")
def test_shadow_bolt_hits_only_minions_for_four():
    game = make_game({"hand": ["shadow_bolt"]}, {"battlefield": ["chillwind_yeti"]})
    yeti = minion(game, ENEMY)
    assert play_targets(game, "shadow_bolt") == [yeti.uid]
    play(game, "shadow_bolt", yeti)
    assert board(game, ENEMY) == [("chillwind_yeti", 4, 1)]


@covers("pit_lord")
def test_pit_lord_costs_your_hero_five_health():
    game = make_game({"hand": ["pit_lord"]})
    play(game, "pit_lord")
    assert board(game, ME) == [("pit_lord", 5, 6)] and hero(game, ME).health == 25


@covers("doomguard")
def test_doomguard_charges_in_at_the_cost_of_five_health():
    game = make_game({"hand": ["doomguard"]})
    play(game, "doomguard")
    doomguard = minion(game, ME)
    assert hero(game, ME).health == 25 and can_attack(game, doomguard)
    attack(game, doomguard, hero(game, ENEMY))
    assert hero(game, ENEMY).health == 25


@covers("siphon_soul")
def test_siphon_soul_destroys_a_minion_and_heals_your_hero_three():
    game = make_game({"hand": ["siphon_soul"], "health": 20}, {"battlefield": ["core_hound"]})
    play(game, "siphon_soul", minion(game, ENEMY))
    assert board(game, ENEMY) == [] and hero(game, ME).health == 23


@covers("dread_infernal")
def test_dread_infernal_hits_every_enemy_and_your_hero_but_not_your_minions():
    game = make_game({"hand": ["dread_infernal"], "battlefield": ["wisp"]},
                     {"battlefield": ["wisp", "river_crocolisk"]})
    play(game, "dread_infernal")
    assert board(game, ENEMY) == [("river_crocolisk", 2, 2)] and hero(game, ENEMY).health == 29
    assert board(game, ME) == [("wisp", 1, 1), ("dread_infernal", 6, 6)] and hero(game, ME).health == 29
