"""Choices a player can make, and the generation of the legal ones from the validators and TargetSystem."""

from __future__ import annotations

import operator
from enum import Enum
from typing import TYPE_CHECKING, Final, NamedTuple, Optional, SupportsIndex, cast

from .actions import Attack, ChangeTurn, GameAction, Mulligan, MulliganMark, PlayCard, UseHeroPower
from .events import Phase
from .state import GamePhase
from .targeting import attack_targets, play_target_options, play_targets, target_options
from .vocabulary import HERO_ZONE

if TYPE_CHECKING:
    from .game import Game
    from .state import Card


class ChoiceKind(str, Enum):
    """The kinds of decision a player makes."""

    END_TURN = "end_turn"  # in the mulligan: done, keep the rest of the hand
    PLAY = "play"
    ATTACK = "attack"
    HERO_POWER = "hero_power"  # source: the hero power's uid; target: a character's uid or None
    MULLIGAN = "mulligan"  # in the mulligan: put back the opening-hand card ``source``
    PICK = "pick"  # in the draft: take the offered card at index ``source`` of the picking seat's offer


class Choice(NamedTuple):
    """A frozen value naming a decision by card uids: play ``source`` at ``target``, attack with it, use it
    (a hero power), or put it back in the mulligan; in the draft, ``source`` is the index of the offered card."""

    kind: ChoiceKind
    source: int | None = None
    target: int | None = None

    def __str__(self) -> str:
        if self.kind is ChoiceKind.END_TURN:
            return "end turn"
        if self.kind is ChoiceKind.MULLIGAN:
            return f"put back #{self.source}"
        if self.kind is ChoiceKind.PICK:
            return f"pick offered card {self.source}"
        verb = _VERBS[self.kind]
        at = f" -> #{self.target}" if self.target is not None else ""
        return f"{verb} #{self.source}{at}"


_VERBS: Final = {ChoiceKind.PLAY: "play", ChoiceKind.ATTACK: "attack with", ChoiceKind.HERO_POWER: "use hero power"}
END_TURN: Final = Choice(ChoiceKind.END_TURN)
_PLAY: Final = ChoiceKind.PLAY  # plain names: enum lookups are slow on Python 3.11
_ATTACK: Final = ChoiceKind.ATTACK
_HERO_POWER: Final = ChoiceKind.HERO_POWER
_MULLIGAN: Final = ChoiceKind.MULLIGAN
_PICK: Final = ChoiceKind.PICK
_IN_MULLIGAN: Final = GamePhase.MULLIGAN
_IN_DRAFT: Final = GamePhase.DRAFT
_BATTLE: Final = GamePhase.BATTLE
_VALIDATE: Final = Phase.VALIDATE
_tuple_new: Final = tuple.__new__  # builds a Choice without the NamedTuple constructor's extra Python frame


#: The cards a legal choice names, as :func:`legal_moves` resolved them: (source, target), None where absent.
Move = tuple["Card | None", "Card | None"]
_NO_CARDS: Final[Move] = (None, None)


def as_choice(value: object) -> Choice | str:
    """``value`` as a well-formed Choice, its uids plain ints (a NumPy integer is taken), or why it is not one.

    A NamedTuple does not check its fields, and compiled code reading a field typed ``int`` would raise a bare
    TypeError on anything else (even when only formatting an error message), so the fields are checked here.
    """
    if not isinstance(value, Choice):
        return f"expected a Choice, got {value!r}"
    items: tuple[object, ...] = value  # read as plain objects: compiled code would check them as typed
    kind, source, target = items
    if not isinstance(kind, ChoiceKind):
        return f"a Choice's kind must be a ChoiceKind, got {kind!r}"
    if (source is None or type(source) is int) and (target is None or type(target) is int):
        return value
    uids: list[int | None] = []
    for name, field in (("source", source), ("target", target)):
        if field is None or type(field) is int:
            uids.append(cast(Optional[int], field))
        elif isinstance(field, bool) or not hasattr(type(field), "__index__"):
            return f"a Choice's {name} must be a card uid (an integer) or None, got {field!r}"
        else:
            uids.append(operator.index(cast(SupportsIndex, field)))
    return Choice(kind, uids[0], uids[1])


