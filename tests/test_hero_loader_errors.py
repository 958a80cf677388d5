"""Hero file errors: each kind of bad hero file fails with a DataError naming the file, the hero and the field."""

from __future__ import annotations

from pathlib import Path

import pytest

from ccg_env.engine import CardClass, DataError, Game, default_cards
from ccg_env.engine.definitions import HERO
from ccg_env.engine.heroes import default_heroes, load_heroes

GOOD_POWER = "power: {id: zap, name: Zap, abilities: [{effect: damage, select: enemy_hero, amount: 1}]}"
MAGE = "id: zapper\nname: Zapper\nclass: mage\n"


def _hero_file(directory: Path, text: str, name: str = "hero.yaml") -> Path:
    path = directory / name
    path.write_text(text, encoding="utf-8")
    return path


BAD_HEROES = {
    "unknown field": (MAGE + GOOD_POWER + "\ncolour: red\n", "hero 'zapper', field 'colour'", "unknown field"),
    "missing class": ("id: zapper\nname: Zapper\n" + GOOD_POWER, "hero 'zapper', field 'class'",
                      "missing required field"),
    "unknown class": ("id: zapper\nname: Zapper\nclass: druid\n" + GOOD_POWER, "field 'class'",
                      "unknown class 'druid'"),
    "bad id": ("id: Zapper!\nname: Zapper\nclass: mage\n" + GOOD_POWER, "field 'id'", "lower-case slugs"),
    "class hero without power": (MAGE, "hero 'zapper', field 'power'", "a mage hero needs a hero power"),
    "neutral hero with a power": ("id: plain\nname: Plain\nclass: neutral\n" + GOOD_POWER, "field 'power'",
                                  "the neutral hero has no hero power"),
    "power string cost": (MAGE + "power: {id: zap, name: Zap, cost: '2', abilities: [{effect: gain_armor, "
                          "amount: 1}]}", "hero 'zapper', power, field 'cost'", "expected an integer"),
    "power zero uses": (MAGE + "power: {id: zap, name: Zap, uses_per_turn: 0, abilities: [{effect: gain_armor, "
                        "amount: 1}]}", "hero 'zapper', power, field 'uses_per_turn'", "between 1 and 10"),
    "power unknown effect": (MAGE + "power: {id: zap, name: Zap, abilities: [{effect: explode, select: self}]}",
                             "hero 'zapper', power, abilities[0], field 'effect'", "unknown value 'explode'"),
    "power other trigger": (MAGE + "power: {id: zap, name: Zap, abilities: [{trigger: turn_start, effect: draw, "
                            "amount: 1}]}", "power, abilities[0], field 'trigger'", "trigger must be 'battlecry'"),
    "power chosen without target": (MAGE + "power: {id: zap, name: Zap, abilities: [{effect: damage, amount: 1, "
                                    "select: chosen}]}", "power, abilities[0], field 'select'",
                                    "needs the card to have a 'target' spec"),
    "power target unused": (MAGE + "power: {id: zap, name: Zap, target: {allowed: {alliance: any, zones: active}},"
                            " abilities: [{effect: gain_armor, amount: 1}]}", "power, field 'target'",
                            "no ability acts on the chosen target"),
    "power bad mark": (MAGE + "power: {id: zap, name: Zap, target: {allowed: {alliance: friends, zones: active}},"
                       " abilities: [{effect: damage, amount: 1}]}", "power, field 'target.allowed'",
                       "unknown alliance 'friends'"),
    "power no abilities": (MAGE + "power: {id: zap, name: Zap, abilities: []}", "power, field 'abilities'",
                           "non-empty list of abilities"),
    "power missing amount": (MAGE + "power: {id: zap, name: Zap, abilities: [{effect: gain_armor}]}",
                             "power, abilities[0], field 'amount'", "needs an amount"),
    "not a mapping": ("- id: zapper\n", "hero", "expected a mapping"),
    "empty name": ("id: zapper\nname: ''\nclass: mage\n" + GOOD_POWER, "hero 'zapper', field 'name'",
                   "expected a non-empty name"),
    "power text not text": (MAGE + "power: {id: zap, name: Zap, text: [a], abilities: [{effect: gain_armor, "
                            "amount: 1}]}", "hero 'zapper', power, field 'text'", "expected text"),
    "power id not a slug": (MAGE + "power: {id: Zap-Zap, name: Zap, abilities: [{effect: gain_armor, amount: 1}]}",
                            "hero 'zapper', power, field 'id'", "ids are lower-case slugs like 'jaina', got 'Zap-Zap'"),
    "hero id in capitals": ("id: Zapper\nname: Zapper\nclass: mage\n" + GOOD_POWER, "hero 'Zapper', field 'id'",
                            "lower-case slugs"),
    "power missing a name": (MAGE + "power: {id: zap, abilities: [{effect: gain_armor, amount: 1}]}",
                             "hero 'zapper', power, field 'name'", "missing required field"),
    "power cost 21": (MAGE + "power: {id: zap, name: Zap, cost: 21, abilities: [{effect: gain_armor, amount: 1}]}",
                      "hero 'zapper', power, field 'cost'", "between 0 and 20"),
    "power used 11 times a turn": (MAGE + "power: {id: zap, name: Zap, uses_per_turn: 11, abilities: [{effect: "
                                   "gain_armor, amount: 1}]}", "hero 'zapper', power, field 'uses_per_turn'",
                                   "between 1 and 10"),
    "no id": ("name: Zapper\nclass: mage\n" + GOOD_POWER, "hero, field 'id'", "missing required field"),
    "power with six abilities": (MAGE + "power: {id: zap, name: Zap, abilities: [" + ", ".join(
        ["{effect: gain_armor, amount: 1}"] * 6) + "]}", "hero 'zapper', power, field 'abilities'",
        "6 abilities, at most 5 allowed"),
    "id a number": ("id: 5\nname: Zapper\nclass: mage\n" + GOOD_POWER, "hero, field 'id'",
                    "ids are lower-case slugs like 'jaina', got 5"),
    "id of underscores only": ("id: ___\nname: Zapper\nclass: mage\n" + GOOD_POWER, "hero '___', field 'id'",
                               "ids are lower-case slugs like 'jaina', got '___'"),
    "unknown class lists the classes": ("id: zapper\nname: Zapper\nclass: druid\n" + GOOD_POWER, "field 'class'",
                                        "(allowed: neutral, mage, warrior, paladin, priest, rogue, warlock)"),
    "power with an empty name": (MAGE + "power: {id: zap, name: '', abilities: [{effect: gain_armor, amount: 1}]}",
                                 "hero 'zapper', power, field 'name'", "expected a non-empty name"),
    "hero text not text": (MAGE + GOOD_POWER + "\ntext: 5\n", "hero 'zapper', field 'text'", "expected text"),
}


