"""The fast path of the observation encoder: writing observations into a buffer checked once.

An :class:`ObservationWriter` (``ObservationEncoder.writer(out)``) writes the head pieces (heroes, mana, zone
sizes, fatigue, turn) with one ``struct`` call, and each hand card and minion as one whole row copied from a
cache keyed by everything the row shows (card, stats, flags, keywords): a card whose row was seen before costs
a dictionary lookup and a copy. Every game value is checked against its bounds in Python as it is written
(clipped in the rare case it is out) and scaled there when normalizing; entries that are not game values are
0/1 flags inside their bounds. No numpy call runs per write: from cold code between engine steps a numpy call
costs microseconds. An *exclusive* writer (nothing else writes into its buffer) also skips rows that show the
same thing as at its previous write and zeroes only rows that emptied, instead of zeroing the whole buffer.
With card features, a card's feature row is part of its constant row, and the feature pieces (weapons, own
secrets, graveyards, own deck) are each one block of bytes cached by the card definitions it shows
(:class:`FeatureCache`).
"""

from __future__ import annotations

import math
import operator
import struct
from typing import TYPE_CHECKING, Any, Final, Iterable, NamedTuple, Sequence

import numpy as np

from ..engine import Card, CardClass, CardType, Choice, ChoiceKind, Game, GameState, Keyword, Player
from ..engine.state import GamePhase
from ..engine.attacks import attackers_next_turn, attackers_now
from ..engine.choices import hero_power_usable

if TYPE_CHECKING:
    from .observation import ObservationEncoder

KEYWORDS: Final[tuple[Keyword, ...]] = tuple(k for k in Keyword if k is not Keyword.NONE)
CARD_TYPES: Final[tuple[CardType, ...]] = (CardType.MINION, CardType.SPELL, CardType.WEAPON, CardType.SECRET)
#: The columns of a hand row and of a minion row before their keywords: "present", three stats (bounded and
#: scaled), then 0/1 flags.
HAND_HEAD: Final = ("present", "cost", "attack", "health", "affordable")
MINION_HEAD: Final = ("present", "attack", "health", "max_health", "can_attack", "sleeping", "frozen")
#: The classes of the hero class one-hots, and the columns of each side's hero power row (own, then enemy).
HERO_CLASSES: Final[tuple[CardClass, ...]] = tuple(CardClass)
HERO_POWER_COLUMNS: Final = ("has_power", "cost", "used_this_turn", "usable_now")
_TAIL: Final = struct.Struct(f"{2 * len(HERO_CLASSES) + 2 * len(HERO_POWER_COLUMNS)}f")
_CLASS_ROWS: Final = {c: tuple(float(c is other) for other in HERO_CLASSES) for c in HERO_CLASSES}
_HERO_POWER: Final = ChoiceKind.HERO_POWER
HEAD_VALUES: Final = 31  # own hero (7), enemy hero (7), mana (3), zone sizes (2 x 5), fatigue (2), turn (2)
#: Rows per cache (hand or minion rows of one encoder) beyond which it starts over: about 0.5 KB a row, and a
#: few hundred distinct rows cover long runs of the packaged decks.
ROW_CACHE_LIMIT: Final = 4096
_HEAD: Final = struct.Struct(f"{HEAD_VALUES}f")
_STATS: Final = slice(1, 4)
_times: Final = operator.mul
_MULLIGAN: Final = GamePhase.MULLIGAN
#: The pieces ``card_features=True`` adds (before the mulligan pieces), in vector order.
FEATURE_PIECES: Final = ("weapon_cards", "own_secret_cards", "graveyard_cards", "own_deck_cards")
#: Cost buckets of the own deck's composition: 0 .. DECK_COST_TOP - 1, then DECK_COST_TOP and more.
DECK_COST_TOP: Final = 7


def _clip(value: int | float, cap: int | float) -> int | float:
    return 0 if value < 0 else cap if value > cap else value


def _number(value: float) -> int | float:
    """A bound as an int when whole: comparing ints with ints is cheaper than with floats."""
    return int(value) if float(value).is_integer() else float(value)


