"""Trigger system: cards' abilities react to actions, then resolve their selectors into effect actions."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Final, Iterable

from ..actions import (
    Attack, Buff, CastSpell, Damage, Destroy, DrawCards, EquipWeapon, Freeze, GainArmor, GainMana, GameAction,
    GiveKeyword, Heal, Hit, PlayCard, Reap, Summon, TriggerAbility, TurnEnd, TurnStart, UseHeroPower,
)
from ..events import EventBus, Phase
from ..factory import new_card
from ..targeting import Mark, candidates, still_targetable
from ..vocabulary import (
    BATTLEFIELD_ZONE, GRAVEYARD_ZONE, HERO_ZONE, MINION, NO_ZONE, SECRETS_ZONE, WEAPON_ZONE, EffectKind, Selector,
    Trigger,
)

if TYPE_CHECKING:
    from ..definitions import Ability
    from ..game import Game
    from ..state import Card, GameState

# Trigger members as plain names (enum lookups through the class are slow on Python 3.11: see vocabulary)
_BATTLECRY: Final = Trigger.BATTLECRY
_DEATHRATTLE: Final = Trigger.DEATHRATTLE
_CARD_PLAYED: Final = Trigger.CARD_PLAYED
_SPELL_CAST: Final = Trigger.SPELL_CAST
_MINION_SUMMONED: Final = Trigger.MINION_SUMMONED
_SELF_DAMAGED: Final = Trigger.SELF_DAMAGED
_TURN_START: Final = Trigger.TURN_START
_TURN_END: Final = Trigger.TURN_END
_SECRET_HERO_ATTACKED: Final = Trigger.SECRET_HERO_ATTACKED
_SECRET_MINION_ATTACKED: Final = Trigger.SECRET_MINION_ATTACKED
_SECRET_MINION_PLAYED: Final = Trigger.SECRET_MINION_PLAYED
_SECRET_SPELL_CAST: Final = Trigger.SECRET_SPELL_CAST
_GAIN_MANA: Final = EffectKind.GAIN_MANA
_SELF_ZONES: Final = (HERO_ZONE, BATTLEFIELD_ZONE, WEAPON_ZONE)
BATTLECRY_PRIORITY: Final = 1  # a minion's battlecry resolves before 'after you summon' triggers
SECRET_PRIORITY: Final = 2  # 'when attacked' secrets spring before other reactions to the attack
AFTER_PRIORITY: Final = -1  # 'after your opponent plays / casts' secrets wait for the card's own effects


def install(bus: EventBus) -> None:
    # A play runs in Hearthstone's phases, deaths resolved between them (see events.STEPS): a minion enters and
    # 'whenever you play a card' triggers; its battlecry; 'after your opponent plays' secrets; 'after you summon'.
    # A spell: 'whenever you play / cast' triggers; its text; 'after your opponent casts' secrets.
    bus.on(Phase.PERFORM, PlayCard, _card_played)
    bus.on(Phase.BATTLECRY, PlayCard, _played_minion_battlecry)
    bus.on(Phase.AFTER_PLAY, PlayCard, _after_minion_played)
    bus.on(Phase.AFTER_SUMMON, PlayCard, _after_minion_summoned)
    bus.on(Phase.PREPARE, CastSpell, _spell_cast)
    bus.on(Phase.BATTLECRY, CastSpell, _spell_text)
    bus.on(Phase.AFTER_PLAY, CastSpell, _after_spell_cast)
    bus.on(Phase.PERFORM, Summon, _summoned)
    bus.on(Phase.PERFORM, EquipWeapon, _weapon_equipped)
    bus.on(Phase.PERFORM, Damage, _damaged)
    bus.on(Phase.PERFORM, TurnStart, _turn_start)
    bus.on(Phase.PERFORM, TurnEnd, _turn_end)
    bus.on(Phase.PERFORM, Reap, _deathrattles)
    bus.on(Phase.PREPARE, Attack, _attacked)
    bus.on(Phase.PERFORM, TriggerAbility, _resolve)
    bus.on(Phase.PERFORM, UseHeroPower, _hero_power_used)


# --- when abilities fire -----------------------------------------------------------------------


def _fire(game: Game, cards: Iterable[Card], trigger: Trigger, *, target: Card | None = None,
          trigger_card: Card | None = None, priority: int = 0, skip: Card | None = None) -> None:
    """Queue a TriggerAbility for each ability of ``cards`` (but ``skip``) that fires on ``trigger``."""
    for card in cards:
        abilities = card.definition.triggers.get(trigger)
        if abilities and card is not skip:
            for ability in abilities:
                game.add_reaction(TriggerAbility(card.owner, card, ability, target, trigger_card, priority=priority,
                                                 order_of_play=card.order_of_play))


def _fire_in_play(game: Game, player: int, trigger: Trigger, *, trigger_card: Card | None = None,
                  skip: Card | None = None) -> None:
    """Fire ``trigger`` for the player's hero, weapon and minions (in that order), except ``skip``."""
    p = game.state.players[player]
    for zone in (p.hero_zone, p.weapon, p.battlefield):
        for card in zone:
            abilities = card.definition.triggers.get(trigger)
            if abilities and card is not skip:
                for ability in abilities:
                    game.add_reaction(TriggerAbility(card.owner, card, ability, None, trigger_card,
                                                     order_of_play=card.order_of_play))