@pytest.mark.parametrize("case", sorted(BAD_HEROES))
def test_bad_hero_names_file_hero_and_field(tmp_path, case):
    text, where, reason = BAD_HEROES[case]
    path = _hero_file(tmp_path, text)
    with pytest.raises(DataError) as error:
        load_heroes([path])
    message = str(error.value)
    assert message.startswith(str(path)) and where in message and reason in message, message


def test_the_reference_hero_of_these_cases_is_valid(tmp_path):
    heroes = load_heroes([_hero_file(tmp_path, MAGE + GOOD_POWER)])
    assert heroes[CardClass.MAGE].power is not None and heroes[CardClass.MAGE].power.cost == 2


def test_a_power_summoning_an_unknown_or_wrong_card_is_refused_with_the_card_set(tmp_path):
    unknown = _hero_file(tmp_path, MAGE + "power: {id: zap, name: Zap, abilities: [{effect: summon, card: dragon}]}")
    with pytest.raises(DataError, match=r"power, abilities\[0\], field 'card': unknown card id 'dragon'"):
        load_heroes([unknown], cards=default_cards())
    wrong = _hero_file(tmp_path, MAGE + "power: {id: zap, name: Zap, abilities: [{effect: equip_weapon, card: wisp}]}")
    with pytest.raises(DataError, match="'wisp' is a minion, expected a weapon"):
        load_heroes([wrong], cards=default_cards())


