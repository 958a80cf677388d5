"""Card features: each card's definition as a fixed-width row of numbers, compiled once per card set into a table.

A row says what a card does in the vocabulary's own terms (:mod:`ccg_env.engine.vocabulary`), so a policy reading
it can play a card it never saw:

- the card: its type (one-hot over ``minion, spell, weapon, secret``), printed cost, attack, health and durability,
  its keywords (one flag each), whether it takes a target and whether the target is required;
- then :data:`MAX_FEATURE_ABILITIES` ability blocks, one per ability in the card's order (an empty block is all
  zeros): present; trigger, effect and selector one-hots; the numbers (amount, count for ``random``, attack and
  health of a buff split into gain and loss, the attack and health or durability of the card a ``summon`` or
  ``equip_weapon`` puts into play); the keyword given; and the mark of the cards it acts on (the ability's own
  mark for ``all`` and ``random``, the card's allowed targets for ``chosen``): its alliance (ally, enemy), zones,
  card types, excluded card types and filters.

Values are raw numbers clipped into ``[0, high]`` (:attr:`CardFeatures.high`). A card with more abilities than
:data:`MAX_FEATURE_ABILITIES` is refused when the table is built (a ValueError naming it), never truncated.
:func:`feature_columns` lists the column names; docs/observation.md shows them column by column.
"""

from __future__ import annotations

from typing import Final, Iterable, Mapping

import numpy as np

from ..engine import CardDef
from ..engine.targeting import PREDICATES, Mark
from ..engine.vocabulary import CardType, EffectKind, Keyword, Selector, Trigger, Zones

#: Abilities per card that the encoding holds; a card set with a card over it is refused.
MAX_FEATURE_ABILITIES: Final = 3
#: Upper bound of every number in a row except the count of random picks (printed stats, amounts, buffs).
FEATURE_STAT_CAP: Final = 100
#: Upper bound of the count of random picks (the card loader's own bound).
FEATURE_COUNT_CAP: Final = 20

_ROW_TYPES: Final = (CardType.MINION, CardType.SPELL, CardType.WEAPON, CardType.SECRET)
_KEYWORDS: Final = tuple(k for k in Keyword if k is not Keyword.NONE)
_ZONES: Final = (Zones.HERO, Zones.WEAPON, Zones.DECK, Zones.HAND, Zones.BATTLEFIELD, Zones.SECRETS, Zones.GRAVEYARD)
_MARK_TYPES: Final = tuple(CardType)
_FILTERS: Final = tuple(PREDICATES)
#: The numbers of an ability block, after its one-hots, and the upper bound of each.
_ABILITY_NUMBERS: Final = (("amount", FEATURE_STAT_CAP), ("count", FEATURE_COUNT_CAP),
                           ("attack_gain", FEATURE_STAT_CAP), ("attack_loss", FEATURE_STAT_CAP),
                           ("health_gain", FEATURE_STAT_CAP), ("health_loss", FEATURE_STAT_CAP),
                           ("card_attack", FEATURE_STAT_CAP), ("card_health", FEATURE_STAT_CAP))
_CARD_NUMBERS: Final = ("cost", "attack", "health", "durability")


def _name(member: object) -> str:
    return str(getattr(member, "name", member)).lower()


def card_columns() -> tuple[str, ...]:
    """The columns describing the card itself, before its ability blocks."""
    return (*(f"type_{t.value}" for t in _ROW_TYPES), *_CARD_NUMBERS, *(f"keyword_{_name(k)}" for k in _KEYWORDS),
            "has_target", "target_required")


def ability_columns() -> tuple[str, ...]:
    """The columns of one ability block (without the ``a<k>_`` prefix)."""
    return ("present", *(f"trigger_{t.value}" for t in Trigger), *(f"effect_{e.value}" for e in EffectKind),
            *(f"select_{s.value}" for s in Selector), *(name for name, _ in _ABILITY_NUMBERS),
            *(f"gives_{_name(k)}" for k in _KEYWORDS), "mark_ally", "mark_enemy",
            *(f"zone_{_name(z)}" for z in _ZONES), *(f"mark_type_{t.value}" for t in _MARK_TYPES),
            *(f"exclude_{t.value}" for t in _MARK_TYPES), *(f"filter_{f}" for f in _FILTERS))


def feature_columns() -> tuple[str, ...]:
    """Every column of a feature row: the card's, then ``a0_...`` to ``a<MAX_FEATURE_ABILITIES - 1>_...``."""
    return (*card_columns(), *(f"a{k}_{c}" for k in range(MAX_FEATURE_ABILITIES) for c in ability_columns()))


