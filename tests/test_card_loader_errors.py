"""Loader error messages: each kind of bad card or deck file fails with a DataError naming file, card and field."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from ccg_env.engine import CardClass, DataError, Game, Rules, default_cards, load_cards, load_deck
from ccg_env.engine.cards import CardLoopWarning
from ccg_env.engine.decks import parse_deck
from ccg_env.engine.targeting import Mark
from ccg_env.engine.vocabulary import Alliance, CardType, Zones
from tests.card_files import packaged_card_files

MINION = "{id: bad_card, name: Bad Card, type: minion, cost: 1, attack: 1, health: 1"


def _write(directory: Path, name: str, text: str) -> Path:
    path = directory / name
    path.write_text(text, encoding="utf-8")
    return path


def _card_file(directory: Path, card: str) -> Path:
    return _write(directory, "cards.yaml", f"cards:\n  - {card}\n")


BAD_CARDS = {
    "unknown field": (MINION + ", colour: red}", "colour",
                      "unknown field (allowed: abilities, attack, class, collectible, cost, durability, health, id,"
                      " keywords, name, target, text, type)"),
    "string cost": ("{id: bad_card, name: Bad Card, type: minion, cost: '3', attack: 1, health: 1}", "cost",
                    "expected an integer, got '3'"),
    "unknown effect": (MINION + ", abilities: [{trigger: battlecry, effect: explode, select: self}]}", "effect",
                       "unknown value 'explode' (allowed: damage, heal, draw, summon, buff, give_keyword, destroy,"
                       " gain_armor, equip_weapon, freeze, gain_mana)"),
    "unknown trigger": (MINION + ", abilities: [{trigger: on_sunday, effect: draw, amount: 1}]}", "trigger",
                        "unknown value 'on_sunday' (allowed: battlecry, deathrattle, card_played, spell_cast,"
                        " minion_summoned, self_damaged, turn_start, turn_end, secret_hero_attacked,"
                        " secret_minion_attacked, secret_minion_played, secret_spell_cast)"),
    "chosen without a target spec": (MINION + ", abilities: [{trigger: battlecry, effect: damage, amount: 1,"
                                     " select: chosen}]}", "select",
                                     "selector 'chosen' needs the card to have a 'target' spec"),
    "no selector and no target spec": (MINION + ", abilities: [{trigger: battlecry, effect: damage, amount: 1}]}",
                                       "select",
                                       "missing required field (no target spec, so say whom the effect acts on)"),
    "unknown keyword": (MINION + ", keywords: [flying]}", "keywords",
                        "unknown keyword 'flying' (allowed: taunt, charge, divine_shield, windfury, lifesteal,"
                        " poisonous, stealth, freeze)"),
    "unknown mark filter": (MINION + ", abilities: [{trigger: battlecry, effect: damage, amount: 1, select: all,"
                            " mark: {alliance: enemy, zones: active, filters: [shiny]}}]}", "mark",
                            "unknown filter 'shiny' (allowed: injured, undamaged, taunt, frozen, attack_3_or_more,"
                            " attack_2_or_less)"),
    "secret trigger on a minion": (MINION + ", abilities: [{trigger: secret_hero_attacked, effect: gain_armor,"
                                   " amount: 1}]}", "trigger", "secret triggers are only for secret cards"),
    "damage without an amount": (MINION + ", abilities: [{trigger: battlecry, effect: damage, select: self}]}",
                                 "amount", "effect 'damage' needs an amount"),
    "minion without health": ("{id: bad_card, name: Bad Card, type: minion, cost: 1, attack: 1}", "health",
                              "a minion needs attack and health"),
    "unknown class": (MINION + ", class: bard}", "class",
                      "unknown value 'bard' (allowed: neutral, mage, warrior, paladin, priest, rogue, warlock)"),
    "target spec nothing uses": (MINION + ", target: {allowed: {alliance: any, zones: active}}}", "target",
                                 "has a target spec but no ability acts on the chosen target"),
    "zones neither a name nor a list": (MINION + ", abilities: [{trigger: battlecry, effect: damage, amount: 1,"
                                        " select: all, mark: {alliance: enemy, zones: 5}}]}", "mark",
                                        "expected a name or a list of names, got 5"),
    "unknown zone": (MINION + ", abilities: [{trigger: battlecry, effect: damage, amount: 1, select: all,"
                     " mark: {alliance: enemy, zones: [battlefield, sky]}}]}", "mark",
                     "unknown zone 'sky' (allowed: none, hero, weapon, deck, hand, battlefield, secrets, graveyard,"
                     " active)"),
    "target required not a boolean": (MINION + ", target: {required: maybe, allowed: {alliance: any, zones: active}},"
                                      " abilities: [{trigger: battlecry, effect: damage, amount: 1}]}",
                                      "target.required", "expected true or false, got 'maybe'"),
    "chosen target on a deathrattle": (MINION + ", target: {allowed: {alliance: any, zones: active}}, abilities:"
                                       " [{trigger: deathrattle, effect: damage, amount: 1, select: chosen}]}",
                                       "select", "only battlecry abilities can act on the chosen target"),
    "all without a mark": (MINION + ", abilities: [{trigger: battlecry, effect: damage, amount: 1, select: all}]}",
                           "mark", "selector 'all' needs a 'mark'"),
    "mark on a self ability": (MINION + ", abilities: [{trigger: battlecry, effect: damage, amount: 1, select: self,"
                               " mark: {alliance: enemy, zones: active}}]}", "mark",
                               "'mark' is only used by the all and random selectors, not 'self'"),
    "deathrattle on a spell": ("{id: bad_card, name: Bad Card, type: spell, cost: 1, abilities: [{trigger: deathrattle,"
                               " effect: draw, amount: 1}]}", "trigger", "deathrattles are only for minions"),
    "unknown keyword given": (MINION + ", abilities: [{trigger: battlecry, effect: give_keyword, keyword: flying,"
                              " select: self}]}", "keyword",
                              "unknown keyword 'flying' (allowed: taunt, charge, divine_shield, windfury, lifesteal,"
                              " poisonous, stealth, freeze)"),
    "summon without a card": (MINION + ", abilities: [{trigger: deathrattle, effect: summon}]}", "card",
                              "effect 'summon' needs the id of a card"),
    "abilities not a list": (MINION + ", abilities: {trigger: battlecry}}", "abilities", "expected a list of abilities"),
    "secret without a secret trigger": ("{id: bad_card, name: Bad Card, type: secret, cost: 1, abilities: [{trigger:"
                                        " battlecry, effect: draw, amount: 1}]}", "abilities",
                                        "a secret needs an ability with a secret trigger"),
    "text not a string": (MINION + ", text: [a, b]}", "text", "expected text"),
    "empty name": ("{id: bad_card, name: '', type: minion, cost: 1, attack: 1, health: 1}", "name",
                   "expected a non-empty name"),
    "collectible not a boolean": (MINION + ", collectible: maybe}", "collectible", "expected true or false"),
    "spell with attack": ("{id: bad_card, name: Bad Card, type: spell, cost: 1, attack: 2, abilities: [{trigger:"
                          " battlecry, effect: draw, amount: 1}]}", "attack", "a spell has no attack"),
    "unknown mark type": (MINION + ", abilities: [{trigger: battlecry, effect: damage, amount: 1, select: all,"
                          " mark: {alliance: enemy, zones: active, types: [dragon]}}]}", "mark",
                          "unknown value 'dragon' (allowed: minion, spell, weapon, secret, hero, hero_power)"),
    "mark types neither a name nor a list": (MINION + ", abilities: [{trigger: battlecry, effect: damage, amount: 1,"
                                             " select: all, mark: {alliance: enemy, zones: active, types: 5}}]}",
                                             "mark", "expected a name or a list of names, got 5"),
    "unknown excluded type": (MINION + ", abilities: [{trigger: battlecry, effect: damage, amount: 1, select: all,"
                              " mark: {alliance: enemy, zones: active, exclude: [dragon]}}]}", "mark",
                              "unknown value 'dragon' (allowed: minion, spell, weapon, secret, hero, hero_power)"),
    "excluded types neither a name nor a list": (MINION + ", abilities: [{trigger: battlecry, effect: damage,"
                                                 " amount: 1, select: all, mark: {alliance: enemy, zones: active,"
                                                 " exclude: 5}}]}", "mark",
                                                 "expected a name or a list of names, got 5"),
    "filters neither a name nor a list": (MINION + ", abilities: [{trigger: battlecry, effect: damage, amount: 1,"
                                          " select: all, mark: {alliance: enemy, zones: active, filters: 5}}]}",
                                          "mark", "expected a name or a list of names, got 5"),
    "unknown target field": (MINION + ", target: {allowed: {alliance: any, zones: active}, colour: red}, abilities:"
                             " [{trigger: battlecry, effect: damage, amount: 1}]}", "colour",
                             "unknown field (allowed: allowed, preferred, required)"),
    "unknown type": ("{id: bad_card, name: Bad Card, type: creature, cost: 1, attack: 1, health: 1}", "type",
                     "unknown value 'creature' (allowed: minion, spell, weapon, secret)"),
    "keywords neither a name nor a list": (MINION + ", keywords: 5}", "keywords",
                                           "expected a name or a list of names, got 5"),
    "unknown preferred zone": (MINION + ", target: {allowed: {alliance: any, zones: active}, preferred: {alliance:"
                               " enemy, zones: [sky]}}, abilities: [{trigger: battlecry, effect: damage, amount: 1}]}",
                               "target.preferred", "unknown zone 'sky' (allowed: none, hero, weapon, deck, hand,"
                               " battlefield, secrets, graveyard, active)"),
    "unknown ability field": (MINION + ", abilities: [{trigger: battlecry, effect: draw, amount: 1, colour: red}]}",
                              "colour", "unknown field (allowed: amount, attack, card, count, effect, health, keyword,"
                              " mark, select, trigger)"),
    "unknown selector": (MINION + ", abilities: [{trigger: battlecry, effect: damage, amount: 1, select: everyone}]}",
                         "select", "unknown value 'everyone' (allowed: chosen, all, random, self, own_hero,"
                         " enemy_hero, trigger_card)"),
    "minion with durability": (MINION + ", durability: 2}", "durability", "a minion has no durability"),
    "unknown mark field": (MINION + ", abilities: [{trigger: battlecry, effect: damage, amount: 1, select: all,"
                           " mark: {alliance: enemy, zones: active, colour: red}}]}", "colour",
                           "unknown field (allowed: alliance, exclude, filters, types, zones)"),
    "eleven abilities": (MINION + ", abilities: [" + ", ".join(["{trigger: battlecry, effect: draw, amount: 1}"] * 11)
                         + "]}", "abilities", "11 abilities, at most 10 allowed"),
}


@pytest.mark.parametrize("case", sorted(BAD_CARDS))
def test_bad_card_names_file_card_and_field(tmp_path, case):
    card, field, reason = BAD_CARDS[case]
    path = _card_file(tmp_path, card)
    with pytest.raises(DataError) as caught:
        load_cards([path])
    error = caught.value
    assert error.source == str(path) and "'bad_card'" in error.item and error.field == field
    assert error.reason == reason
    assert str(path) in str(error) and "bad_card" in str(error) and f"field '{field}'" in str(error)


@pytest.mark.parametrize("card_id", ["Bad_Card", "bad-card", 7])
def test_a_card_id_that_is_not_a_lower_case_slug_is_named(tmp_path, card_id):
    path = _card_file(tmp_path, f"{{id: {card_id}, name: Bad Card, type: minion, cost: 1, attack: 1, health: 1}}")
    with pytest.raises(DataError, match=r"ids are lower-case slugs like 'knife_juggler', got") as caught:
        load_cards([path])
    assert caught.value.field == "id" and str(card_id) in caught.value.reason


def test_no_card_files_and_a_file_whose_cards_are_not_a_list_are_refused(tmp_path):
    with pytest.raises(DataError, match="^<data>: no card files given$"):
        load_cards([])
    path = _write(tmp_path, "cards.yaml", "cards: {wisp: 1}\n")
    with pytest.raises(DataError, match="expected a list of cards") as caught:
        load_cards([path])
    assert caught.value.source == str(path) and caught.value.field == "cards"


def test_summon_of_an_unknown_card_names_the_ability(tmp_path):
    path = _card_file(tmp_path, MINION + ", abilities: [{trigger: deathrattle, effect: summon, card: ghost}]}")
    with pytest.raises(DataError, match="unknown card id 'ghost'") as caught:
        load_cards([path])
    assert caught.value.source == str(path) and caught.value.field == "card"
    assert caught.value.item == "card 'bad_card', abilities[0]"


@pytest.mark.parametrize("effect, wanted", [("summon", "minion"), ("equip_weapon", "weapon")])
def test_summoning_or_equipping_a_card_of_the_wrong_type_names_both_types(tmp_path, effect, wanted):
    path = _write(tmp_path, "cards.yaml", "cards:\n  - {id: bolt, name: Bolt, type: spell, cost: 1, abilities: "
                  "[{trigger: battlecry, effect: draw, amount: 1}]}\n"
                  f"  - {MINION}, abilities: [{{trigger: deathrattle, effect: {effect}, card: bolt}}]}}\n")
    with pytest.raises(DataError, match=f"^.*: 'bolt' is a spell, expected a {wanted}$") as caught:
        load_cards([path])
    assert caught.value.item == "card 'bad_card', abilities[0]" and caught.value.field == "card"


def test_duplicate_id_names_both_files(tmp_path):
    text = "cards:\n  - {id: wisp, name: Wisp, type: minion, cost: 0, attack: 1, health: 1}\n"
    first, second = _write(tmp_path, "a.yaml", text), _write(tmp_path, "b.yaml", text)
    with pytest.raises(DataError, match="duplicate card id") as caught:
        load_cards([first, second])
    assert caught.value.source == str(second) and caught.value.field == "id" and str(first) in caught.value.reason


def test_bad_yaml_syntax_names_the_file(tmp_path):
    path = _write(tmp_path, "broken.yaml", "cards:\n  - {id: wisp, name: [unclosed\n")
    with pytest.raises(DataError, match="not valid YAML") as caught:
        load_cards([path])
    assert caught.value.source == str(path)


def test_a_bad_file_loads_nothing_at_all(tmp_path):
    good = _card_file(tmp_path, "{id: pet, name: Pet, type: minion, cost: 1, attack: 1, health: 1}")
    bad = _write(tmp_path, "zbad.yaml", f"cards:\n  - {MINION}, colour: red}}\n")
    before = sorted(default_cards())
    loaded = None
    with pytest.raises(DataError):
        loaded = load_cards([good, bad])
    assert loaded is None
    assert sorted(default_cards()) == before and "pet" not in default_cards()
    assert sorted(load_cards([good])) == ["pet"]


# --- decks ---------------------------------------------------------------------------------------


def _deck_file(directory: Path, counts: dict[str, int], name: str = "my_deck.yaml",
               header: str = "name: My Deck\n") -> Path:
    """A deck file of these card counts, after the header lines (its name and hero)."""
    body = "".join(f"  {card_id}: {count}\n" for card_id, count in counts.items())
    return _write(directory, name, f"{header}cards:\n{body}")


FIFTEEN_PAIRS = dict.fromkeys(
    ["wisp", "river_crocolisk", "bloodfen_raptor", "magma_rager", "chillwind_yeti", "boulderfist_ogre", "core_hound",
     "goldshire_footman", "senjin_shieldmasta", "bluegill_warrior", "wolfrider", "consecration", "arcane_intellect",
     "fireball", "fiery_war_axe"], 2)

BAD_DECKS = {
    "unknown card id": ({**FIFTEEN_PAIRS, "wisp": 1, "no_such_card": 1}, "cards.no_such_card", "unknown card id"),
    "too many copies": ({**FIFTEEN_PAIRS, "wisp": 3, "core_hound": 1}, "cards.wisp", "at most 2"),
    "wrong size": ({**FIFTEEN_PAIRS, "wisp": 1}, "cards", "has 29 cards"),
    "token in deck": ({**FIFTEEN_PAIRS, "wisp": 1, "the_coin": 1}, "cards.the_coin", "not collectible"),
    "string count": ({**FIFTEEN_PAIRS, "wisp": "two"}, "cards.wisp", "expected a positive count"),
}


def test_the_reference_deck_of_these_cases_is_valid(tmp_path):
    deck = load_deck(_deck_file(tmp_path, FIFTEEN_PAIRS), default_cards(), Rules.load())
    assert len(deck.cards) == 30 and deck.name == "My Deck"


@pytest.mark.parametrize("case", sorted(BAD_DECKS))
def test_bad_deck_names_file_deck_and_card(tmp_path, case):
    counts, field, reason = BAD_DECKS[case]
    path = _deck_file(tmp_path, counts)
    with pytest.raises(DataError) as caught:
        load_deck(path, default_cards(), Rules.load())
    error = caught.value
    assert (error.source, error.item, error.field) == (str(path), "deck 'My Deck'", field)
    assert reason in error.reason and str(path) in str(error)


def _class_card_file(directory: Path) -> Path:
    return _card_file(directory, "{id: apprentice, name: Apprentice, type: minion, cost: 1, attack: 1, health: 1,"
                                 " class: mage}")


def test_a_card_without_a_class_is_neutral_and_a_class_card_keeps_its_class(tmp_path):
    assert default_cards()["wisp"].card_class is CardClass.NEUTRAL
    assert load_cards([_class_card_file(tmp_path)])["apprentice"].card_class is CardClass.MAGE


def _class_deck(directory: Path, hero: str | None) -> tuple[Path, object]:
    packaged = packaged_card_files()
    cards = load_cards([*packaged, _class_card_file(directory)])
    header = "name: Class Deck\n" + (f"hero: {hero}\n" if hero is not None else "")
    counts = {**FIFTEEN_PAIRS, "wisp": 1, "apprentice": 1}
    return _deck_file(directory, counts, "class_deck.yaml", header), cards


def test_a_class_deck_may_hold_its_class_cards(tmp_path):
    path, cards = _class_deck(tmp_path, "mage")
    deck = load_deck(path, cards, Rules.load())
    assert deck.hero is CardClass.MAGE and "apprentice" in deck.cards


@pytest.mark.parametrize("hero, reason", [(None, "a neutral deck may hold only neutral cards"),
                                          ("warrior", "a warrior deck may hold only neutral and warrior cards"),
                                          ("bard", "unknown hero class 'bard'")])
def test_a_deck_refuses_another_class_s_cards_and_unknown_heroes(tmp_path, hero, reason):
    path, cards = _class_deck(tmp_path, hero)
    with pytest.raises(DataError) as caught:
        load_deck(path, cards, Rules.load())
    error = caught.value
    assert error.source == str(path) and error.item == "deck 'Class Deck'" and reason in error.reason
    assert error.field == ("hero" if hero == "bard" else "cards.apprentice")


def test_game_new_with_a_bad_user_deck_file_raises_before_any_game_exists(tmp_path):
    path = _deck_file(tmp_path, {**FIFTEEN_PAIRS, "wisp": 3, "core_hound": 1})
    game = None
    with pytest.raises(DataError, match="at most 2"):
        game = Game.new(0, decks=[path, "aggro"])
    assert game is None
    good = _deck_file(tmp_path, FIFTEEN_PAIRS)
    assert Game.new(0, decks=[good, "aggro"]).turn == 1


def _yaml_error(directory: Path, text: str) -> str:
    """The parser's part of the DataError for a card file holding ``text``."""
    path = _write(directory, "cards.yaml", text)
    with pytest.raises(DataError) as info:
        load_cards([path])
    message = str(info.value)
    assert message.startswith(f"{path}: not valid YAML: ")
    return message[len(f"{path}: not valid YAML: "):]