def _card_played(game: Game, action: PlayCard) -> None:
    # the played card is not in play yet (it is summoned, equipped or cast later), so it never sees itself played
    _fire_in_play(game, action.player, _CARD_PLAYED, trigger_card=action.card)


def _spell_cast(game: Game, action: CastSpell) -> None:
    _fire_in_play(game, action.player, _SPELL_CAST, trigger_card=action.card)


def _spell_text(game: Game, action: CastSpell) -> None:
    _fire(game, [action.card], _BATTLECRY, target=action.target)


def _after_spell_cast(game: Game, action: CastSpell) -> None:
    enemy_secrets = game.state.players[1 - action.player].secrets
    if enemy_secrets:
        _fire(game, enemy_secrets, _SECRET_SPELL_CAST, trigger_card=action.card, priority=AFTER_PRIORITY)


def _hero_power_used(game: Game, action: UseHeroPower) -> None:
    """A hero power's abilities resolve like a spell's; no 'card played' or 'spell cast' trigger reacts to it."""
    _fire(game, [action.card], _BATTLECRY, target=action.target)


def _played_minion(action: PlayCard) -> Card | None:
    """The minion a play put onto the battlefield (it may have died since), or None for other cards."""
    card = action.card
    return card if card.definition.card_type is MINION and card.zone is not NO_ZONE else None


def _played_minion_battlecry(game: Game, action: PlayCard) -> None:
    card = _played_minion(action)
    if card is not None and _BATTLECRY in card.definition.triggers:  # the membership test saves most calls
        _fire(game, [card], _BATTLECRY, target=action.target, priority=BATTLECRY_PRIORITY)


def _after_minion_played(game: Game, action: PlayCard) -> None:
    card = _played_minion(action)
    enemy_secrets = game.state.players[1 - action.player].secrets
    if card is not None and enemy_secrets:
        _fire(game, enemy_secrets, _SECRET_MINION_PLAYED, trigger_card=card, priority=AFTER_PRIORITY)


def _after_minion_summoned(game: Game, action: PlayCard) -> None:
    """'After you summon' triggers of the minions in play now: one that died in an earlier phase does not fire."""
    card = _played_minion(action)
    if card is not None:
        _fire_in_play(game, action.player, _MINION_SUMMONED, trigger_card=card, skip=card)


def _summoned(game: Game, action: Summon) -> None:
    """A token's 'after you summon' triggers (a played minion's come in the play's after-summon step)."""
    if not action.played:
        _fire_in_play(game, action.player, _MINION_SUMMONED, trigger_card=action.card, skip=action.card)


