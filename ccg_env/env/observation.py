"""The observation: one flat float32 vector of named pieces encoding the zones from one player's point of view.

Build an :class:`ObservationEncoder` once per rules and card set; ``encode`` then writes a game's observation
into a preallocated array (``writer(out)`` checks a buffer once for many writes). ``encoder.pieces`` lists
the layout (name, start, stop, shape), ``encoder.columns`` names the features of each piece's last axis and
``encoder.view(vec)`` reshapes a vector (or a batch) per piece; ``encoder.spec`` is the layout as a plain record
(:class:`~ccg_env.env.observation_spec.ObservationSpec`) that model files keep.

Values are raw game numbers (health 30 is 30.0), clipped into ``[low, high]``; ``encoder.scale`` (``1 / high``)
maps them into ``[0, 1]`` for a network that wants it. "Can attack" asks the engine
(:mod:`ccg_env.engine.attacks`), never a copy of its rules. Hidden information never enters the vector: the
enemy hand is only a size, the enemy secrets only a count, the enemy's mulligan marks are not shown, and no deck
order is encoded. Then come both heroes' classes (one-hot over ``HERO_CLASSES``) and both hero powers
(``HERO_POWER_COLUMNS``: has one, its cost, used this turn, usable now; "usable now" is 0 for the side not on
turn), and last the mulligan (in the mulligan; the own marked hand slots). How the vector is
written fast is the business of :mod:`ccg_env.env.observation_writer`.

Two options change the layout (both off by default): ``card_features=True`` appends to every hand and minion row
the card's feature row (:mod:`ccg_env.env.card_features`: what the card does, compiled once per card set) and adds
the pieces of :data:`FEATURE_PIECES` before the mulligan pieces: both weapons' features, the own secrets' features
(one row per secret), per side the graveyard (count and summed features) and the own deck's remaining composition
(count, counts by cost and by type, summed features). ``card_ids=False`` (only with card features) drops the card
one-hot columns and the ``own_secrets`` piece, so that nothing in the vector depends on card ids.
"""

from __future__ import annotations

from typing import Any, Iterable, NamedTuple

import gymnasium
import numpy as np

from ..engine import CardDef, CardSet, Choice, Game, Rules
from .card_features import CardFeatures
from .observation_spec import ObservationSpec, spec_of
from .observation_writer import (CARD_TYPES, DECK_COST_TOP, FEATURE_PIECES, HAND_HEAD, HERO_CLASSES,
                                 HERO_POWER_COLUMNS, KEYWORDS, MINION_HEAD, ObservationWriter)

__all__ = ["CARD_TYPES", "COUNT_CAP", "DECK_COST_TOP", "DECK_HEAD", "FEATURE_PIECES", "HAND_HEAD", "HERO_CLASSES",
           "HERO_COLUMNS", "HERO_POWER_COLUMNS", "KEYWORDS", "MINION_HEAD", "STAT_CAP", "ZONE_COLUMNS",
           "ObservationEncoder", "ObservationWriter", "Piece", "PieceLayout", "card_order"]

#: Upper bound for stats that buffs can push beyond printed values (attack, health, armor...); values clip here.
STAT_CAP = 100
#: Upper bound for counters that only grow (fatigue, graveyard size).
COUNT_CAP = 100


#: The columns of the own deck's composition before its summed features: cards left, by cost, by type.
DECK_HEAD = ("cards", *(f"cost_{c}" for c in range(DECK_COST_TOP)), f"cost_{DECK_COST_TOP}+",
             *(f"type_{t.value}" for t in CARD_TYPES))
HERO_COLUMNS = ("health", "armor", "attack", "weapon_attack", "weapon_durability", "frozen", "can_attack")
ZONE_COLUMNS = ("deck", "hand", "graveyard", "battlefield", "secrets")
_KEYWORD_COLUMNS = tuple(f"keyword_{k.name.lower()}" for k in KEYWORDS)
_TYPE_COLUMNS = tuple(f"type_{t.value}" for t in CARD_TYPES)


