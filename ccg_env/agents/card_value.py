"""What a card is worth outside a game, and the mana curves a deck aims for: shared by the draft and the deck builder.

**Card value** (:func:`card_value`) is the card's *power* minus the *fair power for its cost*, ``2 * cost + 1``
(the "vanilla test": a fair minion has attack + health = 2 * cost + 1). Power is:

- a minion: attack + health, plus the keyword bonuses of :func:`ccg_env.agents.board_value.minion_value` (taunt +1,
  divine shield + attack, windfury or lifesteal + half the attack, poisonous +2, stealth or freeze +0.5), plus
  the power of its abilities;
- a weapon: attack x durability, plus its abilities;
- a spell or a secret: the power of its abilities (plus 1 for a secret, which the opponent has to play around);
- an ability: damage 1.5 per point (x2 when it hits all characters of a side, x count for random hits), heal
  0.5 per point, draw 3 per card,
  armor 1 per point, summon the summoned card's attack + health per copy, buff attack + health, keyword 1.5,
  destroy 5, freeze 1, mana 1.5 per crystal, and x2 for a destroy, freeze or keyword on all characters of a side;
  an ability whose trigger is not a battlecry counts half (it may never fire).

**Curves** (:data:`CURVES`): the number of cards per cost bucket (0-1, 2, 3, 4, 5, 6, 7+) a 30-card deck aims
for; :func:`curve_need` says how far a deck so far lags behind a curve for one cost, scaled to the deck's size.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, Mapping, Sequence

from ccg_env.engine.vocabulary import CardType, EffectKind, Keyword, Selector, Trigger

from .board_value import minion_value

if TYPE_CHECKING:
    from ccg_env.engine import Ability, CardDef, CardSet

#: Cost buckets: 0-1, 2, 3, 4, 5, 6, 7 and more.
BUCKETS: Final = 7
#: Target cards per bucket for a 30-card deck, by strategy (scaled for other deck sizes).
CURVES: Final[Mapping[str, tuple[int, ...]]] = {
    "curve": (4, 6, 6, 5, 4, 3, 2),
    "aggro": (8, 9, 6, 4, 2, 1, 0),
    "control": (2, 4, 5, 5, 5, 5, 4),
}
_PER_EFFECT: Final = {
    EffectKind.DAMAGE: 1.5, EffectKind.HEAL: 0.5, EffectKind.DRAW: 3.0, EffectKind.GAIN_ARMOR: 1.0,
    EffectKind.GAIN_MANA: 1.5,
}
_FLAT_EFFECT: Final = {EffectKind.DESTROY: 5.0, EffectKind.FREEZE: 1.0, EffectKind.GIVE_KEYWORD: 1.5}
_SURE_TRIGGERS: Final = (Trigger.BATTLECRY,)


def bucket(cost: int) -> int:
    """The cost bucket of a card: 0 for costs 0 and 1, then one per cost up to 6, and 6 for 7 or more."""
    return max(0, min(cost, BUCKETS) - 1)


class _Printed:
    """A card definition seen as the minion it puts on the board (what minion_value reads)."""

    __slots__ = ("attack", "health", "keywords", "definition")

    def __init__(self, card: CardDef) -> None:
        self.attack, self.health, self.keywords, self.definition = card.attack, card.health, card.keywords, card


def ability_power(ability: Ability, cards: CardSet | None = None) -> float:
    """What one ability is worth (see the module documentation)."""
    effect = ability.effect
    if effect in _PER_EFFECT:
        power = _PER_EFFECT[effect] * max(ability.amount, 1)
        if effect is EffectKind.DAMAGE and ability.selector in (Selector.ALL, Selector.RANDOM):
            power *= 2.0 if ability.selector is Selector.ALL else max(ability.count, 1)
    elif effect is EffectKind.SUMMON or effect is EffectKind.EQUIP_WEAPON:
        summoned = cards.get(ability.card) if cards is not None and ability.card else None
        each = (summoned.attack + max(summoned.health, summoned.durability)) if summoned is not None else 2.0
        power = each * max(ability.amount, 1)
    elif effect is EffectKind.BUFF:
        power = float(ability.attack + ability.health)
    else:
        power = _FLAT_EFFECT.get(effect, 1.0) * (2.0 if ability.selector is Selector.ALL else 1.0)
    return power if ability.trigger in _SURE_TRIGGERS else 0.5 * power


def card_power(card: CardDef, cards: CardSet | None = None) -> float:
    """What a card brings to a game, before its cost (see the module documentation)."""
    abilities = sum(ability_power(a, cards) for a in card.abilities)
    if card.card_type is CardType.MINION:
        return minion_value(_Printed(card)) - 0.5 * len(card.abilities) + abilities
    if card.card_type is CardType.WEAPON:
        return card.attack * card.durability + abilities
    return abilities + (1.0 if card.card_type is CardType.SECRET else 0.0)


def card_value(card: CardDef, cards: CardSet | None = None) -> float:
    """A card's power minus the fair power of its cost, ``2 * cost + 1``."""
    return card_power(card, cards) - (2 * card.cost + 1)


def is_aggressive(card: CardDef) -> bool:
    """Charge, or direct damage to the enemy hero (what an aggro deck wants more of)."""
    if card.keywords & Keyword.CHARGE:
        return True
    return any(a.effect is EffectKind.DAMAGE and a.selector in (Selector.CHOSEN, Selector.ENEMY_HERO)
               for a in card.abilities)


def is_defensive(card: CardDef) -> bool:
    """Taunt, healing, armor or removal (what a control deck wants more of)."""
    if card.keywords & Keyword.TAUNT:
        return True
    return any(a.effect in (EffectKind.HEAL, EffectKind.GAIN_ARMOR, EffectKind.DESTROY)
               or (a.effect is EffectKind.DAMAGE and a.selector is Selector.ALL) for a in card.abilities)


def curve_need(curve: Sequence[int], costs: Sequence[int], cost: int, deck_size: int, picked: int) -> float:
    """How many cards of ``cost``'s bucket the deck lacks against ``curve`` at this point of building it.

    ``costs`` are the costs picked so far; the target of a bucket grows with the picks (``picked + 1`` of
    ``deck_size``), so the need is positive while the bucket lags behind and negative once it is ahead.
    """
    target = curve[bucket(cost)] * deck_size / sum(curve) * (picked + 1) / deck_size
    have = sum(1 for c in costs if bucket(c) == bucket(cost))
    return target - have