class Bounds(NamedTuple):
    """Upper bounds of the game values, read from the encoder's ``high`` (every lower bound is 0)."""

    hero: int | float  # health, armor, attack, weapon attack and durability of both heroes
    mana: int | float
    zone_sizes: tuple[int | float, ...]
    fatigue: int | float
    turn: int | float
    hand: tuple[int | float, ...]  # cost, attack, health
    minion: tuple[int | float, ...]  # attack, health, max health
    secrets: int | float
    power_cost: int | float

    @classmethod
    def of(cls, encoder: ObservationEncoder) -> Bounds:
        """Read the bounds; check that every entry they do not cover is a 0/1 flag, so that it needs none."""
        high, covered = encoder.view(encoder.high), encoder.view(np.zeros(encoder.size, dtype=bool))
        parts: dict[str, list[tuple[str, Any]]] = {
            "hero": [("own_hero", np.s_[:5]), ("enemy_hero", np.s_[:5])], "mana": [("mana", np.s_[:])],
            "fatigue": [("fatigue", np.s_[:])], "turn": [("turn", np.s_[:1])], "secrets": [("own_secrets", np.s_[:])],
            "power_cost": [("hero_powers", np.s_[:, 1])]}
        if "own_secrets" not in high:  # card_ids=False: no card-id piece
            del parts["secrets"]
        bounds: dict[str, Any] = {name: _one_bound(high, covered, where) for name, where in parts.items()}
        bounds.setdefault("secrets", 0)
        _cover_features(encoder, covered)
        bounds["zone_sizes"] = _row_bounds(high, covered, ["zone_sizes"], np.s_[:])
        bounds["hand"] = _row_bounds(high, covered, ["own_hand"], _STATS)
        bounds["minion"] = _row_bounds(high, covered, ["own_battlefield", "enemy_battlefield"], _STATS)
        flags = ~np.concatenate([covered[p.name].reshape(-1) for p in encoder.pieces])
        if encoder.low.any() or (encoder.high[flags] != 1).any():
            raise ValueError("observation bounds: lower bounds must be 0 and entries other than game values 0/1 flags")
        return cls(**bounds)


def _cover_features(encoder: ObservationEncoder, covered: dict) -> None:
    """Mark the card-feature entries covered: they are copied from tables built inside their bounds."""
    if encoder.features is None:
        return
    hand, minion = encoder.feature_starts
    covered["own_hand"][:, hand:] = True
    covered["own_battlefield"][:, minion:] = covered["enemy_battlefield"][:, minion:] = True
    for name in FEATURE_PIECES:
        covered[name][...] = True


def _one_bound(high: dict, covered: dict, where: list) -> int | float:
    """The single upper bound of the entries ``where`` ((piece, index) pairs); marks them covered."""
    values = np.concatenate([np.ravel(high[name][index]) for name, index in where])
    if (values != values[0]).any():
        raise ValueError(f"observation bounds: {where} should share one upper bound")
    for name, index in where:
        covered[name][index] = True
    return _number(values[0])


def _row_bounds(high: dict, covered: dict, names: list[str], columns: slice) -> tuple[int | float, ...]:
    """The upper bounds of ``columns``, the same in every row of the pieces ``names``; marks them covered."""
    rows = np.concatenate([high[name].reshape(-1, high[name].shape[-1])[:, columns] for name in names])
    if (rows != rows[0]).any():
        raise ValueError(f"observation bounds: every row of {names} should share the bounds of its columns")
    for name in names:
        covered[name].reshape(-1, covered[name].shape[-1])[:, columns] = True
    return tuple(_number(x) for x in rows[0])


