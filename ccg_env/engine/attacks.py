"""What the engine answers about attacks: whether and why a character may attack, whom, and how often per turn.

Asked by legal-move generation's callers outside the engine (the env's "can attack" columns, agents): the same
Attack validators that ``Game.apply`` runs decide, on the action system's probe action, so nothing here repeats
a rule.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, Iterable

from .actions import Attack
from .choices import Choice, ChoiceKind
from .events import Phase
from .targeting import attack_targets
from .vocabulary import Keyword

if TYPE_CHECKING:
    from .game import Game
    from .state import Card, Player

_ATTACK: Final = ChoiceKind.ATTACK
_WINDFURY: Final = int(Keyword.WINDFURY)


def attacks_per_turn(keywords: int) -> int:
    """Attacks a character with these keyword bits may make per turn: two with windfury, else one."""
    return 2 if keywords & _WINDFURY else 1


def attack_refusal(game: Game, attacker: Card) -> str | None:
    """Why ``attacker`` may not attack now, or None if it may (it then has a defender while the game goes on).

    Checks that the game goes on and that the attacker's side is on turn, then asks the Attack validators (attack,
    freeze, summoning sickness and charge, attacks left...) on the action system's probe.
    """
    state = game.state
    if state.result is not None:
        return f"the game is over ({state.result.value})"
    if attacker.owner != state.current:
        return "it is not its owner's turn"
    probe = game.actions.attack_probe
    probe.player = state.current
    probe.attacker = attacker
    for validator in game.bus.handlers(Phase.VALIDATE, Attack):
        reason = validator(game, probe)
        if reason is not None:
            return str(reason)
    return None


def allowed_attacks(game: Game, attacker: Card) -> list[Card]:
    """The characters ``attacker`` may attack now (taunts first, as the rules want), empty if it may not."""
    if attack_refusal(game, attacker) is not None:
        return []
    return attack_targets(game.state, attacker)


def attackers_now(game: Game, legal: Iterable[Choice] | None = None) -> set[int]:
    """Uids of the characters of the side on turn that may attack now.

    From ``legal`` (that side's legal choices in this position) when given and the game goes on, else from
    :func:`attack_refusal`.
    """
    if legal is not None and game.state.result is None:
        uids: set[int] = set()
        for kind, source, _ in legal:
            if kind is _ATTACK and source is not None:
                uids.add(source)
        return uids
    side = game.state.players[game.state.current]
    return {card.uid for card in (*side.hero_zone, *side.battlefield) if attack_refusal(game, card) is None}


def attackers_next_turn(side: Player) -> set[int]:
    """Uids of the characters of ``side`` (not on turn) that will be able to attack on its next turn.

    That turn's start wakes them and resets their attacks (every character has at least one per turn), so what
    is left is a character's attack and a freeze, which lasts through that turn.
    """
    return {card.uid for card in (*side.hero_zone, *side.battlefield) if card.attack > 0 and not card.frozen_on_turn}