def test_two_heroes_of_one_class_or_one_id_are_refused(tmp_path):
    first = _hero_file(tmp_path, MAGE + GOOD_POWER, "a.yaml")
    second = _hero_file(tmp_path, "id: other\nname: Other\nclass: mage\n" + GOOD_POWER.replace("zap", "zop"), "b.yaml")
    with pytest.raises(DataError, match=r"b\.yaml, hero 'other', field 'class': a second mage hero"):
        load_heroes([first, second])
    clash = _hero_file(tmp_path, "id: zap\nname: Zap Hero\nclass: warrior\npower: {id: zip, name: Zip, "
                       "abilities: [{effect: gain_armor, amount: 1}]}", "c.yaml")
    with pytest.raises(DataError, match=r"c\.yaml, hero 'zap', field 'id': duplicate id 'zap'"):
        load_heroes([first, clash])


def test_hero_and_power_types_are_refused_in_card_files(tmp_path):
    from ccg_env.engine import load_cards

    path = tmp_path / "cards.yaml"
    path.write_text("cards:\n  - {id: zap, name: Zap, type: hero_power, cost: 2}\n")
    with pytest.raises(DataError, match="field 'type': hero_power cards are defined in hero files"):
        load_cards([path])


def test_a_game_needs_a_hero_for_each_deck_class(tmp_path):
    from ccg_env.engine import Deck

    neutral_only = load_heroes([_hero_file(tmp_path, "id: hero\nname: Hero\nclass: neutral\n")])
    mage = Deck("mage", ("wisp",) * 30, hero=CardClass.MAGE)
    with pytest.raises(DataError, match=r"no hero of class 'mage' \(heroes for: neutral\)"):
        Game.new(seed=0, decks=[mage, mage], heroes=neutral_only)


def test_the_packaged_heroes_load_and_reference_packaged_cards():
    heroes = load_heroes(cards=default_cards())
    assert set(heroes) == set(CardClass) and default_heroes().neutral.power is None


def test_a_game_refuses_a_hero_whose_power_names_a_card_missing_from_its_card_set(tmp_path):
    from ccg_env.engine import Deck, load_cards

    cards = tmp_path / "cards.yaml"
    cards.write_text("cards:\n  - {id: pebble, name: Pebble, type: minion, cost: 1, attack: 1, health: 1}\n")
    card_set = load_cards([cards])
    paladin = Deck("paladin", ("pebble",) * 30, hero=CardClass.PALADIN)
    with pytest.raises(DataError, match=r"heroes/paladin\.yaml, .*hero 'uther', power, abilities\[0\], field 'card': "
                                        r"unknown card id 'silver_hand_recruit'"):  # named with the hero files read
        Game.new(seed=0, decks=[paladin, paladin], cards=card_set)
    with pytest.raises(DataError, match=r"heroes/paladin\.yaml, .*hero 'uther', power, abilities\[0\], field 'card': "
                                        r"unknown card id 'silver_hand_recruit'"):  # named with the hero files read
        Game.from_scenario({"players": [{"hero": "paladin"}, {}]}, cards=card_set)
    Game.new(seed=0, decks=[Deck("plain", ("pebble",) * 30)] * 2, cards=card_set)  # no power, no token needed


def test_a_scenario_asking_for_a_class_the_hero_set_lacks_names_the_classes_it_has(tmp_path):
    heroes = load_heroes([_hero_file(tmp_path, MAGE + GOOD_POWER)])
    with pytest.raises(DataError, match=r"^scenario, players\[1\], field 'hero': no hero of class 'warrior' "
                                        r"\(heroes for: mage\)$"):
        Game.from_scenario({"players": [{"hero": "mage"}, {"hero": "warrior"}]}, heroes=heroes)
    game = Game.from_scenario({"players": [{"hero": "mage"}, {"hero": "mage"}]}, heroes=heroes)
    assert game.player(0).hero.name == game.player(1).hero.name == "Zapper"


def test_five_power_abilities_are_allowed_and_no_hero_files_is_an_error(tmp_path):
    power = "power: {id: zap, name: Zap, abilities: [" + ", ".join(["{effect: gain_armor, amount: 1}"] * 5) + "]}"
    heroes = load_heroes([_hero_file(tmp_path, MAGE + power)])
    assert len(heroes.for_class(CardClass.MAGE).power.abilities) == 5
    with pytest.raises(DataError, match="^<data>: no hero files given$"):
        load_heroes([])


