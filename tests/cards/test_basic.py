"""Scenario tests for configs/cards/basic.yaml: vanilla, taunt and charge minions, simple spells, weapon, secret."""

from __future__ import annotations

import pytest

from ccg_env.engine import Zones

from .helpers import (
    ENEMY, ME, attack, board, can_attack, covers, done_kinds, end_turn, hero, ids, make_game, minion, play,
)

VANILLA = {
    "wisp": (0, 1, 1), "river_crocolisk": (2, 2, 3), "bloodfen_raptor": (2, 3, 2), "magma_rager": (3, 5, 1),
    "chillwind_yeti": (4, 4, 5), "boulderfist_ogre": (6, 6, 7), "core_hound": (7, 9, 5),
}


@covers(*VANILLA)
@pytest.mark.parametrize("card_id", sorted(VANILLA))
def test_vanilla_minion_enters_with_printed_stats_and_sleeps(card_id):
    cost, attack_value, health = VANILLA[card_id]
    game = make_game({"hand": [card_id], "mana": 7})
    played = play(game, card_id)
    assert board(game, ME) == [(card_id, attack_value, health)]
    assert game.player(ME).mana == 7 - cost
    assert game.player(ME).hand == []
    assert played.zone is Zones.BATTLEFIELD and not can_attack(game, played)
    assert done_kinds(game) == ["PlayCard", "Summon"]


@covers("goldshire_footman", "senjin_shieldmasta")
@pytest.mark.parametrize("card_id", ["goldshire_footman", "senjin_shieldmasta"])
def test_taunt_minion_must_be_attacked_first(card_id):
    game = make_game({"battlefield": ["chillwind_yeti"]}, {"battlefield": ["wisp", card_id]})
    yeti, taunt = minion(game, ME), minion(game, ENEMY, 1)
    targets = {c.target for c in game.legal_actions() if c.source == yeti.uid}
    assert targets == {taunt.uid}
    attack(game, yeti, taunt)
    assert taunt.health == taunt.definition.health - 4


@covers("bluegill_warrior", "wolfrider")
@pytest.mark.parametrize("card_id", ["bluegill_warrior", "wolfrider"])
def test_charge_minion_attacks_the_turn_it_is_played(card_id):
    game = make_game({"hand": [card_id]})
    played = play(game, card_id)
    attack(game, played, hero(game, ENEMY))
    assert hero(game, ENEMY).health == 30 - played.attack
    assert not can_attack(game, played)


@covers("the_coin")
def test_the_coin_gives_one_mana_this_turn():
    game = make_game({"hand": ["the_coin"], "mana": 0, "max_mana": 0})
    play(game, "the_coin")
    assert (game.player(ME).mana, game.player(ME).max_mana) == (1, 0)
    assert ids(game.player(ME).graveyard) == ["the_coin"]
    assert done_kinds(game) == ["PlayCard", "CastSpell", "TriggerAbility", "GainMana"]


@covers("consecration")
def test_consecration_hits_every_enemy_only():
    game = make_game({"hand": ["consecration"], "battlefield": ["river_crocolisk"]},
                     {"battlefield": ["bloodfen_raptor", "chillwind_yeti"]})
    play(game, "consecration")
    assert hero(game, ENEMY).health == 28 and hero(game, ME).health == 30
    assert board(game, ENEMY) == [("chillwind_yeti", 4, 3)]
    assert board(game, ME) == [("river_crocolisk", 2, 3)]
    assert ids(game.player(ENEMY).graveyard) == ["bloodfen_raptor"]


@covers("arcane_intellect")
def test_arcane_intellect_draws_two_from_the_top():
    game = make_game({"hand": ["arcane_intellect"], "deck": ["wisp", "magma_rager", "core_hound"]})
    play(game, "arcane_intellect")
    assert ids(game.player(ME).hand) == ["core_hound", "magma_rager"]
    assert ids(game.player(ME).deck) == ["wisp"]


@covers("fireball")
def test_fireball_deals_six_to_its_target():
    game = make_game({"hand": ["fireball", "fireball"]}, {"battlefield": ["boulderfist_ogre"]})
    play(game, "fireball", hero(game, ENEMY))
    assert hero(game, ENEMY).health == 24
    play(game, "fireball", minion(game, ENEMY))
    assert board(game, ENEMY) == [("boulderfist_ogre", 6, 1)]
    assert game.player(ME).mana == 2


@covers("fiery_war_axe")
def test_fiery_war_axe_lets_the_hero_attack_twice_then_breaks():
    game = make_game({"hand": ["fiery_war_axe"], "deck": ["wisp"]}, {"deck": ["wisp"]})
    play(game, "fiery_war_axe")
    me = hero(game, ME)
    assert me.attack == 3 and ids(game.player(ME).weapon) == ["fiery_war_axe"]
    attack(game, me, hero(game, ENEMY))
    assert hero(game, ENEMY).health == 27 and game.player(ME).weapon[0].durability == 1
    end_turn(game)
    end_turn(game)
    attack(game, me, hero(game, ENEMY))
    assert hero(game, ENEMY).health == 24
    assert game.player(ME).weapon == [] and me.attack == 0
    assert ids(game.player(ME).graveyard) == ["fiery_war_axe"]


@covers("explosive_trap")
def test_explosive_trap_springs_when_the_hero_is_attacked():
    game = make_game({"hand": ["explosive_trap"]},
                     {"battlefield": ["bloodfen_raptor", "chillwind_yeti"], "deck": ["wisp"]})
    play(game, "explosive_trap")
    assert ids(game.player(ME).secrets) == ["explosive_trap"]
    end_turn(game)
    raptor = minion(game, ENEMY)
    attack(game, raptor, hero(game, ME))
    assert hero(game, ME).health == 30  # the raptor died to the trap before its combat damage
    assert hero(game, ENEMY).health == 28
    assert board(game, ENEMY) == [("chillwind_yeti", 4, 3)]
    assert game.player(ME).secrets == [] and ids(game.player(ME).graveyard) == ["explosive_trap"]