def legal_moves(game: Game) -> tuple[list[Choice], dict[Choice, Move]]:
    """Every choice the current player may make, in a fixed order, and the cards each one names.

    Order: end turn, plays (hand order, then target order), attacks (hero then battlefield, then defender
    order), the hero power (target order); in the mulligan and the draft, their own choices. Both are empty once
    the game is over. A play, attack or hero power
    is listed when its source passes the source validators (run on a probe action) and its target is one of
    the TargetSystem's candidates, which is exactly what the target validators check when it is applied. The
    candidates are computed once per target mark (plays) and once for all attackers, which share their owner's
    point of view.
    """
    state = game.state
    if state.result is not None:
        return [], {}
    if state.phase is not _BATTLE:
        return mulligan_moves(game) if state.phase is _IN_MULLIGAN else draft_moves(game)
    me = state.current
    player = state.players[me]
    out = [END_TURN]
    moves: dict[Choice, Move] = {END_TURN: _NO_CARDS}
    validators = game.bus.phase_handlers(_VALIDATE)
    play_probe = game.actions.play_probe  # one probe per kind, re-pointed at each source: validators only read it
    play_probe.player = me
    play_validators = validators.get(PlayCard, ())
    mana = player.mana
    found_for_mark: dict[int, list[Card]] = {}
    for card in player.hand:
        if card.cost > mana:
            continue
        play_probe.card = card
        for validator in play_validators:
            if validator(game, play_probe) is not None:
                break
        else:
            spec = card.definition.target
            if spec is None:
                choice = _tuple_new(Choice, (_PLAY, card.uid, None))
                out.append(choice)
                moves[choice] = (card, None)
                continue
            found = found_for_mark.get(id(spec.allowed))
            if found is None:
                found = found_for_mark[id(spec.allowed)] = play_targets(state, card)
            for target in target_options(spec, found):
                choice = _tuple_new(Choice, (_PLAY, card.uid, None if target is None else target.uid))
                out.append(choice)
                moves[choice] = (card, target)
    attack_probe = game.actions.attack_probe
    attack_probe.player = me
    attack_validators = validators.get(Attack, ())
    defenders: list[Card] | None = None
    for attacker in (*player.hero_zone, *player.battlefield):
        if attacker.attack <= 0:
            continue
        attack_probe.attacker = attacker
        for validator in attack_validators:
            if validator(game, attack_probe) is not None:
                break
        else:
            if defenders is None:
                defenders = attack_targets(state, attacker)
            uid = attacker.uid
            for defender in defenders:
                choice = _tuple_new(Choice, (_ATTACK, uid, defender.uid))
                out.append(choice)
                moves[choice] = (attacker, defender)
    if player.hero_power:
        _hero_power_moves(game, player.hero_power[0], validators.get(UseHeroPower, ()), out, moves)
    return out, moves


def _hero_power_moves(game: Game, power: Card, validators: tuple, out: list[Choice],
                      moves: dict[Choice, Move]) -> None:
    """Add the uses of the hero power that pass its validators, one per legal declared target."""
    probe = game.actions.hero_power_probe
    probe.player, probe.card = game.state.current, power
    for validator in validators:
        if validator(game, probe) is not None:
            return
    for target in play_target_options(game.state, power):
        choice = _tuple_new(Choice, (_HERO_POWER, power.uid, None if target is None else target.uid))
        out.append(choice)
        moves[choice] = (power, target)


def hero_power_usable(game: Game) -> bool:
    """Whether the player on turn may use their hero power now (at some legal target), as legal_moves lists it."""
    state = game.state
    if state.result is not None:
        return False
    powers = state.players[state.current].hero_power
    if not powers:
        return False
    found: list[Choice] = []
    _hero_power_moves(game, powers[0], game.bus.phase_handlers(_VALIDATE).get(UseHeroPower, ()), found, {})
    return bool(found)
def mulligan_moves(game: Game) -> tuple[list[Choice], dict[Choice, Move]]:
    """The mulligan's choices: done (``END_TURN``, keep the rest), then put back each opening-hand card in hand
    order that the validators let the player mark."""
    state = game.state
    me = state.current
    out = [END_TURN]
    moves: dict[Choice, Move] = {END_TURN: _NO_CARDS}
    if game.actions.refusal(game, Mulligan(me)) is not None:
        return [], {}
    for card in state.players[me].hand:
        if game.actions.refusal(game, MulliganMark(me, card)) is None:
            choice = Choice(_MULLIGAN, card.uid, None)
            out.append(choice)
            moves[choice] = (card, None)
    return out, moves


