"""Card definitions as data: YAML card files validated once, at load, into frozen definitions."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from .datafiles import check_keys, config_dir, get_int, read_yaml
from .definitions import HERO, Ability, CardDef
from .errors import DataError, shown
from .targeting import PREDICATES, Mark, Target
from .vocabulary import (
    KEYWORD_NAMES, SECRET_TRIGGERS, Alliance, CardClass, CardType, EffectKind, Keyword, Selector, Trigger, Zones,
)


class CardLoopWarning(UserWarning):
    """A card definition can set itself off again and again (the engine then ends the game as a loop)."""


class CardSet(dict):
    """Card definitions by id, remembering which files they came from."""

    __hash__ = object.__hash__  # identity: a card set is a loaded artefact, usable as a cache key
    __eq__ = object.__eq__

    def __init__(self, cards: Mapping[str, CardDef], sources: tuple[str, ...]):
        super().__init__(cards)
        self.sources = sources

    def get_card(self, card_id: str) -> CardDef:
        """Return a definition, with an error listing near names when the id is unknown."""
        try:
            return self[card_id]
        except KeyError:
            near = sorted(k for k in self if k[:3] == card_id[:3])[:5]
            hint = f" (did you mean {', '.join(near)}?)" if near else ""
            raise DataError(f"unknown card id {shown(card_id)}{hint}", source=", ".join(self.sources)) from None


#: Most abilities one card may have.
MAX_ABILITIES = 10
#: Longest card name and card text (the packaged cards' are under 30 and 110): they are shown on every board.
MAX_NAME_CHARS = 60
MAX_TEXT_CHARS = 1000
_CARD_FIELDS = {"id", "name", "type", "cost", "attack", "health", "durability", "keywords", "text", "target",
                "abilities", "collectible", "class"}
_ABILITY_FIELDS = {"trigger", "effect", "select", "mark", "count", "amount", "attack", "health", "keyword",
                   "card"}
_MARK_FIELDS = {"alliance", "zones", "types", "exclude", "filters"}
_TARGET_FIELDS = {"required", "allowed", "preferred"}
_PLAYER_EFFECTS = {EffectKind.DRAW, EffectKind.SUMMON, EffectKind.GAIN_ARMOR, EffectKind.GAIN_MANA,
                   EffectKind.EQUIP_WEAPON}
_AMOUNT_EFFECTS = {EffectKind.DAMAGE, EffectKind.HEAL, EffectKind.DRAW, EffectKind.GAIN_ARMOR,
                   EffectKind.GAIN_MANA}


#: The card types hero files define (configs/heroes), and the types a card file may give a card: the rest.
HERO_FILE_TYPES = (CardType.HERO, CardType.HERO_POWER)
CARD_FILE_TYPES = tuple(t for t in CardType if t not in HERO_FILE_TYPES)


def _enum(enum: type, value: Any, *, where: dict, allowed: Sequence[Any] | None = None) -> Any:
    """``enum(value)``, or a ``DataError`` listing the allowed values (``allowed``, default every member)."""
    members = list(enum) if allowed is None else list(allowed)
    for member in members:
        if member.value == value:
            return member
    raise DataError(f"unknown value {shown(value)} (allowed: {', '.join(m.value for m in members)})", **where)


def _names(value: Any, *, where: dict) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return value
    raise DataError(f"expected a name or a list of names, got {shown(value)}", **where)


def parse_mark(data: Any, *, source: str, item: str, field_name: str) -> Mark:
    """Parse ``{alliance, zones, types, exclude, filters}`` into a :class:`Mark`."""
    where = {"source": source, "item": item, "field": field_name}
    check_keys(data, _MARK_FIELDS, {"alliance", "zones"}, source=source, item=f"{item}, {field_name}")
    name = data["alliance"]
    if not isinstance(name, str) or name.lower() not in ("ally", "enemy", "any"):
        raise DataError(f"unknown alliance {shown(name)} (allowed: ally, enemy, any)", **where)
    alliance = Alliance[name.upper()]
    zones = Zones.NONE
    for name in _names(data["zones"], where=where):
        if name.upper() not in Zones.__members__:
            raise DataError(f"unknown zone {shown(name)} (allowed: {', '.join(z.lower() for z in Zones.__members__)})",
                            **where)
        zones |= Zones[name.upper()]
    types = frozenset(_enum(CardType, t, where=where) for t in _names(data.get("types", []), where=where))
    exclude = frozenset(_enum(CardType, t, where=where) for t in _names(data.get("exclude", []), where=where))
    filters = tuple(_names(data.get("filters", []), where=where))
    for name in filters:
        if name not in PREDICATES:
            raise DataError(f"unknown filter {shown(name)} (allowed: {', '.join(PREDICATES)})", **where)
    return Mark(alliance, zones, types, exclude, filters)


def parse_target(data: Any, *, source: str, item: str) -> Target:
    """Parse a ``target`` spec ``{required, allowed, preferred}`` (preferred defaults to allowed)."""
    check_keys(data, _TARGET_FIELDS, {"allowed"}, source=source, item=f"{item}, target")
    required = data.get("required", True)
    if not isinstance(required, bool):
        raise DataError(f"expected true or false, got {shown(required)}", source=source, item=item,
                        field="target.required")
    allowed = parse_mark(data["allowed"], source=source, item=item, field_name="target.allowed")
    preferred = parse_mark(data["preferred"], source=source, item=item, field_name="target.preferred") \
        if "preferred" in data else allowed
    return Target(required, allowed, preferred)


def parse_ability(data: Any, index: int, *, source: str, item: str, has_target: bool,
                   card_type: CardType) -> Ability:
    """Parse one ability ``{trigger, effect, select, mark, ...}`` of a card (or hero power) of ``card_type``."""
    label = f"{item}, abilities[{index}]"
    check_keys(data, _ABILITY_FIELDS, {"trigger", "effect"}, source=source, item=label)
    where = {"source": source, "item": label}
    trigger = _enum(Trigger, data["trigger"], where={**where, "field": "trigger"})
    effect = _enum(EffectKind, data["effect"], where={**where, "field": "effect"})
    default_select = "own_hero" if effect in _PLAYER_EFFECTS else ("chosen" if has_target else None)
    if "select" not in data and default_select is None:
        raise DataError("missing required field (no target spec, so say whom the effect acts on)", **where,
                        field="select")
    selector = _enum(Selector, data.get("select", default_select), where={**where, "field": "select"})
    if selector is Selector.CHOSEN and not has_target:
        raise DataError("selector 'chosen' needs the card to have a 'target' spec", **where, field="select")
    if selector is Selector.CHOSEN and trigger is not Trigger.BATTLECRY:
        raise DataError("only battlecry abilities can act on the chosen target", **where, field="select")
    mark = None
    if selector in (Selector.ALL, Selector.RANDOM):
        if "mark" not in data:
            raise DataError(f"selector {selector.value!r} needs a 'mark'", **where, field="mark")
        mark = parse_mark(data["mark"], source=source, item=label, field_name="mark")
    elif "mark" in data:
        raise DataError(f"'mark' is only used by the all and random selectors, not {selector.value!r}", **where,
                        field="mark")
    if trigger in SECRET_TRIGGERS and card_type is not CardType.SECRET:
        raise DataError("secret triggers are only for secret cards", **where, field="trigger")
    if trigger is Trigger.DEATHRATTLE and card_type is not CardType.MINION:
        raise DataError("deathrattles are only for minions", **where, field="trigger")
    keyword = 0
    if effect is EffectKind.GIVE_KEYWORD:
        name = data.get("keyword")
        if name not in KEYWORD_NAMES:
            raise DataError(f"unknown keyword {shown(name)} (allowed: {', '.join(KEYWORD_NAMES)})", **where,
                            field="keyword")
        keyword = int(KEYWORD_NAMES[name])
    if effect in (EffectKind.SUMMON, EffectKind.EQUIP_WEAPON) and not isinstance(data.get("card"), str):
        raise DataError(f"effect {effect.value!r} needs the id of a card", **where, field="card")
    if effect in _AMOUNT_EFFECTS and "amount" not in data:
        raise DataError(f"effect {effect.value!r} needs an amount", **where, field="amount")
    return Ability(
        trigger, effect, selector, mark,
        count=get_int(data, "count", 1, **where, minimum=1, maximum=20),
        amount=get_int(data, "amount", 1 if effect is EffectKind.SUMMON else 0, **where, maximum=100),
        attack=get_int(data, "attack", 0, **where, minimum=-100, maximum=100),
        health=get_int(data, "health", 0, **where, minimum=-100, maximum=100),
        keyword=keyword, card=data.get("card"),
    )


def parse_card(data: Any, *, source: str, index: int) -> CardDef:
    """Validate one card mapping into a :class:`CardDef`."""
    item = f"card #{index}"
    if isinstance(data, dict) and isinstance(data.get("id"), str):
        item = f"card {shown(data['id'])}"
    check_keys(data, _CARD_FIELDS, {"id", "name", "type", "cost"}, source=source, item=item)
    where = {"source": source, "item": item}
    card_id = data["id"]
    if not isinstance(card_id, str) or not card_id.replace("_", "").isalnum() or card_id != card_id.lower():
        raise DataError(f"ids are lower-case slugs like 'knife_juggler', got {shown(card_id)}", **where, field="id")
    if data["type"] in [t.value for t in HERO_FILE_TYPES]:
        raise DataError(f"{data['type']} cards are defined in hero files (configs/heroes), not in card files",
                        **where, field="type")
    card_type = _enum(CardType, data["type"], where={**where, "field": "type"}, allowed=CARD_FILE_TYPES)
    keywords = 0
    for name in _names(data.get("keywords", []), where={**where, "field": "keywords"}):
        if name not in KEYWORD_NAMES:
            raise DataError(f"unknown keyword {shown(name)} (allowed: {', '.join(KEYWORD_NAMES)})", **where,
                            field="keywords")
        keywords |= int(KEYWORD_NAMES[name])
    target = parse_target(data["target"], source=source, item=item) if "target" in data else None
    raw_abilities = data.get("abilities", [])
    if not isinstance(raw_abilities, list):
        raise DataError("expected a list of abilities", **where, field="abilities")
    if len(raw_abilities) > MAX_ABILITIES:
        raise DataError(f"{len(raw_abilities)} abilities, at most {MAX_ABILITIES} allowed", **where, field="abilities")
    abilities = tuple(parse_ability(a, i, source=source, item=item, has_target=target is not None,
                                     card_type=card_type) for i, a in enumerate(raw_abilities))
    if target is not None and not any(a.selector is Selector.CHOSEN for a in abilities):
        raise DataError("has a target spec but no ability acts on the chosen target", **where, field="target")
    if card_type is CardType.SECRET and not any(a.trigger in SECRET_TRIGGERS for a in abilities):
        raise DataError("a secret needs an ability with a secret trigger", **where, field="abilities")
    stats = _stats(data, card_type, where)
    triggers: dict[Trigger, tuple[Ability, ...]] = {}
    for ability in abilities:
        triggers[ability.trigger] = triggers.get(ability.trigger, ()) + (ability,)
    text = data.get("text", "")
    if not isinstance(text, str):
        raise DataError("expected text", **where, field="text")
    name = data["name"]
    if not isinstance(name, str) or not name:
        raise DataError("expected a non-empty name", **where, field="name")
    for field_name, value, limit in (("name", name, MAX_NAME_CHARS), ("text", text, MAX_TEXT_CHARS)):
        if len(value) > limit:
            raise DataError(f"{len(value):,} characters, at most {limit} allowed", **where, field=field_name)
    collectible = data.get("collectible", True)
    if not isinstance(collectible, bool):
        raise DataError("expected true or false", **where, field="collectible")
    card_class = _enum(CardClass, data.get("class", "neutral"), where={**where, "field": "class"})
    return CardDef(card_id, name, card_type, get_int(data, "cost", None, **where, maximum=20), *stats,
                   keywords=keywords, text=text, target=target, abilities=abilities, collectible=collectible,
                   triggers=triggers, card_class=card_class)


def _stats(data: dict, card_type: CardType, where: dict) -> tuple[int, int, int]:
    needed = {CardType.MINION: ("attack", "health"), CardType.WEAPON: ("attack", "durability")}.get(card_type, ())
    for key in ("attack", "health", "durability"):
        if key in needed and key not in data:
            raise DataError(f"a {card_type.value} needs {' and '.join(needed)}", **where, field=key)
        if key in data and key not in needed:
            raise DataError(f"a {card_type.value} has no {key}", **where, field=key)
    return tuple(get_int(data, k, 0, **where, minimum=1 if k in needed and k != "attack" else 0, maximum=100)
                 for k in ("attack", "health", "durability"))  # type: ignore[return-value]


def self_loops(card: CardDef) -> list[str]:
    """Describe each ability of ``card`` that sets itself off directly.

    Two kinds: a minion that damages itself whenever it is damaged (it reacts to itself without end, unless it
    dies first, which 'self' does not wait for), and a weapon whose battlecry equips another copy of itself
    (each copy's battlecry fires as it is equipped). The engine stops such a card at its reaction bounds and
    ends the game as a draw, ``Result.LOOP``.
    """
    found = []
    for index, ability in enumerate(card.abilities):
        if (card.card_type is CardType.MINION and ability.trigger is Trigger.SELF_DAMAGED
                and ability.effect is EffectKind.DAMAGE and ability.amount > 0 and _can_select_itself(ability)):
            found.append(f"abilities[{index}]: whenever it is damaged it damages itself "
                         f"(select: {ability.selector.value})")
        if (card.card_type is CardType.WEAPON and ability.trigger is Trigger.BATTLECRY
                and ability.effect is EffectKind.EQUIP_WEAPON and ability.card == card.id):
            found.append(f"abilities[{index}]: its battlecry equips a copy of itself, whose battlecry does again")
    return found


def _can_select_itself(ability: Ability) -> bool:
    if ability.selector is Selector.SELF:
        return True
    mark = ability.mark
    if ability.selector is not Selector.ALL or mark is None:
        return False  # 'random' never picks the card itself
    return (bool(mark.alliance & Alliance.ALLY) and bool(mark.zones & Zones.BATTLEFIELD)
            and (not mark.card_types or CardType.MINION in mark.card_types) and CardType.MINION not in mark.exclude)


def load_cards(paths: Iterable[str | Path] | str | Path | None = None) -> CardSet:
    """Load and validate card files (all of ``configs/cards/*.yaml`` by default) into a :class:`CardSet`.

    Every card is checked, then every cross-reference (summoned and equipped card ids). Nothing is returned
    half-loaded: the first problem raises a :class:`DataError` naming the file, the card and the field.
    """
    if isinstance(paths, (str, Path)):
        paths = [paths]  # one file (a string would otherwise be read as a list of one-letter paths)
    files = sorted(config_dir().joinpath("cards").glob("*.yaml")) if paths is None else [Path(p) for p in paths]
    if not files:
        raise DataError("no card files given")
    cards: dict[str, CardDef] = {}
    origin: dict[str, str] = {}
    for path in files:
        data = read_yaml(path)
        source = str(path)
        check_keys(data, {"cards", "set"}, {"cards"}, source=source, item=None)
        if not isinstance(data["cards"], list):
            raise DataError("expected a list of cards", source=source, field="cards")
        for index, raw in enumerate(data["cards"]):
            card = parse_card(raw, source=source, index=index)
            if card.id in cards:
                raise DataError(f"duplicate card id (first defined in {origin[card.id]})", source=source,
                                item=f"card {card.id!r}", field="id")
            cards[card.id] = card
            origin[card.id] = source
            for problem in self_loops(card):
                warnings.warn(f"{source}, card {card.id!r}, {problem}: it can set itself off without end; the "
                              f"engine ends such a game as a draw (Result.LOOP)", CardLoopWarning, stacklevel=2)
    _check_references(cards, origin)
    return CardSet(cards, tuple(str(p) for p in files))


def _check_references(cards: dict[str, CardDef], origin: dict[str, str]) -> None:
    wanted = {EffectKind.SUMMON: CardType.MINION, EffectKind.EQUIP_WEAPON: CardType.WEAPON}
    for card in cards.values():
        for index, ability in enumerate(card.abilities):
            if ability.effect not in wanted:
                continue
            where = {"source": origin[card.id], "item": f"card {card.id!r}, abilities[{index}]", "field": "card"}
            ref = cards.get(ability.card or "")
            if ref is None:
                raise DataError(f"unknown card id {ability.card!r}", **where)
            if ref.card_type is not wanted[ability.effect]:
                raise DataError(f"{ability.card!r} is a {ref.card_type.value}, expected a "
                                f"{wanted[ability.effect].value}", **where)


_DEFAULT_CARDS: CardSet | None = None


def default_cards() -> CardSet:
    """Return the packaged card set, loaded once per process (definitions are immutable)."""
    global _DEFAULT_CARDS
    if _DEFAULT_CARDS is None:
        _DEFAULT_CARDS = load_cards()
    return _DEFAULT_CARDS


def keyword_names(mask: int) -> list[str]:
    """Return the keyword names set in a bitmask."""
    return [name for name, k in KEYWORD_NAMES.items() if mask & int(k)]


__all__ = ["Ability", "CardDef", "CardLoopWarning", "CardSet", "HERO", "Keyword", "default_cards", "keyword_names",
           "load_cards", "parse_ability", "parse_card", "parse_mark", "parse_target", "self_loops"]