def test_a_yaml_syntax_error_is_shown_on_one_line_with_single_spaces(tmp_path):
    assert _yaml_error(tmp_path, "cards:\n  - {id: a, name: b: [\n") == (
        'while parsing a flow mapping in "<unicode string>", line 2, column 5 '
        'did not find expected \',\' or \'}\' in "<unicode string>", line 2, column 20')


def test_a_yaml_error_is_cut_to_500_characters(tmp_path):
    """The parser quotes an unknown tag whole: a tag of n characters makes the one-line message n longer."""

    def message(n: int) -> str:
        return _yaml_error(tmp_path, "cards:\n  - !!python/object:" + "z" * n + " {}\n")

    base = len(message(0))
    whole = message(500 - base)
    assert len(whole) == 500 and not whole.endswith("...")
    longer = whole.replace("z'", "zz'", 1)  # what the message would be with one more character, uncut
    assert message(501 - base) == longer[:497] + "..."


# --- cards that set themselves off -----------------------------------------------------------------


@pytest.mark.parametrize("ability, loops", [
    ("{trigger: self_damaged, effect: damage, amount: 1, select: self}", True),
    ("{trigger: self_damaged, effect: damage, amount: 1, select: all, mark: {alliance: ally, zones: battlefield}}",
     True),
    ("{trigger: self_damaged, effect: damage, amount: 1, select: all, mark: {alliance: any, zones: active,"
     " types: [minion]}}", True),
    ("{trigger: self_damaged, effect: damage, amount: 1, select: all, mark: {alliance: enemy, zones: battlefield}}",
     False),
    ("{trigger: self_damaged, effect: damage, amount: 1, select: all, mark: {alliance: ally, zones: hero}}", False),
    ("{trigger: self_damaged, effect: damage, amount: 1, select: all, mark: {alliance: ally, zones: battlefield,"
     " exclude: [minion]}}", False),
    ("{trigger: self_damaged, effect: damage, amount: 1, select: random, mark: {alliance: ally, zones: battlefield}}",
     False),
    ("{trigger: self_damaged, effect: damage, amount: 0, select: self}", False),
    ("{trigger: self_damaged, effect: heal, amount: 1, select: self}", False),
])
def test_the_loader_warns_about_a_minion_that_damages_itself_whenever_damaged(tmp_path, ability, loops):
    path = _card_file(tmp_path, MINION + f", abilities: [{ability}]}}")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        load_cards([path])
    messages = [str(w.message) for w in caught if w.category is CardLoopWarning]
    assert messages == ([f"{path}, card 'bad_card', abilities[0]: whenever it is damaged it damages itself (select: "
                         f"{'self' if 'self}' in ability else 'all'}): it can set itself off without end; the engine "
                         f"ends such a game as a draw (Result.LOOP)"] if loops else [])


