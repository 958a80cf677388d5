"""Heroes as data: hero YAML files (one hero each) validated once, at load, into frozen hero definitions.

A hero file names the hero, its class and its hero power; the power is written like a spell (``cost``,
``target``, ``abilities``) whose abilities fire when it is used (their ``trigger`` may be left out: it can only be
``battlecry``), plus ``uses_per_turn``. The card loader's ability and target parsing is reused, so a power's
effects are exactly the card effect vocabulary, checked the same way.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable, Mapping

from .cards import MAX_NAME_CHARS, MAX_TEXT_CHARS, CardSet, parse_ability, parse_target
from .datafiles import check_keys, config_dir, get_int, read_yaml
from .definitions import HERO, Ability, CardDef, HeroDef
from .errors import DataError, shown
from .vocabulary import CardClass, CardType, EffectKind, Selector, Trigger

_HERO_FIELDS = {"id", "name", "class", "text", "power"}
_POWER_FIELDS = {"id", "name", "cost", "uses_per_turn", "text", "target", "abilities"}
#: A hero power's cost and uses per turn when its data does not say.
DEFAULT_POWER_COST = 2
DEFAULT_USES_PER_TURN = 1
MAX_POWER_ABILITIES = 5


class HeroSet(dict):
    """Hero definitions by class (at most one hero per class), remembering which files they came from."""

    __hash__ = object.__hash__  # identity, like a CardSet
    __eq__ = object.__eq__

    def __init__(self, heroes: Mapping[CardClass, HeroDef], sources: tuple[str, ...]):
        super().__init__(heroes)
        self.sources = sources
        #: every hero card and hero power definition by id, for loading saved states
        self.definitions: dict[str, CardDef] = {}
        for hero in heroes.values():
            self.definitions[hero.card.id] = hero.card
            if hero.power is not None:
                self.definitions[hero.power.id] = hero.power

    def for_class(self, hero_class: CardClass) -> HeroDef:
        """Return the hero of a class, with an error naming the classes this set has."""
        try:
            return self[hero_class]
        except KeyError:
            have = ", ".join(c.value for c in self) or "none"
            raise DataError(f"no hero of class {hero_class.value!r} (heroes for: {have})",
                            source=", ".join(self.sources)) from None

    @property
    def neutral(self) -> HeroDef:
        """The plain hero with no power (what games use unless a deck or a scenario names a class)."""
        return self.for_class(CardClass.NEUTRAL)


def _slug(value: Any, *, where: dict) -> str:
    if not isinstance(value, str) or not value.replace("_", "").isalnum() or value != value.lower():
        raise DataError(f"ids are lower-case slugs like 'jaina', got {shown(value)}", **where)
    return value


def _text(data: dict, key: str, default: str | None, *, where: dict) -> str:
    value = data.get(key, default)
    if not isinstance(value, str) or (key == "name" and not value):
        raise DataError("expected a non-empty name" if key == "name" else "expected text", **where, field=key)
    limit = MAX_NAME_CHARS if key == "name" else MAX_TEXT_CHARS  # a card's bounds: shown on every board
    if len(value) > limit:
        raise DataError(f"{len(value):,} characters, at most {limit} allowed", **where, field=key)
    return value


def _ability(data: Any, index: int, *, source: str, item: str, has_target: bool) -> Ability:
    """Parse one power ability with the card loader; its trigger defaults to (and must be) battlecry."""
    if isinstance(data, dict) and "trigger" not in data:
        data = {**data, "trigger": Trigger.BATTLECRY.value}
    ability = parse_ability(data, index, source=source, item=item, has_target=has_target,
                            card_type=CardType.HERO_POWER)
    if ability.trigger is not Trigger.BATTLECRY:
        raise DataError(f"a hero power's abilities fire when it is used: trigger must be 'battlecry' (or left out), "
                        f"got {ability.trigger.value!r}", source=source, item=f"{item}, abilities[{index}]",
                        field="trigger")
    return ability


def parse_power(data: Any, hero_class: CardClass, *, source: str, item: str) -> CardDef:
    """Validate a hero's ``power`` mapping into a :class:`CardDef` of type ``hero_power``."""
    label = f"{item}, power"
    check_keys(data, _POWER_FIELDS, {"id", "name", "abilities"}, source=source, item=label)
    where: dict[str, Any] = {"source": source, "item": label}
    power_id = _slug(data["id"], where={**where, "field": "id"})
    target = parse_target(data["target"], source=source, item=label) if "target" in data else None
    raw = data["abilities"]
    if not isinstance(raw, list) or not raw:
        raise DataError("expected a non-empty list of abilities", **where, field="abilities")
    if len(raw) > MAX_POWER_ABILITIES:
        raise DataError(f"{len(raw)} abilities, at most {MAX_POWER_ABILITIES} allowed", **where, field="abilities")
    abilities = tuple(_ability(a, i, source=source, item=label, has_target=target is not None)
                      for i, a in enumerate(raw))
    if target is not None and not any(a.selector is Selector.CHOSEN for a in abilities):
        raise DataError("has a target spec but no ability acts on the chosen target", **where, field="target")
    return CardDef(power_id, _text(data, "name", None, where=where), CardType.HERO_POWER,
                   get_int(data, "cost", DEFAULT_POWER_COST, **where, maximum=20), text=_text(data, "text", "",
                   where=where), target=target, abilities=abilities, collectible=False,
                   triggers={Trigger.BATTLECRY: abilities}, card_class=hero_class,
                   uses_per_turn=get_int(data, "uses_per_turn", DEFAULT_USES_PER_TURN, **where, minimum=1, maximum=10))


