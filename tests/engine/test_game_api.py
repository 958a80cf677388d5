"""The Game facade's contract: choices, illegal actions, results, JSON errors."""

import gc
import json
import random

import numpy as np
import pytest

from ccg_env.engine import (CardClass, Choice, ChoiceKind, Game, IllegalActionError, Keyword, Rules, StateError,
                            load_cards)
from ccg_env.engine.datafiles import config_dir
from ccg_env.engine.heroes import load_heroes
from ccg_env.engine.serialize import MAX_NUMBER, MAX_STATE_CHARS, state_from_json
from ccg_env.engine.choices import END_TURN, as_choice

from .helpers import NO_MULLIGAN, board


def test_choices_are_frozen_values_listed_in_a_stable_order():
    game = Game.new(seed=4)
    first, second = game.legal_actions(), game.clone().legal_actions()
    assert first == second and first[0] == END_TURN
    assert Choice(ChoiceKind.PLAY, 5, None) == Choice(ChoiceKind.PLAY, 5)
    assert len({*first}) == len(first)
    with pytest.raises(AttributeError):
        first[0].kind = ChoiceKind.PLAY


@pytest.mark.parametrize("choice, reason", [
    (Choice(ChoiceKind.PLAY, 999), "no card #999"),
    (Choice(ChoiceKind.ATTACK, 999, 1), "no card #999|no character #999"),
    (Choice(ChoiceKind.END_TURN, 3), "takes no source"),
    ("end turn", "expected a Choice"),
    (Choice(ChoiceKind.PLAY, [1, 2]), r"^a Choice's source must be a card uid \(an integer\) or None, got \[1, 2\]$"),
    (Choice(ChoiceKind.ATTACK, 1, "2"), r"^a Choice's target must be a card uid \(an integer\) or None, got '2'$"),
    (Choice(ChoiceKind.PLAY, True), r"^a Choice's source must be a card uid \(an integer\) or None, got True$"),
    (Choice(ChoiceKind.PLAY, np.int64(999)), r"^play #999 is illegal: no card #999"),
])
def test_illegal_choices_raise_and_leave_the_state_unchanged(choice, reason):
    """In both builds (compiled code reading a field typed int raised a bare TypeError, even for a NumPy integer)."""
    game = Game.new(seed=4, rules=NO_MULLIGAN)
    before = game.to_json()
    log_length = len(game.log)
    with pytest.raises(IllegalActionError, match=reason):
        game.apply(choice)
    assert game.to_json() == before and len(game.log) == log_length


@pytest.mark.parametrize("choice, reason", [
    (Choice(ChoiceKind.PLAY, 999), "in the mulligan"),
    (Choice(ChoiceKind.ATTACK, 1, 2), "in the mulligan"),
    (Choice(ChoiceKind.MULLIGAN, 999), "no card #999"),
    (Choice(ChoiceKind.MULLIGAN, 1), "no card #1 in player 0's hand"),
    (Choice(ChoiceKind.END_TURN, 3), "takes no source"),
])
def test_illegal_choices_in_the_mulligan_raise_and_say_why(choice, reason):
    game = Game.new(seed=4)
    assert game.in_mulligan
    before, log_length = game.to_json(), len(game.log)
    with pytest.raises(IllegalActionError, match=reason):
        game.apply(choice)
    assert game.to_json() == before and len(game.log) == log_length


def test_choices_naming_missing_or_misplaced_cards_say_what_is_wrong():
    game = Game.new(seed=4, rules=NO_MULLIGAN)
    card, hero = game.player(0).hand[0], game.player(0).hero
    cases = {
        Choice(ChoiceKind.PLAY, card.uid, 999): f"play #{card.uid} -> #999 is illegal: no card #999 in the game",
        Choice(ChoiceKind.ATTACK, hero.uid): f"attack with #{hero.uid} is illegal: an attack needs a defender",
        Choice(ChoiceKind.HERO_POWER, 999): "use hero power #999 is illegal: player 0 has no hero power #999",
        Choice(ChoiceKind.ATTACK, 999, 1): "attack with #999 -> #1 is illegal: no character #999 of player 0 in play",
        Choice(ChoiceKind.END_TURN, None, 3): "end turn is illegal: end_turn takes no source or target",
    }
    for choice, message in cases.items():
        with pytest.raises(IllegalActionError) as info:
            game.apply(choice)
        assert str(info.value) == message
    mulligan = Game.new(seed=4)
    card = mulligan.player(0).hand[0]
    with pytest.raises(IllegalActionError, match=rf"^put back #{card.uid} is illegal: a mulligan choice takes no "
                                                 rf"target$"):
        mulligan.apply(Choice(ChoiceKind.MULLIGAN, card.uid, 1))


