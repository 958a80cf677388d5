"""HeuristicAgent: the tutorial's computer player made good (lethal, removal, trades, tempo, face, end turn).

In the mulligan it puts back, one card at a time, every opening card costing more than ``MULLIGAN_MAX_COST`` (3)
but keeps a curve: one card costing ``MULLIGAN_MAX_COST + 1`` stays when the kept cards already cover the costs
2 and 3 that lead up to it; then it is done (end turn). In the battle, one decision at a time, in priority order:

1. **Lethal**: if the damage that can reach the enemy hero this turn (attacks that may target it plus burn
   within the mana left) covers its health and armor, go face.
2. **Trades**: attack an enemy minion when the attacker kills it and survives, or kills something worth at
   least as much as itself; when taunts block the way, hit the taunt where it hurts least.
3. **Plays**: play the card whose effect is worth the most (minions by stats and keywords, spells by what
   they kill or heal). Targets come from the card's ``preferred`` mark, as the tutorial's AutoTarget picks
   them (any allowed target when the mark names none), but scored instead of taken first. Spells that
   would be wasted are held.
4. **Hero power**: with the mana left over after the plays, use the hero power when its effect is worth
   something (targets from its ``preferred`` mark, scored like a card's battlecry; Life Tap only with room in
   the hand and health to spare). A damage power aimed at the enemy hero counts towards lethal in step 1.
5. **Face**: every character that can still attack hits the enemy hero.
6. **End turn** when nothing useful is left.

The agent is deterministic: ties go to the engine's stable choice order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ccg_env.engine.attacks import attacks_per_turn
from ccg_env.engine.choices import END_TURN, ChoiceKind
from ccg_env.engine.draft import DraftView
from ccg_env.engine.vocabulary import CardType, EffectKind, Selector

from .draft import heuristic_pick
from .board_value import (
    FREEZE, POISONOUS, TAUNT, battlecries, can_kill, chosen_effect, face_damage, minion_value,
)

if TYPE_CHECKING:
    import numpy as np

    from ccg_env.engine import Ability, Choice
    from ccg_env.engine.view import CardView, GameView, SideView


class Board:
    """The view's two sides read once per decision, with cards indexed by uid."""

    __slots__ = ("view", "own", "enemy", "cards", "enemy_hp")

    def __init__(self, view: GameView) -> None:
        self.view = view
        self.own: SideView = view.own
        self.enemy: SideView = view.enemy
        own, enemy = self.own, self.enemy
        power = (own.hero_power,) if own.hero_power is not None else ()
        self.cards: dict[int, CardView] = {c.uid: c for c in (own.hero, enemy.hero, *own.hand, *own.battlefield,
                                                                 *enemy.battlefield, *power)}
        self.enemy_hp = enemy.hero.health + enemy.hero.armor

    def is_enemy_hero(self, uid: int | None) -> bool:
        return uid == self.enemy.hero.uid

    def card(self, uid: int | None) -> CardView:
        """The visible card ``uid`` (a choice's source or target: plays, attacks and powers always name them)."""
        if uid is None:
            raise ValueError("the heuristic looked up a choice's card, but the choice names none")
        return self.cards[uid]


def choose(view: GameView, choices: list[Choice] | None = None) -> Choice:
    """The heuristic's choice for the player on turn in ``view`` (``END_TURN`` when nothing is worth doing)."""
    choices = view.legal_choices() if choices is None else choices
    if len(choices) <= 1:
        return END_TURN
    if view.in_mulligan:
        return mulligan_choice(view, choices)
    board = Board(view)
    plays = [c for c in choices if c.kind is ChoiceKind.PLAY]
    attacks = [c for c in choices if c.kind is ChoiceKind.ATTACK]
    powers = [c for c in choices if c.kind is ChoiceKind.HERO_POWER]
    return (_lethal(board, plays + powers, attacks) or _best_trade(board, attacks) or _best_play(board, plays)
            or _best_hero_power(board, powers) or _face(board, attacks) or END_TURN)