class Piece(NamedTuple):
    """One named part of the observation vector: ``vec[start:stop].reshape(shape)``."""

    name: str
    start: int
    stop: int
    shape: tuple[int, ...]


def card_order(cards: CardSet) -> list[CardDef]:
    """Return the card definitions sorted by id: the order of every card one-hot in the observation."""
    return [cards[card_id] for card_id in sorted(cards)]


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


class PieceLayout:
    """A flat float32 vector made of named pieces: appending pieces, and viewing a vector piece by piece.

    Subclasses set ``pieces`` (a list of :class:`Piece`) and ``columns`` before adding, ``size`` after, and
    ``cards`` (the card definitions in one-hot order).
    """

    pieces: list[Piece]
    columns: dict[str, tuple[str, ...]]
    size: int
    cards: list[CardDef]
    _spec: ObservationSpec | None = None

    @property
    def spec(self) -> ObservationSpec:
        """The layout as a plain record: version, pieces, card ids, keywords, card types, hero classes."""
        if self._spec is None:
            self._spec = spec_of(self)
        return self._spec

    def _add(self, name: str, shape: tuple[int, ...], columns: tuple[str, ...]) -> None:
        start = self.pieces[-1].stop if self.pieces else 0
        self.pieces.append(Piece(name, start, start + int(np.prod(shape)), shape))
        self.columns[name] = columns

    def view(self, vec: np.ndarray) -> dict[str, np.ndarray]:
        """Return piece name -> view of ``vec`` (shape ``(..., size)``) reshaped to ``(..., *piece.shape)``."""
        if vec.shape[-1] != self.size:
            raise ValueError(f"expected a vector of length {self.size} on the last axis, got shape {vec.shape}")
        lead = vec.shape[:-1]
        return {p.name: vec[..., p.start:p.stop].reshape(*lead, *p.shape) for p in self.pieces}

    def new_buffer(self) -> np.ndarray:
        """Return a zeroed array of the observation's shape and dtype."""
        return np.zeros(self.size, dtype=np.float32)


