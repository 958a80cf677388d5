"""Scenario tests for configs/cards/classic_triggers.yaml: spell, play, summon, damage and turn triggers."""

from __future__ import annotations

import pytest

from ccg_env.engine import Game, Keyword, default_cards, load_cards

from .helpers import (
    ENEMY, ME, attack, board, can_attack, covers, done_kinds, end_turn, has, hero, ids, make_game, minion, play,
    play_targets,
)

DECK = ["wisp", "wisp"]  # something to draw at the start of a turn, so no fatigue muddles the numbers


@covers("mana_wyrm")
def test_mana_wyrm_gains_attack_per_spell():
    game = make_game({"hand": ["arcane_explosion", "the_coin", "wisp"], "battlefield": ["mana_wyrm"]})
    play(game, "wisp")
    play(game, "arcane_explosion")
    play(game, "the_coin")
    assert board(game, ME)[0] == ("mana_wyrm", 3, 3)


@covers("wild_pyromancer")
def test_wild_pyromancer_hits_all_minions_before_the_spell_resolves():
    game = make_game({"hand": ["circle_of_healing", "arcane_explosion"], "battlefield": ["wild_pyromancer"]},
                     {"battlefield": ["chillwind_yeti"]})
    play(game, "circle_of_healing")  # the pyromancer's damage comes first, so the circle heals it all back
    assert board(game, ME) == [("wild_pyromancer", 3, 2)] and board(game, ENEMY) == [("chillwind_yeti", 4, 5)]
    start = len(game.log)
    play(game, "arcane_explosion")
    assert board(game, ME) == [("wild_pyromancer", 3, 1)] and board(game, ENEMY) == [("chillwind_yeti", 4, 3)]
    assert done_kinds(game, start) == ["PlayCard", "CastSpell", "TriggerAbility", "Damage", "TriggerAbility",
                                       "Damage"]


@covers("gadgetzan_auctioneer")
def test_gadgetzan_auctioneer_draws_per_spell():
    game = make_game({"hand": ["the_coin", "wisp"], "battlefield": ["gadgetzan_auctioneer"], "deck": DECK})
    play(game, "wisp")
    assert len(game.player(ME).hand) == 1
    play(game, "the_coin")
    assert ids(game.player(ME).hand) == ["wisp"] and len(game.player(ME).deck) == 1


@covers("illidan_stormrage", "flame_of_azzinoth")
def test_illidan_summons_a_flame_after_the_played_minion_takes_its_slot():
    game = make_game({"hand": ["wisp", "the_coin"], "battlefield": ["illidan_stormrage"]})
    play(game, "wisp")
    play(game, "the_coin")
    # rule changed (issue 21, summon positions): each flame appears right of Illidan, not at the right end
    assert ids(game.player(ME).battlefield) == ["illidan_stormrage", "flame_of_azzinoth", "flame_of_azzinoth",
                                               "wisp"]
    full = make_game({"hand": ["wisp"], "battlefield": ["illidan_stormrage"] + ["river_crocolisk"] * 5})
    play(full, "wisp")
    assert ids(full.player(ME).battlefield)[-1] == "wisp" and len(full.player(ME).battlefield) == 7
    assert [e.kind for e in full.log if e.cancelled] == ["Summon"]


@covers("warsong_commander")
def test_warsong_commander_gives_summoned_minions_charge():
    game = make_game({"hand": ["murloc_tidehunter"], "battlefield": ["warsong_commander"]})
    tidehunter = play(game, "murloc_tidehunter")
    scout = minion(game, ME, 2)
    assert has(tidehunter, Keyword.CHARGE) and has(scout, Keyword.CHARGE)
    assert not has(minion(game, ME), Keyword.CHARGE)
    attack(game, scout, hero(game, ENEMY))
    assert hero(game, ENEMY).health == 29 and can_attack(game, tidehunter)


@covers("warsong_commander", "snipe")
@pytest.mark.parametrize("played", ["bloodfen_raptor", "nightblade"])  # Snipe leaves them at -2 and at exactly 0
def test_warsong_commander_gives_nothing_to_a_summoned_minion_that_died_first(played):
    """An effect on the card that set it off finds nothing once that card is dead: here the enemy's Snipe
    (which resolves first) kills the played minion, and the Warsong Commander's trigger then gives no one charge."""
    game = make_game({"secrets": ["snipe"]}, {"hand": [played], "battlefield": ["warsong_commander"]}, current=ENEMY)
    play(game, played)
    dead = game.player(ENEMY).graveyard[-1]
    assert ids([dead]) == [played] and dead.health <= 0 and not has(dead, Keyword.CHARGE)
    assert "Reap" in done_kinds(game) and "GiveKeyword" not in done_kinds(game)


@covers("warsong_commander")
def test_a_warsong_commander_summoned_by_an_effect_does_not_give_itself_charge(tmp_path):
    """'After you summon a minion' reacts to other minions: the summoned commander was not there to see itself."""
    extra = tmp_path / "call.yaml"
    extra.write_text("cards:\n  - {id: test_call_the_commander, name: Call the Commander, type: spell, cost: 1,\n"
                     "     abilities: [{trigger: battlecry, effect: summon, card: warsong_commander}]}\n")
    cards = load_cards([*default_cards().sources, extra])
    game = Game.from_scenario({"current": ME, "turn": 3, "players": [
        {"mana": 10, "hand": ["test_call_the_commander"]}, {"mana": 10}]}, cards=cards)
    play(game, "test_call_the_commander")
    assert ids(game.player(ME).battlefield) == ["warsong_commander"]
    assert not has(minion(game, ME), Keyword.CHARGE) and "GiveKeyword" not in done_kinds(game)