def _weapon_equipped(game: Game, action: EquipWeapon) -> None:
    _fire(game, [action.card], _BATTLECRY, target=action.target, priority=BATTLECRY_PRIORITY)


def _damaged(game: Game, action: Damage) -> None:
    for hit in action.hits:
        if hit.amount > 0 and _SELF_DAMAGED in hit.target.definition.triggers:
            _fire(game, [hit.target], _SELF_DAMAGED, trigger_card=hit.source)


def _turn_start(game: Game, action: TurnStart) -> None:
    _fire_in_play(game, action.player, _TURN_START)


def _turn_end(game: Game, action: TurnEnd) -> None:
    _fire_in_play(game, action.player, _TURN_END)


def _deathrattles(game: Game, action: Reap) -> None:
    """Fire the reaped minions' deathrattles, each knowing where its minion stood (its summons go there)."""
    places = action.right_neighbours
    for i, card in enumerate(action.cards):
        abilities = card.definition.triggers.get(_DEATHRATTLE)
        if abilities:
            for ability in abilities:
                game.add_reaction(TriggerAbility(card.owner, card, ability, order_of_play=card.order_of_play,
                                                 left_of=places[i]))


def _attacked(game: Game, action: Attack) -> None:
    defender = action.defender
    secrets = game.state.players[defender.owner].secrets
    if secrets:
        trigger = _SECRET_HERO_ATTACKED if defender.zone is HERO_ZONE else _SECRET_MINION_ATTACKED
        _fire(game, secrets, trigger, trigger_card=action.attacker, priority=SECRET_PRIORITY)


# --- what abilities do -------------------------------------------------------------------------


def _resolve(game: Game, action: TriggerAbility) -> None:
    """Reveal a secret, pick the ability's targets now (or re-check the declared one) and queue its effect."""
    card, ability = action.card, action.ability
    if card.zone is SECRETS_ZONE:
        _reveal(game, card)
    targets = select_targets(game, action)
    if targets is None:
        action.fizzled = True
        return
    if targets or ability.effect is _GAIN_MANA:
        game.add_reaction(EFFECTS[ability.effect](game, action, targets))


def _reveal(game: Game, secret: Card) -> None:
    player = game.state.players[secret.owner]
    player.secrets.remove(secret)
    secret.zone = GRAVEYARD_ZONE
    player.graveyard.append(secret)


def select_targets(game: Game, action: TriggerAbility) -> list[Card] | None:
    """Resolve the ability's selector now; None means its declared target is no longer legal (it fizzles).

    'all' and 'random' are chosen at resolution among living characters (random picks are distinct and never
    a minion waiting for the reaper). 'chosen' was fixed when the card was played and is re-checked here.
    """
    return _SELECTORS[action.ability.selector](game.state, action)


def _chosen(state: GameState, action: TriggerAbility) -> list[Card] | None:
    target, card = action.target, action.card
    if target is None:  # an optional target left empty
        return []
    spec = card.definition.target
    assert spec is not None, "a 'chosen' selector needs a target spec (checked at load)"
    return [target] if still_targetable(state, card.owner, spec.allowed, target) else None


def _random(state: GameState, action: TriggerAbility) -> list[Card]:
    card, ability = action.card, action.ability
    pool = [c for c in candidates(state, card.owner, _mark(ability)) if c is not card]
    return state.rng.sample(pool, ability.count)


def _mark(ability: Ability) -> Mark:
    mark = ability.mark
    assert mark is not None, "'all' and 'random' selectors have a mark (checked at load)"
    return mark


def _trigger_card(state: GameState, action: TriggerAbility) -> list[Card]:
    trigger_card = action.trigger_card
    return [trigger_card] if trigger_card is not None and trigger_card.health > 0 else []


