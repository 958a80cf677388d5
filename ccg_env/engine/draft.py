"""The draft: two players build decks by picking one of three offered cards per round, from a seeded card pool.

Each player drafts for a hero class (given, or drawn from the seed) and is offered only cards its deck may hold:
collectible cards that are neutral or of its class, with fewer than ``rules.max_copies`` copies picked so far,
so every drafted deck is legal. An offer is up to :data:`OFFER_SIZE` distinct cards drawn uniformly from those
(fewer only when fewer are left). Rounds run ``rules.deck_size`` times; in each round seat 0 picks, then seat 1.
Each seat draws its hero and offers from a generator of its own, so one seat's picks never change the other's
offers: the same seed and the same picks give the same draft. When both decks are full, :meth:`Draft.decks`
are two ordinary :class:`~ccg_env.engine.decks.Deck` objects, and the battle is a normal ``Game``.
``Game.new_draft`` plays a draft as the first phase of a game: its picks are the game's legal choices
(``ChoiceKind.PICK``) and the last one deals the battle.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final, Sequence

from .cards import CardDef, CardSet
from .decks import Deck
from .errors import DataError, IllegalActionError
from .rng import Rng
from .rules import Rules
from .vocabulary import CardClass

#: Cards offered per round.
OFFER_SIZE: Final = 3
#: The classes a hero is drawn from when none is given (every class but neutral).
HERO_CLASSES: Final = tuple(c for c in CardClass if c is not CardClass.NEUTRAL)
_SALT: Final = 0x5EED_D4AF7


@dataclass(slots=True)
class DraftSide:
    """One player's draft: hero class, the card ids it may be offered, the current offer and the picks so far."""

    hero: CardClass
    pool: tuple[str, ...]  # the eligible card ids, sorted
    rng: Rng
    offer: tuple[str, ...] = ()
    picks: list[str] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)


def draft_pool(cards: CardSet, hero: CardClass) -> tuple[str, ...]:
    """The card ids a deck of ``hero`` may hold, sorted: collectible neutral cards and the class's cards."""
    return tuple(sorted(card_id for card_id, card in cards.items()
                        if card.collectible and card.card_class in (CardClass.NEUTRAL, hero)))


def as_hero(value: CardClass | str) -> CardClass:
    """A hero class from a ``CardClass`` or its name, or a DataError listing the classes."""
    try:
        return CardClass(value)
    except ValueError:
        allowed = ", ".join(c.value for c in CardClass)
        raise DataError(f"unknown hero class {value!r} (allowed: {allowed})", source="<draft>",
                        field="heroes") from None


