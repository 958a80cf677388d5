"""Scenario tests for configs/cards/classic_secrets_weapons.yaml: secrets springing on the enemy turn, weapons."""

from __future__ import annotations

from ccg_env.engine import Keyword

from .helpers import (
    ENEMY, ME, attack, board, covers, done_kinds, end_turn, has, hero, ids, make_game, minion, play, play_targets,
)

DECK = ["wisp", "wisp"]


def _sprung(game, secret_id: str) -> bool:
    """The secret left its owner's secrets zone for the graveyard."""
    return game.player(ME).secrets == [] and secret_id in ids(game.player(ME).graveyard)


@covers("ice_barrier")
def test_ice_barrier_gives_armor_before_the_attack_lands():
    game = make_game({"secrets": ["ice_barrier"]}, {"battlefield": ["bloodfen_raptor"]}, current=ENEMY)
    attack(game, minion(game, ENEMY), hero(game, ME))
    assert (hero(game, ME).armor, hero(game, ME).health) == (5, 30)
    assert _sprung(game, "ice_barrier")


@covers("vaporize")
def test_vaporize_destroys_a_minion_attacking_your_hero():
    game = make_game({"secrets": ["vaporize"]}, {"battlefield": ["core_hound"]}, current=ENEMY)
    attack(game, minion(game, ENEMY), hero(game, ME))
    assert hero(game, ME).health == 30 and board(game, ENEMY) == []
    assert ids(game.player(ENEMY).graveyard) == ["core_hound"] and _sprung(game, "vaporize")
    assert "Damage" not in done_kinds(game)  # the attacker was destroyed before combat damage


@covers("snake_trap", "snake")
def test_snake_trap_summons_three_snakes_when_a_minion_is_attacked():
    game = make_game({"secrets": ["snake_trap"], "battlefield": ["chillwind_yeti"]},
                     {"battlefield": ["river_crocolisk"]}, current=ENEMY)
    attack(game, minion(game, ENEMY), minion(game, ME))
    assert board(game, ME) == [("chillwind_yeti", 4, 3)] + [("snake", 1, 1)] * 3
    assert board(game, ENEMY) == [] and _sprung(game, "snake_trap")


@covers("venomstrike_trap")
def test_venomstrike_trap_summons_a_poisonous_cobra_when_a_minion_is_attacked():
    game = make_game({"secrets": ["venomstrike_trap"], "battlefield": ["wisp"]},
                     {"battlefield": ["river_crocolisk"]}, current=ENEMY)
    attack(game, minion(game, ENEMY), minion(game, ME))
    assert board(game, ME) == [("emperor_cobra", 2, 3)] and has(minion(game, ME), Keyword.POISONOUS)
    assert _sprung(game, "venomstrike_trap")


@covers("snipe")
def test_snipe_hits_the_next_minion_the_opponent_plays():
    game = make_game({"hand": ["snipe", "wisp"], "deck": DECK}, {"hand": ["chillwind_yeti", "wisp"], "deck": DECK})
    play(game, "snipe")
    play(game, "wisp")  # your own minion does not set it off
    assert ids(game.player(ME).secrets) == ["snipe"]
    end_turn(game)
    play(game, "chillwind_yeti")
    assert board(game, ENEMY) == [("chillwind_yeti", 4, 1)] and _sprung(game, "snipe")
    play(game, "wisp")
    assert board(game, ENEMY) == [("chillwind_yeti", 4, 1), ("wisp", 1, 1)]


@covers("cat_trick")
def test_cat_trick_summons_a_panther_after_the_enemy_spell_resolves():
    game = make_game({"secrets": ["cat_trick"]}, {"hand": ["arcane_explosion"]}, current=ENEMY)
    play(game, "arcane_explosion")
    assert board(game, ME) == [("jungle_panther", 4, 2)] and has(minion(game, ME), Keyword.STEALTH)
    assert _sprung(game, "cat_trick")


@covers("lights_justice")
def test_lights_justice_gives_the_hero_one_attack_for_four_swings():
    game = make_game({"hand": ["lights_justice"]})
    play(game, "lights_justice")
    attack(game, hero(game, ME), hero(game, ENEMY))
    assert hero(game, ENEMY).health == 29 and hero(game, ME).attack == 1
    assert game.player(ME).weapon[0].durability == 3


@covers("perditions_blade")
def test_perditions_blade_deals_one_damage_when_equipped():
    game = make_game({"hand": ["perditions_blade"]}, {"battlefield": ["wisp"]})
    assert None not in play_targets(game, "perditions_blade")
    play(game, "perditions_blade", minion(game, ENEMY))
    assert board(game, ENEMY) == [] and hero(game, ME).attack == 2
    assert ids(game.player(ME).weapon) == ["perditions_blade"]


@covers("arcanite_reaper")
def test_arcanite_reaper_replaces_the_old_weapon():
    game = make_game({"hand": ["arcanite_reaper"], "weapon": "fiery_war_axe"})
    play(game, "arcanite_reaper")
    assert ids(game.player(ME).weapon) == ["arcanite_reaper"] and hero(game, ME).attack == 5
    assert ids(game.player(ME).graveyard) == ["fiery_war_axe"]
    attack(game, hero(game, ME), hero(game, ENEMY))
    assert hero(game, ENEMY).health == 25
