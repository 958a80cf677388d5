"""Rule: states saved by older versions still load (fields added since take their defaults), and a loaded game is
a full game: either seat's win is restored, its log records what happens from the load on, and the plain hero
loads with any hero set."""

from __future__ import annotations

import json

from ccg_env.engine import Choice, ChoiceKind, Game
from ccg_env.engine.choices import END_TURN
from ccg_env.engine.heroes import load_heroes

from .helpers import NO_MULLIGAN
from .test_roundtrip_fields import assert_same_game


def test_a_state_saved_before_the_mulligan_and_hero_powers_loads_with_their_defaults():
    """The fields those features added are left out: no phase, marks, hero power zone or hero power uses."""
    game = Game.new(seed=4, rules=NO_MULLIGAN)
    game.apply(game.legal_actions()[-1])
    doc = json.loads(game.to_json())
    doc["rules"].pop("mulligan")
    doc.pop("phase")
    for player, hero in zip(doc["players"], ("hero", "hero")):
        player["zones"]["hero"][0]["id"] = hero  # the heroes of that time had no class and no power
        player["zones"].pop("hero_power")
        player.pop("hero_power_uses")
        player.pop("marked")
    old = Game.from_json(json.dumps(doc))
    assert [(p.hero_power, p.hero_power_uses, p.marked) for p in old.state.players] == [([], 0, [])] * 2
    assert old.state.phase.value == "battle" and old.state.rules.mulligan is True  # the packaged rules' default
    assert old.legal_actions() == [c for c in game.legal_actions() if c.kind is not ChoiceKind.HERO_POWER]


def test_a_win_by_either_seat_is_restored():
    for caster in (0, 1):
        players = [{"mana": 10, "hand": ["hellfire"]}, {"health": 3}]
        game = Game.from_scenario({"current": caster, "turn": 3, "players": players[::1 - 2 * caster]})
        game.apply(Choice(ChoiceKind.PLAY, game.player(caster).hand[0].uid))
        assert game.winner == caster
        assert_same_game(game, Game.from_json(game.to_json()))


def test_a_loaded_game_logs_what_happens_from_the_load_on():
    game = Game.new(seed=2)
    loaded = Game.from_json(game.to_json())
    assert loaded.log == []  # the log before the save is not part of the state
    before = len(game.log)
    for choice in (game.legal_actions()[0], END_TURN):
        game.apply(choice)
        loaded.apply(choice)
    assert [str(entry) for entry in loaded.log] == [str(entry) for entry in game.log[before:]] != []


def test_the_plain_hero_loads_with_a_hero_set_that_does_not_list_it(tmp_path):
    path = tmp_path / "heroes.yaml"
    path.write_text("id: zapper\nname: Zapper\nclass: mage\npower: {id: zap, name: Zap, abilities: "
                    "[{effect: damage, select: enemy_hero, amount: 1}]}\n", encoding="utf-8")
    heroes = load_heroes(path)
    assert "hero" not in heroes.definitions
    game = Game.from_scenario({"players": [{"hand": ["wisp"]}, {}]})  # the plain heroes of the packaged set
    loaded = Game.from_json(game.to_json(), heroes=heroes)
    assert [p.hero.definition.id for p in loaded.state.players] == ["hero", "hero"]
    assert_same_game(game, loaded)
