"""Whether a character can attack, asked of the engine's rules (for the observation's "can attack" columns).

For the side on turn (:func:`attackers_now`): from its legal choices when the caller has them (a character
can attack exactly when it has a legal attack while the game goes on), else from the engine's Attack
validators on a probe action (:class:`AttackerCheck`), the ones ``Game.apply`` and legal-choice generation run.
For the side not on turn: whether it could attack on its next turn (:func:`attackers_next_turn`).

These are candidates for the engine (``engine/choices.py`` and ``engine/systems/keywords.py``); they live in the
env until the engine offers them.
"""

from __future__ import annotations

from typing import Final, Sequence

from ..engine import Card, Choice, ChoiceKind, Game, Player
from ..engine.actions import PROBE_CARD, Attack
from ..engine.events import Phase

_ATTACK: Final = ChoiceKind.ATTACK


class AttackerCheck:
    """Whether a character of the side on turn may attack now, by the engine's own Attack validators.

    A probe ``Attack`` pointed at each character runs through the validators that ``Game.apply`` and
    legal-choice generation run. The defender is not part of the question: an attacker that passes always has
    one while the game goes on (the enemy hero, or the taunts in front of it).
    """

    __slots__ = ("_game", "_validators", "_probe")

    def __init__(self, game: Game) -> None:
        self._game = game
        self._validators = game.bus.tables[Phase.VALIDATE].get(Attack, ())
        self._probe = Attack(game.state.current, PROBE_CARD, PROBE_CARD)

    def __call__(self, card: Card) -> bool:
        if card.attack <= 0:  # the cheapest refusal first, as legal-choice generation does
            return False
        probe, game = self._probe, self._game
        probe.attacker = card
        for validator in self._validators:
            if validator(game, probe) is not None:
                return False
        return True


def attackers_now(game: Game, legal: Sequence[Choice] | None = None) -> set[int]:
    """Uids of the characters of the side on turn that may attack now.

    From ``legal`` (that side's legal choices in this position) when given and the game goes on, else from the
    engine's Attack validators.
    """
    if legal is not None and game.state.result is None:
        uids: set[int] = set()
        for kind, source, _ in legal:
            if kind is _ATTACK and source is not None:
                uids.add(source)
        return uids
    check = AttackerCheck(game)
    side = game.state.players[game.state.current]
    return {card.uid for card in (*side.hero_zone, *side.battlefield) if check(card)}


def attackers_next_turn(side: Player) -> set[int]:
    """Uids of the characters of ``side`` (not on turn) that will be able to attack on its next turn.

    That turn's start wakes them and resets their attacks (every character has at least one per turn), so what
    is left is a character's attack and a freeze, which lasts through that turn.
    """
    return {card.uid for card in (*side.hero_zone, *side.battlefield) if card.attack > 0 and not card.frozen_on_turn}