@covers("gurubashi_berserker")
def test_gurubashi_berserker_gains_attack_whenever_damaged():
    game = make_game({"battlefield": ["gurubashi_berserker"]}, {"battlefield": ["wisp"], "hand": ["arcane_explosion"],
                                                                "deck": DECK})
    attack(game, minion(game, ME), minion(game, ENEMY))
    assert board(game, ME) == [("gurubashi_berserker", 5, 6)]
    end_turn(game)
    play(game, "arcane_explosion")
    assert board(game, ME) == [("gurubashi_berserker", 8, 5)]


@covers("lightwell")
@pytest.mark.parametrize("seed", range(4))
def test_lightwell_heals_one_damaged_friendly_character_at_turn_start(seed):
    game = make_game({"battlefield": ["lightwell", {"card": "chillwind_yeti", "health": 1}], "health": 20,
                      "deck": DECK}, {"battlefield": [{"card": "river_crocolisk", "health": 1}]}, current=ENEMY,
                     seed=seed)
    yeti = minion(game, ME, 1)
    end_turn(game)
    healed = (hero(game, ME).health - 20, yeti.health - 1)
    assert sorted(healed) == [0, 3]
    assert board(game, ENEMY) == [("river_crocolisk", 2, 1)] and minion(game, ME).health == 5


@covers("demolisher")
@pytest.mark.parametrize("seed", range(4))
def test_demolisher_hits_a_random_enemy_at_turn_start(seed):
    game = make_game({"battlefield": ["demolisher", "wisp"], "deck": DECK},
                     {"battlefield": ["boulderfist_ogre"]}, current=ENEMY, seed=seed)
    ogre = minion(game, ENEMY)
    end_turn(game)
    assert (30 - hero(game, ENEMY).health) + (7 - ogre.health) == 2
    assert hero(game, ME).health == 30 and board(game, ME) == [("demolisher", 1, 4), ("wisp", 1, 1)]


@covers("doomsayer")
def test_doomsayer_destroys_all_minions_at_turn_start():
    game = make_game({"battlefield": ["doomsayer", "chillwind_yeti"], "deck": DECK},
                     {"battlefield": ["boulderfist_ogre"]}, current=ENEMY)
    end_turn(game)
    assert board(game, ME) == [] and board(game, ENEMY) == []
    assert sorted(ids(game.player(ME).graveyard)) == ["chillwind_yeti", "doomsayer"]


@covers("young_priestess")
def test_young_priestess_gives_another_friendly_minion_health_at_turn_end():
    game = make_game({"battlefield": ["young_priestess", "chillwind_yeti"]}, {"deck": DECK})
    end_turn(game)
    assert board(game, ME) == [("young_priestess", 2, 1), ("chillwind_yeti", 4, 6)]
    assert minion(game, ME, 1).max_health == 6


@covers("master_swordsmith")
def test_master_swordsmith_gives_another_friendly_minion_attack_at_turn_end():
    game = make_game({"battlefield": ["master_swordsmith", "chillwind_yeti"]}, {"deck": DECK})
    end_turn(game)
    assert board(game, ME) == [("master_swordsmith", 1, 3), ("chillwind_yeti", 5, 5)]
    alone = make_game({"battlefield": ["master_swordsmith"]}, {"deck": DECK})
    end_turn(alone)
    assert board(alone, ME) == [("master_swordsmith", 1, 3)]


@covers("imp_master", "imp")
def test_imp_master_hurts_itself_and_summons_an_imp_at_turn_end():
    game = make_game({"battlefield": ["imp_master"]}, {"deck": DECK})
    end_turn(game)
    assert board(game, ME) == [("imp_master", 1, 4), ("imp", 1, 1)]


@covers("hogger", "gnoll")
def test_hogger_summons_a_taunt_gnoll_at_turn_end():
    game = make_game({"battlefield": ["hogger"]}, {"deck": DECK, "battlefield": ["river_crocolisk"]})
    end_turn(game)
    gnoll = minion(game, ME, 1)
    assert board(game, ME) == [("hogger", 4, 4), ("gnoll", 2, 2)] and has(gnoll, Keyword.TAUNT)
    croc = minion(game, ENEMY)
    assert {c.target for c in game.legal_actions() if c.source == croc.uid} == {gnoll.uid}


@covers("ragnaros_the_firelord")
@pytest.mark.parametrize("seed", range(4))
def test_ragnaros_hits_a_random_enemy_for_eight_at_turn_end(seed):
    game = make_game({"battlefield": ["ragnaros_the_firelord"]}, {"deck": DECK, "battlefield": ["chillwind_yeti"]},
                     seed=seed)
    end_turn(game)
    if board(game, ENEMY):
        assert hero(game, ENEMY).health == 22
    else:
        assert hero(game, ENEMY).health == 30 and ids(game.player(ENEMY).graveyard) == ["chillwind_yeti"]
    assert hero(game, ME).health == 30 and board(game, ME) == [("ragnaros_the_firelord", 8, 8)]


@covers("patient_assassin")
def test_patient_assassin_is_hidden_and_poisonous():
    hidden = make_game({"battlefield": ["patient_assassin"]}, {"hand": ["fireball"]}, current=ENEMY)
    assert minion(hidden, ME).uid not in play_targets(hidden, "fireball")
    game = make_game({"battlefield": ["patient_assassin"]}, {"battlefield": ["boulderfist_ogre"]})
    attack(game, minion(game, ME), minion(game, ENEMY))
    assert board(game, ENEMY) == [] and board(game, ME) == []