GAME_MAKERS = {
    "new": lambda **kw: Game.new(**kw),
    "from_scenario": lambda **kw: Game.from_scenario({"players": [{}, {}]}, **kw),
    "from_json": lambda **kw: Game.from_json(Game.new(1).to_json(), **kw),  # takes cards and heroes only
}
WRONG_ARGUMENTS = {
    "seed": ("x", r"^seed must be an integer, got 'x'$"),
    "log": ("x", r"^log must be True or False, got 'x'$"),
    "rules": ({"a": 1}, r"^rules: expected a Rules object or a path to a rules YAML file, got \{'a': 1\}$"),
    "cards": ("configs/cards", r"^cards must be a CardSet \(load_cards\(paths\)\), got 'configs/cards'$"),
    "heroes": (5, r"^heroes must be a HeroSet \(load_heroes\(paths\)\), got 5$"),
}


@pytest.mark.parametrize("maker, argument", [(maker, argument) for maker in GAME_MAKERS for argument in WRONG_ARGUMENTS
                                             if maker != "from_json" or argument in ("cards", "heroes")])
def test_every_way_to_make_a_game_names_an_argument_of_the_wrong_type(maker, argument):
    value, message = WRONG_ARGUMENTS[argument]
    with pytest.raises(TypeError, match=message):
        GAME_MAKERS[maker](**{argument: value})


def test_card_and_hero_files_load_from_one_path_as_from_a_list():
    basic = config_dir() / "cards" / "basic.yaml"
    assert sorted(load_cards(basic)) == sorted(load_cards([basic])) == sorted(load_cards(str(basic)))
    mage = config_dir() / "heroes" / "mage.yaml"
    assert list(load_heroes(str(mage))) == list(load_heroes([mage])) == [CardClass.MAGE]


def test_game_new_names_an_argument_of_the_wrong_type_in_both_builds(tmp_path):
    with pytest.raises(TypeError, match=r"^rules: expected a Rules object or a path to a rules YAML file, got "
                                        r"\{'mulligan': False\}$"):
        Game.new(seed=1, rules={"mulligan": False})
    with pytest.raises(TypeError, match=r"^log must be True or False, got 'yes'$"):
        Game.new(seed=1, log="yes")
    with pytest.raises(TypeError, match=r"^seed must be an integer, got 1.5$"):
        Game.new(seed=1.5)
    rules_file = tmp_path / "rules.yaml"
    rules_file.write_text("mulligan: false\n")
    assert not Game.new(seed=1, rules=rules_file).in_mulligan  # a path to a rules file is taken, compiled or not
    assert Game.new(seed=1, rules=str(rules_file)).state.rules == Rules.load(rules_file)


def test_a_choice_naming_its_cards_by_numpy_integers_is_applied_like_plain_ints():
    game, twin = (Game.from_scenario(board({"hand": ["fireball"]}, {"battlefield": ["wisp"]})) for _ in range(2))
    choice = next(c for c in game.legal_actions() if c.kind is ChoiceKind.PLAY and c.target is not None)
    game.apply(Choice(choice.kind, np.int64(choice.source), np.int32(choice.target)))
    twin.apply(choice)
    assert game.to_json() == twin.to_json()


def test_a_choice_is_checked_field_by_field_and_a_plain_one_passes_unchanged():
    """as_choice: a Choice of plain ints (or None) is returned as it is, with no copy (it runs on every apply); a
    NumPy integer in one field becomes a plain int and the other field is kept."""
    plain = Choice(ChoiceKind.ATTACK, 3, 7)
    assert as_choice(plain) is plain and as_choice(END_TURN) is END_TURN
    for mixed, expected in [(Choice(ChoiceKind.ATTACK, np.int64(3), 7), plain),
                            (Choice(ChoiceKind.ATTACK, 3, np.int16(7)), plain),
                            (Choice(ChoiceKind.PLAY, np.int64(3), None), Choice(ChoiceKind.PLAY, 3, None))]:
        checked = as_choice(mixed)
        assert checked == expected and all(type(uid) in (int, type(None)) for uid in checked[1:])