class RowCache(dict):
    """Row key -> float32 bytes of the whole row, for one row kind (hand or minion) of one encoder.

    Keys: ``(definition, cost, attack, health, affordable, keywords)`` for a hand card, ``(definition, attack,
    health, max_health, can_attack, sleeping, frozen, keywords)`` for a minion.
    """

    def __init__(self, encoder: ObservationEncoder, kind: int, normalize: bool) -> None:
        super().__init__()
        self._encoder, self._kind = encoder, kind  # kind: 1 hand, 2 minion (the encoder's card_rows columns)
        head = HAND_HEAD if kind == 1 else MINION_HEAD
        piece = "own_hand" if kind == 1 else "own_battlefield"
        bounds = Bounds.of(encoder)
        self._caps = bounds.hand if kind == 1 else bounds.minion
        self._scale = encoder.view(encoder.scale)[piece][0, _STATS] if normalize else np.ones(3, dtype=np.float32)
        self._keywords = len(head)
        #: normalizing with card features: where they start in the row and their scale
        self._features: tuple[int, np.ndarray] | None = None
        if normalize and encoder.features is not None:
            start = encoder.feature_starts[kind - 1]
            self._features = (start, encoder.view(encoder.scale)[piece][0, start:].copy())

    def __missing__(self, key: tuple) -> bytes:
        if len(self) >= ROW_CACHE_LIMIT:
            self.clear()
        definition, *stats = key[:4]
        flags, keywords = key[4:-1], key[-1]
        row = self._encoder.card_rows[definition][self._kind].copy()
        row[_STATS] = [_clip(value, cap) * float(scale) for value, cap, scale in zip(stats, self._caps, self._scale)]
        row[_STATS.stop:_STATS.stop + len(flags)] = flags
        row[self._keywords:self._keywords + len(KEYWORDS)] = self._encoder.keyword_rows[keywords]
        if self._features is not None:
            start, scale = self._features
            row[start:] *= scale
        self[key] = data = row.tobytes()
        return data


class FeatureCache(dict):
    """``(part, definitions)`` -> float32 bytes of one part of the card-feature pieces, for one encoder and
    normalization.

    Parts: 0 both weapons (own, enemy; None for no weapon), 1 the own secrets in order, 2 the own graveyard, 3 the
    enemy's graveyard, 4 the own deck. A zone's part is one sum of per-card rows built once (a graveyard row: 1 and
    the feature row; a deck row: 1, the cost bucket and type one-hots and the feature row), clipped to the piece's
    bounds, then scaled when normalizing. A zone that differs from one of the last few zones of its part by its last
    card (a draw pops the deck's last card, a graveyard grows at its end) costs one row added or taken away.
    """

    def __init__(self, encoder: ObservationEncoder, normalize: bool) -> None:
        super().__init__()
        assert encoder.features is not None
        self._encoder = encoder
        table = self._table = encoder.features.table
        n_cards = len(table)
        self._graveyard_rows = np.concatenate([np.ones((n_cards, 1), dtype=np.float32), table], axis=1)
        head: np.ndarray = np.zeros((n_cards, 2 + DECK_COST_TOP + len(CARD_TYPES)), dtype=np.float32)
        for index, card in enumerate(encoder.cards):
            head[index, 0] = 1.0
            head[index, 1 + min(max(card.cost, 0), DECK_COST_TOP)] = 1.0
            if card.card_type in CARD_TYPES:
                head[index, 2 + DECK_COST_TOP + CARD_TYPES.index(card.card_type)] = 1.0
        self._deck_rows = np.concatenate([head, table], axis=1)
        high, scale = encoder.view(encoder.high), encoder.view(encoder.scale)
        names = ("weapon_cards", "own_secret_cards", "graveyard_cards", "graveyard_cards", "own_deck_cards")
        rows = (np.s_[:], np.s_[:], np.s_[0], np.s_[1], np.s_[:])
        self._high = [high[name][row].copy() for name, row in zip(names, rows)]
        self._scale = [scale[name][row].copy() if normalize else None for name, row in zip(names, rows)]
        #: per part, the last few zones computed and their sums (unclipped), newest first
        self._recent: list[list[tuple[tuple, np.ndarray]]] = [[] for _ in names]

    def __missing__(self, key: tuple) -> bytes:
        if len(self) >= ROW_CACHE_LIMIT:
            self.clear()
        part, definitions = key
        values: np.ndarray
        if part <= 1:
            values = np.zeros(self._high[part].shape, dtype=np.float32)
            for slot, definition in enumerate(definitions):
                if definition is not None:
                    values[slot] = self._table[self._index(definition)]
        else:
            values = np.minimum(self._zone_sum(part, definitions), self._high[part])
        scale = self._scale[part]
        if scale is not None:
            values *= scale
        self[key] = data = values.tobytes()
        return data

    def _zone_sum(self, part: int, zone: tuple) -> np.ndarray:
        """The sum of the per-card rows of ``zone``'s cards (float32: whole numbers, exact), from a recent zone of
        the part one last card away when there is one."""
        rows = self._deck_rows if part == 4 else self._graveyard_rows
        recent = self._recent[part]
        size = len(zone)
        sums: np.ndarray | None = None
        for known, known_sums in recent:
            if len(known) == size + 1 and known[:-1] == zone:
                sums = known_sums - rows[self._index(known[-1])]
                break
            if len(known) + 1 == size and zone[:-1] == known:
                sums = known_sums + rows[self._index(zone[-1])]
                break
        if sums is None:
            indices = [self._index(definition) for definition in zone]
            sums = rows[indices].sum(axis=0) if indices else np.zeros(rows.shape[1], dtype=np.float32)
        recent.insert(0, (zone, sums))
        del recent[4:]
        return sums

    def _index(self, definition: Any) -> int:
        return int(self._encoder.card_rows[definition][0])