def feature_high() -> np.ndarray:
    """The upper bound of each column (float32): the caps of the numbers, 1 for every flag."""
    high: np.ndarray = np.ones(len(feature_columns()), dtype=np.float32)
    numbers = dict(_ABILITY_NUMBERS)
    for index, column in enumerate(feature_columns()):
        name = column.split("_", 1)[1] if column[0] == "a" and column[1].isdigit() else column
        if column in _CARD_NUMBERS:
            high[index] = FEATURE_STAT_CAP
        elif name in numbers:
            high[index] = numbers[name]
    return high


class CardFeatures:
    """The feature table of a card set: ``table[i]`` is the row of ``cards[i]``.

    Args:
        cards: the card definitions in the observation's card order.
        lookup: card id -> definition, for the cards a ``summon`` or ``equip_weapon`` names (the whole card set).

    Raises:
        ValueError: a card has more than :data:`MAX_FEATURE_ABILITIES` abilities.
    """

    def __init__(self, cards: Iterable[CardDef], lookup: Mapping[str, CardDef]) -> None:
        self.columns = feature_columns()
        self.high = feature_high()
        self.width = len(self.columns)
        self._index = {column: i for i, column in enumerate(self.columns)}
        self._lookup = lookup
        rows = [self._row(card) for card in cards]
        self.table = np.minimum(np.array(rows, dtype=np.float32).reshape(-1, self.width), self.high)

    def _row(self, card: CardDef) -> np.ndarray:
        if len(card.abilities) > MAX_FEATURE_ABILITIES:
            raise ValueError(f"card_features: card {card.id!r} has {len(card.abilities)} abilities; the card "
                             f"feature encoding holds at most {MAX_FEATURE_ABILITIES} per card (use "
                             f"card_features=False for this card set, or split the card)")
        row: np.ndarray = np.zeros(self.width, dtype=np.float32)
        self._set(row, "", {f"type_{card.card_type.value}": 1.0, "cost": card.cost, "attack": card.attack,
                            "health": card.health, "durability": card.durability,
                            "has_target": card.target is not None,
                            "target_required": card.target is not None and card.target.required})
        self._flags(row, "keyword_", card.keywords)
        for k, ability in enumerate(card.abilities):
            prefix = f"a{k}_"
            summoned = self._lookup.get(ability.card) if ability.card is not None else None
            self._set(row, prefix, {
                "present": 1.0, f"trigger_{ability.trigger.value}": 1.0, f"effect_{ability.effect.value}": 1.0,
                f"select_{ability.selector.value}": 1.0, "amount": ability.amount,
                "count": ability.count if ability.selector is Selector.RANDOM else 0,
                "attack_gain": max(ability.attack, 0), "attack_loss": max(-ability.attack, 0),
                "health_gain": max(ability.health, 0), "health_loss": max(-ability.health, 0),
                "card_attack": summoned.attack if summoned else 0,
                "card_health": (summoned.health or summoned.durability) if summoned else 0})
            self._flags(row, prefix + "gives_", ability.keyword)
            mark = ability.mark
            if mark is None and ability.selector is Selector.CHOSEN and card.target is not None:
                mark = card.target.allowed
            if mark is not None:
                self._mark(row, prefix, mark)
        return row

    def _set(self, row: np.ndarray, prefix: str, values: dict[str, float | int | bool]) -> None:
        for column, value in values.items():
            if value:
                row[self._index[prefix + column]] = max(float(value), 0.0)

    def _flags(self, row: np.ndarray, prefix: str, keywords: int) -> None:
        self._set(row, prefix, {_name(k): bool(keywords & int(k)) for k in _KEYWORDS})

    def _mark(self, row: np.ndarray, prefix: str, mark: Mark) -> None:
        values: dict[str, float | int | bool] = {"mark_ally": bool(mark.sides[0]), "mark_enemy": bool(mark.sides[1])}
        values.update({f"zone_{_name(z)}": bool(mark.zones & z) for z in _ZONES})
        values.update({f"mark_type_{t.value}": t in mark.card_types for t in _MARK_TYPES})
        values.update({f"exclude_{t.value}": t in mark.exclude for t in _MARK_TYPES})
        values.update({f"filter_{f}": f in mark.predicates for f in _FILTERS})
        self._set(row, prefix, values)


__all__ = ["FEATURE_COUNT_CAP", "FEATURE_STAT_CAP", "MAX_FEATURE_ABILITIES", "CardFeatures", "ability_columns",
           "card_columns", "feature_columns", "feature_high"]