def test_unaffordable_card_names_the_cost():
    game = Game.from_scenario(board({"mana": 3, "hand": ["core_hound"]}))
    card = game.player(0).hand[0]
    assert all(c.source != card.uid for c in game.legal_actions())
    with pytest.raises(IllegalActionError, match="costs 7 but player 0 has 3 mana"):
        game.apply(Choice(ChoiceKind.PLAY, card.uid))


def test_illegal_action_error_is_a_value_error():
    assert issubclass(IllegalActionError, ValueError)


def test_playing_on_the_opponents_cards_is_refused():
    game = Game.from_scenario(board(None, {"hand": ["wisp"]}))
    with pytest.raises(IllegalActionError):
        game.apply(Choice(ChoiceKind.PLAY, game.player(1).hand[0].uid))


@pytest.mark.parametrize("text, message", [
    ("not json", "not a JSON document"),
    ("[]", "not a ccg-env state"),
    ('{"format": "other"}', "not a ccg-env state"),
    ('{"format": "ccg-env/state", "version": 99}', "unsupported state version"),
])
def test_from_json_rejects_foreign_documents(text, message):
    with pytest.raises(StateError, match=message):
        Game.from_json(text)


def test_from_json_rejects_corrupt_states_with_a_location():
    doc = json.loads(Game.new(seed=1).to_json())
    doc["players"][1]["zones"]["hand"][0]["attack"] = "lots"
    with pytest.raises(StateError, match=r"players\[1\]\.zones\.hand\[0\].*attack"):
        Game.from_json(json.dumps(doc))
    doc = json.loads(Game.new(seed=1).to_json())
    doc["players"][0]["zones"]["deck"][0]["id"] = "no_such_card"
    with pytest.raises(StateError, match="unknown card id 'no_such_card'"):
        Game.from_json(json.dumps(doc))
    doc = json.loads(Game.new(seed=1).to_json())
    doc["players"][0]["zones"]["hand"].append(doc["players"][0]["zones"]["deck"][0])
    with pytest.raises(StateError, match=r"card id \d+ .*player 0 DECK and in player 0 HAND"):
        Game.from_json(json.dumps(doc))


EVERY_KEYWORD = sum(int(k) for k in Keyword)


def _corrupted(mutate) -> str:
    doc = json.loads(Game.new(seed=1).to_json())
    mutate(doc)
    return json.dumps(doc)


def _zones(doc: dict, player: int = 0) -> dict:
    return doc["players"][player]["zones"]


@pytest.mark.parametrize("mutate, message", [
    (lambda d: _zones(d)["hand"].__setitem__(0, ["wisp"]), r"^players\[0\]\.zones\.hand\[0\]: expected a card object, "
                                                           r"got \['wisp'\]$"),
    (lambda d: d["players"].__setitem__(1, 7), r"^players\[1\]: expected an object$"),
    (lambda d: _zones(d)["hero"].append(_zones(d)["hero"][0]), r"^players\[0\]\.zones\.hero: 2 cards, at most 1"),
    (lambda d: _zones(d)["hero"].clear(), r"^players\[0\]\.zones\.hero: expected exactly one hero, got 0$"),
    (lambda d: _zones(d)["hero_power"][0].update(id="wisp"), r"^players\[0\]\.zones\.hero_power\[0\]: unknown hero "
                                                               r"power id 'wisp'"),
    (lambda d: _zones(d)["hero_power"][0].update(id=_zones(d)["hero"][0]["id"]), r"unknown hero power id"),
    (lambda d: _zones(d, 1)["hero"][0].update(id="reinforce"), r"^players\[1\]\.zones\.hero\[0\]: unknown hero id "
                                                                 r"'reinforce'"),
    (lambda d: _zones(d)["hand"][0].pop("id"), r"^players\[0\]\.zones\.hand\[0\]: missing field 'id'$"),
    (lambda d: _zones(d)["hand"][0].update(speed=3), r"^players\[0\]\.zones\.hand\[0\]: unknown fields \['speed'\]$"),
    (lambda d: d["players"][0].pop("zones"), r"^players\[0\]: missing field 'zones'$"),
    (lambda d: d["players"][0].update(speed=1), r"^players\[0\]: unknown fields \['speed'\]$"),
    (lambda d: _zones(d).update(hand=5), r"^players\[0\]\.zones: field 'hand' should be list, got 5$"),
    (lambda d: _zones(d)["hand"][0].update(keywords=-1), r"^players\[0\]\.zones\.hand\[0\]: field 'keywords' -1 is "
                                                          r"not a set of known keywords$"),
    (lambda d: _zones(d)["hand"][0].update(keywords=EVERY_KEYWORD + 1), r"field 'keywords' \d+ is not a set of known "
                                                                        r"keywords$"),
    (lambda d: _zones(d)["weapon"].extend(_zones(d)["hand"][:2]), r"^players\[0\]\.zones\.weapon: 2 cards, at most 1 "
                                                                  r"allowed$"),
])
def test_from_json_names_where_a_state_breaks_the_format(mutate, message):
    """Each problem is named with the path of the object that has it."""
    with pytest.raises(StateError, match=message):
        Game.from_json(_corrupted(mutate))


