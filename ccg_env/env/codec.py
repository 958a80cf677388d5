"""The fixed action layout: maps ``Discrete(N)`` action ids to engine ``Choice`` values and back.

Layout, from the acting player's point of view (``H`` = max hand, ``B`` = max battlefield, default 10 and 7):

=====================  ===========================================  =================================
ids                    meaning                                      decoding
=====================  ===========================================  =================================
``0``                  end turn (in the mulligan: done, keep the
                       rest of the hand)
``1 .. H*T``           play hand slot ``h`` at target slot ``t``    ``h, t = divmod(id - 1, T)``
``1+H*T .. +A*D-1``    attack with attacker ``a`` at defender ``d``  ``a, d = divmod(id - 1 - H*T, D)``
``P .. P+T-1``         use the hero power at target slot ``t``      ``t = id - P``
``M .. M+H-1``         mulligan: put back hand slot ``h``           ``h = id - M``
``draft_offset + k``   draft mode only: pick offered card ``k``     ``k = id - draft_offset``, 0..2
=====================  ===========================================  =================================

Target slots (``T = 3 + 2*B``): ``0`` no target, ``1`` own hero, ``2..B+1`` own minions left to right,
``B+2`` enemy hero, ``B+3..2B+2`` enemy minions. Attackers (``A = 1 + B``): ``0`` own hero, ``1..B`` own
minions. Defenders (``D = 1 + B``): ``0`` enemy hero, ``1..B`` enemy minions. The hero power range starts at
``P = 1 + H*T + A*D`` (``ActionLayout.hero_power_offset``); a power without a target spec uses slot ``0``.
Mulligan ids start at ``M = P + T`` (``ActionLayout.mulligan_offset``) and are legal only in the mulligan, where
only they and ``0`` are. Default ``N = 1 + 170 + 64 + 17 + 10 = 262``.

The draft-pick range is the last range of the layout (after every battle range) and exists only in draft mode
(``ActionLayout.for_rules(rules, draft=True)``: ``N = 262 + 3 = 265`` by default): in a game's draft
(``Game.new_draft``) the engine's pick choices are its ids and no other id decodes, so one ``Discrete(N)`` serves the
draft and the battle.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass
from typing import Final, SupportsIndex

from ..engine import Choice, ChoiceKind, Game, Rules
from ..engine.choices import END_TURN
from ..engine.draft import OFFER_SIZE
from ..engine.state import GamePhase

_PLAY: Final = ChoiceKind.PLAY
_ATTACK: Final = ChoiceKind.ATTACK
_HERO_POWER: Final = ChoiceKind.HERO_POWER
_MULLIGAN: Final = ChoiceKind.MULLIGAN
_PICK: Final = ChoiceKind.PICK
_DRAFT: Final = GamePhase.DRAFT


@dataclass(frozen=True)
class ActionLayout:
    """Sizes and offsets of the action id ranges for given rules."""

    max_hand: int
    max_battlefield: int
    draft_picks: int = 0  # OFFER_SIZE in draft mode, else 0 (no draft range)

    @classmethod
    def for_rules(cls, rules: Rules, draft: bool = False) -> ActionLayout:
        return cls(rules.max_hand, rules.max_battlefield, OFFER_SIZE if draft else 0)

    @property
    def target_slots(self) -> int:
        return 3 + 2 * self.max_battlefield

    @property
    def attack_slots(self) -> int:
        return 1 + self.max_battlefield

    @property
    def play_offset(self) -> int:
        return 1

    @property
    def attack_offset(self) -> int:
        return 1 + self.max_hand * self.target_slots

    @property
    def hero_power_offset(self) -> int:
        """First id of the hero power range: ``hero_power_offset + t`` uses the power at target slot ``t``."""
        return self.attack_offset + self.attack_slots * self.attack_slots

    @property
    def mulligan_offset(self) -> int:
        """The id of "put back hand slot 0" in the mulligan; hand slot ``h`` is ``mulligan_offset + h``."""
        return self.hero_power_offset + self.target_slots

    @property
    def draft_offset(self) -> int:
        """The id of draft pick 0: the first id after every battle range (the last range of the layout)."""
        return self.mulligan_offset + self.max_hand

    @property
    def size(self) -> int:
        return self.draft_offset + self.draft_picks

    def describe(self, action_id: int) -> str:
        """Say what an id means in slot terms (no game needed)."""
        if not 0 <= action_id < self.size:
            return f"out of range (0..{self.size - 1})"
        if action_id == 0:
            return "end turn"
        if action_id >= self.draft_offset:
            return f"draft: pick offered card {action_id - self.draft_offset}"
        if action_id < self.attack_offset:
            hand, target = divmod(action_id - 1, self.target_slots)
            return f"play hand slot {hand} at {self._target_name(target)}"
        if action_id >= self.mulligan_offset:
            return f"mulligan: put back hand slot {action_id - self.mulligan_offset}"
        if action_id >= self.hero_power_offset:
            return f"use the hero power at {self._target_name(action_id - self.hero_power_offset)}"
        attacker, defender = divmod(action_id - self.attack_offset, self.attack_slots)
        who = "own hero" if attacker == 0 else f"own minion {attacker - 1}"
        at = "enemy hero" if defender == 0 else f"enemy minion {defender - 1}"
        return f"attack with {who} at {at}"

    def _target_name(self, slot: int) -> str:
        b = self.max_battlefield
        if slot == 0:
            return "no target"
        if slot == 1:
            return "own hero"
        if slot <= b + 1:
            return f"own minion {slot - 2}"
        if slot == b + 2:
            return "enemy hero"
        return f"enemy minion {slot - b - 3}"


class ActionCodec:
    """Translates between action ids and engine choices for one game's current position."""

    def __init__(self, layout: ActionLayout) -> None:
        self.layout = layout
        b = layout.max_battlefield
        #: the layout's numbers as plain attributes for encode_all (its properties are function calls):
        #: ids per hand slot, defenders per attacker, the enemy hero's and first enemy minion's target slots,
        #: and the id of attacker slot s at defender slot d minus s * attack width + target slot of d
        self._play_width, self._attack_width = layout.target_slots, layout.attack_slots
        self._enemy_hero_slot, self._enemy_minions_from = b + 2, b + 3
        self._attack_base = layout.attack_offset - layout.attack_slots - (b + 2)
        self._hero_power_offset = layout.hero_power_offset
        self._mulligan_offset = layout.mulligan_offset
        self._draft_offset = layout.draft_offset

    def _slots(self, game: Game) -> tuple[dict[int | None, int], dict[int | None, int]]:
        """The current position's id bases: hand card uid -> first id of its hand slot's play range, and
        character uid -> target slot (None -> 0, no target; own hero 1, own minions 2.., enemy hero b + 2, enemy
        minions b + 3..)."""
        state = game.state
        me, enemy = state.players[state.current], state.players[1 - state.current]
        width = self._play_width
        play: dict[int | None, int] = {}
        first = 1
        for card in me.hand:
            play[card.uid] = first
            first += width
        slots: dict[int | None, int] = {None: 0, me.hero_zone[0].uid: 1, enemy.hero_zone[0].uid: self._enemy_hero_slot}
        slot = 2
        for card in me.battlefield:
            slots[card.uid] = slot
            slot += 1
        slot = self._enemy_minions_from
        for card in enemy.battlefield:
            slots[card.uid] = slot
            slot += 1
        return play, slots

    def _id(self, choice: Choice, play: dict[int | None, int], slot: dict[int | None, int]) -> int:
        """The id of a battle choice, given :meth:`_slots` of its position."""
        kind, source, target = choice
        if kind is _ATTACK:  # attacker slot s at defender slot d: attack_base + s * width + d (target slots)
            return self._attack_base + slot[source] * self._attack_width + slot[target]
        if kind is _PLAY:
            return play[source] + slot[target]
        if kind is _HERO_POWER:
            return self._hero_power_offset + slot[target]
        if kind is _MULLIGAN:  # the hand slot
            return self._mulligan_offset + (play[source] - 1) // self._play_width
        return 0

    def encode_all(self, game: Game, choices: list[Choice]) -> list[int]:
        """Encode many choices of the current position at once."""
        if game.state.phase is _DRAFT:  # picks, by offer index
            return [self._draft_offset + (source or 0) for _, source, _ in choices]
        play, slot = self._slots(game)
        return [self._id(choice, play, slot) for choice in choices]

    def legal_map(self, game: Game, choices: list[Choice]) -> dict[int, Choice]:
        """Action id -> choice for many choices of the current position, in their order (:meth:`encode_all` as
        one dict, built in one pass)."""
        if game.state.phase is _DRAFT:
            return {self._draft_offset + (choice[1] or 0): choice for choice in choices}
        play, slot = self._slots(game)
        return {self._id(choice, play, slot): choice for choice in choices}

    def encode(self, game: Game, choice: Choice) -> int:
        """Return the action id of one choice in the current position."""
        return self.encode_all(game, [choice])[0]

    def decode(self, game: Game, action_id: SupportsIndex) -> Choice | None:
        """Return the choice an id (any integer, numpy's included) stands for now, or None when its slots are
        empty or out of range.

        A decoded choice may still be illegal (not enough mana, a taunt in the way): ``Game.apply`` decides.
        """
        return self._decode(game, operator.index(action_id))

    def _decode(self, game: Game, action_id: int) -> Choice | None:
        layout = self.layout
        if game.state.phase is _DRAFT:
            index = action_id - layout.draft_offset
            return Choice(_PICK, index, None) if 0 <= index < layout.draft_picks else None
        if not 0 <= action_id < layout.draft_offset:  # a draft pick is no battle choice
            return None
        if action_id == 0:
            return END_TURN
        state = game.state
        me, enemy = state.players[state.current], state.players[1 - state.current]
        if action_id < layout.attack_offset:
            hand, slot = divmod(action_id - 1, layout.target_slots)
            if hand >= len(me.hand):
                return None
            if slot == 0:
                return Choice(ChoiceKind.PLAY, me.hand[hand].uid, None)
            target = self._character_at(me, enemy, slot)
            return None if target is None else Choice(ChoiceKind.PLAY, me.hand[hand].uid, target)
        if action_id >= layout.mulligan_offset:
            hand = action_id - layout.mulligan_offset
            return Choice(_MULLIGAN, me.hand[hand].uid, None) if hand < len(me.hand) else None
        if action_id >= layout.hero_power_offset:
            if not me.hero_power:
                return None
            slot = action_id - layout.hero_power_offset
            power = me.hero_power[0].uid
            if slot == 0:
                return Choice(ChoiceKind.HERO_POWER, power, None)
            target = self._character_at(me, enemy, slot)
            return None if target is None else Choice(ChoiceKind.HERO_POWER, power, target)
        attacker, defender = divmod(action_id - layout.attack_offset, layout.attack_slots)
        a = self._character_at(me, enemy, 1 + attacker)
        d = self._character_at(me, enemy, layout.max_battlefield + 2 + defender)
        if a is None or d is None:
            return None
        return Choice(ChoiceKind.ATTACK, a, d)

    def _character_at(self, me, enemy, slot: int) -> int | None:
        b = self.layout.max_battlefield
        if slot == 1:
            return me.hero.uid
        if 2 <= slot <= b + 1:
            i = slot - 2
            return me.battlefield[i].uid if i < len(me.battlefield) else None
        if slot == b + 2:
            return enemy.hero.uid
        i = slot - b - 3
        return enemy.battlefield[i].uid if 0 <= i < len(enemy.battlefield) else None
