"""Bad inputs to the engine: rules and deck files, deck names, scenarios, JSON states, moves after the end.

Each is refused with an error naming the file (or document), the item and the field, and nothing is half
loaded: no game comes back and later games are unaffected.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest

from ccg_env.engine import (
    Choice, ChoiceKind, DataError, Game, GameOverError, IllegalActionError, Rules, StateError, default_cards, load_deck,
)
from ccg_env.engine.actions import ChangeTurn
from ccg_env.engine.choices import END_TURN
from ccg_env.engine.serialize import MAX_NUMBER

# --- rules files --------------------------------------------------------------------------------------

BAD_RULES = {
    "unknown key": ("max_hand: 10\nhand_size: 3\n", r"field 'hand_size': unknown field"),
    "negative value": ("max_hand: -1\n", r"field 'max_hand': must be between 1 and 20, got -1"),
    "negative fatigue step": ("fatigue_step: -2\n", r"field 'fatigue_step': must be between 0"),
    "zero turn limit": ("turn_limit: 0\n", r"field 'turn_limit': must be between 1"),
    "string for a number": ("max_mana: ten\n", r"field 'max_mana': expected an integer, got 'ten'"),
    "float for a number": ("max_mana: 10.5\n", r"field 'max_mana': expected an integer, got 10.5"),
    "bool for a number": ("hero_health: true\n", r"field 'hero_health': expected an integer, got True"),
    "number for a bool": ("coin_for_second: 1\n", r"field 'coin_for_second': expected true or false, got 1"),
    "too large": ("hero_health: 100000\n", r"field 'hero_health': must be between 1 and 1000"),
    "opening hand above max hand": ("max_hand: 2\n", r"field 'max_hand': opening hands cannot exceed max_hand"),
    "a list, not a mapping": ("- 1\n- 2\n", r": expected a mapping, got list"),
    "broken YAML": ("max_hand: [1,\n", r": not valid YAML"),
}


@pytest.mark.parametrize("name", sorted(BAD_RULES))
def test_bad_rules_files_name_the_file_and_field(name, tmp_path):
    text, message = BAD_RULES[name]
    path = tmp_path / "my_rules.yaml"
    path.write_text(text)
    with pytest.raises(DataError, match=message) as info:
        Rules.load(path)
    assert str(info.value).startswith(str(path))


def test_a_missing_rules_file_is_named():
    with pytest.raises(DataError, match=r"no_such_rules\.yaml: cannot read file"):
        Rules.load("no_such_rules.yaml")


def test_an_empty_rules_file_means_the_defaults(tmp_path):
    path = tmp_path / "empty.yaml"
    path.write_text("# nothing overridden\n")
    assert Rules.load(path) == Rules()


# --- deck files ---------------------------------------------------------------------------------------

GOOD_DECK = {c: 2 for c in ("wisp", "fireball", "chillwind_yeti", "bloodfen_raptor", "arcane_explosion",
                            "boulderfist_ogre", "acolyte_of_pain", "abusive_sergeant", "argent_squire", "consecration",
                            "arcane_intellect", "assassinate", "blizzard", "abomination", "acidic_swamp_ooze")}


def _deck_text(cards: dict, **extra) -> str:
    return json.dumps({"name": "mine", **extra, "cards": cards})  # JSON is valid YAML


BAD_DECKS = {
    "too many copies": ({**GOOD_DECK, "wisp": 3}, {}, r"field 'cards.wisp': 3 copies, the rules allow at most 2"),
    "unknown card": ({**{k: v for k, v in GOOD_DECK.items() if k != "wisp"}, "wispy": 2}, {},
                     r"field 'cards.wispy': unknown card id 'wispy'"),
    "too few cards": ({k: v for k, v in GOOD_DECK.items() if k != "wisp"}, {},
                      r"field 'cards': has 28 cards, the rules want exactly 30"),
    "too many cards": ({**GOOD_DECK, "snipe": 1}, {}, r"field 'cards': has 31 cards, the rules want exactly 30"),
    "a token": ({**{k: v for k, v in GOOD_DECK.items() if k != "wisp"}, "the_coin": 2}, {},
                r"field 'cards.the_coin': 'the_coin' is not collectible"),
    "zero copies": ({**GOOD_DECK, "wisp": 0}, {}, r"field 'cards.wisp': expected a positive count, got 0"),
    "count as text": ({**GOOD_DECK, "wisp": "two"}, {}, r"field 'cards.wisp': expected a positive count"),
    "cards as a list": (["wisp"], {}, r"field 'cards': expected a mapping of card id to count"),
    "unknown key": (GOOD_DECK, {"colour": "red"}, r"field 'colour': unknown field"),
}


@pytest.mark.parametrize("name", sorted(BAD_DECKS))
def test_bad_deck_files_name_the_file_deck_and_field(name, tmp_path):
    cards, extra, message = BAD_DECKS[name]
    path = tmp_path / "my_deck.yaml"
    path.write_text(_deck_text(cards, **extra))
    with pytest.raises(DataError, match=message) as info:
        load_deck(path, default_cards(), Rules.load())
    assert str(info.value).startswith(str(path))
    with pytest.raises(DataError, match=message):
        Game.new(seed=0, decks=[path, "aggro"])


def test_the_good_deck_of_this_table_loads(tmp_path):
    path = tmp_path / "my_deck.yaml"
    path.write_text(_deck_text(GOOD_DECK))
    assert len(load_deck(path, default_cards(), Rules.load()).cards) == 30


@pytest.mark.parametrize("decks, error, message", [
    (["aggro", "no_such_deck"], DataError, r"unknown deck 'no_such_deck' \(packaged decks: aggro, "),
    (["aggro", "missing_file.yaml"], DataError, r"missing_file\.yaml: cannot read file"),
    (["aggro"], ValueError, r"a game needs exactly two decks, got 1"),
    (["aggro", "aggro", "aggro"], ValueError, r"a game needs exactly two decks, got 3"),
])
def test_game_new_with_bad_decks_says_what_is_wrong(decks, error, message):
    before = Game.new(seed=5).to_json()
    with pytest.raises(error, match=message):
        Game.new(seed=5, decks=decks)
    assert Game.new(seed=5).to_json() == before  # nothing half loaded into later games


@pytest.mark.parametrize("spec", [123, None])
def test_a_deck_spec_of_the_wrong_type_is_a_data_error(spec):
    with pytest.raises(DataError, match="deck"):
        Game.new(seed=0, decks=[spec, "aggro"])


def test_a_single_deck_name_instead_of_a_pair_is_explained():
    with pytest.raises(ValueError, match="two decks.*'aggro'"):
        Game.new(seed=0, decks="aggro")


def test_a_seed_that_is_not_an_integer_is_named():
    with pytest.raises((TypeError, ValueError), match="seed"):
        Game.new(seed="x")


def test_rules_given_as_a_path_are_loaded_or_refused_clearly(tmp_path):
    path = tmp_path / "r.yaml"
    path.write_text("max_hand: 9\n")
    try:
        game = Game.new(seed=0, rules=path)
    except TypeError as exc:
        assert "rules" in str(exc)
    else:
        assert game.state.rules.max_hand == 9


# --- scenarios ----------------------------------------------------------------------------------------


def _players(p0: dict, p1: dict | None = None, **top) -> dict:
    return {"players": [p0, p1 or {}], **top}


BAD_SCENARIOS = {
    "current player 2": (_players({}, current=2), r"field 'current': must be in 0..1, got 2"),
    "turn 0": (_players({}, turn=0), r"field 'turn': must be in 1..2147483647, got 0"),
    "negative mana": (_players({"mana": -1}), r"players\[0\], field 'mana': must be in 0..10, got -1"),
    "mana above the rules": (_players({"mana": 11}), r"players\[0\], field 'mana': must be in 0..10"),
    "crystals above the rules": (_players({}, {"max_mana": 50}), r"players\[1\], field 'max_mana'"),
    "negative armor": (_players({"armor": -2}), r"^scenario, players\[0\], field 'armor': must be in 0.."),
    "negative fatigue": (_players({"fatigue": -1}), r"^scenario, players\[0\], field 'fatigue': must be in 0.."),
    "hand as a string": (_players({"hand": "wisp"}), r"^scenario, players\[0\], field 'hand': expected a list, got 'wisp'"),
    "hand above the limit": (_players({"hand": ["wisp"] * 11}), r"field 'hand': 11 cards, at most 10 allowed"),
    "unknown card": (_players({"deck": ["wisp", "nope"]}), r"field 'deck\[1\]': unknown card id 'nope'"),
    "board above the limit": (_players({"battlefield": ["wisp"] * 8}),
                              r"^scenario, players\[0\], field 'battlefield': 8 cards, at most 7 "),
    "a deck above the rules' size": (_players({"deck": ["wisp"] * 31}), r"field 'deck': 31 cards, at most 30 "),
    "a huge number": (_players({"armor": 10**300}), r"field 'armor': must be in 0..2147483647, got 1000"),
    "spell on the board": (_players({"battlefield": ["fireball"]}), r"'fireball' is not a minion"),
    "minion at 0 health": (_players({"battlefield": [{"card": "wisp", "health": 0}]}),
                           r"battlefield\[0\], field 'health': must be in 1..2147483647, got 0"),
    "health above maximum": (_players({}, {"battlefield": ["wisp", {"card": "wisp", "health": 5, "max_health": 2}]}),
                             r"^scenario, players\[1\], battlefield\[1\], field 'max_health': must be in 5..2147483647, "
                             r"got 2$"),
    "negative attack": (_players({"battlefield": [{"card": "wisp", "attack": -1}]}),
                        r"^scenario, players\[0\], battlefield\[0\], field 'attack': must be in 0..2147483647"),
    "sleeping as text": (_players({"battlefield": [{"card": "wisp", "sleeping": "false"}]}),
                         r"field 'sleeping': expected true or false, got 'false'"),
    "keywords as text": (_players({"battlefield": [{"card": "wisp", "keywords": "taunt"}]}),
                         r"^scenario, players\[0\], battlefield\[0\], field 'keywords': expected a list"),
    "unknown keyword": (_players({"battlefield": [{"card": "wisp", "keywords": ["flying"]}]}),
                        r"unknown keyword 'flying'"),
    "unknown minion field": (_players({"battlefield": [{"card": "wisp", "speed": 3}]}),
                             r"^scenario, players\[0\], battlefield\[0\], field 'speed': unknown field"),
    "a spell as the weapon": (_players({"weapon": "fireball"}), r"player 0 has weapons"),
    "the same secret twice": (_players({"secrets": ["snipe", "snipe"]}), r"player 0 has secrets \['snipe', 'snipe'\]"),
    "a minion as a secret": (_players({"secrets": ["wisp"]}), r"player 0 has secrets \['wisp'\]"),
    "unknown player field": (_players({"speed": 3}), r"players\[0\], field 'speed': unknown field"),
    "unknown top field": (_players({}, x=1), r"field 'x': unknown field"),
    "one player": ({"players": [{}]}, r"field 'players': expected a list of exactly two players"),
    "not a mapping": (["players"], r"scenario: expected a mapping, got list"),
    "mulligan as text": (_players({}, mulligan="yes"), r"^scenario, field 'mulligan': expected true or false, got 'yes'$"),
    "mana as text": (_players({"mana": "5"}), r"^scenario, players\[0\], field 'mana': expected an integer, got '5'$"),
    "mana as true": (_players({"mana": True}), r"field 'mana': expected an integer, got True$"),
    "a number as a card id": (_players({"hand": [5]}), r"players\[0\], field 'hand\[0\]': expected a card id, got 5$"),
    "a number as a minion's card": (_players({"battlefield": [{"card": 7}]}),
                                    r"field 'battlefield\[0\]': expected a card id, got 7$"),
    "negative attacks made": (_players({"battlefield": [{"card": "wisp", "attacks_made": -1}]}),
                              r"^scenario, players\[0\], battlefield\[0\], field 'attacks_made': must be in "
                              r"0..2147483647, got -1$"),
    "negative order of play": (_players({}, {"battlefield": [{"card": "wisp", "order_of_play": -2}]}),
                               r"^scenario, players\[1\], battlefield\[0\], field 'order_of_play': must be in "
                               r"0..2147483647, got -2$"),
    "negative crystals": (_players({"mana": 0, "max_mana": -1}),
                          r"^scenario, players\[0\], field 'max_mana': must be in 0..10, got -1$"),
    "hero power used twice": (_players({}, {"hero": "mage", "hero_power_uses": 2}),
                              r"^scenario, players\[1\], field 'hero_power_uses': must be in 0..1, got 2$"),
    "negative hero power uses": (_players({"hero": "mage", "hero_power_uses": -1}),
                                 r"^scenario, players\[0\], field 'hero_power_uses': must be in 0..1, got -1$"),
    "hero power uses without a power": (_players({"hero_power_uses": 1}),
                                        r"^scenario, players\[0\], field 'hero_power_uses': must be in 0..0, got 1$"),
    "unknown weapon": (_players({}, {"weapon": "excalibur"}),
                       r"^scenario, players\[1\], field 'weapon': unknown card id 'excalibur'"),
    "a player as a list": ({"players": [{}, ["wisp"]]}, r"^scenario, players\[1\]: expected a mapping, got list$"),
    "hero health as text": (_players({}, {"health": "full"}),
                            r"^scenario, players\[1\], field 'health': expected an integer, got 'full'$"),
    "unknown hero class": (_players({"hero": "bard"}), r"^scenario, players\[0\], field 'hero': unknown hero class "
                                                        r"'bard' \(allowed: neutral, mage, warrior, paladin, priest, "
                                                        r"rogue, warlock\)$"),
}


@pytest.mark.parametrize("name", sorted(BAD_SCENARIOS))
def test_bad_scenarios_name_the_player_and_field(name):
    scenario, message = BAD_SCENARIOS[name]
    untouched = copy.deepcopy(scenario)
    with pytest.raises(DataError, match=message) as info:
        Game.from_scenario(scenario)
    assert str(info.value).startswith("scenario")
    assert scenario == untouched  # the caller's dict is never modified


# --- JSON states --------------------------------------------------------------------------------------

BOARD = _players({"hero": "mage", "mana": 5, "hand": ["wisp", "fireball"], "deck": ["chillwind_yeti", "boulderfist_ogre"],
                  "battlefield": ["chillwind_yeti"], "weapon": "fiery_war_axe", "secrets": ["snipe"],
                  "graveyard": ["arcane_explosion"]},
                 {"hand": ["wisp"], "battlefield": ["bloodfen_raptor", "wisp"]})


def _zone(doc: dict, name: str, player: int = 0) -> list:
    return doc["players"][player]["zones"][name]


def _put(key: str, value):
    return lambda doc: doc.__setitem__(key, value)


def _card(zone: str, player: int = 0, index: int = 0, **values):
    return lambda doc: _zone(doc, zone, player)[index].update(values)


BAD_STATES = {
    "missing players": (lambda d: d.pop("players"), r"state: missing field 'players'"),
    "three players": (lambda d: d["players"].append(d["players"][0]), r"expected 2 players, got 3"),
    "players as a mapping": (_put("players", {}), r"field 'players' should be list"),
    "turn as text": (_put("turn", "5"), r"field 'turn' should be int"),
    "turn 0": (_put("turn", 0), r"\[match\] turn is 0"),
    "turn past the limit": (_put("turn", 500), r"\[result\] turn 500 is past the limit 80"),
    "current player 2": (_put("current", 2), r"\[match\] current player is 2"),
    "negative rng": (_put("rng", -5), r"field 'rng' must be a 64-bit unsigned integer"),
    "winner true": (_put("winner", True), r"winner must be 0, 1 or null, got True"),
    "winner without a result": (_put("winner", 1), r"\[result\] winner 1 recorded but the game is not over"),
    "a win without a winner": (_put("result", "win"), r"\[result\] a win with winner None"),
    "unknown result": (_put("result", "lost"), r"unknown result 'lost'"),
    "unknown top field": (_put("cheat", 1), r"state: unknown fields \['cheat'\]"),
    "unknown zone": (lambda d: d["players"][0]["zones"].update(limbo=[]), r"zones: unknown fields \['limbo'\]"),
    "negative mana": (lambda d: d["players"][1].update(mana=-1), r"\[mana\] player 1 has -1/0 mana"),
    "crystals above the rules": (lambda d: d["players"][0].update(max_mana=11), r"\[mana\] player 0 has 5/11"),
    "negative fatigue": (lambda d: d["players"][0].update(fatigue=-1), r"\[mana\] player 0 has fatigue -1"),
    "owner of the other player": (_card("hand", owner=1), r"\[zones\] .* listed in player 0 HAND but its owner is 1"),
    "uid collision": (lambda d: _zone(d, "hand")[1].update(uid=_zone(d, "hand")[0]["uid"]), r"appears twice"),
    "uid not handed out": (_card("deck", uid=10**6), r"has a uid outside"),
    "health above max in hand": (_card("hand", health=99), r"\[stats\] .* health 99 above its maximum 1"),
    "negative health in hand": (_card("hand", health=-3, max_health=-3), r"\[stats\] .* a minion at -3 health"),
    "negative cost": (_card("hand", cost=-1), r"\[stats\] .* negative cost -1"),
    "dead minion on the board": (_card("battlefield", 1, 1, health=0), r"\[reaped\] <wisp#\d+ p1 1/0>"),
    "dead hero, game goes on": (_card("hero", 1, health=0), r"\[result\] a hero is dead"),
    "a minion as the hero": (_card("hero", id="wisp"), r"zones\.hero\[0\]: unknown hero id 'wisp'"),
    "a hero power as the hero": (_card("hero", id="fireblast"), r"zones\.hero\[0\]: unknown hero id 'fireblast'"),
    "a card as the hero power": (_card("hero_power", id="wisp"),
                                 r"zones\.hero_power\[0\]: unknown hero power id 'wisp'"),
    "two hero powers": (lambda d: _zone(d, "hero_power").append({**_zone(d, "hero_power")[0], "uid": 150}),
                        r"zones\.hero_power: 2 cards, at most 1 allowed"),
    "hero power used too often": (lambda d: d["players"][0].__setitem__("hero_power_uses", 2),
                                  r"\[hero-power\] player 0 used its hero power 2 times \(limit 1\)"),
    "hero power uses of the wrong type": (lambda d: d["players"][0].__setitem__("hero_power_uses", "once"),
                                          r"players\[0\]: field 'hero_power_uses' should be int"),
    "a hero power sharing a card's uid": (lambda d: _zone(d, "hero_power")[0].__setitem__(
        "uid", _zone(d, "hand")[0]["uid"]), r"\[hero-power\] .* has a uid used by a card"),
    "the hero in a hand": (_card("hand", id="hero"), r"hand\[0\]: unknown card id 'hero'"),
    "hand above the limit": (lambda d: _zone(d, "hand").extend({**_zone(d, "hand")[0], "uid": 100 + i}
                                                            for i in range(9)),
                             r"players\[0\]\.zones\.hand: 11 cards, at most 10 allowed"),
    "unknown keywords": (_card("deck", keywords=1 << 20), r"field 'keywords' 1048576 is not a set of known keywords"),
    "card field missing": (lambda d: _zone(d, "deck")[0].pop("cost"), r"zones.deck\[0\]: missing field 'cost'"),
    "card field of the wrong type": (_card("deck", attack="lots"), r"deck\[0\]: field 'attack' should be int"),
    "unknown card": (_card("deck", id="no_such_card"), r"unknown card id 'no_such_card'"),
    "current as text": (_put("current", "0"), r"^state: field 'current' should be int, got '0'$"),
    "next uid as text": (_put("next_uid", "9"), r"^state: field 'next_uid' should be int, got '9'$"),
    "next order as text": (_put("next_order", None), r"^state: field 'next_order' should be int, got None$"),
    "mana as text": (lambda d: d["players"][1].update(mana="3"), r"^players\[1\]: field 'mana' should be int"),
    "hero power zone not a list": (lambda d: d["players"][0]["zones"].update(hero_power={}),
                                   r"^players\[0\]\.zones: field 'hero_power' should be list, got \{\}$"),
    "rng one past 64 bits": (_put("rng", 2**64), r"field 'rng' must be a 64-bit unsigned integer, got 1844"),
    "marked as a number": (lambda d: d["players"][0].update(marked=3), r"players\[0\]: field 'marked' should be a "
                                                                        r"list of at most 10 card ids, got 3$"),
    "eleven marks": (lambda d: d["players"][0].update(marked=list(range(1, 12))), r"field 'marked' should be a list"),
    "a mark of uid 0": (lambda d: d["players"][0].update(marked=[0]), r"field 'marked' should be a list .*got \[0\]"),
    "a mark past the numbers": (lambda d: d["players"][0].update(marked=[MAX_NUMBER + 1]), r"field 'marked'"),
    # at the bounds the loader lets the marks through, and the consistency check refuses them out of a mulligan
    "ten marks": (lambda d: d["players"][0].update(marked=list(range(1, 11))),
                  r"\[mulligan\] player 0 has marks \[1, 2, 3, 4, 5, 6, 7, 8, 9, 10\] but is not deciding"),
    "a mark of uid 1": (lambda d: d["players"][1].update(marked=[1]), r"\[mulligan\] player 1 has marks \[1\] but"),
    "a mark at the number limit": (lambda d: d["players"][1].update(marked=[MAX_NUMBER]),
                                   rf"\[mulligan\] player 1 has marks \[{MAX_NUMBER}\] but"),
}


def _board_doc() -> dict:
    doc = json.loads(Game.from_scenario(BOARD).to_json())
    doc["next_uid"] = 200  # room for the uids the table invents
    return doc


def test_the_board_used_for_corruption_loads():
    text = json.dumps(_board_doc())
    assert json.loads(Game.from_json(text).to_json()) == json.loads(text)


@pytest.mark.parametrize("name", sorted(BAD_STATES))
def test_corrupt_states_raise_a_state_error_naming_the_problem(name):
    corrupt, message = BAD_STATES[name]
    doc = _board_doc()
    corrupt(doc)
    with pytest.raises(StateError, match=message):
        Game.from_json(json.dumps(doc))


@pytest.mark.parametrize("text, message", [
    ("", "not a JSON document"), ("null", "not a ccg-env state"), ("42", "not a ccg-env state"),
    (b"\xff\xfe", "not a JSON document"), ('{"format": "ccg-env/state"}', "unsupported state version None"),
    ('{"format": "ccg-env/state", "version": 1}', "missing field 'rules'"),
])
def test_foreign_documents_raise_a_state_error(text, message):
    with pytest.raises(StateError, match=message):
        Game.from_json(text)


def test_every_truncation_of_a_real_state_is_refused_cleanly():
    game = Game.new(seed=8)
    rng = random.Random(8)
    for _ in range(30):
        game.apply(rng.choice(game.legal_actions()))
    text = game.to_json()
    for cut in range(0, len(text), max(1, len(text) // 97)):
        with pytest.raises(StateError, match="not a JSON document"):
            Game.from_json(text[:cut])
    assert Game.from_json(text).to_json() == text  # and nothing cached from the failures


# --- after the end ------------------------------------------------------------------------------------


def _finished_game() -> Game:
    game = Game.new(seed=3)
    rng = random.Random(3)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    return game


def test_apply_after_the_end_is_refused_and_changes_nothing():
    game = _finished_game()
    before, log_size = game.to_json(), len(game.log)
    me, enemy = game.player(game.current_player), game.player(1 - game.current_player)
    for choice in (END_TURN, Choice(ChoiceKind.ATTACK, me.hero.uid, enemy.hero.uid),
                   Choice(ChoiceKind.PLAY, (me.hand or [me.hero])[0].uid)):
        with pytest.raises(IllegalActionError, match="the game is over"):
            game.apply(choice)
    with pytest.raises(GameOverError):
        game.perform(ChangeTurn(game.current_player, 1 - game.current_player))
    assert game.legal_actions() == [] and game.to_json() == before and len(game.log) == log_size


def test_apply_after_the_end_raises_game_over_error():
    with pytest.raises(GameOverError):
        _finished_game().apply(END_TURN)


@pytest.mark.parametrize("bad", ["end_turn", None, 0, ("play", 1, None), Choice("bogus", None, None),
                                 Choice(ChoiceKind.PLAY, 99_999), Choice(ChoiceKind.END_TURN, 5),
                                 Choice(ChoiceKind.ATTACK, -1, -1), Choice(ChoiceKind.PLAY, None, None)])
def test_malformed_choices_are_refused_and_change_nothing(bad):
    game = Game.new(seed=1)
    before, log_size = game.to_json(), len(game.log)
    with pytest.raises(IllegalActionError):
        game.apply(bad)
    assert game.to_json() == before and len(game.log) == log_size


def test_state_files_on_disk_work_like_strings(tmp_path):
    path = tmp_path / "state.json"
    path.write_text(Game.new(seed=2).to_json())
    assert Game.from_json(Path(path).read_bytes()).to_json() == path.read_text()
