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

    def __repr__(self) -> str:
        return f"CardDef({self.id!r})"


#: The hero every player starts with; heroes are not part of card files.
HERO: Final = CardDef("hero", "Hero", CardType.HERO, 0, collectible=False)