@pytest.mark.parametrize("equips, loops", [("bad_card", True), ("other_blade", False)])
def test_the_loader_warns_about_a_weapon_whose_battlecry_equips_itself(tmp_path, equips, loops):
    weapon = "{id: %s, name: Blade, type: weapon, cost: 1, attack: 1, durability: 2%s}"
    path = _write(tmp_path, "cards.yaml", "cards:\n  - " + weapon % ("other_blade", "") + "\n  - " + weapon % (
        "bad_card", f", abilities: [{{trigger: battlecry, effect: equip_weapon, card: {equips}}}]") + "\n")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        load_cards([path])
    messages = [str(w.message) for w in caught if w.category is CardLoopWarning]
    assert len(messages) == loops and all("abilities[0]: its battlecry equips a copy of itself" in m for m in messages)


def test_a_deck_without_a_name_is_named_after_its_file_unless_a_name_is_given(tmp_path):
    cards, rules = default_cards(), Rules.load()
    data = {"cards": FIFTEEN_PAIRS}
    assert parse_deck(data, cards, rules, source="decks/my_list.yaml").name == "my_list"
    assert parse_deck(data, cards, rules, source="decks/my_list.yaml", name="Given").name == "Given"
    named = parse_deck({"name": "Named", **data}, cards, rules, source="decks/my_list.yaml", name="Given")
    assert named.name == "Named"
    assert load_deck(_deck_file(tmp_path, FIFTEEN_PAIRS, "nameless.yaml", header=""), cards, rules).name == "nameless"