@pytest.mark.parametrize("text, message", [
    ("not json", "not a JSON document: Expecting value: line 1 column 1 (char 0)"),
    ('{"format": "ccg-env/state",\n "version": 1,}', "not a JSON document: Expecting property name enclosed in double "
                                                    "quotes: line 2 column 15 (char 42)"),
    (b"\xff{}", "not a JSON document: 'utf-8' codec can't decode byte 0xff in position 0: invalid start byte"),
])
def test_a_document_json_cannot_read_is_named_with_jsons_reason_and_place(text, message):
    with pytest.raises(StateError) as info:
        Game.from_json(text)
    assert str(info.value) == message


def test_state_documents_at_their_limits_load_and_rules_must_be_an_object():
    text = Game.new(seed=1).to_json()
    padded = text + " " * (MAX_STATE_CHARS - len(text))  # exactly as long as allowed (json ignores the spaces)
    assert len(padded) == MAX_STATE_CHARS and Game.from_json(padded).to_json() == text
    lowest = _corrupted(lambda d: _zones(d)["hand"][0].update(order_of_play=-MAX_NUMBER))
    assert Game.from_json(lowest).player(0).hand[0].order_of_play == -MAX_NUMBER
    with pytest.raises(StateError, match=r"^state: field 'rules' should be dict, got \[1\]$"):
        Game.from_json(_corrupted(lambda d: d.update(rules=[1])))
    game = Game.new(seed=1, decks=["control", "aggro"])  # class heroes: the hero set is the packaged one by default
    restored = state_from_json(game.to_json(), game.cards)
    assert [p.hero.definition.id for p in restored.players] == [p.hero.definition.id for p in game.state.players]


def test_a_card_with_every_keyword_loads():
    every = _corrupted(lambda d: _zones(d)["hand"][0].update(keywords=EVERY_KEYWORD))
    assert Game.from_json(every).player(0).hand[0].keywords == EVERY_KEYWORD


def test_from_json_takes_text_or_bytes_only():
    with pytest.raises(StateError, match="^not a JSON document: expected str, bytes or bytearray, got int$"):
        Game.from_json(5)
    text = Game.new(seed=1).to_json()
    assert Game.from_json(text.encode()).to_json() == Game.from_json(bytearray(text.encode())).to_json() == text


def test_log_can_be_turned_off():
    game = Game.new(seed=2, log=False)
    game.apply(END_TURN)
    assert game.log == []


@pytest.mark.parametrize("log", [True, False])
def test_finished_games_and_clones_hold_no_reference_cycles(log):
    """A game is freed by reference counting as soon as it is dropped: nothing waits for the cycle collector.

    (Training and search drop many games a second; a cycle per game made every collection walk the dead ones.)
    """
    gc.collect()
    gc.disable()
    try:
        game, rng = Game.new(seed=11, log=log), random.Random(11)
        clones = []
        while not game.is_over:
            choices = game.legal_actions()
            game.apply(choices[rng.randrange(len(choices))])
            if len(clones) < 5:
                clones.append(game.clone())
        del game, clones, choices
        unreachable = gc.collect()
    finally:
        gc.enable()
    assert unreachable == 0