_SELECTORS: Final[dict[Selector, Callable[[GameState, TriggerAbility], list[Card] | None]]] = {
    Selector.CHOSEN: _chosen,
    Selector.ALL: lambda state, action: candidates(state, action.card.owner, _mark(action.ability)),
    Selector.RANDOM: _random,
    Selector.SELF: lambda state, action: [action.card] if action.card.zone in _SELF_ZONES else [],
    Selector.OWN_HERO: lambda state, action: [state.players[action.card.owner].hero],
    Selector.ENEMY_HERO: lambda state, action: [state.players[1 - action.card.owner].hero],
    Selector.TRIGGER_CARD: _trigger_card,
}


def _reaction(cls: type, action: TriggerAbility, *args) -> GameAction:
    return cls(action.card.owner, *args, order_of_play=action.card.order_of_play)


def _new_cards(game: Game, action: TriggerAbility, owner: int) -> Card:
    card_id = action.ability.card
    assert card_id is not None, "summon and equip effects name a card (checked at load)"
    return new_card(game.state, game.cards.get_card(card_id), owner, NO_ZONE)


def _summon(game: Game, action: TriggerAbility, heroes: list[Card]) -> GameAction:
    """Summon the copies where Hearthstone puts them (see :func:`_summon_places`)."""
    # one Summon per copy would need several reactions; summon effects name one hero side, so copies queue here
    side = heroes[0].owner
    order = action.card.order_of_play
    summons = [Summon(side, _new_cards(game, action, side), order_of_play=order, beside=beside, left=left)
               for beside, left in _summon_places(action, side)]
    for summon in summons[:-1]:
        game.add_reaction(summon)
    return summons[-1]  # queued last: the copies resolve in the order they were made


def _summon_places(action: TriggerAbility, side: int) -> list[tuple[Card | None, bool]]:
    """(beside, left) of each copy a summon effect makes on ``side`` (no minion beside: the right end).

    A deathrattle summons where its minion stood: just left of the nearest minion that stood to its right and lived
    (at the right end if none did), the copies side by side. A minion in play on that side summons beside itself:
    right, left, right... (Onyxia's whelps fill both sides of her). Anything else (a spell, a secret, a minion
    summoning for the other side) summons at the right end.
    """
    card, copies = action.card, action.ability.amount
    if action.ability.trigger is _DEATHRATTLE and card.owner == side:
        return [(action.left_of, True)] * copies
    if card.zone is BATTLEFIELD_ZONE and card.owner == side:
        return [(card, k % 2 == 1) for k in range(copies)]
    return [(None, False)] * copies


EFFECTS: Final[dict[EffectKind, Callable[[Game, TriggerAbility, list], GameAction]]] = {
    EffectKind.DAMAGE: lambda g, a, t: _reaction(Damage, a, [Hit(a.card, c, a.ability.amount) for c in t]),
    EffectKind.HEAL: lambda g, a, t: _reaction(Heal, a, a.card, t, a.ability.amount),
    EffectKind.DRAW: lambda g, a, t: DrawCards(t[0].owner, a.ability.amount, order_of_play=a.card.order_of_play),
    EffectKind.SUMMON: _summon,
    EffectKind.BUFF: lambda g, a, t: _reaction(Buff, a, a.card, t, a.ability.attack, a.ability.health),
    EffectKind.GIVE_KEYWORD: lambda g, a, t: _reaction(GiveKeyword, a, a.card, t, a.ability.keyword),
    EffectKind.DESTROY: lambda g, a, t: _reaction(Destroy, a, a.card, t),
    EffectKind.GAIN_ARMOR: lambda g, a, t: GainArmor(t[0].owner, t[0], a.ability.amount,
                                                     order_of_play=a.card.order_of_play),
    EffectKind.EQUIP_WEAPON: lambda g, a, t: EquipWeapon(t[0].owner, _new_cards(g, a, t[0].owner),
                                                         order_of_play=a.card.order_of_play),
    EffectKind.FREEZE: lambda g, a, t: _reaction(Freeze, a, a.card, t),
    EffectKind.GAIN_MANA: lambda g, a, t: GainMana(a.card.owner, a.ability.amount, order_of_play=a.card.order_of_play),
}