def test_a_deck_keeps_its_description_which_is_empty_when_left_out():
    cards, rules = default_cards(), Rules.load()
    data = {"cards": FIFTEEN_PAIRS}
    assert parse_deck({"description": "Pairs.", **data}, cards, rules, source="d.yaml").description == "Pairs."
    assert parse_deck(data, cards, rules, source="d.yaml").description == ""


def test_an_unknown_hero_class_is_refused_with_the_classes_allowed():
    with pytest.raises(DataError) as caught:
        parse_deck({"hero": "bard", "cards": FIFTEEN_PAIRS}, default_cards(), Rules.load(), source="d.yaml")
    assert caught.value.reason == ("unknown hero class 'bard' (allowed: neutral, mage, warrior, paladin, priest, "
                                   "rogue, warlock)")


def test_an_unknown_card_id_is_refused_with_up_to_five_ids_of_the_same_first_three_letters(tmp_path):
    imps = "".join(f"  - {{id: imp_{letter}, name: Imp, type: minion, cost: 1, attack: 1, health: 1}}\n"
                   for letter in "gfedcba")
    path = _write(tmp_path, "imps.yaml", f"cards:\n{imps}  - {{id: wisp, name: Wisp, type: minion, cost: 0, attack: 1,"
                                         " health: 1}\n")
    cards = load_cards([path])
    assert cards.get_card("imp_b").id == "imp_b"
    with pytest.raises(DataError) as near:
        cards.get_card("imp_z")
    assert near.value.reason == "unknown card id 'imp_z' (did you mean imp_a, imp_b, imp_c, imp_d, imp_e?)"
    assert near.value.source == str(path)
    with pytest.raises(DataError) as far:
        cards.get_card("zzz")
    assert far.value.reason == "unknown card id 'zzz'"