class ObservationEncoder(PieceLayout):
    """Encodes a game from one player's point of view into a flat float32 vector of named pieces.

    Attributes:
        size: length of the vector.
        pieces: the layout, one :class:`Piece` per zone feature block, in vector order.
        columns: piece name -> names of the features along its last axis.
        low, high: float32 bounds of every entry (``space`` is the Box made of them, built once).
        scale: ``1 / high`` (0 where high is 0), to map an observation into ``[0, 1]``.
        cards: the card definitions in one-hot order (sorted by id).
        features: with ``card_features=True`` the card set's :class:`~ccg_env.env.card_features.CardFeatures`
            (its ``table`` row per card, in ``cards`` order), else None.
        card_ids: whether card slots carry the card one-hot (and the ``own_secrets`` piece is there).

    Raises:
        ValueError: ``card_ids=False`` without card features, or a card over the feature encoding's ability bound.
    """

    def __init__(self, rules: Rules, cards: CardSet, *, card_features: bool = False, card_ids: bool = True) -> None:
        if not card_ids and not card_features:
            raise ValueError("card_ids=False needs card_features=True: a card slot would not say which card it holds")
        self.rules = rules
        self.cards = card_order(cards)
        self.card_ids = card_ids
        self.features: CardFeatures | None = CardFeatures(self.cards, cards) if card_features else None
        n_ids = len(self.cards) if card_ids else 0
        n_features = self.features.width if self.features is not None else 0
        self._hand_width = len(HAND_HEAD) + len(KEYWORDS) + len(CARD_TYPES) + 2 + n_ids + n_features
        self._minion_width = len(MINION_HEAD) + len(KEYWORDS) + n_ids + n_features
        #: where the feature columns start in a hand row and in a minion row (the rows' widths without features)
        self.feature_starts = (self._hand_width - n_features, self._minion_width - n_features)
        self.columns: dict[str, tuple[str, ...]] = {}
        self.pieces: list[Piece] = []
        self._build_layout(rules, len(self.cards))
        self.size = self.pieces[-1].stop
        self.low = np.zeros(self.size, dtype=np.float32)
        self.high = self._build_high(rules)
        self.scale = np.divide(1.0, self.high, out=np.zeros_like(self.high), where=self.high > 0)
        self.space = gymnasium.spaces.Box(self.low, self.high, dtype=np.float32)
        #: card definition -> (one-hot index, its constant hand row, its constant minion row): present, type,
        #: target spec, card one-hot; zeros where the game values and keywords go
        self.card_rows = _CardRows(self._build_card_rows())
        #: keyword bitmask -> the row of keyword flags
        self.keyword_rows = self._build_keyword_rows()
        starts = {p.name: 4 * p.start for p in self.pieces}
        #: for the writers: byte offsets of the own hand, both battlefields, the own secrets (-1 when the piece
        #: is left out), the hero classes and the mulligan; bytes per hand and per minion row; a zero
        #: observation; row caches per normalization
        self.row_starts = tuple(starts.get(name, -1) for name in (
            "own_hand", "own_battlefield", "enemy_battlefield", "own_secrets", "own_hero_class", "in_mulligan"))
        self.row_widths = (4 * self._hand_width, 4 * self._minion_width)
        self.zeros = bytes(4 * self.size)
        self.row_caches: dict[Any, Any] = {}
        self._last_writer: ObservationWriter | None = None

    # --- layout ------------------------------------------------------------------------------

    def _build_layout(self, rules: Rules, n_cards: int) -> None:
        card_columns = tuple(f"card_{c.id}" for c in self.cards)
        id_columns = card_columns if self.card_ids else ()
        features = self.features.columns if self.features is not None else ()
        slot_features = tuple(f"feature_{c}" for c in features)
        hand_columns = (*HAND_HEAD, *_KEYWORD_COLUMNS, *_TYPE_COLUMNS, "has_target", "target_required",
                        *id_columns, *slot_features)
        minion_columns = (*MINION_HEAD, *_KEYWORD_COLUMNS, *id_columns, *slot_features)
        self._add("own_hero", (len(HERO_COLUMNS),), HERO_COLUMNS)
        self._add("enemy_hero", (len(HERO_COLUMNS),), HERO_COLUMNS)
        self._add("mana", (3,), ("mana", "max_mana", "enemy_max_mana"))
        self._add("zone_sizes", (2, len(ZONE_COLUMNS)), ZONE_COLUMNS)
        self._add("fatigue", (2,), ("own", "enemy"))
        self._add("turn", (2,), ("turn", "went_first"))
        self._add("own_hand", (rules.max_hand, self._hand_width), hand_columns)
        self._add("own_battlefield", (rules.max_battlefield, self._minion_width), minion_columns)
        self._add("enemy_battlefield", (rules.max_battlefield, self._minion_width), minion_columns)
        if self.card_ids:
            self._add("own_secrets", (n_cards,), card_columns)
        class_columns = tuple(f"class_{c.value}" for c in HERO_CLASSES)
        self._add("own_hero_class", (len(HERO_CLASSES),), class_columns)
        self._add("enemy_hero_class", (len(HERO_CLASSES),), class_columns)
        self._add("hero_powers", (2, len(HERO_POWER_COLUMNS)), HERO_POWER_COLUMNS)
        if features:
            width = len(features)
            self._add("weapon_cards", (2, width), features)
            self._add("own_secret_cards", (rules.max_secrets, width), features)
            self._add("graveyard_cards", (2, 1 + width), ("cards", *features))
            self._add("own_deck_cards", (len(DECK_HEAD) + width,), (*DECK_HEAD, *features))
        self._add("in_mulligan", (1,), ("in_mulligan",))
        self._add("mulligan_marked", (rules.max_hand,), tuple(f"hand_slot_{h}" for h in range(rules.max_hand)))

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
        if self.card_ids:
            views["own_secrets"][:] = rules.max_secrets
        views["hero_powers"][:, 1] = STAT_CAP
        if self.features is not None:
            self._build_feature_high(views, rules, self.features.high)
        return high

    def _build_feature_high(self, views: dict[str, np.ndarray], rules: Rules, feature: np.ndarray) -> None:
        """Feature columns: a card's bounds in every card row; sums over a zone bounded by COUNT_CAP cards."""
        hand, minion = self.feature_starts
        views["own_hand"][:, hand:] = feature
        views["own_battlefield"][:, minion:] = views["enemy_battlefield"][:, minion:] = feature
        views["weapon_cards"][:] = views["own_secret_cards"][:] = feature
        views["graveyard_cards"][:] = np.concatenate([[COUNT_CAP], feature * COUNT_CAP])
        views["own_deck_cards"][:] = np.concatenate([np.full(len(DECK_HEAD), COUNT_CAP), feature * COUNT_CAP])

    @staticmethod
    def _build_keyword_rows() -> np.ndarray:
        table = np.zeros((1 << len(KEYWORDS), len(KEYWORDS)), dtype=np.float32)
        for mask in range(len(table)):
            table[mask] = [1.0 if mask & int(k) else 0.0 for k in KEYWORDS]
        return table

    def _build_card_rows(self) -> dict[str, tuple[int, np.ndarray, np.ndarray]]:
        """Static feature rows per card: present, type one-hot, target spec, card one-hot and card features."""
        rows = {}
        head_hand, head_minion = len(HAND_HEAD) + len(KEYWORDS), len(MINION_HEAD) + len(KEYWORDS)
        for index, card in enumerate(self.cards):
            hand = np.zeros(self._hand_width, dtype=np.float32)
            hand[0] = 1.0
            if card.card_type in CARD_TYPES:
                hand[head_hand + CARD_TYPES.index(card.card_type)] = 1.0
            hand[head_hand + len(CARD_TYPES)] = card.target is not None
            hand[head_hand + len(CARD_TYPES) + 1] = card.target is not None and card.target.required
            minion = np.zeros(self._minion_width, dtype=np.float32)
            minion[0] = 1.0
            if self.card_ids:
                hand[head_hand + len(CARD_TYPES) + 2 + index] = 1.0
                minion[head_minion + index] = 1.0
            if self.features is not None:
                hand[self.feature_starts[0]:] = minion[self.feature_starts[1]:] = self.features.table[index]
            rows[card.id] = (index, hand, minion)
        return rows

    # --- encoding ----------------------------------------------------------------------------

    @property
    def observation_shape(self) -> tuple[int]:
        return (self.size,)


    def encode(self, game: Game, player: int, out: np.ndarray, legal: Iterable[Choice] | None = None) -> None:
        """Write ``player``'s observation of ``game`` into ``out`` (float32, shape ``(size,)``, contiguous).

        ``legal``: the legal choices of the player on turn (``game.legal_actions()``) if the caller has them;
        "can attack" of the side on turn is then read from them rather than asked of the engine again.
        """
        writer = self._last_writer
        if writer is None or writer.out is not out:
            writer = self._last_writer = ObservationWriter(self, out)
        writer(game, player, legal)

    @property
    def options(self) -> dict[str, bool]:
        """The layout options this encoder was built with: ``card_features`` and ``card_ids``."""
        return {"card_features": self.features is not None, "card_ids": self.card_ids}

    def writer(self, out: np.ndarray, *, normalize: bool = False, exclusive: bool = False) -> ObservationWriter:
        """Check ``out`` once and return ``write(game, player, legal=None)``: :meth:`encode` into ``out``.

        ``normalize`` also multiplies by :attr:`scale`. ``exclusive=True`` promises that nothing else writes
        into ``out`` (reading and copying are fine), so each write touches only the rows that changed.
        """
        return ObservationWriter(self, out, normalize=normalize, exclusive=exclusive)
