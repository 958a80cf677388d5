"""The cost model of generated cards: a card's power in stat points and the mana cost that power is fair at.

The "vanilla test" of docs/cards.md: a fair minion has attack + health = 2 x cost + 1, so a card of power ``p``
costs ``round((p - 1) / 2)`` (halves round up), clamped to 0..``MAX_COST``. Power is

- a minion: attack + health, plus its keywords (:data:`KEYWORD_FLAT` points, plus :data:`KEYWORD_PER_ATTACK`
  points per point of attack), plus its abilities;
- a weapon: attack x durability, plus its abilities;
- a spell: its abilities; a secret: its abilities plus :data:`SECRET_BONUS` (the opponent must play around it);
- an ability: :data:`PER_AMOUNT` points per point of amount (damage, heal, cards, armor, mana) or the flat
  :data:`FLAT` points (destroy, freeze, a keyword), times :data:`SELECTOR_SCALE` of its selector and mark
  (several characters, the enemy hero only, random picks), or a summoned or equipped card's own power per copy,
  or a buff's attack + health; then times :data:`TRIGGER_SCALE` of its trigger (a battlecry surely fires, a
  deathrattle or a "whenever" may not).

:func:`card_power` reads loaded definitions (:class:`~ccg_env.engine.definitions.CardDef`), so it prices any
card, packaged or generated, and the fairness benchmark compares the price with play.
"""

from __future__ import annotations

from typing import Final, Mapping

from .definitions import Ability, CardDef
from .vocabulary import KEYWORD_NAMES, Alliance, CardType, EffectKind, Selector, Trigger, Zones

#: The most a generated card costs (a card of more power is still priced at this).
MAX_COST: Final = 10
#: Points per point of an effect's amount.
PER_AMOUNT: Final[Mapping[EffectKind, float]] = {
    EffectKind.DAMAGE: 1.25, EffectKind.HEAL: 0.5, EffectKind.DRAW: 2.5, EffectKind.GAIN_ARMOR: 0.75,
    EffectKind.GAIN_MANA: 1.5,
}
#: Points of an effect with no amount.
FLAT: Final[Mapping[EffectKind, float]] = {
    EffectKind.DESTROY: 5.0, EffectKind.FREEZE: 1.0, EffectKind.GIVE_KEYWORD: 1.5,
}
#: Points a keyword adds to a minion, flat and per point of attack.
KEYWORD_FLAT: Final[Mapping[str, float]] = {"taunt": 1.5, "poisonous": 2.0, "stealth": 0.5, "freeze": 0.5}
KEYWORD_PER_ATTACK: Final[Mapping[str, float]] = {
    "charge": 1.25, "divine_shield": 1.0, "windfury": 0.5, "lifesteal": 0.5,
}
#: How much a selector scales an ability: several characters at once, the enemy hero only, random picks.
SELECTOR_SCALE: Final[Mapping[str, float]] = {
    "one": 1.0,  # a chosen target, the card itself, a hero, the trigger's card
    "enemy_hero": 0.9,  # damage that can only go face
    "all_one_side": 1.75,  # every enemy (or every friendly) character or minion
    "all_both_sides": 1.0,  # every minion of both sides: it hurts (or helps) the owner too
    "random_each": 0.8,  # per random pick
}
#: How surely an ability's trigger fires.
TRIGGER_SCALE: Final[Mapping[Trigger, float]] = {
    Trigger.BATTLECRY: 1.0, Trigger.DEATHRATTLE: 0.75, Trigger.TURN_END: 1.0, Trigger.TURN_START: 0.75,
    Trigger.SPELL_CAST: 0.75, Trigger.CARD_PLAYED: 0.75, Trigger.MINION_SUMMONED: 0.75,
    Trigger.SELF_DAMAGED: 0.5, Trigger.SECRET_HERO_ATTACKED: 0.5, Trigger.SECRET_MINION_ATTACKED: 0.5,
    Trigger.SECRET_MINION_PLAYED: 0.5, Trigger.SECRET_SPELL_CAST: 0.5,
}
#: Points a secret adds for being hidden.
SECRET_BONUS: Final = 0.0


def fair_power(cost: int) -> int:
    """The power a card of ``cost`` should have: ``2 * cost + 1``."""
    return 2 * cost + 1


def fair_cost(power: float) -> int:
    """The cost a card of ``power`` is fair at: ``(power - 1) / 2`` rounded (halves up), within 0..MAX_COST."""
    return max(0, min(MAX_COST, int((power - 1) / 2 + 0.5)))


def keyword_power(keywords: int, attack: int) -> float:
    """What a minion's keyword bitmask adds to its attack + health."""
    power = 0.0
    for name, keyword in KEYWORD_NAMES.items():
        if keywords & int(keyword):
            power += KEYWORD_FLAT.get(name, 0.0) + KEYWORD_PER_ATTACK.get(name, 0.0) * attack
    return power


def selector_scale(ability: Ability) -> float:
    """The :data:`SELECTOR_SCALE` of an ability's selector (and, for ``all``, its mark's sides)."""
    if ability.selector is Selector.ENEMY_HERO and ability.effect is EffectKind.DAMAGE:
        return SELECTOR_SCALE["enemy_hero"]
    if ability.selector is Selector.RANDOM:
        return SELECTOR_SCALE["random_each"] * ability.count
    if ability.selector is Selector.ALL and ability.mark is not None:
        one_side = ability.mark.alliance in (Alliance.ALLY, Alliance.ENEMY)
        several = bool(ability.mark.zones & Zones.BATTLEFIELD)
        if several:
            return SELECTOR_SCALE["all_one_side" if one_side else "all_both_sides"]
    return SELECTOR_SCALE["one"]


def ability_power(ability: Ability, cards: Mapping[str, CardDef]) -> float:
    """What one ability is worth in stat points (``cards`` holds the cards it summons or equips)."""
    effect = ability.effect
    if effect in (EffectKind.SUMMON, EffectKind.EQUIP_WEAPON):
        made = cards.get(ability.card or "")
        power = (card_power(made, cards) if made is not None else 0.0) * max(ability.amount, 1)
    elif effect is EffectKind.BUFF:
        power = float(ability.attack + ability.health) * selector_scale(ability)
    elif effect in PER_AMOUNT:
        power = PER_AMOUNT[effect] * ability.amount * selector_scale(ability)
    else:
        power = FLAT.get(effect, 0.0) * selector_scale(ability)
    return power * TRIGGER_SCALE.get(ability.trigger, 1.0)


def card_power(card: CardDef, cards: Mapping[str, CardDef]) -> float:
    """What a card brings to a game in stat points, before its cost (see the module documentation)."""
    abilities = sum(ability_power(ability, cards) for ability in card.abilities)
    if card.card_type is CardType.MINION:
        return card.attack + card.health + keyword_power(card.keywords, card.attack) + abilities
    if card.card_type is CardType.WEAPON:
        return card.attack * card.durability + abilities
    return abilities + (SECRET_BONUS if card.card_type is CardType.SECRET else 0.0)


def model_cost(card: CardDef, cards: Mapping[str, CardDef]) -> int:
    """The cost the model gives ``card``: :func:`fair_cost` of its :func:`card_power`."""
    return fair_cost(card_power(card, cards))


def cost_error(card: CardDef, cards: Mapping[str, CardDef]) -> float:
    """How many stat points ``card`` has above (positive) or below the fair power of its printed cost."""
    return card_power(card, cards) - fair_power(card.cost)