class HeuristicAgent:
    """The rule-based player described in this module's docstring; needs the :class:`GameView`."""

    def __init__(self, name: str = "heuristic") -> None:
        self.name = name

    def act(self, observation: Any, action_mask: np.ndarray, view: GameView | DraftView | None = None) -> int:
        """Return the action id of :func:`choose`'s pick (in a draft, of :meth:`draft_pick`'s)."""
        if view is None:
            raise ValueError(f"{type(self).__name__} reads the game through a GameView; act() got view=None")
        if isinstance(view, DraftView):
            return view.action_id(self.draft_pick(view))
        return view.action_ids([choose(view)])[0]

    def draft_pick(self, view: DraftView) -> int:
        """The offered card to draft: the best by card value and mana curve (:func:`ccg_env.agents.draft.heuristic_pick`)."""
        return heuristic_pick(view)

    def choose_from_view(self, view: GameView) -> Choice:
        """The engine choice :meth:`act` would pick, for callers holding the game (env opponents): no
        observation or mask needed."""
        return choose(view)

    def reset(self, seed: int | None = None) -> None:
        """Deterministic and memoryless: nothing to reset."""


# --- 0. mulligan -------------------------------------------------------------------------------------

#: Opening cards costing more than this are put back, except one card of the next cost on a curve.
MULLIGAN_MAX_COST = 3


def mulligan_keeps(costs: list[int]) -> list[bool]:
    """Which of the opening hand's cards (given by cost, in hand order) the heuristic keeps.

    Every card costing at most ``MULLIGAN_MAX_COST`` is kept; the first card costing one more is kept too when
    the kept cards include a 2-cost and a 3-cost card (a curve that leads up to it); the rest go back.
    """
    keep = [cost <= MULLIGAN_MAX_COST for cost in costs]
    kept = {cost for cost, kept in zip(costs, keep) if kept}
    if {MULLIGAN_MAX_COST - 1, MULLIGAN_MAX_COST} <= kept and MULLIGAN_MAX_COST + 1 in costs:
        keep[costs.index(MULLIGAN_MAX_COST + 1)] = True
    return keep


def mulligan_choice(view: GameView, choices: list[Choice]) -> Choice:
    """Mark the first card :func:`mulligan_keeps` puts back that is not marked yet; done (end turn) when none."""
    hand = view.own.hand
    listed = {c.source: c for c in choices if c.kind is ChoiceKind.MULLIGAN}
    for card, keep in zip(hand, mulligan_keeps([card.cost for card in hand])):
        if not keep and card.uid in listed:
            return listed[card.uid]
    return END_TURN


# --- 1. lethal ---------------------------------------------------------------------------------------


def _lethal(board: Board, plays: list[Choice], attacks: list[Choice]) -> Choice | None:
    face_attacks = [a for a in attacks if board.is_enemy_hero(a.target)]
    burn = sorted(((face_damage(board.card(p.source).definition), p) for p in plays
                   if board.is_enemy_hero(p.target)), key=lambda pair: -pair[0])
    reach = sum(_attacks_left(board.card(uid)) * board.card(uid).attack for uid in {a.source for a in face_attacks})
    mana = board.own.mana
    for damage, play in burn:
        cost = board.card(play.source).cost
        if damage > 0 and cost <= mana:
            reach, mana = reach + damage, mana - cost
    if reach < board.enemy_hp:
        return None
    if face_attacks:
        return face_attacks[0]
    return next((p for d, p in burn if d > 0), None)


def _attacks_left(card: CardView) -> int:
    return max(attacks_per_turn(card.keywords) - card.attacks_made, 1)


# --- 2. trades ---------------------------------------------------------------------------------------


def _best_trade(board: Board, attacks: list[Choice]) -> Choice | None:
    on_minions = [a for a in attacks if not board.is_enemy_hero(a.target)]
    if not on_minions:
        return None
    taunt_blocks = not any(board.is_enemy_hero(a.target) for a in attacks)
    scored = [(_trade_score(board, a, taunt_blocks), i, a) for i, a in enumerate(on_minions)]
    score, _, best = max(scored, key=lambda item: (item[0], -item[1]))
    return best if score > 0 else None


