"""docs/cards.md lists every class card under its class, with the stats and text of the card files."""

from __future__ import annotations

import re
from pathlib import Path

from ccg_env.engine import CardDef, CardType, default_cards
from ccg_env.engine.vocabulary import CardClass

DOC = Path(__file__).resolve().parents[2] / "docs" / "cards.md"
HEADER = "| card | name | type | cost | stats | text |\n| --- | --- | --- | --- | --- | --- |"


def _row(card: CardDef) -> str:
    kind = card.card_type.value + ("" if card.collectible else " (token)")
    stats = {CardType.MINION: f"{card.attack}/{card.health}", CardType.WEAPON: f"{card.attack}/{card.durability}"}
    return (f"| `{card.id}` | {card.name} | {kind} | {card.cost} | {stats.get(card.card_type, '')} | "
            f"{card.text} |")


def class_table(card_class: CardClass) -> str:
    """The markdown table of a class's cards, collectible first, each group by cost then id."""
    cards = [c for c in default_cards().values() if c.card_class is card_class]
    cards.sort(key=lambda c: (not c.collectible, c.cost, c.id))
    return "\n".join([HEADER, *(_row(c) for c in cards)])


def _documented_table(text: str, card_class: CardClass) -> str:
    section = re.search(rf"^### {card_class.value.capitalize()}\b.*?\n(\| card .*?)(?:\n\n|\Z)", text, re.M | re.S)
    assert section, f"docs/cards.md has no '### {card_class.value.capitalize()}' table"
    return section.group(1).strip()


def test_the_docs_list_each_class_card_as_the_card_files_define_it():
    text = DOC.read_text(encoding="utf-8")
    for card_class in CardClass:
        if card_class is not CardClass.NEUTRAL:
            expected = class_table(card_class)
            assert _documented_table(text, card_class) == expected, (
                f"docs/cards.md's {card_class.value} table is out of date; it should read:\n{expected}")


if __name__ == "__main__":  # print the tables to paste into docs/cards.md
    for hero_class in CardClass:
        if hero_class is not CardClass.NEUTRAL:
            print(f"### {hero_class.value.capitalize()}\n\n{class_table(hero_class)}\n")
