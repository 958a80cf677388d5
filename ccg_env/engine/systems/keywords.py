"""Keywords as validators and reactions: charge, windfury, divine shield, lifesteal, poisonous, stealth, freeze.

Taunt and stealth also shape attack and play targets; that filter lives in the TargetSystem's candidates.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from ..actions import Attack, Damage, Destroy, Freeze, Heal, TurnEnd
from ..attacks import attacks_per_turn
from ..events import EventBus, Phase
from ..vocabulary import BATTLEFIELD_ZONE, Keyword

if TYPE_CHECKING:
    from ..game import Game

CHARGE: Final = int(Keyword.CHARGE)
DIVINE_SHIELD: Final = int(Keyword.DIVINE_SHIELD)
LIFESTEAL: Final = int(Keyword.LIFESTEAL)
POISONOUS: Final = int(Keyword.POISONOUS)
STEALTH: Final = int(Keyword.STEALTH)
FREEZE: Final = int(Keyword.FREEZE)


def install(bus: EventBus) -> None:
    bus.on(Phase.VALIDATE, Attack, _attacks_left)
    bus.on(Phase.PERFORM, Attack, _attacking_reveals_stealth)
    bus.on(Phase.PREPARE, Damage, _divine_shield)
    bus.on(Phase.PERFORM, Damage, _on_damage_dealt)
    bus.on(Phase.PERFORM, TurnEnd, _thaw)


def _attacks_left(game: Game, action: Attack) -> str | None:
    """Charge and windfury: a minion summoned this turn has no attack unless it has charge; a character
    has one attack per turn, two with windfury.

    The reasons are constant strings (the refused action names the attacker): legal-move generation asks this
    of every character on each decision and throws the reason away.
    """
    attacker = action.attacker
    keywords = attacker.keywords
    if attacker.sleeping and not keywords & CHARGE:
        return "the attacker was summoned this turn and has no charge"
    if attacker.attacks_made >= attacks_per_turn(keywords):
        return "the attacker has no attacks left this turn"
    return None


def _attacking_reveals_stealth(game: Game, action: Attack) -> None:
    if not action.cancelled:
        action.attacker.keywords &= ~STEALTH


def _divine_shield(game: Game, action: Damage) -> None:
    for hit in action.hits:
        target = hit.target
        if hit.amount > 0 and target.keywords & DIVINE_SHIELD and target.zone is BATTLEFIELD_ZONE:
            hit.amount = 0
            target.keywords &= ~DIVINE_SHIELD


def _on_damage_dealt(game: Game, action: Damage) -> None:
    for hit in action.hits:
        source = hit.source
        if source is None or hit.amount <= 0 or not source.keywords & (LIFESTEAL | POISONOUS | FREEZE):
            continue
        order = source.order_of_play
        if source.keywords & LIFESTEAL:
            hero = game.state.players[source.owner].hero
            game.add_reaction(Heal(source.owner, source, [hero], hit.amount, order_of_play=order))
        if source.keywords & POISONOUS and hit.target.zone is BATTLEFIELD_ZONE:
            game.add_reaction(Destroy(source.owner, source, [hit.target], order_of_play=order))
        if source.keywords & FREEZE:
            game.add_reaction(Freeze(source.owner, source, [hit.target], order_of_play=order))


def _thaw(game: Game, action: TurnEnd) -> None:
    """At the end of its owner's turn a frozen character thaws unless it was frozen this turn after attacking.

    Frozen before the turn began, it has lost this turn's attack. Frozen this turn before it attacked (it had its
    attack left), it has lost this turn's attack too, as in Hearthstone. Frozen this turn after it attacked (it hit a
    freezing minion), it stays frozen through its owner's next turn.
    """
    turn = game.state.turn
    player = game.state.players[action.player]
    for card in (*player.hero_zone, *player.battlefield):
        frozen_on = card.frozen_on_turn
        if frozen_on and (frozen_on < turn or not card.attacks_made):
            card.frozen_on_turn = 0
