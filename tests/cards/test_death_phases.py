"""Rule: deaths are resolved at the end of each phase of a play, as in Hearthstone, not only after the whole play.

A played minion: it enters and 'whenever you play a card' triggers (on play), deaths; its battlecry, deaths;
'after your opponent plays a minion' secrets, deaths; 'after you summon' triggers, deaths. A spell: 'whenever you
play / cast' triggers, deaths; its text, deaths; 'after your opponent casts' secrets, deaths. A minion killed in one
phase is in the graveyard (its deathrattle resolved) before the next phase begins, so its triggers no longer fire.
"""

from __future__ import annotations

from ccg_env.engine import Game

from .helpers import ENEMY, ME, board, hero, ids, make_game, minion, play


def knife_throws(game: Game, start: int = 0) -> int:
    """How many times a Knife Juggler's ability fired since log entry ``start``."""
    return sum(1 for e in game.log[start:] if e.kind == "TriggerAbility" and e.action.card.definition.id == "knife_juggler")


def test_a_minion_killed_by_a_battlecry_does_not_fire_its_after_summon_trigger():
    """Knife Juggler at 1 health, killed by Elven Archer's battlecry, throws no knife for the Archer."""
    game = make_game({"hand": ["elven_archer"], "battlefield": [{"card": "knife_juggler", "health": 1}]},
                     {"battlefield": ["chillwind_yeti"]})
    juggler = minion(game, ME)
    start = len(game.log)
    play(game, "elven_archer", juggler)
    assert ids(game.player(ME).graveyard) == ["knife_juggler"] and board(game, ME) == [("elven_archer", 1, 1)]
    assert knife_throws(game, start) == 0
    assert hero(game, ENEMY).health == 30 and board(game, ENEMY) == [("chillwind_yeti", 4, 5)]


def test_a_juggler_the_battlecry_does_not_kill_still_throws():
    """The same play with the Archer's arrow elsewhere: the Juggler lives through the battlecry phase and throws."""
    game = make_game({"hand": ["elven_archer"], "battlefield": [{"card": "knife_juggler", "health": 1}]},
                     {"battlefield": ["chillwind_yeti"]})
    start = len(game.log)
    play(game, "elven_archer", hero(game, ENEMY))
    assert knife_throws(game, start) == 1
    enemy_damage = 30 - hero(game, ENEMY).health + 5 - minion(game, ENEMY).health
    assert enemy_damage == 2  # the arrow and the knife


def test_a_juggler_killed_by_a_battlecry_is_reaped_before_the_after_summon_phase():
    """The Reap of the Juggler comes after the battlecry's damage and before the play ends, inside the play."""
    game = make_game({"hand": ["elven_archer"], "battlefield": [{"card": "knife_juggler", "health": 1}]})
    start = len(game.log)
    play(game, "elven_archer", minion(game, ME))
    entries = [(e.depth, e.kind) for e in game.log[start:] if e.cancelled is None]
    assert entries == [(0, "PlayCard"), (1, "Summon"), (1, "TriggerAbility"), (2, "Damage"), (1, "Reap")]


def test_a_spells_on_play_deaths_resolve_before_its_text():
    """Wild Pyromancer's 'whenever you cast' kills a 1-health Harvest Golem; its Damaged Golem is summoned before
    the spell's text, so Arcane Explosion kills the Damaged Golem too (reaped only after the play, it would live)."""
    game = make_game({"hand": ["arcane_explosion"], "battlefield": ["wild_pyromancer"]},
                     {"battlefield": [{"card": "harvest_golem", "health": 1}]})
    play(game, "arcane_explosion")
    assert board(game, ENEMY) == []
    assert ids(game.player(ENEMY).graveyard) == ["harvest_golem", "damaged_golem"]


def test_deaths_of_a_spells_text_resolve_before_after_cast_secrets():
    """Arcane Explosion kills the enemy's seven wisps; the board is cleared before Cat Trick springs, so its panther
    finds room (with deaths only after the whole play, the full board refused it)."""
    game = make_game({"hand": ["arcane_explosion"]}, {"battlefield": ["wisp"] * 7, "secrets": ["cat_trick"]})
    play(game, "arcane_explosion")
    assert board(game, ENEMY) == [("jungle_panther", 4, 2)]
    assert ids(game.player(ENEMY).graveyard).count("wisp") == 7


def test_deaths_of_a_battlecry_resolve_before_after_play_secrets():
    """A deathrattle set off by the battlecry resolves before 'after your opponent plays a minion' (Snipe): the
    golem killed by the Archer's arrow is replaced by its Damaged Golem before Snipe hits the Archer."""
    game = make_game({"hand": ["elven_archer"]},
                     {"battlefield": [{"card": "harvest_golem", "health": 1}], "secrets": ["snipe"]})
    start = len(game.log)
    play(game, "elven_archer", minion(game, ENEMY))
    done = [e.kind for e in game.log[start:] if e.cancelled is None]
    reap_of_golem = done.index("Reap")
    snipe = next(i for i, e in enumerate(e for e in game.log[start:] if e.cancelled is None)
                 if e.kind == "TriggerAbility" and e.action.card.definition.id == "snipe")
    assert reap_of_golem < snipe
    assert board(game, ENEMY) == [("damaged_golem", 2, 1)] and board(game, ME) == []


def test_a_minion_killed_in_the_on_play_phase_is_reaped_before_the_battlecry():
    """Illidan's flame (on play) sets off Knife Juggler, whose knife may kill the enemy's 1-health Harvest Golem:
    on a seed where it does, the golem is reaped (its Damaged Golem summoned) before the Archer's battlecry."""
    for seed in range(20):
        game = make_game({"hand": ["elven_archer"], "battlefield": ["illidan_stormrage", "knife_juggler"]},
                         {"battlefield": [{"card": "harvest_golem", "health": 1}]}, seed=seed)
        start = len(game.log)
        play(game, "elven_archer", hero(game, ENEMY))
        entries = [e for e in game.log[start:] if e.cancelled is None]
        reaps = [i for i, e in enumerate(entries) if e.kind == "Reap"]
        if not reaps:
            continue  # this seed's knives hit the hero
        battlecry = next(i for i, e in enumerate(entries)
                         if e.kind == "TriggerAbility" and e.action.card.definition.id == "elven_archer")
        assert reaps[0] < battlecry
        assert "harvest_golem" in ids(e.action.cards[0] for e in entries[reaps[0]:reaps[0] + 1])
        return
    raise AssertionError("no seed of 20 made a knife hit the golem before the battlecry")


def test_a_hero_killed_in_a_phase_ends_the_game_before_the_next_phase():
    """The Archer's arrow kills the enemy hero: the death phase after the battlecry ends the game, so the Knife
    Juggler's after-summon knife is never thrown and the game's last entry is its end."""
    game = make_game({"hand": ["elven_archer"], "battlefield": ["knife_juggler"]}, {"health": 1})
    start = len(game.log)
    play(game, "elven_archer", hero(game, ENEMY))
    assert game.is_over and game.winner == ME
    assert knife_throws(game, start) == 0 and game.log[-1].kind == "GameOver"
    assert all(e.cancelled is None for e in game.log[start:])