def test_a_scenario_minion_gets_its_keywords_on_top_of_its_printed_ones_and_board_order_as_its_play_order():
    game = Game.from_scenario({"players": [
        {"battlefield": [{"card": "senjin_shieldmasta", "keywords": ["divine_shield", "stealth"]}, "wisp",
                         {"card": "wisp", "order_of_play": 40}, "river_crocolisk"]}, {"battlefield": ["wisp"]}]})
    shieldmasta, wisp, late_wisp, croc = game.player(0).battlefield
    assert shieldmasta.keywords == Keyword.TAUNT | Keyword.DIVINE_SHIELD | Keyword.STEALTH
    # laid in board order, seat 0 first; a minion given an order moves the count past it for those laid later
    assert 0 < shieldmasta.order_of_play < wisp.order_of_play < late_wisp.order_of_play == 40
    assert 40 < croc.order_of_play < game.player(1).battlefield[0].order_of_play


def test_the_game_over_buries_only_minions_without_health():
    """The end of the game moves dying minions to the graveyard (no reaper runs once it is over); a minion with
    health left, even 1, stays on the board."""
    game = Game.from_scenario({"players": [{"mana": 10, "hand": ["fireball"], "battlefield": ["wisp"]},
                                           {"health": 6, "battlefield": ["wisp", {"card": "river_crocolisk",
                                                                                   "health": 1}]}]})
    game.apply(Choice(ChoiceKind.PLAY, game.player(0).hand[0].uid, game.player(1).hero.uid))
    assert game.winner == 0
    assert [len(game.player(seat).battlefield) for seat in (0, 1)] == [1, 2]
    assert all(card.definition.card_type.value == "spell" for card in game.player(0).graveyard)


def test_a_scenario_without_a_seed_is_seed_0():
    scenario = {"players": [{"hand": ["arcane_missiles"]}, {"battlefield": ["wisp", "wisp"]}]}
    assert Game.from_scenario(scenario).to_json() == Game.from_scenario(scenario, seed=0).to_json()
    assert Game.from_scenario(scenario).to_json() != Game.from_scenario(scenario, seed=1).to_json()


def test_a_scenario_players_mana_pool_is_full_unless_given():
    game = Game.from_scenario({"players": [{"max_mana": 5}, {"max_mana": 5, "mana": 2}]})
    assert [(p.mana, p.max_mana) for p in game.state.players] == [(5, 5), (2, 5)]
    assert [(p.mana, p.max_mana) for p in Game.from_scenario({"players": [{"mana": 3}, {}]}).state.players] == [
        (3, 3), (0, 0)]


def test_a_saved_state_is_compact_json():
    text = Game.new(seed=0).to_json()
    assert text == json.dumps(json.loads(text), separators=(",", ":"))  # no spaces: the size limit counts characters


@pytest.mark.parametrize("as_given", [str, lambda path: path, lambda path: [path]])
def test_the_envs_take_cards_from_a_file_given_as_a_string_a_path_or_a_list(tmp_path, as_given):
    """resolve_cards, which the envs and agents call with their ``cards`` argument."""
    from ccg_env.engine.game_setup import resolve_cards

    path = tmp_path / "pebbles.yaml"
    path.write_text("cards:\n  - {id: pebble, name: Pebble, type: minion, cost: 1, attack: 1, health: 1}\n")
    assert sorted(resolve_cards(as_given(path))) == ["pebble"]  # that file's cards, and only those


@pytest.mark.parametrize("suffix", [".yaml", ".yml"])
def test_a_deck_file_is_taken_by_either_yaml_suffix(tmp_path, suffix):
    path = tmp_path / f"mine{suffix}"
    path.write_text((config_dir() / "decks" / "aggro.yaml").read_text())
    assert Game.new(seed=0, decks=[path, "aggro"]).to_json() == Game.new(seed=0, decks=["aggro", "aggro"]).to_json()


def test_why_illegal_falls_back_to_not_being_listed_when_every_validator_accepts():
    from ccg_env.engine.choices import why_illegal

    game = Game.from_scenario(board({"hand": ["wisp"]}))
    legal = next(c for c in game.legal_actions() if c.kind is ChoiceKind.PLAY)
    assert why_illegal(game, legal) == "it is not among the legal choices of this position"


def test_a_new_game_without_a_seed_is_seed_0():
    assert Game.new().to_json() == Game.new(seed=0).to_json() != Game.new(seed=1).to_json()