class ObservationWriter:
    """Writes observations into one float32 buffer: ``writer(game, player, legal=None)``.

    Args:
        encoder: the layout, bounds and constant rows.
        out: contiguous float32 array of shape ``(encoder.size,)``, checked once here.
        normalize: also multiply by the encoder's ``scale`` (values in ``[0, 1]``).
        exclusive: only this writer writes into ``out`` (others may read or copy it), so a write rewrites only
            the rows that changed since the previous write.
    """

    __slots__ = ("encoder", "out", "_raw", "_floats", "_bounds", "_int_caps", "_head_caps", "_head_scale",
                 "_hand_rows", "_minion_rows", "_zeros", "_secret_scale", "_power_scale", "_exclusive", "_held",
                 "_secrets", "_mulligan", "_tail", "_features", "_feature_offsets", "_feature_keys")

    def __init__(self, encoder: ObservationEncoder, out: np.ndarray, *, normalize: bool = False,
                 exclusive: bool = False) -> None:
        floats = memoryview(out)  # type: ignore[arg-type]  # numpy arrays are buffers; its stubs do not say so
        if floats.format != "f" or floats.shape != (encoder.size,) or not floats.c_contiguous:
            raise ValueError(f"out must be a contiguous float32 array of shape ({encoder.size},), got "
                             f"{getattr(out, 'dtype', type(out))} {getattr(out, 'shape', '')}")
        self.encoder, self.out, self._raw, self._floats = encoder, out, floats.cast("B"), floats
        self._bounds = bounds = Bounds.of(encoder)
        #: the integer parts of the head's bounds, for the check of integer game values (see _write_head)
        deck, hand, graveyard, field, secrets = (math.floor(size) for size in bounds.zone_sizes)
        self._int_caps: tuple[int, int, int, int, int, int, int, int, int] = (
            math.floor(bounds.hero), math.floor(bounds.mana), math.floor(bounds.fatigue), math.floor(bounds.turn),
            deck, hand, graveyard, field, secrets)
        self._head_caps = tuple(_number(x) for x in encoder.high[:HEAD_VALUES].tolist())
        self._head_scale = tuple(encoder.scale[:HEAD_VALUES].tolist()) if normalize else None
        self._hand_rows, self._minion_rows = _row_caches(encoder, normalize)
        self._zeros = memoryview(encoder.zeros)  # slices of it zero a range of the buffer without a copy
        scale = encoder.view(encoder.scale)
        self._secret_scale = float(scale["own_secrets"][0]) if normalize and encoder.card_ids else 1
        self._power_scale = float(scale["hero_powers"][0, 1]) if normalize else 1
        self._exclusive = exclusive
        #: per row piece (own hand, own battlefield, enemy battlefield): the key of the row each slot shows
        self._held: tuple[list, list, list] = ([], [], [])
        self._secrets = False  # whether the secrets piece shows counts
        self._mulligan = False  # whether the mulligan pieces show anything
        #: what the hero classes and powers block shows: (classes, power costs, used, usable), None when zeroed
        self._tail: tuple | None = None
        #: with card features: the piece cache, the byte offset and length of each piece, the key each shows
        self._features: FeatureCache | None = _feature_cache(encoder, normalize)
        self._feature_offsets: list[tuple[int, int]] = _feature_offsets(encoder)
        self._feature_keys: list[Any] = [None] * 5
        self._forget()

    def clear(self) -> None:
        """Zero the buffer and forget what it showed (the next write rewrites every row)."""
        self._forget()

    def _forget(self) -> None:
        """Zero the buffer: no row shows anything."""
        self._raw[:] = self.encoder.zeros
        for held in self._held:
            held.clear()
        self._secrets = self._mulligan = False
        self._tail = None
        self._feature_keys = [None] * 5

    def __call__(self, game: Game, player: int, legal: Iterable[Choice] | None = None) -> None:
        """Write ``player``'s observation of ``game``.

        Args:
            legal: the legal choices of the player on turn in this position, if the caller has them
                (``game.legal_actions()``); saves asking the engine whether each character can attack.
        """
        if not self._exclusive:
            self._forget()
        state = game.state
        me, enemy = state.players[player], state.players[1 - player]
        if state.current == player:  # "can attack": now for the side on turn, on its next turn for the other
            own_attackers, enemy_attackers = attackers_now(game, legal), attackers_next_turn(enemy)
        else:
            own_attackers, enemy_attackers = attackers_next_turn(me), attackers_now(game, legal)
        self._write_head(state, me, enemy, player, own_attackers, enemy_attackers)
        starts = self.encoder.row_starts
        self._write_hand(me, starts[0])
        self._write_minions(me.battlefield, starts[1], self._held[1], own_attackers)
        self._write_minions(enemy.battlefield, starts[2], self._held[2], enemy_attackers)
        if (me.secrets or self._secrets) and starts[3] >= 0:
            self._write_secrets(me, starts[3], starts[4])
        self._write_heroes(game, me, enemy, player, legal, starts[4])
        if self._features is not None:
            self._write_features(me, enemy)
        if state.phase is _MULLIGAN or self._mulligan:
            self._write_mulligan(state, me, starts[5])

    def _write_head(self, state: GameState, me: Player, enemy: Player, player: int, own_attackers: set[int],
                    enemy_attackers: set[int]) -> None:
        """Both heroes, mana, zone sizes, fatigue and turn: one block of values, bounded (and scaled) in Python.

        Game values are integers, so each is checked against the integer part of its bound (``_int_caps``),
        an exact test that compiled code runs on machine integers; only when it fails are the values clipped
        one by one, to the bounds themselves.
        """
        own, foe = me.hero, enemy.hero
        own_weapon_attack = own_durability = foe_weapon_attack = foe_durability = 0
        if me.weapon:
            own_weapon_attack, own_durability = me.weapon[0].attack, me.weapon[0].durability
        if enemy.weapon:
            foe_weapon_attack, foe_durability = enemy.weapon[0].attack, enemy.weapon[0].durability
        own_health, own_armor, own_attack = own.health, own.armor, own.attack
        foe_health, foe_armor, foe_attack = foe.health, foe.armor, foe.attack
        mana, max_mana, foe_max_mana = me.mana, me.max_mana, enemy.max_mana
        own_fatigue, foe_fatigue, turn = me.fatigue, enemy.fatigue, state.turn
        own_deck, own_hand, own_graveyard, own_field, own_secrets = (
            len(me.deck), len(me.hand), len(me.graveyard), len(me.battlefield), len(me.secrets))
        foe_deck, foe_hand, foe_graveyard, foe_field, foe_secrets = (
            len(enemy.deck), len(enemy.hand), len(enemy.graveyard), len(enemy.battlefield), len(enemy.secrets))
        values: tuple[int | float, ...] = (
            own_health, own_armor, own_attack, own_weapon_attack, own_durability, own.frozen_on_turn > 0,
            own.uid in own_attackers,
            foe_health, foe_armor, foe_attack, foe_weapon_attack, foe_durability, foe.frozen_on_turn > 0,
            foe.uid in enemy_attackers, mana, max_mana, foe_max_mana,
            own_deck, own_hand, own_graveyard, own_field, own_secrets,
            foe_deck, foe_hand, foe_graveyard, foe_field, foe_secrets, own_fatigue, foe_fatigue, turn, player == 0)
        hero, mana_cap, fatigue, turns, deck, hand, graveyard, field, secrets = self._int_caps
        if not (0 <= own_health <= hero and 0 <= own_armor <= hero and 0 <= own_attack <= hero
                and 0 <= own_weapon_attack <= hero and 0 <= own_durability <= hero
                and 0 <= foe_health <= hero and 0 <= foe_armor <= hero and 0 <= foe_attack <= hero
                and 0 <= foe_weapon_attack <= hero and 0 <= foe_durability <= hero
                and 0 <= mana <= mana_cap and 0 <= max_mana <= mana_cap and 0 <= foe_max_mana <= mana_cap
                and 0 <= own_fatigue <= fatigue and 0 <= foe_fatigue <= fatigue and 0 <= turn <= turns
                and own_deck <= deck and foe_deck <= deck and own_hand <= hand and foe_hand <= hand
                and own_graveyard <= graveyard and foe_graveyard <= graveyard and own_field <= field
                and foe_field <= field and own_secrets <= secrets and foe_secrets <= secrets):
            values = tuple(map(_clip, values, self._head_caps))
        if self._head_scale is not None:
            values = tuple(map(_times, values, self._head_scale))
        _HEAD.pack_into(self._raw, 0, *values)

    def _write_hand(self, player: Player, start: int) -> None:
        raw, rows, held, mana = self._raw, self._hand_rows, self._held[0], player.mana
        width = self.encoder.row_widths[0]
        offset = start
        for slot, card in enumerate(player.hand):
            cost = card.cost
            key = (card.definition, cost, card.attack, card.health or card.durability, cost <= mana, card.keywords)
            if slot == len(held):
                held.append(None)
            if held[slot] != key:
                raw[offset:offset + width] = rows[key]
                held[slot] = key
            offset += width
        if len(held) > len(player.hand):
            self._drop_rows(held, len(player.hand), offset, width)

    def _write_minions(self, minions: list[Card], start: int, held: list, attackers: set[int]) -> None:
        """One row per minion; ``attackers`` holds the uids of the side's characters that can attack."""
        raw, rows, width = self._raw, self._minion_rows, self.encoder.row_widths[1]
        offset = start
        for slot, card in enumerate(minions):
            key = (card.definition, card.attack, card.health, card.max_health, card.uid in attackers, card.sleeping,
                   card.frozen_on_turn > 0, card.keywords)
            if slot == len(held):
                held.append(None)
            if held[slot] != key:
                raw[offset:offset + width] = rows[key]
                held[slot] = key
            offset += width
        if len(held) > len(minions):
            self._drop_rows(held, len(minions), offset, width)

    def _drop_rows(self, held: list, count: int, offset: int, width: int) -> None:
        """Zero the rows after the first ``count``, which still show cards of an earlier write."""
        end = offset + width * (len(held) - count)
        self._raw[offset:end] = self._zeros[:end - offset]
        del held[count:]

    def _write_heroes(self, game: Game, me: Player, enemy: Player, player: int, legal: Iterable[Choice] | None,
                      start: int) -> None:
        """Both heroes' classes and hero powers (has one, cost, used this turn, usable now): one block."""
        usable = False
        own_power, foe_power = me.hero_power, enemy.hero_power
        if own_power and game.state.current == player:
            if legal is not None and game.state.result is None:
                for choice in legal:
                    if choice[0] is _HERO_POWER:
                        usable = True
                        break
            else:
                usable = hero_power_usable(game)
        own_class, foe_class = me.hero.definition.card_class, enemy.hero.definition.card_class
        own_cost = own_power[0].cost if own_power else -1
        foe_cost = foe_power[0].cost if foe_power else -1
        key = (own_class, foe_class, own_cost, me.hero_power_uses > 0, usable, foe_cost, enemy.hero_power_uses > 0)
        if key == self._tail:  # the block shows this already (a writer that zeroes its buffer forgot it)
            return
        self._tail = key
        cap, scale = self._bounds.power_cost, self._power_scale
        values: list[float] = [*_CLASS_ROWS[own_class], *_CLASS_ROWS[foe_class]]
        for side, cost, can_use in ((me, own_cost, usable), (enemy, foe_cost, False)):
            if side.hero_power:
                values += (1.0, (cost if 0 <= cost <= cap else _clip(cost, cap)) * scale,
                           float(side.hero_power_uses > 0), float(can_use))
            else:
                values += (0.0, 0.0, 0.0, 0.0)
        _TAIL.pack_into(self._raw, start, *values)

    def _write_secrets(self, player: Player, start: int, stop: int) -> None:
        """Count each own secret card (bounded, scaled), after clearing the counts of an earlier write."""
        encoder, floats, base = self.encoder, self._floats, start // 4
        self._raw[start:stop] = self._zeros[:stop - start]
        cap, scale = self._bounds.secrets, self._secret_scale
        counts: dict[int, int] = {}
        for card in player.secrets:
            index = encoder.card_rows[card.definition][0]
            counts[index] = counts.get(index, 0) + 1
        for index, count in counts.items():
            floats[base + index] = min(count, cap) * scale  # type: ignore[assignment]  # a float32 view
        self._secrets = bool(counts)


    def _write_features(self, me: Player, enemy: Player) -> None:
        """The card-feature pieces: both weapons, the own secrets, both graveyards and the own deck. Nothing
        hidden: the enemy's hand, deck and secrets are not read."""
        keys = ((0, (me.weapon[0].definition if me.weapon else None,
                     enemy.weapon[0].definition if enemy.weapon else None)),
                (1, tuple([card.definition for card in me.secrets])),
                (2, tuple([card.definition for card in me.graveyard])),
                (3, tuple([card.definition for card in enemy.graveyard])),
                (4, tuple([card.definition for card in me.deck])))
        cache, held, raw = self._features, self._feature_keys, self._raw
        assert cache is not None
        for part, key in enumerate(keys):
            if held[part] != key:
                start, stop = self._feature_offsets[part]
                raw[start:stop] = cache[key]
                held[part] = key

    def _write_mulligan(self, state: GameState, player: Player, start: int) -> None:
        """The in-mulligan flag and a flag per own hand slot marked to put back (0/1 flags: no bounds or scale)."""
        floats, base = self._floats, start // 4
        self._raw[start:] = self._zeros[:len(self._raw) - start]
        in_mulligan = state.phase is _MULLIGAN
        if in_mulligan:
            floats[base] = 1.0  # type: ignore[call-overload]  # a float32 view
            marked = player.marked
            for slot, card in enumerate(player.hand):
                if card.uid in marked:
                    floats[base + 1 + slot] = 1.0  # type: ignore[call-overload]
        self._mulligan = in_mulligan