#: each number a card file gives: a card made with it, and its lowest and highest values
NUMBER_BOUNDS = {
    "cost": ("{id: bad_card, name: Bad Card, type: minion, cost: %d, attack: 1, health: 1}", 0, 20),
    "attack": ("{id: bad_card, name: Bad Card, type: minion, cost: 1, attack: %d, health: 1}", 0, 100),
    "health": ("{id: bad_card, name: Bad Card, type: minion, cost: 1, attack: 1, health: %d}", 1, 100),
    "durability": ("{id: bad_card, name: Bad Card, type: weapon, cost: 1, attack: 1, durability: %d}", 1, 100),
    "count": (MINION + ", abilities: [{trigger: battlecry, effect: damage, amount: 1, select: random, count: %d,"
              " mark: {alliance: enemy, zones: active}}]}", 1, 20),
    "amount": (MINION + ", abilities: [{trigger: battlecry, effect: damage, select: self, amount: %d}]}", 0, 100),
    "buff attack": (MINION + ", abilities: [{trigger: battlecry, effect: buff, select: self, attack: %d}]}", -100, 100),
    "buff health": (MINION + ", abilities: [{trigger: battlecry, effect: buff, select: self, health: %d}]}", -100, 100),
}


@pytest.mark.parametrize("number", sorted(NUMBER_BOUNDS))
def test_each_number_of_a_card_is_accepted_within_its_bounds_and_refused_one_past_them(tmp_path, number):
    template, lowest, highest = NUMBER_BOUNDS[number]
    field = number.split()[-1]
    for value in (lowest, highest):
        load_cards([_card_file(tmp_path, template % value)])
    for value in (lowest - 1, highest + 1):
        with pytest.raises(DataError) as caught:
            load_cards([_card_file(tmp_path, template % value)])
        assert (caught.value.field, caught.value.reason) == (field, f"must be between {lowest} and {highest}, got "
                                                                    f"{value}")