def draft_moves(game: Game) -> tuple[list[Choice], dict[Choice, Move]]:
    """The draft's choices: pick each card offered to the seat picking, in offer order (they name no cards)."""
    draft = game.draft
    out = [] if draft is None else [_tuple_new(Choice, (_PICK, k, None)) for k in draft.legal_picks()]
    return out, dict.fromkeys(out, _NO_CARDS)


def _draft_refusal(game: Game, choice: Choice) -> str:
    """Why a choice is no legal pick in the draft, or why a pick is illegal outside it."""
    draft = game.draft
    if game.state.phase is not _IN_DRAFT or draft is None:
        return "there is no draft now: the decks are dealt"
    if choice.kind is not _PICK:
        return "the game is in its draft: pick one of the offered cards"
    offered = len(draft.legal_picks())
    return f"seat {draft.current} is offered {offered} cards (indices 0..{offered - 1})"


def _find(cards_by_zone: tuple[list[Card], ...], uid: int | None) -> Card | None:
    for cards in cards_by_zone:
        for card in cards:
            if card.uid == uid:
                return card
    return None


def to_action(game: Game, choice: Choice) -> GameAction | str:
    """Build the root action a choice stands for, or return why its cards cannot be found."""
    state = game.state
    if choice.kind is _PICK or state.phase is _IN_DRAFT:
        return _draft_refusal(game, choice)
    me = state.current
    player = state.players[me]
    if choice.kind is ChoiceKind.END_TURN:
        if choice.source is not None or choice.target is not None:
            return "end_turn takes no source or target"
        return Mulligan(me) if state.phase is _IN_MULLIGAN else ChangeTurn(me, 1 - me)
    if choice.kind is ChoiceKind.MULLIGAN:
        card = _find((player.hand,), choice.source)
        if card is None:
            return f"no card #{choice.source} in player {me}'s hand"
        if choice.target is not None:
            return "a mulligan choice takes no target"
        return MulliganMark(me, card)
    if state.phase is _IN_MULLIGAN:
        return "the game is in the mulligan: put back opening-hand cards, or end_turn to keep the rest"
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
    if choice.kind is ChoiceKind.HERO_POWER:
        power = _find((player.hero_power,), choice.source)
        if power is None:
            return f"player {me} has no hero power #{choice.source}"
        return UseHeroPower(me, power, target)
    attacker = _find((player.hero_zone, player.battlefield), choice.source)
    if attacker is None:
        return f"no character #{choice.source} of player {me} in play"
    if target is None:
        return "an attack needs a defender"
    return Attack(me, attacker, target)


def why_illegal(game: Game, choice: Choice) -> str:
    """Say why a choice that :func:`legal_moves` does not list is illegal (for the error message)."""
    action = to_action(game, choice)
    if isinstance(action, str):
        return action
    reason = game.actions.refusal(game, action)
    return reason if reason is not None else "it is not among the legal choices of this position"


def describe_choice(game: Game, choice: Choice) -> str:
    """A readable line for a choice, with card names."""
    draft = game.draft
    if choice.kind is _PICK and draft is not None and choice.source is not None:
        return f"Pick {draft.offer(draft.current)[choice.source].name}"
    if choice.kind is ChoiceKind.END_TURN:
        return "Keep the rest of the hand" if game.state.phase is _IN_MULLIGAN else "End turn"
    source = game.state.find(choice.source) if choice.source is not None else None
    target = game.state.find(choice.target) if choice.target is not None else None
    name = source.definition.name if source else f"#{choice.source}"
    if target is None:
        at = ""
    elif target.zone is HERO_ZONE:
        at = " -> your hero" if target.owner == game.state.current else " -> enemy hero"
    else:
        side = "your" if target.owner == game.state.current else "enemy"
        at = f" -> {side} {target.definition.name} ({target.attack}/{target.health})"
    if choice.kind is ChoiceKind.MULLIGAN:
        return f"Put back {name}"
    verb = {ChoiceKind.PLAY: "Play", ChoiceKind.ATTACK: "Attack with"}.get(choice.kind, "Use hero power")
    return f"{verb} {name}{at}"