def test_a_hero_power_is_read_with_every_field(tmp_path):
    power = ("power: {id: zap_zap, name: Zap Zap, cost: 20, uses_per_turn: 10, text: Zap twice., "
             "target: {allowed: {alliance: enemy, zones: active}}, abilities: [{effect: damage, amount: 1}]}")
    hero = load_heroes([_hero_file(tmp_path, MAGE + "text: A hero.\n" + power)]).for_class(CardClass.MAGE)
    card = hero.power
    assert (card.id, card.name, card.cost, card.uses_per_turn, card.text) == ("zap_zap", "Zap Zap", 20, 10, "Zap twice.")
    assert card.card_type.value == "hero_power" and card.card_class is CardClass.MAGE and card.collectible is False
    assert card.target is not None and card.target.allowed.describe_short() == "ENEMY:ACTIVE"
    assert list(card.triggers) == [a.trigger for a in card.abilities] and hero.text == "A hero."
    plain = load_heroes([_hero_file(tmp_path, MAGE + GOOD_POWER, "plain.yaml")]).for_class(CardClass.MAGE).power
    assert (plain.cost, plain.uses_per_turn, plain.text, plain.target) == (2, 1, "", None)  # the defaults


def test_a_heros_own_card_and_the_plain_hero(tmp_path):
    zapper = load_heroes([_hero_file(tmp_path, MAGE + "text: Zaps.\n" + GOOD_POWER)]).for_class(CardClass.MAGE)
    card = zapper.card
    assert (zapper.id, zapper.name, zapper.text, card.id, card.name) == ("zapper", "Zapper", "Zaps.", "zapper", "Zapper")
    assert (card.card_type.value, card.cost, card.collectible, card.card_class) == ("hero", 0, False, CardClass.MAGE)
    plain = load_heroes([_hero_file(tmp_path, "id: hero\nname: Hero\nclass: neutral\n", "plain.yaml")])
    assert plain.for_class(CardClass.NEUTRAL).card is HERO  # the engine's own plain hero, shared by every game
    assert plain.for_class(CardClass.NEUTRAL).text == ""  # no text given
    other = load_heroes([_hero_file(tmp_path, "id: squire\nname: Squire\nclass: neutral\n", "squire.yaml")])
    assert other.for_class(CardClass.NEUTRAL).card is not HERO and other.sources == (str(tmp_path / "squire.yaml"),)


def test_a_duplicate_id_names_the_file_that_defined_it_first(tmp_path):
    first = _hero_file(tmp_path, MAGE + GOOD_POWER, "a.yaml")
    second = _hero_file(tmp_path, "id: zapper\nname: Zapper\nclass: warrior\n" + GOOD_POWER, "b.yaml")
    with pytest.raises(DataError, match=rf"duplicate id 'zapper' \(first defined in {first}\)") as info:
        load_heroes([first, second])
    assert info.value.source == str(second) and info.value.field == "id"
    power_twice = _hero_file(tmp_path, "id: zapper2\nname: Zapper\nclass: warrior\n" + GOOD_POWER, "c.yaml")
    with pytest.raises(DataError, match=rf"duplicate id 'zap' \(first defined in {first}\)") as info:
        load_heroes([first, power_twice])
    assert info.value.field == "power.id"


def test_an_empty_hero_set_says_it_has_heroes_for_no_class():
    from ccg_env.engine.heroes import HeroSet

    with pytest.raises(DataError, match=r"^mine\.yaml: no hero of class 'mage' \(heroes for: none\)$"):
        HeroSet({}, ("mine.yaml",)).for_class(CardClass.MAGE)


def test_a_power_summoning_an_unknown_card_after_an_ability_that_summons_nothing_is_refused(tmp_path):
    path = _hero_file(tmp_path, MAGE + "power: {id: zap, name: Zap, abilities: [{effect: gain_armor, amount: 1}, "
                                       "{effect: summon, card: dragon}]}")
    with pytest.raises(DataError, match=r"power, abilities\[1\], field 'card': unknown card id 'dragon'"):
        load_heroes([path], cards=default_cards())


def test_a_missing_class_is_named_with_every_class_the_set_has_comma_separated(tmp_path):
    warrior = ("id: hitter\nname: Hitter\nclass: warrior\n"
               "power: {id: hit, name: Hit, abilities: [{effect: gain_armor, amount: 1}]}")
    heroes = load_heroes([_hero_file(tmp_path, MAGE + GOOD_POWER, "a.yaml"), _hero_file(tmp_path, warrior, "b.yaml")])
    with pytest.raises(DataError, match=r"no hero of class 'priest' \(heroes for: mage, warrior\)$"):
        heroes.for_class(CardClass.PRIEST)