def test_a_mark_covers_every_zone_it_lists_and_keeps_its_types_and_exclusions(tmp_path):
    path = _card_file(tmp_path, MINION + ", abilities: [{trigger: battlecry, effect: damage, amount: 1, select: all,"
                                " mark: {alliance: enemy, zones: [hero, battlefield], types: [minion, hero],"
                                " exclude: [weapon], filters: [injured]}}]}")
    mark = load_cards([path])["bad_card"].abilities[0].mark
    assert mark == Mark(Alliance.ENEMY, Zones.HERO | Zones.BATTLEFIELD, frozenset({CardType.MINION, CardType.HERO}),
                        frozenset({CardType.WEAPON}), ("injured",))


def test_a_card_entry_that_is_not_a_mapping_or_has_no_id_is_named_by_its_position(tmp_path):
    good = "{id: wisp, name: Wisp, type: minion, cost: 0, attack: 1, health: 1}"
    with pytest.raises(DataError) as not_a_mapping:
        load_cards([_write(tmp_path, "cards.yaml", f"cards:\n  - {good}\n  - 5\n")])
    assert (not_a_mapping.value.item, not_a_mapping.value.reason) == ("card #1", "expected a mapping, got int")
    with pytest.raises(DataError) as no_id:
        load_cards([_write(tmp_path, "cards.yaml", "cards:\n  - {name: Wisp, type: minion, cost: 0, attack: 1,"
                                                   " health: 1}\n")])
    assert (no_id.value.item, no_id.value.field, no_id.value.reason) == ("card #0", "id", "missing required field")


