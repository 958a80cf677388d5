"""The Action System lesson's scenario plays out in exactly the lesson's order (card texts win over narrative)."""

import pytest

from ccg_env.engine import Game

from .helpers import minions, play

SCENARIO = {
    "current": 0,
    "players": [
        {"mana": 10, "hand": ["arcane_explosion"], "deck": ["wisp"] * 5,
         "battlefield": [{"card": "questing_adventurer", "order_of_play": 4},
                         {"card": "violet_teacher", "order_of_play": 5},
                         {"card": "knife_juggler", "order_of_play": 6}]},
        {"mana": 10, "deck": ["river_crocolisk"] * 5,
         "battlefield": [{"card": "acolyte_of_pain", "order_of_play": 1},
                         {"card": "backstreet_leper", "order_of_play": 2},
                         {"card": "tentacle_of_nzoth", "order_of_play": 3}]},
    ],
}

#: A seed where Knife Juggler's random enemy is Acolyte of Pain, as the lesson imagines.
SEED = 1


def _node(entry) -> tuple:
    action = entry.action
    name = getattr(getattr(action, "card", None), "definition", None)
    return (entry.depth, entry.kind, name.id if name else None)


@pytest.fixture
def game():
    game = Game.from_scenario(SCENARIO, seed=SEED)
    play(game, "arcane_explosion")
    return game


def test_knife_juggler_hits_acolyte_with_this_seed(game):
    juggler_damage = next(e for e in game.log if e.kind == "Damage")
    [hit] = juggler_damage.action.hits
    assert hit.source.definition.id == "knife_juggler" and hit.target.definition.id == "acolyte_of_pain"


def test_reaction_tree_matches_the_lesson(game):
    assert [_node(e) for e in game.log] == [
        (0, "PlayCard", "arcane_explosion"),  # 1. play a card
        (1, "TriggerAbility", "questing_adventurer"),  # 2. Questing Adventurer reacts first (older)
        (2, "Buff", None),
        (1, "CastSpell", "arcane_explosion"),  # 3. cast a spell
        (2, "TriggerAbility", "violet_teacher"),  # 4. 'whenever you cast' reacts to the prepare phase
        (3, "Summon", "violet_apprentice"),
        (4, "TriggerAbility", "knife_juggler"),  # 5. after you summon: 1 damage to a random enemy
        (5, "Damage", None),
        (6, "TriggerAbility", "acolyte_of_pain"),  # 6. Acolyte draws
        (7, "DrawCards", None),
        (2, "TriggerAbility", "arcane_explosion"),  # 7. the spell's own damage
        (3, "Damage", None),
        (4, "TriggerAbility", "acolyte_of_pain"),  # 8. Acolyte draws again
        (5, "DrawCards", None),
        # rule changed (issue 21, deaths per phase): the death phase runs as the spell's text phase ends, inside the
        # cast (reactions of the CastSpell, depth 2), not after the root action: same order, deeper in the tree
        (2, "Reap", None),  # death reaper, first loop: Leper and Tentacle
        (3, "TriggerAbility", "backstreet_leper"),
        (4, "Damage", None),  # 2 damage to the enemy (our) hero
        (3, "TriggerAbility", "tentacle_of_nzoth"),
        (4, "Damage", None),  # card text: 1 damage to all minions
        (5, "TriggerAbility", "acolyte_of_pain"),  # card text: Acolyte draws from that damage too
        (6, "DrawCards", None),
        (2, "Reap", None),  # second loop: Acolyte and Violet Apprentice
    ]


def test_reaped_cards_and_final_board(game):
    reaps = [sorted(c.definition.id for c in e.action.cards) for e in game.log if e.kind == "Reap"]
    assert reaps == [["backstreet_leper", "tentacle_of_nzoth"], ["acolyte_of_pain", "violet_apprentice"]]
    assert minions(game, 0) == [("questing_adventurer", 3, 2), ("violet_teacher", 3, 4), ("knife_juggler", 2, 1)]
    assert minions(game, 1) == []
    assert game.player(0).hero.health == 28
    assert len(game.player(1).hand) == 3 and len(game.player(1).deck) == 2
    tentacle_hits = [e for e in game.log if e.kind == "Damage"][-1].action.hits
    assert {h.target.definition.id for h in tentacle_hits} == {
        "questing_adventurer", "violet_teacher", "knife_juggler", "violet_apprentice", "acolyte_of_pain"}
