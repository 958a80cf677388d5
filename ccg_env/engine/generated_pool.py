"""The ``generated:seed=S,size=N`` card spec: a generated card pool as a card set, with decks made from its seed.

Anywhere cards are given (``Game.new``'s and the envs' ``cards=``, the CLI's ``--cards``), the text
``generated:seed=S,size=N`` stands for the pool :func:`ccg_env.engine.card_pool_generator.generate_card_data`
makes (``seed`` default 0, ``size`` the collectible cards, default :data:`DEFAULT_SIZE`, 1..:data:`MAX_SIZE`),
validated by the card loader like any file, plus the packaged hero tokens (what the hero powers summon and
equip). The same spec gives the same cards, and within a process the same :class:`GeneratedCardSet` object.

A game of a generated pool given no decks plays :meth:`GeneratedCardSet.decks`: one deck per hero class and one
neutral deck, built from the pool's seed under the game's rules (deck size, copies, class cards), the first two
being a game's default pair.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any, Final, Mapping

from .card_pool_generator import generate_card_data
from .cards import CardSet, load_cards, parse_card
from .datafiles import default_path
from .decks import Deck
from .definitions import CardDef
from .errors import DataError, shown
from .rules import Rules
from .vocabulary import CardClass

#: The word that starts a generated-pool spec.
SPEC_PREFIX: Final = "generated"
#: Collectible cards of a pool when the spec gives no size, and the most it may ask for.
DEFAULT_SIZE: Final = 60
MAX_SIZE: Final = 1000
MAX_SEED: Final = 2**63 - 1
#: Cards per cost bucket (0-1, 2, 3, 4, 5, 6, 7+) a generated deck of 30 aims for.
DECK_CURVE: Final = (4, 6, 6, 5, 4, 3, 2)


def is_generated_spec(value: object) -> bool:
    """Whether ``value`` is a generated-pool spec (``generated`` or ``generated:...``) rather than a path."""
    return isinstance(value, str) and (value == SPEC_PREFIX or value.startswith(SPEC_PREFIX + ":"))


def parse_spec(text: str) -> tuple[int, int]:
    """``(seed, size)`` of a spec ``generated:seed=S,size=N`` (either key may be left out).

    Raises:
        DataError: not a spec, an unknown or repeated key, or a value that is not a whole number in range (the
            message quotes the spec and names the key).
    """
    if not is_generated_spec(text):
        raise DataError(f"expected 'generated:seed=S,size=N', got {shown(text)}", source="cards")
    values = {"seed": 0, "size": DEFAULT_SIZE}
    seen: set[str] = set()
    body = text[len(SPEC_PREFIX) + 1:]
    for part in body.split(",") if body else []:
        key, sep, value = part.partition("=")
        key = key.strip()
        where = f"cards {shown(text)}"
        if key not in values:
            raise DataError(f"unknown key {shown(key)} (allowed: seed, size)", source=where)
        if not sep or key in seen:
            raise DataError(f"{key}: {'given twice' if key in seen else 'expected key=value'}", source=where)
        seen.add(key)
        values[key] = _whole(value.strip(), key, 0 if key == "seed" else 1,
                             MAX_SEED if key == "seed" else MAX_SIZE, where)
    return values["seed"], values["size"]


def _whole(value: str, key: str, low: int, high: int, where: str) -> int:
    if not value.lstrip("-").isdigit() or not value.isascii():
        raise DataError(f"{key}: expected a whole number, got {shown(value)}", source=where)
    number = int(value)
    if not low <= number <= high:
        raise DataError(f"{key}: must be between {low} and {high}, got {number}", source=where)
    return number


def spec_text(seed: int, size: int) -> str:
    """The canonical spec of a pool."""
    return f"{SPEC_PREFIX}:seed={seed},size={size}"


class GeneratedCardSet(CardSet):
    """The cards of a generated pool (its collectible cards, tokens and the hero tokens), with its seed and size."""

    def __init__(self, cards: Mapping[str, CardDef], sources: tuple[str, ...], seed: int, size: int) -> None:
        super().__init__(cards, sources)
        self.seed, self.size = seed, size
        self._decks: dict[Rules, tuple[Deck, ...]] = {}

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle as the spec: another process makes the same pool from it."""
        return generated_card_set, (self.spec,)

    @property
    def spec(self) -> str:
        """The spec that makes this pool."""
        return spec_text(self.seed, self.size)

    def decks(self, rules: Rules) -> tuple[Deck, ...]:
        """The pool's decks under ``rules``: one per hero class with class cards, then a neutral one."""
        if rules not in self._decks:
            self._decks[rules] = generated_decks(self, rules)
        return self._decks[rules]