def _trade_score(board: Board, choice: Choice, taunt_blocks: bool) -> float:
    attacker, defender = board.card(choice.source), board.card(choice.target)
    kills = can_kill(attacker.attack, defender, poisonous=bool(attacker.keywords & POISONOUS))
    if attacker.card_type is CardType.HERO:
        hurt = defender.attack + (2 if defender.keywords & FREEZE else 0)
        if not kills or attacker.health + attacker.armor <= hurt + 8:
            return -1.0
        return minion_value(defender) - 0.7 * hurt
    dies = can_kill(defender.attack, attacker, poisonous=bool(defender.keywords & POISONOUS))
    loss = minion_value(attacker) if dies else 0.0
    if kills:
        return minion_value(defender) - loss + (1.0 if not dies else 0.01)
    if taunt_blocks and defender.keywords & TAUNT:
        return 0.5 * min(attacker.attack, defender.health) - loss + 0.01
    return -1.0


# --- 3. plays ----------------------------------------------------------------------------------------


def _best_play(board: Board, plays: list[Choice]) -> Choice | None:
    best, best_score = None, 0.0
    for play in _preferred(board, plays):
        card = board.card(play.source)
        score = _play_score(board, card, play.target)
        if score > best_score + 1e-9 and score >= _threshold(card):
            best, best_score = play, score
    return best


def _preferred(board: Board, plays: list[Choice]) -> list[Choice]:
    """Plays whose target the card's ``preferred`` mark names (all of a card's plays if it names none)."""
    out: list[Choice] = []
    preferred: dict[int, set[int]] = {}
    for play in plays:
        source, target = play.source, play.target
        if source is None or target is None:  # an untargeted play (a play always names its card)
            out.append(play)
            continue
        if source not in preferred:
            names = set(board.view.preferred_targets(source))
            preferred[source] = names or {p.target for p in plays if p.source == source and p.target is not None}
        if target in preferred[source]:
            out.append(play)
    return out


def _threshold(card: CardView) -> float:
    """Spells must earn their mana; minions, weapons and secrets are always worth their tempo."""
    return 0.9 * card.cost if card.card_type is CardType.SPELL else 0.01


def _play_score(board: Board, card: CardView, target_uid: int | None) -> float:
    card_type = card.card_type
    score = 0.0
    if card_type is CardType.MINION:
        score += minion_value(card) + 0.3 * card.cost
    elif card_type is CardType.WEAPON:
        score += 0.8 * card.attack * card.durability - (3.0 if board.own.weapon else 0.0)
    elif card_type is CardType.SECRET:
        score += 0.9 * card.cost + 0.5
    for ability in battlecries(card.definition):
        score += _ability_score(board, card, ability, target_uid)
    return score


def _ability_score(board: Board, card: CardView, ability: Ability, target_uid: int | None) -> float:
    if ability.effect is EffectKind.GAIN_MANA:
        return _coin_score(board, card, ability.amount)
    if ability.selector is Selector.CHOSEN:
        return _effect_on(board, ability, board.cards.get(target_uid)) if target_uid is not None else 0.0
    if ability.selector is Selector.ALL and ability.mark is not None:
        return _area_score(board, ability)
    if ability.selector is Selector.RANDOM and ability.effect is EffectKind.DAMAGE:
        return 0.4 * ability.amount * ability.count
    return _simple_effect_score(board, ability)


def _effect_on(board: Board, ability: Ability, target: CardView | None) -> float:
    """Value of a battlecry effect on the declared target (negative when it helps the enemy)."""
    if target is None:
        return 0.0
    sign = 1.0 if target.owner == board.own.index else -1.0
    effect = ability.effect
    if effect is EffectKind.DAMAGE or effect is EffectKind.DESTROY:
        return -sign * _damage_value(board, target, ability.amount, destroy=effect is EffectKind.DESTROY)
    if effect is EffectKind.HEAL:
        return sign * 0.6 * min(ability.amount, target.max_health - target.health)
    if effect is EffectKind.BUFF:
        return sign * (ability.attack + ability.health) * (1.2 if target.attacks_made == 0 else 1.0)
    if effect is EffectKind.GIVE_KEYWORD:
        return sign * 2.0
    if effect is EffectKind.FREEZE:
        return -sign * 0.5 * target.attack
    return 0.0


