"""Hand-tuned values of characters, cards and whole positions, shared by the heuristic and search agents.

Every function takes duck-typed cards (engine ``Card`` or view ``CardView``: ``attack``, ``health``,
``keywords``, ``definition``), so the heuristic can score what its view shows and the search can score the
determinized clones it plays out.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from ccg_env.engine.vocabulary import CardType, EffectKind, Keyword, Selector, Trigger

if TYPE_CHECKING:
    from ccg_env.engine import Ability, CardDef, Game

TAUNT, CHARGE, DIVINE_SHIELD = int(Keyword.TAUNT), int(Keyword.CHARGE), int(Keyword.DIVINE_SHIELD)
WINDFURY, LIFESTEAL, POISONOUS = int(Keyword.WINDFURY), int(Keyword.LIFESTEAL), int(Keyword.POISONOUS)
STEALTH, FREEZE = int(Keyword.STEALTH), int(Keyword.FREEZE)

WIN_SCORE = 1000.0


def minion_value(card: Any) -> float:
    """What a minion on the board is worth: its stats plus keyword and ability bonuses."""
    value = card.attack + card.health + 0.5 * len(card.definition.abilities)
    keywords = card.keywords
    if keywords:
        value += 1.0 if keywords & TAUNT else 0.0
        value += card.attack if keywords & DIVINE_SHIELD else 0.0
        value += 0.5 * card.attack if keywords & (WINDFURY | LIFESTEAL) else 0.0
        value += 2.0 if keywords & POISONOUS else 0.0
        value += 0.5 if keywords & (STEALTH | FREEZE) else 0.0
    return value


def can_kill(attack: int, defender: Any, *, poisonous: bool = False) -> bool:
    """Whether ``attack`` damage destroys ``defender`` in one hit (divine shield absorbs a hit)."""
    if attack <= 0 or defender.keywords & DIVINE_SHIELD:
        return False
    return poisonous and defender.definition.card_type is CardType.MINION or attack >= defender.health + getattr(
        defender, "armor", 0)


def battlecries(definition: CardDef) -> tuple[Ability, ...]:
    """The abilities that fire when the card is played."""
    return definition.triggers.get(Trigger.BATTLECRY, ())


def chosen_effect(definition: CardDef) -> Ability | None:
    """The battlecry that acts on the declared target, if the card has one."""
    return next((a for a in battlecries(definition) if a.selector is Selector.CHOSEN), None)


def face_damage(definition: CardDef) -> int:
    """Damage a card's battlecries can deal to the enemy hero when played at it."""
    total = 0
    for ability in battlecries(definition):
        if ability.effect is not EffectKind.DAMAGE:
            continue
        if ability.selector is Selector.ENEMY_HERO or ability.selector is Selector.CHOSEN:
            total += ability.amount
        elif ability.selector is Selector.ALL and ability.mark is not None and ability.mark.sides[1]:
            total += ability.amount if any(attr == "hero_zone" for _, attr in ability.mark.zone_attrs) else 0
    return total


def hero_score(health: int) -> float:
    """Value of a hero's effective health: each point matters more as the hero nears death."""
    return 6.0 * math.sqrt(max(health, 0)) + 0.3 * health


def side_score(player: Any, rules: Any) -> float:
    """One player's material: hero, board, weapon and cards in hand."""
    hero = player.hero
    score = hero_score(hero.health + hero.armor)
    for card in player.battlefield:
        score += minion_value(card)
    for weapon in player.weapon:
        score += 0.8 * weapon.attack * weapon.durability
    score += 1.5 * min(len(player.hand), rules.max_hand - 1) + 0.3 * min(len(player.deck), 3)
    score += 0.5 * len(player.secrets)
    return score


def position_score(game: Game, player: int) -> float:
    """How good the position is for ``player`` (a won game scores ``WIN_SCORE``, a lost one its negative)."""
    state = game.state
    if state.result is not None:
        if state.winner is None:
            return 0.0
        return WIN_SCORE if state.winner == player else -WIN_SCORE
    me, enemy = state.players[player], state.players[1 - player]
    return side_score(me, state.rules) - side_score(enemy, state.rules)
