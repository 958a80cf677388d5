"""Card definitions as frozen data: an ability (trigger, effect, selector) and a card as designed.

The loader that validates card files into these is :mod:`ccg_env.engine.cards`; this module holds only the
definitions, which every decision reads, so that the compiled engine reads them as native objects.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final, Mapping

from .targeting import Mark, Target
from .vocabulary import CardClass, CardType, EffectKind, Selector, Trigger


@dataclass(frozen=True, slots=True, eq=False)
class Ability:
    """Trigger + effect + target selector. Numbers not used by the effect stay 0."""

    trigger: Trigger
    effect: EffectKind
    selector: Selector
    mark: Mark | None = None  # for 'all' and 'random' selectors
    count: int = 1  # picks for 'random'
    amount: int = 0  # damage, heal, cards drawn, armor, mana, copies summoned
    attack: int = 0
    health: int = 0
    keyword: int = 0
    card: str | None = None  # card id summoned or equipped

    def describe_short(self) -> str:
        return f"{self.trigger.value}:{self.effect.value}"


@dataclass(frozen=True, slots=True, eq=False)
class CardDef:
    """One card as designed. ``triggers`` indexes the abilities by trigger for the trigger system."""

    id: str
    name: str
    card_type: CardType
    cost: int
    attack: int = 0
    health: int = 0
    durability: int = 0
    keywords: int = 0
    text: str = ""
    target: Target | None = None
    abilities: tuple[Ability, ...] = ()
    collectible: bool = True
    triggers: Mapping[Trigger, tuple[Ability, ...]] = field(default_factory=dict)
    card_class: CardClass = CardClass.NEUTRAL  # a class card goes only in decks of that class's hero
    uses_per_turn: int = 0  # hero powers: how many times a turn it may be used (0 for every other card)

    def __repr__(self) -> str:
        return f"CardDef({self.id!r})"


@dataclass(frozen=True, slots=True, eq=False)
class HeroDef:
    """A hero as designed (``configs/heroes``): its class, the card in its hero zone and its hero power, if any.

    ``power`` is a :class:`CardDef` of type ``hero_power`` whose abilities are battlecry abilities (they resolve
    as a spell's do) and whose ``target`` and ``cost`` work as a card's; ``uses_per_turn`` limits it per turn.
    """

    id: str
    name: str
    hero_class: CardClass
    card: CardDef
    power: CardDef | None = None
    text: str = ""

    def __repr__(self) -> str:
        return f"HeroDef({self.id!r})"


#: The plain hero (no class, no power): every game's hero unless a deck or a scenario names a class.
HERO: Final = CardDef("hero", "Hero", CardType.HERO, 0, collectible=False)