def _damage_value(board: Board, target: CardView, amount: int, *, destroy: bool = False) -> float:
    """What dealing ``amount`` damage to (or destroying) a character takes away from its owner."""
    if target.card_type is CardType.HERO:
        lethal = target.owner != board.own.index and amount >= board.enemy_hp
        return 100.0 if lethal else 0.5 * amount
    if destroy or can_kill(amount, target):
        return minion_value(target)
    return 0.4 * min(amount, target.health)


def _area_score(board: Board, ability: Ability) -> float:
    mark = ability.mark
    if ability.effect is not EffectKind.DAMAGE or mark is None:
        return _simple_effect_score(board, ability)
    own_side, enemy_side = mark.sides
    score = 0.0
    for side, wanted, sign in ((board.own, own_side, -1.0), (board.enemy, enemy_side, 1.0)):
        if not wanted:
            continue
        for attr_zone in mark.zone_attrs:
            targets = side.battlefield if attr_zone[1] == "battlefield" else (side.hero,) \
                if attr_zone[1] == "hero_zone" else ()
            score += sign * sum(_damage_value(board, t, ability.amount) for t in targets)
    return score


def _simple_effect_score(board: Board, ability: Ability) -> float:
    effect = ability.effect
    if effect is EffectKind.DRAW:
        room = board.own.hand_size < 8
        return 1.5 * ability.amount if room and board.own.deck_size > 0 else -1.0
    if effect is EffectKind.GAIN_ARMOR:
        return 0.5 * ability.amount
    if effect is EffectKind.SUMMON or effect is EffectKind.EQUIP_WEAPON:
        return 2.0 * ability.amount
    if effect is EffectKind.DAMAGE and ability.selector is Selector.ENEMY_HERO:
        return 100.0 if ability.amount >= board.enemy_hp else 0.5 * ability.amount
    if effect is EffectKind.DAMAGE and ability.selector is Selector.OWN_HERO:  # a warlock's price
        own_hp = board.own.hero.health + board.own.hero.armor
        return -100.0 if ability.amount >= own_hp else -0.5 * ability.amount
    return 0.5


def _coin_score(board: Board, coin: CardView, amount: int) -> float:
    """The coin is worth playing only when the extra mana lets a better card be played right now."""
    mana = board.own.mana - coin.cost
    unlocked = [c for c in board.own.hand if c.uid != coin.uid and mana < c.cost <= mana + amount]
    affordable = [c for c in board.own.hand if c.uid != coin.uid and c.cost <= mana]
    if not unlocked or (affordable and max(c.cost for c in affordable) >= max(c.cost for c in unlocked)):
        return -1.0
    return 0.05


# --- 4. hero power ----------------------------------------------------------------------------------


#: Below this much health (with armor) a hero does not pay health for a card (Life Tap).
SAFE_HEALTH = 12


def _best_hero_power(board: Board, powers: list[Choice]) -> Choice | None:
    """The use of the hero power worth the most among its preferred targets, if worth anything."""
    if not powers:
        return None
    preferred = set(board.view.hero_power_targets(preferred=True))
    candidates = [p for p in powers if p.target in preferred] or powers
    best, best_score = None, 0.0
    for use in candidates:
        power = board.card(use.source)
        score = sum(_power_ability_score(board, power, ability, use.target)
                    for ability in battlecries(power.definition))
        if score > best_score + 1e-9:
            best, best_score = use, score
    return best


def _power_ability_score(board: Board, power: CardView, ability: Ability, target_uid: int | None) -> float:
    if ability.selector is Selector.OWN_HERO and ability.effect is EffectKind.DAMAGE:
        hero = board.own.hero
        return -0.6 * ability.amount if hero.health + hero.armor - ability.amount >= SAFE_HEALTH else -100.0
    if ability.effect is EffectKind.EQUIP_WEAPON:  # a small weapon is worth having, not worth a better one
        return -1.0 if board.own.weapon is not None else 1.5
    if ability.selector is Selector.CHOSEN and ability.effect is EffectKind.HEAL:
        target = board.cards.get(target_uid) if target_uid is not None else None
        if target is None or target.owner != board.own.index or target.health >= target.max_health:
            return -1.0
    return _ability_score(board, power, ability, target_uid)


# --- 5. face -----------------------------------------------------------------------------------------


def _face(board: Board, attacks: list[Choice]) -> Choice | None:
    return next((a for a in attacks if board.is_enemy_hero(a.target)), None)