class Draft:
    """A draft in progress for both seats; see the module documentation.

    Args:
        cards: the card set the pool is drawn from.
        rules: ``deck_size`` (the rounds) and ``max_copies``.
        seed: seeds both seats' generators (heroes and offers).
        heroes: the two seats' hero classes (``CardClass`` or names); None draws each from the seed.

    Raises:
        DataError: an unknown hero class, or a pool too small for a legal deck (fewer than ``deck_size``
            cards counting ``max_copies`` copies of each).
    """

    __slots__ = ("cards", "rules", "seed", "sides", "current")

    def __init__(self, cards: CardSet, rules: Rules, seed: int,
                 heroes: Sequence[CardClass | str] | None = None) -> None:
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise TypeError(f"seed must be an integer, got {seed!r}")
        if heroes is not None and (isinstance(heroes, str) or len(heroes) != 2):
            raise ValueError(f"heroes: expected two hero classes (one per seat) or None, got {heroes!r}")
        self.cards, self.rules, self.seed = cards, rules, seed
        self.sides: list[DraftSide] = []
        for seat in (0, 1):
            rng = Rng((seed * 2 + seat) ^ _SALT)
            hero = as_hero(heroes[seat]) if heroes is not None else HERO_CLASSES[rng.below(len(HERO_CLASSES))]
            pool = draft_pool(cards, hero)
            if len(pool) * rules.max_copies < rules.deck_size:
                raise DataError(f"a {hero.value} draft has {len(pool)} eligible cards; with at most "
                                f"{rules.max_copies} copies each that is fewer than the {rules.deck_size} a deck "
                                f"needs", source="<draft>", field="cards")
            self.sides.append(DraftSide(hero, pool, rng))
        self.current = 0
        for side in self.sides:
            self._deal(side)

    @property
    def is_over(self) -> bool:
        """Whether both decks are full."""
        return all(len(side.picks) >= self.rules.deck_size for side in self.sides)

    @property
    def round(self) -> int:
        """The round being drafted (0-based; ``deck_size`` once the draft is over)."""
        return min(len(side.picks) for side in self.sides)

    def offer(self, seat: int) -> tuple[CardDef, ...]:
        """The cards offered to ``seat`` now (empty once its deck is full)."""
        return tuple(self.cards[card_id] for card_id in self.sides[seat].offer)

    def picks(self, seat: int) -> tuple[CardDef, ...]:
        """The cards ``seat`` has picked so far, in pick order."""
        return tuple(self.cards[card_id] for card_id in self.sides[seat].picks)

    def legal_picks(self) -> range:
        """The offer indices the seat on turn may pick (empty once the draft is over)."""
        return range(0 if self.is_over else len(self.sides[self.current].offer))

    def pick(self, index: int) -> CardDef:
        """The seat on turn takes offered card ``index``; return it. The next seat is then on turn.

        Raises:
            IllegalActionError: the draft is over or ``index`` is not an offered card (nothing changes).
        """
        if self.is_over:
            raise IllegalActionError("the draft is over: both decks are full")
        side = self.sides[self.current]
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(side.offer):
            raise IllegalActionError(f"pick {index!r}: seat {self.current} is offered {len(side.offer)} cards "
                                     f"(indices 0..{len(side.offer) - 1})")
        card_id = side.offer[index]
        side.picks.append(card_id)
        side.counts[card_id] = side.counts.get(card_id, 0) + 1
        self._deal(side)
        self.current = 1 - self.current if not self.is_over else 0
        return self.cards[card_id]

    def _deal(self, side: DraftSide) -> None:
        """Draw the side's next offer: distinct eligible cards not yet at the copy limit (none once full)."""
        if len(side.picks) >= self.rules.deck_size:
            side.offer = ()
            return
        limit = self.rules.max_copies
        open_ids = [card_id for card_id in side.pool if side.counts.get(card_id, 0) < limit]
        side.offer = tuple(side.rng.sample(open_ids, OFFER_SIZE))

    def deck(self, seat: int) -> Deck:
        """``seat``'s drafted deck (complete once the draft is over), played by its hero class."""
        side = self.sides[seat]
        return Deck(f"draft-{self.seed}-seat{seat}", tuple(side.picks), "drafted", side.hero)

    def decks(self) -> tuple[Deck, Deck]:
        """Both drafted decks, seat 0's first.

        Raises:
            IllegalActionError: the draft is not over yet.
        """
        if not self.is_over:
            raise IllegalActionError(f"the draft is in round {self.round} of {self.rules.deck_size}: "
                                     f"the decks are not complete")
        return self.deck(0), self.deck(1)

    def clone(self) -> Draft:
        """An independent copy in the same state (same future offers for the same picks)."""
        copy = object.__new__(Draft)
        copy.cards, copy.rules, copy.seed, copy.current = self.cards, self.rules, self.seed, self.current
        copy.sides = [DraftSide(s.hero, s.pool, s.rng.clone(), s.offer, list(s.picks), dict(s.counts))
                      for s in self.sides]
        return copy


@dataclass(frozen=True)
class DraftView:
    """What a drafting player may know: its hero, the round, its offer and its own picks (not the other's).

    ``draft_offset`` is the action id of offer index 0 in the env's action layout (0 outside an env), so
    ``action_id(k)`` is the id of picking offered card ``k``.
    """

    seat: int
    hero: CardClass
    round: int
    offer: tuple[CardDef, ...]
    picks: tuple[CardDef, ...]
    rules: Rules
    draft_offset: int = 0
    cards: CardSet | None = None  # the card set drafted from (what summoned tokens are, for instance)

    @classmethod
    def of(cls, draft: Draft, seat: int, draft_offset: int = 0) -> DraftView:
        """The view of ``seat`` in ``draft``."""
        return cls(seat, draft.sides[seat].hero, draft.round, draft.offer(seat), draft.picks(seat), draft.rules,
                   draft_offset, draft.cards)

    def action_id(self, index: int) -> int:
        """The action id of picking offered card ``index``."""
        return self.draft_offset + index