def parse_hero(data: Any, *, source: str) -> HeroDef:
    """Validate one hero mapping ``{id, name, class, text, power}`` into a :class:`HeroDef`."""
    item = f"hero {shown(data['id'])}" if isinstance(data, dict) and isinstance(data.get("id"), str) else "hero"
    check_keys(data, _HERO_FIELDS, {"id", "name", "class"}, source=source, item=item)
    where: dict[str, Any] = {"source": source, "item": item}
    hero_id = _slug(data["id"], where={**where, "field": "id"})
    try:
        hero_class = CardClass(data["class"])
    except ValueError:
        allowed = ", ".join(c.value for c in CardClass)
        raise DataError(f"unknown class {shown(data['class'])} (allowed: {allowed})", **where, field="class") from None
    name = _text(data, "name", None, where=where)
    power = parse_power(data["power"], hero_class, source=source, item=item) if "power" in data else None
    if hero_class is CardClass.NEUTRAL and power is not None:
        raise DataError("the neutral hero has no hero power", **where, field="power")
    if hero_class is not CardClass.NEUTRAL and power is None:
        raise DataError(f"a {hero_class.value} hero needs a hero power", **where, field="power")
    card = HERO if (hero_id, name) == (HERO.id, HERO.name) and power is None else CardDef(
        hero_id, name, CardType.HERO, 0, collectible=False, card_class=hero_class)
    return HeroDef(hero_id, name, hero_class, card, power, _text(data, "text", "", where=where))


def load_heroes(paths: Iterable[str | Path] | str | Path | None = None, cards: CardSet | None = None) -> HeroSet:
    """Load and validate hero files (all of ``configs/heroes/*.yaml`` by default) into a :class:`HeroSet`.

    Each file holds one hero. Ids (of heroes and of powers) must be distinct, and at most one hero per class.
    With ``cards``, the cards a power summons or equips are checked to exist and be of the right type. The
    first problem raises a :class:`DataError` naming the file, the hero and the field.
    """
    if isinstance(paths, (str, Path)):
        paths = [paths]  # one file (a string would otherwise be read as a list of one-letter paths)
    files = sorted(config_dir().joinpath("heroes").glob("*.yaml")) if paths is None else [Path(p) for p in paths]
    if not files:
        raise DataError("no hero files given")
    heroes: dict[CardClass, HeroDef] = {}
    origin: dict[str, str] = {}
    for path in files:
        source = str(path)
        hero = parse_hero(read_yaml(path), source=source)
        ids = [hero.id] + ([hero.power.id] if hero.power is not None else [])
        for index, taken in enumerate(ids):
            if taken in origin:
                raise DataError(f"duplicate id {taken!r} (first defined in {origin[taken]})", source=source,
                                item=f"hero {hero.id!r}", field="id" if index == 0 else "power.id")
            origin[taken] = source
        if hero.hero_class in heroes:
            raise DataError(f"a second {hero.hero_class.value} hero (the first is {heroes[hero.hero_class].id!r})",
                            source=source, item=f"hero {hero.id!r}", field="class")
        if cards is not None:
            _check_references(hero, cards, source)
        heroes[hero.hero_class] = hero
    return HeroSet(heroes, tuple(str(p) for p in files))


def _check_references(hero: HeroDef, cards: CardSet, source: str) -> None:
    wanted = {EffectKind.SUMMON: CardType.MINION, EffectKind.EQUIP_WEAPON: CardType.WEAPON}
    for index, ability in enumerate(hero.power.abilities if hero.power is not None else ()):
        if ability.effect not in wanted:
            continue
        where = {"source": source, "item": f"hero {hero.id!r}, power, abilities[{index}]", "field": "card"}
        ref = cards.get(ability.card or "")
        if ref is None:
            raise DataError(f"unknown card id {ability.card!r}", **where)
        if ref.card_type is not wanted[ability.effect]:
            raise DataError(f"{ability.card!r} is a {ref.card_type.value}, expected a {wanted[ability.effect].value}",
                            **where)


def check_hero_cards(heroes: Iterable[HeroDef], cards: CardSet, source: str = "heroes") -> None:
    """Check that every card the heroes' powers summon or equip is in ``cards`` (a DataError otherwise): a game
    checks its two heroes against its card set before it starts."""
    for hero in heroes:
        _check_references(hero, cards, source)


_DEFAULT_HEROES: HeroSet | None = None


def default_heroes() -> HeroSet:
    """Return the packaged heroes, loaded once per process (definitions are immutable)."""
    global _DEFAULT_HEROES
    if _DEFAULT_HEROES is None:
        _DEFAULT_HEROES = load_heroes()
    return _DEFAULT_HEROES


__all__ = ["DEFAULT_POWER_COST", "DEFAULT_USES_PER_TURN", "HeroDef", "HeroSet", "check_hero_cards",
           "default_heroes", "load_heroes", "parse_hero", "parse_power"]
