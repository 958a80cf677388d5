"""The observation: one flat float32 vector of named pieces encoding the zones from one player's point of view.

Build an :class:`ObservationEncoder` once per rules and card set; ``encode`` then writes a game's observation
into a preallocated array. ``encoder.pieces`` lists the layout (name, start, stop, shape), ``encoder.columns``
names the features of each piece's last axis and ``encoder.view(vec)`` reshapes a vector (or a batch) per piece.

Values are raw game numbers (health 30 is 30.0), clipped into ``[low, high]``; ``encoder.scale`` (``1 / high``)
maps them into ``[0, 1]`` for a network that wants it. Hidden information never enters the vector: the enemy
hand is only a size, the enemy secrets only a count, and no deck order is encoded.
"""

from __future__ import annotations

from typing import NamedTuple

import gymnasium
import numpy as np

from ..engine import Card, CardDef, CardSet, CardType, Game, Keyword, Player, Rules

#: Upper bound for stats that buffs can push beyond printed values (attack, health, armor...); values clip here.
STAT_CAP = 100
#: Upper bound for counters that only grow (fatigue, graveyard size).
COUNT_CAP = 100

KEYWORDS: tuple[Keyword, ...] = tuple(k for k in Keyword if k is not Keyword.NONE)
CARD_TYPES: tuple[CardType, ...] = (CardType.MINION, CardType.SPELL, CardType.WEAPON, CardType.SECRET)

HERO_COLUMNS = ("health", "armor", "attack", "weapon_attack", "weapon_durability", "frozen", "can_attack")
ZONE_COLUMNS = ("deck", "hand", "graveyard", "battlefield", "secrets")
_HAND_HEAD = ("present", "cost", "attack", "health", "affordable")
_MINION_HEAD = ("present", "attack", "health", "max_health", "can_attack", "sleeping", "frozen")
_KEYWORD_COLUMNS = tuple(f"keyword_{k.name.lower()}" for k in KEYWORDS)
_TYPE_COLUMNS = tuple(f"type_{t.value}" for t in CARD_TYPES)

_CHARGE, _WINDFURY = int(Keyword.CHARGE), int(Keyword.WINDFURY)


class Piece(NamedTuple):
    """One named part of the observation vector: ``vec[start:stop].reshape(shape)``."""

    name: str
    start: int
    stop: int
    shape: tuple[int, ...]


def card_order(cards: CardSet) -> list[CardDef]:
    """Return the card definitions sorted by id: the order of every card one-hot in the observation."""
    return [cards[card_id] for card_id in sorted(cards)]


def _can_attack(card: Card, on_turn: bool) -> bool:
    """Whether a character can attack now (its side on turn) or on its side's next turn (side not on turn)."""
    if card.attack <= 0 or card.frozen_on_turn:
        return False
    if not on_turn:
        return True
    if card.sleeping and not card.keywords & _CHARGE:
        return False
    return card.attacks_made < (2 if card.keywords & _WINDFURY else 1)


class _CardRows(dict):
    """CardDef -> (card index, hand row, minion row); definitions from another load of the set match by id."""

    def __init__(self, by_id: dict[str, tuple]) -> None:
        super().__init__()
        self.by_id = by_id

    def __missing__(self, definition: CardDef) -> tuple:
        try:
            rows = self.by_id[definition.id]
        except KeyError:
            raise KeyError(f"card {definition.id!r} is not in the observation encoder's card set "
                           f"({len(self.by_id)} cards); build the encoder with the game's card set") from None
        self[definition] = rows
        return rows


