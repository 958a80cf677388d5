"""Scenario tests for configs/cards/lesson.yaml: the eight cards of the Action System lesson."""

from __future__ import annotations

import pytest

from .helpers import (
    ENEMY, ME, attack, board, covers, done_kinds, hero, ids, make_game, minion, play,
)


@covers("acolyte_of_pain")
def test_acolyte_of_pain_draws_whenever_it_takes_damage():
    game = make_game({"battlefield": ["acolyte_of_pain"], "deck": ["wisp", "core_hound"]},
                     {"battlefield": ["river_crocolisk"]})
    attack(game, minion(game, ME), minion(game, ENEMY))
    assert board(game, ME) == [("acolyte_of_pain", 1, 1)]
    assert ids(game.player(ME).hand) == ["core_hound"]
    assert done_kinds(game) == ["Attack", "Damage", "TriggerAbility", "DrawCards"]


@covers("backstreet_leper")
def test_backstreet_leper_deathrattle_hits_the_enemy_hero():
    game = make_game({"battlefield": ["backstreet_leper"]}, {"battlefield": ["river_crocolisk"]})
    attack(game, minion(game, ME), minion(game, ENEMY))
    assert board(game, ME) == [] and ids(game.player(ME).graveyard) == ["backstreet_leper"]
    assert board(game, ENEMY) == [] and hero(game, ENEMY).health == 28
    assert hero(game, ME).health == 30


@covers("tentacle_of_nzoth")
def test_tentacle_of_nzoth_deathrattle_damages_all_minions():
    game = make_game({"battlefield": ["tentacle_of_nzoth", "river_crocolisk"]},
                     {"battlefield": ["bloodfen_raptor", "wisp"]})
    attack(game, minion(game, ME), minion(game, ENEMY, 1))  # tentacle and wisp trade
    assert board(game, ME) == [("river_crocolisk", 2, 2)]
    assert board(game, ENEMY) == [("bloodfen_raptor", 3, 1)]
    assert hero(game, ME).health == 30 and hero(game, ENEMY).health == 30


@covers("questing_adventurer")
def test_questing_adventurer_grows_when_you_play_another_card():
    game = make_game({"hand": ["questing_adventurer", "wisp", "arcane_explosion"]})
    play(game, "questing_adventurer")
    assert board(game, ME) == [("questing_adventurer", 2, 2)]  # not triggered by itself
    play(game, "wisp")
    play(game, "arcane_explosion")
    assert board(game, ME) == [("questing_adventurer", 4, 4), ("wisp", 1, 1)]


@covers("violet_teacher", "violet_apprentice")
def test_violet_teacher_summons_an_apprentice_per_spell():
    game = make_game({"hand": ["arcane_explosion", "arcane_intellect", "wisp"], "battlefield": ["violet_teacher"],
                      "deck": ["wisp", "wisp"]})
    play(game, "wisp")
    play(game, "arcane_explosion")
    play(game, "arcane_intellect")
    # rule changed (issue 21, summon positions): each apprentice appears right of the teacher, not at the right end
    assert board(game, ME) == [("violet_teacher", 3, 5), ("violet_apprentice", 1, 1), ("violet_apprentice", 1, 1),
                               ("wisp", 1, 1)]
    assert all(not m.definition.collectible for m in game.player(ME).battlefield[1:3])


@covers("knife_juggler")
@pytest.mark.parametrize("seed", range(4))
def test_knife_juggler_hits_one_random_enemy_per_summon(seed):
    game = make_game({"hand": ["wisp", "wisp"], "battlefield": ["knife_juggler", "river_crocolisk"]},
                     {"battlefield": ["chillwind_yeti", "boulderfist_ogre"]}, seed=seed)
    enemies = [hero(game, ENEMY), *game.player(ENEMY).battlefield]
    before = sum(c.health for c in enemies)
    play(game, "wisp")
    play(game, "wisp")
    assert before - sum(c.health for c in enemies) == 2
    assert hero(game, ME).health == 30 and board(game, ME)[:2] == [("knife_juggler", 2, 2), ("river_crocolisk", 2, 3)]
    assert done_kinds(game).count("Damage") == 2


@covers("arcane_explosion")
def test_arcane_explosion_hits_enemy_minions_only():
    game = make_game({"hand": ["arcane_explosion"], "battlefield": ["wisp"]},
                     {"battlefield": ["wisp", "river_crocolisk"]})
    play(game, "arcane_explosion")
    assert board(game, ENEMY) == [("river_crocolisk", 2, 2)]
    assert board(game, ME) == [("wisp", 1, 1)]
    assert hero(game, ENEMY).health == 30 and game.player(ME).mana == 8