def test_a_target_spec_prefers_its_preferred_mark_which_defaults_to_the_allowed_one(tmp_path):
    ability = "abilities: [{trigger: battlecry, effect: damage, amount: 1}]"
    plain = _card_file(tmp_path, MINION + ", target: {allowed: {alliance: any, zones: active}}, " + ability + "}")
    target = load_cards([plain])["bad_card"].target
    assert target.allowed == target.preferred == Mark(Alliance.ANY, Zones.ACTIVE)
    preferring = _card_file(tmp_path, MINION + ", target: {allowed: {alliance: any, zones: active}, preferred:"
                                      " {alliance: enemy, zones: battlefield}}, " + ability + "}")
    card = load_cards([preferring])["bad_card"]
    assert card.target.allowed == Mark(Alliance.ANY, Zones.ACTIVE)
    assert card.target.preferred == Mark(Alliance.ENEMY, Zones.BATTLEFIELD)
    assert card.abilities[0].mark is None  # an ability on the chosen target has no mark


def test_a_card_may_have_ten_abilities_and_an_error_in_one_names_its_position(tmp_path):
    draw = "{trigger: battlecry, effect: draw, amount: 1}"
    assert len(load_cards([_card_file(tmp_path, MINION + ", abilities: [" + ", ".join([draw] * 10) + "]}")])[
        "bad_card"].abilities) == 10
    with pytest.raises(DataError) as caught:
        load_cards([_card_file(tmp_path, MINION + f", abilities: [{draw}, {{trigger: battlecry, effect: explode}}]}}")])
    assert (caught.value.item, caught.value.field) == ("card 'bad_card', abilities[1]", "effect")


