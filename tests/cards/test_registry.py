"""The card set as a whole: every card has a scenario test, and the set exercises the whole effect vocabulary."""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

from ccg_env.engine import CardType, Keyword, load_cards
from ccg_env.engine.datafiles import read_yaml
from ccg_env.engine.vocabulary import SECRET_TRIGGERS, CardClass, EffectKind, Selector, Trigger

from tests.card_files import packaged_card_files

from . import helpers

CARDS = load_cards()


def _import_every_card_test_module() -> None:
    """Import the sibling test modules so their @covers records exist even when only this file was selected."""
    for module in pkgutil.iter_modules([str(Path(__file__).parent)]):
        if module.name.startswith("test_"):
            importlib.import_module(f"{__package__}.{module.name}")


def test_every_card_in_the_set_has_a_scenario_test():
    _import_every_card_test_module()
    missing = sorted(set(CARDS) - helpers.TESTED_IDS)
    unknown = sorted(helpers.TESTED_IDS - set(CARDS))
    assert missing == [], f"cards without a scenario test: {missing}"
    assert unknown == [], f"tests claim cards that do not exist: {unknown}"


def test_the_set_is_big_enough_and_mostly_collectible():
    collectible = [c for c in CARDS.values() if c.collectible]
    assert len(CARDS) >= 60 and len(collectible) >= 0.8 * len(CARDS)
    assert sum(c.card_type is CardType.WEAPON for c in collectible) >= 3
    assert sum(c.card_type is CardType.SECRET for c in collectible) >= 4


def test_every_trigger_effect_and_selector_is_used():
    abilities = [a for card in CARDS.values() for a in card.abilities]
    assert {a.trigger for a in abilities} == set(Trigger)
    assert {a.effect for a in abilities} == set(EffectKind)
    assert {a.selector for a in abilities} == set(Selector)
    assert any(a.selector is Selector.RANDOM and a.count > 1 for a in abilities)
    assert SECRET_TRIGGERS <= {a.trigger for a in abilities}


def test_every_keyword_is_printed_on_a_card():
    printed = 0
    for card in CARDS.values():
        printed |= card.keywords
    assert all(printed & int(k) for k in Keyword if k is not Keyword.NONE)


def test_target_specs_cover_optional_filtered_and_excluding_marks():
    specs = [c.target for c in CARDS.values() if c.target is not None]
    assert any(not s.required for s in specs) and any(s.required for s in specs)
    predicates = {p for s in specs for p in s.allowed.predicates}
    assert {"injured", "taunt"} <= predicates
    assert any(CardType.HERO in s.allowed.exclude for s in specs)
    assert any(c.card_type is CardType.SPELL and c.target and c.target.required for c in CARDS.values())


def test_every_hero_class_has_at_least_eight_collectible_class_cards():
    for card_class in CardClass:
        if card_class is not CardClass.NEUTRAL:
            count = sum(c.collectible and c.card_class is card_class for c in CARDS.values())
            assert count >= 8, f"{card_class.value} has {count} collectible class cards"


def test_each_class_file_holds_only_cards_of_its_class():
    files = packaged_card_files("class_*.yaml")
    assert [f.stem for f in files] == sorted(f"class_{c.value}" for c in CardClass if c is not CardClass.NEUTRAL)
    for path in files:
        card_ids = [raw["id"] for raw in read_yaml(path)["cards"]]
        assert {CARDS[card_id].card_class.value for card_id in card_ids} == {path.stem.removeprefix("class_")}
