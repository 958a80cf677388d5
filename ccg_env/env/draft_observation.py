"""The draft mode's observation: the battle observation followed by named draft pieces (offer, deck so far, hero).

The vector is ``[battle observation | draft pieces]``: the battle part is exactly the duel's observation
(:mod:`ccg_env.env.observation`, written by its writer into the first ``battle_size`` entries, all zeros during
the draft), and the draft pieces follow it:

==============  ===============  ===========================================================================
piece           shape            features
==============  ===============  ===========================================================================
draft           (3,)             in draft (1 while drafting, 0 in the battle), cards picked, cards left to pick
draft_hero      (7,)             one-hot of the drafting player's hero class (neutral, mage, warrior, ...)
draft_offer     (3, 16 + C)      per offered card: present, cost, attack, health (durability for weapons),
                                 type (minion, spell, weapon, secret), keywords (8), card one-hot (C)
draft_deck      (C,)             copies of each card in the player's deck so far (card one-hot order)
draft_curve     (8,)             cards in the deck so far by cost 0, 1, ..., 6, 7 and more
==============  ===============  ===========================================================================

In the battle the offer is zero and ``draft_deck``, ``draft_curve`` and ``draft_hero`` keep showing the drafted
deck (all draft pieces are zero in a game that had no draft: a described board, given decks). Values are raw numbers
clipped into the Box bounds; ``scale`` maps them into ``[0, 1]``. :meth:`DraftEncoder.writer` writes the whole
vector of a game in any phase.
"""

from __future__ import annotations

from typing import Final, Iterable

import gymnasium
import numpy as np

from ..engine import Choice, Game, Rules
from ..engine.draft import OFFER_SIZE, Draft
from ..engine.vocabulary import CardClass
from .observation import STAT_CAP, ObservationEncoder, Piece, PieceLayout
from .observation_writer import CARD_TYPES, KEYWORDS, ObservationWriter

#: Cost buckets of the curve piece: 0 .. CURVE_TOP - 1, then CURVE_TOP and more.
CURVE_TOP: Final = 7
_OFFER_HEAD: Final = ("present", "cost", "attack", "health")