def test_numbers_an_effect_does_not_use_stay_zero_and_summon_makes_one_copy_by_default(tmp_path):
    path = _card_file(tmp_path, MINION + ", abilities: [{trigger: battlecry, effect: freeze, select: enemy_hero},"
                                " {trigger: deathrattle, effect: summon, card: wisp}]}")
    freeze, summon = load_cards([*packaged_card_files(), path])["bad_card"].abilities
    assert (freeze.count, freeze.amount, freeze.attack, freeze.health, freeze.keyword, freeze.card) == (1, 0, 0, 0, 0,
                                                                                                          None)
    assert (summon.count, summon.amount, summon.card) == (1, 1, "wisp")


def test_a_summon_of_an_unknown_card_is_found_after_an_ability_that_summons_nothing(tmp_path):
    path = _card_file(tmp_path, MINION + ", abilities: [{trigger: battlecry, effect: draw, amount: 1},"
                                " {trigger: deathrattle, effect: summon, card: no_such_card}]}")
    with pytest.raises(DataError) as caught:
        load_cards([path])
    assert (caught.value.item, caught.value.field, caught.value.reason) == (
        "card 'bad_card', abilities[1]", "card", "unknown card id 'no_such_card'")


def test_an_unknown_top_level_key_of_a_card_file_names_the_file(tmp_path):
    path = _write(tmp_path, "cards.yaml", "colour: red\ncards: []\n")
    with pytest.raises(DataError) as caught:
        load_cards([path])
    assert (caught.value.source, caught.value.field, caught.value.reason) == (str(path), "colour",
                                                                              "unknown field (allowed: cards, set)")