def generated_card_set(spec: str) -> GeneratedCardSet:
    """The card set of a spec (cached: the same pool gives the same object).

    Raises:
        DataError: a bad spec (see :func:`parse_spec`).
    """
    return _generated(*parse_spec(spec))


@lru_cache(maxsize=16)
def _generated(seed: int, size: int) -> GeneratedCardSet:
    canonical = spec_text(seed, size)
    cards: dict[str, CardDef] = {}
    for index, data in enumerate(generate_card_data(seed, size)):
        cards[data["id"]] = parse_card(data, source=canonical, index=index)
    tokens_file = default_path("cards", "hero_tokens")
    cards.update(load_cards([tokens_file]))
    return GeneratedCardSet(cards, (canonical, str(tokens_file)), seed, size)


def pool_cards(cards: CardSet, hero: CardClass) -> list[CardDef]:
    """The generated collectible cards a deck of ``hero`` may hold, class cards first, in pool order."""
    eligible = [c for c in cards.values() if c.collectible and c.id.startswith("gen_")
                and c.card_class in (CardClass.NEUTRAL, hero)]
    return sorted(eligible, key=lambda card: card.card_class is CardClass.NEUTRAL)


def generated_decks(cards: GeneratedCardSet, rules: Rules) -> tuple[Deck, ...]:
    """One deck per class that has cards in the pool, then a neutral deck, each drawn from the pool's seed."""
    classes = sorted({c.card_class for c in cards.values() if c.collectible and c.id.startswith("gen_")
                      and c.card_class is not CardClass.NEUTRAL}, key=lambda c: c.value)
    return tuple(build_deck(cards, rules, hero, random.Random(f"pool-decks-{cards.seed}-{hero.value}"))
                 for hero in [*classes, CardClass.NEUTRAL])


def build_deck(cards: GeneratedCardSet, rules: Rules, hero: CardClass, rng: random.Random) -> Deck:
    """A legal deck of ``hero``: every class card, then neutral cards filling :data:`DECK_CURVE`, at most
    ``max_copies`` each, exactly ``deck_size`` cards.

    Raises:
        DataError: the pool holds too few cards ``hero`` may take for a deck of that size.
    """
    eligible = pool_cards(cards, hero)
    if len(eligible) * rules.max_copies < rules.deck_size:
        raise DataError(f"a {hero.value} deck of {rules.deck_size} cards at {rules.max_copies} copies needs "
                        f"{-(-rules.deck_size // rules.max_copies)} cards it may hold; the pool has {len(eligible)} "
                        f"(give a larger size)", source=cards.spec)
    classed = [c for c in eligible if c.card_class is not CardClass.NEUTRAL]
    neutral = [c for c in eligible if c.card_class is CardClass.NEUTRAL]
    rng.shuffle(neutral)
    wanted = [round(n * rules.deck_size / sum(DECK_CURVE)) for n in DECK_CURVE]
    counts: dict[str, int] = {}
    for card in classed + neutral:  # class cards, then neutral cards where the curve has room
        if card.card_class is CardClass.NEUTRAL and wanted[_bucket(card.cost)] <= 0:
            continue
        counts[card.id] = min(rules.max_copies, rules.deck_size - sum(counts.values()))
        wanted[_bucket(card.cost)] -= counts[card.id]
    for card in neutral + classed:  # the curve could not be filled: top up with what is left, in the same order
        counts[card.id] = counts.get(card.id, 0) + min(rules.max_copies - counts.get(card.id, 0),
                                                      rules.deck_size - sum(counts.values()))
    ids = tuple(card_id for card_id, n in counts.items() for _ in range(n))
    return Deck(f"generated {hero.value}", ids, f"{cards.spec}: a {hero.value} deck drawn from the pool", hero)


def _bucket(cost: int) -> int:
    return max(0, min(cost, len(DECK_CURVE)) - 1)


def resolve_generated(spec: Any) -> GeneratedCardSet:
    """:func:`generated_card_set` for a spec given as an option (a one-line DataError for a bad one)."""
    return generated_card_set(str(spec))