class DraftEncoder(PieceLayout):
    """The layout, bounds and writer of the draft mode's observation (the same attributes as the battle encoder).

    Attributes:
        battle: the battle encoder (its vector is the first ``battle_size`` entries).
        size, pieces, columns, low, high, scale, space: of the whole vector, battle pieces first.
    """

    def __init__(self, battle: ObservationEncoder, rules: Rules) -> None:
        self.battle = battle
        self.rules = rules
        self.cards = battle.cards  # the draft offers and counts the battle's cards
        self.battle_size = battle.size
        self._index = {card.id: i for i, card in enumerate(self.cards)}
        card_columns = tuple(f"card_{c.id}" for c in self.cards)
        self.pieces: list[Piece] = list(battle.pieces)
        self.columns: dict[str, tuple[str, ...]] = dict(battle.columns)
        offer_columns = (*_OFFER_HEAD, *(f"type_{t.value}" for t in CARD_TYPES),
                         *(f"keyword_{k.name.lower()}" for k in KEYWORDS), *card_columns)
        self._add("draft", (3,), ("in_draft", "picked", "left"))
        self._add("draft_hero", (len(CardClass),), tuple(c.value for c in CardClass))
        self._add("draft_offer", (OFFER_SIZE, len(offer_columns)), offer_columns)
        self._add("draft_deck", (len(self.cards),), card_columns)
        self._add("draft_curve", (CURVE_TOP + 1,), (*(f"cost_{c}" for c in range(CURVE_TOP)), f"cost_{CURVE_TOP}+"))
        self.size = self.pieces[-1].stop
        self.low = np.zeros(self.size, dtype=np.float32)
        self.high = np.concatenate([battle.high, self._draft_high(rules)])
        self.scale = np.divide(1.0, self.high, out=np.zeros_like(self.high), where=self.high > 0)
        self.space = gymnasium.spaces.Box(self.low, self.high, dtype=np.float32)
        self._offer_rows = {card.id: self._offer_row(card) for card in self.cards}
        start = {p.name: p.start - self.battle_size for p in self.pieces[len(battle.pieces):]}
        self._starts = start

    def _draft_high(self, rules: Rules) -> np.ndarray:
        high = np.ones(self.size - self.battle_size, dtype=np.float32)
        views = self.view(np.concatenate([np.ones(self.battle_size, dtype=np.float32), high]))
        views["draft"][1:] = rules.deck_size
        views["draft_offer"][:, 1:4] = STAT_CAP
        views["draft_deck"][:] = rules.max_copies
        views["draft_curve"][:] = rules.deck_size
        return np.concatenate([views[p.name].ravel() for p in self.pieces[len(self.battle.pieces):]])

    def _offer_row(self, card) -> np.ndarray:
        width = len(self.columns["draft_offer"])
        row = np.zeros(width, dtype=np.float32)
        health = card.durability if card.durability else card.health
        row[:4] = (1.0, min(card.cost, STAT_CAP), min(card.attack, STAT_CAP), min(health, STAT_CAP))
        if card.card_type in CARD_TYPES:
            row[4 + CARD_TYPES.index(card.card_type)] = 1.0
        head = 4 + len(CARD_TYPES)
        row[head:head + len(KEYWORDS)] = [1.0 if card.keywords & int(k) else 0.0 for k in KEYWORDS]
        row[head + len(KEYWORDS) + self._index[card.id]] = 1.0
        return row

    def write_draft(self, draft: Draft, seat: int, out: np.ndarray, *, normalize: bool = False) -> None:
        """Write ``seat``'s draft pieces into ``out[battle_size:]`` (the battle part is not touched)."""
        tail = out[self.battle_size:]
        tail[:] = 0.0
        side = draft.sides[seat]
        starts, deck_size = self._starts, self.rules.deck_size
        picked = len(side.picks)
        tail[starts["draft"]:starts["draft"] + 3] = (0.0 if draft.is_over else 1.0, picked, deck_size - picked)
        tail[starts["draft_hero"] + list(CardClass).index(side.hero)] = 1.0
        offer, width = starts["draft_offer"], len(self.columns["draft_offer"])
        if not draft.is_over:
            for k, card_id in enumerate(side.offer):
                tail[offer + k * width:offer + (k + 1) * width] = self._offer_rows[card_id]
        deck, curve = starts["draft_deck"], starts["draft_curve"]
        for card_id, count in side.counts.items():
            tail[deck + self._index[card_id]] = min(count, self.rules.max_copies)
            tail[curve + min(self.cards[self._index[card_id]].cost, CURVE_TOP)] += count
        if normalize:
            tail *= self.scale[self.battle_size:]

    def writer(self, out: np.ndarray, *, normalize: bool = False, exclusive: bool = False) -> DraftWriter:
        """A writer of the whole vector of a game into ``out`` (the battle encoder's ``writer`` options)."""
        return DraftWriter(self, out, normalize, exclusive)


class DraftWriter:
    """Writes a game's draft-mode observation into one buffer: ``writer(game, player, legal=None)``."""

    __slots__ = ("encoder", "out", "normalize", "battle")

    def __init__(self, encoder: DraftEncoder, out: np.ndarray, normalize: bool, exclusive: bool) -> None:
        self.encoder, self.out, self.normalize = encoder, out, normalize
        self.battle: ObservationWriter = encoder.battle.writer(out[:encoder.battle_size], normalize=normalize,
                                                                exclusive=exclusive)

    def __call__(self, game: Game, player: int, legal: Iterable[Choice] | None = None) -> None:
        """Write ``player``'s observation: the battle part (zeros during the draft), then the draft pieces."""
        if game.in_draft:
            self.battle.clear()
        else:
            self.battle(game, player, legal)
        if game.draft is None:
            self.out[self.encoder.battle_size:] = 0.0
        else:
            self.encoder.write_draft(game.draft, player, self.out, normalize=self.normalize)

    def clear(self) -> None:
        """Zero the buffer (the battle writer forgets what it showed)."""
        self.battle.clear()
        self.out[self.encoder.battle_size:] = 0.0
