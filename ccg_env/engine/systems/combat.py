"""Attack system: who may attack whom, and combat damage dealt both ways at once."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..actions import Attack, Damage, Hit
from ..events import EventBus, Phase
from ..targeting import attack_targets
from ..vocabulary import BATTLEFIELD_ZONE, CHARACTER_ZONES

if TYPE_CHECKING:
    from ..game import Game
    from ..state import Card



def install(bus: EventBus) -> None:
    bus.on(Phase.VALIDATE, Attack, validate_attacker)
    bus.on(Phase.VALIDATE_TARGET, Attack, _validate_defender)
    bus.on(Phase.PERFORM, Attack, _fight)


def validate_attacker(game: Game, action: Attack) -> str | None:
    """The attacker is the acting player's character on turn, with attack, not frozen.

    The reasons legal-move generation meets on every decision (no attack, frozen) are constant strings: the
    refused action names the attacker.
    """
    attacker = action.attacker
    if action.player != game.state.current:
        return f"player {action.player} cannot attack on player {game.state.current}'s turn"
    if attacker.owner != action.player or attacker.zone not in CHARACTER_ZONES:
        return f"{attacker!r} is not a character of player {action.player} in play"
    if attacker.attack <= 0:
        return "the attacker has no attack"
    if attacker.frozen_on_turn:
        return "the attacker is frozen"
    return None


def _validate_defender(game: Game, action: Attack) -> str | None:
    if action.defender in attack_targets(game.state, action.attacker):
        return None
    return f"{action.defender!r} cannot be attacked by {action.attacker!r} (enemy characters only; taunt first)"


def _fight(game: Game, action: Attack) -> None:
    attacker, defender = action.attacker, action.defender
    if not (attacker.health > 0 and attacker.zone in CHARACTER_ZONES
            and defender.health > 0 and defender.zone in CHARACTER_ZONES):
        action.cancel()  # a secret or trigger in the prepare phase removed a combatant: no damage
        return
    attacker.attacks_made += 1
    hits = [Hit(attacker, defender, attacker.attack)]
    if defender.zone is BATTLEFIELD_ZONE:  # heroes do not strike back when attacked
        hits.append(Hit(defender, attacker, defender.attack))
    game.add_reaction(Damage(action.player, hits, priority=1, order_of_play=attacker.order_of_play))