def _feature_offsets(encoder: ObservationEncoder) -> list[tuple[int, int]]:
    """Byte ranges of the :class:`FeatureCache` parts: weapons, own secrets, each graveyard row, own deck."""
    pieces = {p.name: (4 * p.start, 4 * p.stop) for p in encoder.pieces}
    if "graveyard_cards" not in pieces:
        return []
    start, stop = pieces["graveyard_cards"]
    middle = (start + stop) // 2
    return [pieces["weapon_cards"], pieces["own_secret_cards"], (start, middle), (middle, stop),
            pieces["own_deck_cards"]]


def _feature_cache(encoder: ObservationEncoder, normalize: bool) -> FeatureCache | None:
    """The encoder's card-feature piece cache for raw or normalized values (None without card features)."""
    if encoder.features is None:
        return None
    caches = encoder.row_caches
    key = ("features", normalize)
    if key not in caches:
        caches[key] = FeatureCache(encoder, normalize)
    return caches[key]


def _row_caches(encoder: ObservationEncoder, normalize: bool) -> tuple[RowCache, RowCache]:
    """The encoder's hand and minion row caches for raw or normalized values (shared by its writers)."""
    caches = encoder.row_caches
    if normalize not in caches:
        caches[normalize] = (RowCache(encoder, 1, normalize), RowCache(encoder, 2, normalize))
    return caches[normalize]
