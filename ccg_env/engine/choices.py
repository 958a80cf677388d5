"""Choices a player can make, and the generation of the legal ones from the validators and TargetSystem."""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING, NamedTuple

from .actions import Attack, ChangeTurn, GameAction, PlayCard
from .events import Phase
from .targeting import attack_targets, play_target_options
from .vocabulary import Zones

if TYPE_CHECKING:
    from .game import Game
    from .state import Card


class ChoiceKind(str, Enum):
    """The kinds of decision a player makes."""

    END_TURN = "end_turn"
    PLAY = "play"
    ATTACK = "attack"


class Choice(NamedTuple):
    """A frozen value naming a decision by card uids: play ``source`` at ``target``, or attack with it."""

    kind: ChoiceKind
    source: int | None = None
    target: int | None = None

    def __str__(self) -> str:
        if self.kind is ChoiceKind.END_TURN:
            return "end turn"
        verb = "play" if self.kind is ChoiceKind.PLAY else "attack with"
        at = f" -> #{self.target}" if self.target is not None else ""
        return f"{verb} #{self.source}{at}"


END_TURN = Choice(ChoiceKind.END_TURN)
_PLAY, _ATTACK = ChoiceKind.PLAY, ChoiceKind.ATTACK
_tuple_new = tuple.__new__  # builds a Choice without the NamedTuple constructor's extra Python frame


def _passes(game: Game, validators: tuple, probe: GameAction) -> bool:
    """Run the validators that do not look at the declared target on a probe action."""
    for validator in validators:
        if validator(game, probe) is not None:
            return False
    return True


def legal_choices(game: Game) -> list[Choice]:
    """Every choice the current player may make, in a fixed order: end turn, plays (hand order, then target
    order), attacks (hero then battlefield, then defender order). Empty once the game is over.

    Each play or attack is listed when its source passes the source validators and its target is one of
    the TargetSystem's candidates, which is exactly what the target validators check when it is applied.
    """
    state = game.state
    if state.result is not None:
        return []
    me = state.current
    player = state.players[me]
    out = [END_TURN]
    validators = game.bus.tables[Phase.VALIDATE]
    play_probe = PlayCard(me)  # one probe per kind, re-pointed at each source: validators only read it
    play_validators = validators.get(PlayCard, ())
    for card in player.hand:
        play_probe.card = card
        if card.cost > player.mana or not _passes(game, play_validators, play_probe):
            continue
        for target in play_target_options(state, card):
            out.append(_tuple_new(Choice, (_PLAY, card.uid, None if target is None else target.uid)))
    attack_probe = Attack(me)
    attack_validators = validators.get(Attack, ())
    for attacker in (*player.hero_zone, *player.battlefield):
        attack_probe.attacker = attacker
        if attacker.attack <= 0 or not _passes(game, attack_validators, attack_probe):
            continue
        for defender in attack_targets(state, attacker):
            out.append(_tuple_new(Choice, (_ATTACK, attacker.uid, defender.uid)))
    return out


def _find(cards_by_zone: tuple[list[Card], ...], uid: int | None) -> Card | None:
    for cards in cards_by_zone:
        for card in cards:
            if card.uid == uid:
                return card
    return None


def to_action(game: Game, choice: Choice) -> GameAction | str:
    """Build the root action a choice stands for, or return why its cards cannot be found."""
    state = game.state
    me = state.current
    player = state.players[me]
    if choice.kind is ChoiceKind.END_TURN:
        if choice.source is not None or choice.target is not None:
            return "end_turn takes no source or target"
        return ChangeTurn(me, 1 - me)
    target = None
    if choice.target is not None:
        target = state.find(choice.target)
        if target is None:
            return f"no card #{choice.target} in the game"
    if choice.kind is ChoiceKind.PLAY:
        card = _find((player.hand,), choice.source)
        if card is None:
            return f"no card #{choice.source} in player {me}'s hand"
        return PlayCard(me, card, target)
    attacker = _find((player.hero_zone, player.battlefield), choice.source)
    if attacker is None:
        return f"no character #{choice.source} of player {me} in play"
    if target is None:
        return "an attack needs a defender"
    return Attack(me, attacker, target)


def describe_choice(game: Game, choice: Choice) -> str:
    """A readable line for a choice, with card names."""
    if choice.kind is ChoiceKind.END_TURN:
        return "End turn"
    source = game.state.find(choice.source) if choice.source is not None else None
    target = game.state.find(choice.target) if choice.target is not None else None
    name = source.definition.name if source else f"#{choice.source}"
    if target is None:
        at = ""
    elif target.zone is Zones.HERO:
        at = " -> your hero" if target.owner == game.state.current else " -> enemy hero"
    else:
        side = "your" if target.owner == game.state.current else "enemy"
        at = f" -> {side} {target.definition.name} ({target.attack}/{target.health})"
    verb = "Play" if choice.kind is ChoiceKind.PLAY else "Attack with"
    return f"{verb} {name}{at}"
