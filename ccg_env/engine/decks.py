"""Decks as data: card ids with counts, validated against a card set and the rules."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from .cards import CardSet
from .datafiles import check_keys, config_dir, read_yaml
from .errors import DataError, shown
from .rules import Rules
from .vocabulary import CardClass


@dataclass(frozen=True, slots=True)
class Deck:
    """A named list of card ids (one entry per copy, in file order) and the class of the hero who plays it.

    A neutral deck (the default) is played by the plain hero; a class deck may hold only neutral cards and its
    class's cards.
    """

    name: str
    cards: tuple[str, ...]
    description: str = ""
    hero: CardClass = CardClass.NEUTRAL


def parse_deck(data: Any, card_set: CardSet, rules: Rules, *, source: str, name: str | None = None) -> Deck:
    """Validate ``{name, description, hero, cards: {card_id: count}}`` into a :class:`Deck`."""
    check_keys(data, {"name", "description", "hero", "cards"}, {"cards"}, source=source, item=None)
    deck_name = data.get("name", name or Path(source).stem)
    item = f"deck {shown(deck_name)}"
    try:
        hero = CardClass(data.get("hero", "neutral"))
    except ValueError:
        allowed = ", ".join(c.value for c in CardClass)
        raise DataError(f"unknown hero class {shown(data.get('hero'))} (allowed: {allowed})", source=source,
                        item=item, field="hero") from None
    counts = data["cards"]
    if not isinstance(counts, dict):
        raise DataError("expected a mapping of card id to count", source=source, item=item, field="cards")
    ids: list[str] = []
    for card_id, count in counts.items():
        field = f"cards.{card_id}"
        definition = card_set.get(card_id)
        if definition is None:
            raise DataError(f"unknown card id {shown(card_id)}", source=source, item=item, field=field)
        if not definition.collectible:
            raise DataError(f"{shown(card_id)} is not collectible (a token)", source=source, item=item, field=field)
        if definition.card_class not in (CardClass.NEUTRAL, hero):
            allowed = "neutral cards" if hero is CardClass.NEUTRAL else f"neutral and {hero.value} cards"
            raise DataError(f"{shown(card_id)} is a {definition.card_class.value} card; a {hero.value} deck may hold "
                            f"only {allowed}", source=source, item=item, field=field)
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise DataError(f"expected a positive count, got {shown(count)}", source=source, item=item, field=field)
        if count > rules.max_copies:
            raise DataError(f"{count} copies, the rules allow at most {rules.max_copies}", source=source,
                            item=item, field=field)
        ids.extend([card_id] * count)
    if len(ids) != rules.deck_size:
        raise DataError(f"has {len(ids)} cards, the rules want exactly {rules.deck_size}", source=source, item=item,
                        field="cards")
    return Deck(str(deck_name), tuple(ids), str(data.get("description", "")), hero)


def load_deck(path: str | Path, card_set: CardSet, rules: Rules) -> Deck:
    """Load one deck file."""
    path = Path(path)
    return parse_deck(read_yaml(path), card_set, rules, source=str(path), name=path.stem)


@lru_cache(maxsize=64)
def _packaged_deck(name: str, card_set: CardSet, rules: Rules) -> Deck:
    return load_deck(default_deck_paths()[name], card_set, rules)


@lru_cache(maxsize=1)
def default_deck_paths() -> dict[str, Path]:
    """Return the packaged deck files by name (file stem)."""
    return {p.stem: p for p in sorted(config_dir().joinpath("decks").glob("*.yaml"))}


def resolve_deck(spec: Deck | str | Path, card_set: CardSet, rules: Rules) -> Deck:
    """Accept a Deck, a packaged deck name or a path to a deck file."""
    if isinstance(spec, Deck):
        return spec
    packaged = default_deck_paths()
    if isinstance(spec, str) and spec in packaged:
        return _packaged_deck(spec, card_set, rules)
    if not isinstance(spec, (str, Path)):
        raise DataError(f"a deck must be a Deck, a packaged deck name or a .yaml path, got {shown(spec)}")
    path = Path(spec)
    if path.suffix in (".yaml", ".yml"):
        return load_deck(path, card_set, rules)
    raise DataError(f"unknown deck {shown(str(spec))} (packaged decks: {', '.join(packaged)}; or give a .yaml path)")