class ObservationEncoder:
    """Encodes a game from one player's point of view into a flat float32 vector of named pieces.

    Attributes:
        size: length of the vector.
        pieces: the layout, one :class:`Piece` per zone feature block, in vector order.
        columns: piece name -> names of the features along its last axis.
        low, high: float32 bounds of every entry (``space`` is the Box made of them, built once).
        scale: ``1 / high`` (0 where high is 0), to map an observation into ``[0, 1]``.
        cards: the card definitions in one-hot order (sorted by id).
    """

    def __init__(self, rules: Rules, cards: CardSet) -> None:
        self.rules = rules
        self.cards = card_order(cards)
        n_cards = len(self.cards)
        self._hand_width = len(_HAND_HEAD) + len(KEYWORDS) + len(CARD_TYPES) + 2 + n_cards
        self._minion_width = len(_MINION_HEAD) + len(KEYWORDS) + n_cards
        self.columns: dict[str, tuple[str, ...]] = {}
        self.pieces: list[Piece] = []
        self._build_layout(rules, n_cards)
        self.size = self.pieces[-1].stop
        self.low = np.zeros(self.size, dtype=np.float32)
        self.high = self._build_high(rules)
        self.scale = np.divide(1.0, self.high, out=np.zeros_like(self.high), where=self.high > 0)
        self.space = gymnasium.spaces.Box(self.low, self.high, dtype=np.float32)
        self._starts = tuple(p.start for p in self.pieces)  # unpacked in encode(), in piece order
        self._keyword_rows = self._build_keyword_rows()
        self._rows = _CardRows(self._build_card_rows())
        self._zeros = bytes(4 * self.size)

    # --- layout ------------------------------------------------------------------------------

    def _add(self, name: str, shape: tuple[int, ...], columns: tuple[str, ...]) -> None:
        start = self.pieces[-1].stop if self.pieces else 0
        self.pieces.append(Piece(name, start, start + int(np.prod(shape)), shape))
        self.columns[name] = columns

    def _build_layout(self, rules: Rules, n_cards: int) -> None:
        card_columns = tuple(f"card_{c.id}" for c in self.cards)
        hand_columns = (*_HAND_HEAD, *_KEYWORD_COLUMNS, *_TYPE_COLUMNS, "has_target", "target_required",
                        *card_columns)
        minion_columns = (*_MINION_HEAD, *_KEYWORD_COLUMNS, *card_columns)
        self._add("own_hero", (len(HERO_COLUMNS),), HERO_COLUMNS)
        self._add("enemy_hero", (len(HERO_COLUMNS),), HERO_COLUMNS)
        self._add("mana", (3,), ("mana", "max_mana", "enemy_max_mana"))
        self._add("zone_sizes", (2, len(ZONE_COLUMNS)), ZONE_COLUMNS)
        self._add("fatigue", (2,), ("own", "enemy"))
        self._add("turn", (2,), ("turn", "went_first"))
        self._add("own_hand", (rules.max_hand, self._hand_width), hand_columns)
        self._add("own_battlefield", (rules.max_battlefield, self._minion_width), minion_columns)
        self._add("enemy_battlefield", (rules.max_battlefield, self._minion_width), minion_columns)
        self._add("own_secrets", (n_cards,), card_columns)

    def _build_high(self, rules: Rules) -> np.ndarray:
        high = np.ones(self.size, dtype=np.float32)
        views = self.view(high)
        views["own_hero"][:5] = views["enemy_hero"][:5] = max(STAT_CAP, rules.hero_health)
        views["mana"][:] = rules.max_mana
        views["zone_sizes"][:] = (COUNT_CAP, rules.max_hand, COUNT_CAP, rules.max_battlefield, rules.max_secrets)
        views["fatigue"][:] = COUNT_CAP
        views["turn"][0] = rules.turn_limit + 1  # the final observation of a truncated game
        views["own_hand"][:, 1:4] = STAT_CAP
        views["own_battlefield"][:, 1:4] = views["enemy_battlefield"][:, 1:4] = STAT_CAP
        views["own_secrets"][:] = rules.max_secrets
        return high

    def _build_keyword_rows(self) -> list[memoryview]:
        table = np.zeros((1 << len(KEYWORDS), len(KEYWORDS)), dtype=np.float32)
        for mask in range(len(table)):
            table[mask] = [1.0 if mask & int(k) else 0.0 for k in KEYWORDS]
        return [memoryview(row) for row in table]

    def _build_card_rows(self) -> dict[str, tuple[int, memoryview, memoryview]]:
        """Static feature rows per card: present, type one-hot, target spec and card one-hot."""
        rows = {}
        head_hand, head_minion = len(_HAND_HEAD) + len(KEYWORDS), len(_MINION_HEAD) + len(KEYWORDS)
        for index, card in enumerate(self.cards):
            hand = np.zeros(self._hand_width, dtype=np.float32)
            hand[0] = 1.0
            if card.card_type in CARD_TYPES:
                hand[head_hand + CARD_TYPES.index(card.card_type)] = 1.0
            hand[head_hand + len(CARD_TYPES)] = card.target is not None
            hand[head_hand + len(CARD_TYPES) + 1] = card.target is not None and card.target.required
            hand[head_hand + len(CARD_TYPES) + 2 + index] = 1.0
            minion = np.zeros(self._minion_width, dtype=np.float32)
            minion[0] = 1.0
            minion[head_minion + index] = 1.0
            rows[card.id] = (index, memoryview(hand), memoryview(minion))
        return rows

    # --- encoding ----------------------------------------------------------------------------

    @property
    def observation_shape(self) -> tuple[int]:
        return (self.size,)

    def view(self, vec: np.ndarray) -> dict[str, np.ndarray]:
        """Return piece name -> view of ``vec`` (shape ``(..., size)``) reshaped to ``(..., *piece.shape)``."""
        if vec.shape[-1] != self.size:
            raise ValueError(f"expected a vector of length {self.size} on the last axis, got shape {vec.shape}")
        lead = vec.shape[:-1]
        return {p.name: vec[..., p.start:p.stop].reshape(*lead, *p.shape) for p in self.pieces}

    def new_buffer(self) -> np.ndarray:
        """Return a zeroed array of the observation's shape and dtype."""
        return np.zeros(self.size, dtype=np.float32)

    def encode(self, game: Game, player: int, out: np.ndarray) -> None:
        """Write ``player``'s observation of ``game`` into ``out`` (float32, shape ``(size,)``, contiguous)."""
        mv = memoryview(out)
        if mv.format != "f" or mv.shape != (self.size,) or not mv.c_contiguous:
            raise ValueError(f"out must be a contiguous float32 array of shape ({self.size},), got "
                             f"{getattr(out, 'dtype', type(out))} {getattr(out, 'shape', '')}")
        mv.cast("B")[:] = self._zeros
        state = game.state
        me, enemy = state.players[player], state.players[1 - player]
        on_turn = state.current == player
        own_hero, enemy_hero, mana, sizes, fatigue, turn, hand, own_field, enemy_field, secrets = self._starts
        self._write_hero(mv, own_hero, me, on_turn)
        self._write_hero(mv, enemy_hero, enemy, not on_turn)
        mv[mana], mv[mana + 1], mv[mana + 2] = me.mana, me.max_mana, enemy.max_mana
        self._write_sizes(mv, sizes, me)
        self._write_sizes(mv, sizes + len(ZONE_COLUMNS), enemy)
        mv[fatigue], mv[fatigue + 1] = me.fatigue, enemy.fatigue
        mv[turn], mv[turn + 1] = state.turn, player == 0
        self._write_hand(mv, hand, me)
        self._write_minions(mv, own_field, me.battlefield, on_turn)
        self._write_minions(mv, enemy_field, enemy.battlefield, not on_turn)
        if me.secrets:
            self._write_secrets(mv, secrets, me)
        np.minimum(out, self.high, out=out)
        np.maximum(out, self.low, out=out)

    def _write_hero(self, mv: memoryview, base: int, player: Player, on_turn: bool) -> None:
        hero = player.hero
        mv[base], mv[base + 1], mv[base + 2] = hero.health, hero.armor, hero.attack
        if player.weapon:
            weapon = player.weapon[0]
            mv[base + 3], mv[base + 4] = weapon.attack, weapon.durability
        mv[base + 5], mv[base + 6] = hero.frozen_on_turn > 0, _can_attack(hero, on_turn)

    @staticmethod
    def _write_sizes(mv: memoryview, base: int, player: Player) -> None:
        mv[base], mv[base + 1], mv[base + 2] = len(player.deck), len(player.hand), len(player.graveyard)
        mv[base + 3], mv[base + 4] = len(player.battlefield), len(player.secrets)

    def _write_hand(self, mv: memoryview, base: int, player: Player) -> None:
        width, rows, keyword_rows, mana = self._hand_width, self._rows, self._keyword_rows, player.mana
        kw = len(_HAND_HEAD)
        for card in player.hand:
            mv[base:base + width] = rows[card.definition][1]
            mv[base + 1], mv[base + 2], mv[base + 3] = card.cost, card.attack, card.health or card.durability
            mv[base + 4] = card.cost <= mana
            if card.keywords:
                mv[base + kw:base + kw + len(KEYWORDS)] = keyword_rows[card.keywords]
            base += width

    def _write_minions(self, mv: memoryview, base: int, minions: list[Card], on_turn: bool) -> None:
        width, rows, keyword_rows = self._minion_width, self._rows, self._keyword_rows
        kw = len(_MINION_HEAD)
        for card in minions:
            mv[base:base + width] = rows[card.definition][2]
            mv[base + 1], mv[base + 2], mv[base + 3] = card.attack, card.health, card.max_health
            mv[base + 4], mv[base + 5] = _can_attack(card, on_turn), card.sleeping
            mv[base + 6] = card.frozen_on_turn > 0
            if card.keywords:
                mv[base + kw:base + kw + len(KEYWORDS)] = keyword_rows[card.keywords]
            base += width

    def _write_secrets(self, mv: memoryview, base: int, player: Player) -> None:
        rows = self._rows
        for card in player.secrets:
            mv[base + rows[card.definition][0]] += 1.0
