"""What a game is set up from: rules, card set and decks resolved from their specs, and the deck pick from a seed.

Every place that starts games (``Game.new``, the env core, the arena) resolves its options here, so a rules path,
a card file list or a deck name means the same thing everywhere and is checked once, with the same errors.
"""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path
from typing import Any, Final, Sequence

from .cards import CardSet, default_cards, load_cards
from .decks import Deck, default_deck_paths, resolve_deck
from .generated_pool import GeneratedCardSet, generated_card_set, is_generated_spec
from .rules import Rules

#: The decks of a game when none are given: seat 0 plays the first.
DEFAULT_DECKS: Final = ("midrange", "aggro")
#: The ``decks`` option that deals each seat a packaged deck drawn with the game's seed.
RANDOM_DECKS: Final = "random"

def resolve_rules(rules: object = None, turn_limit: int | None = None) -> Rules:
    """Rules from a ``Rules``, a rules YAML path or None (the packaged default), with an optional turn limit.

    Raises:
        TypeError: ``rules`` is none of those.
        ValueError: ``turn_limit`` is not a positive integer.
    """
    if rules is None or isinstance(rules, (str, Path)):
        rules = Rules.load(rules)
    elif not isinstance(rules, Rules):
        raise TypeError(f"rules: expected a Rules object or a path to a rules YAML file, got {rules!r}")
    if turn_limit is not None:
        if isinstance(turn_limit, bool) or not isinstance(turn_limit, int) or turn_limit < 1:
            raise ValueError(f"turn_limit: expected a positive integer, got {turn_limit!r}")
        rules = dataclasses.replace(rules, turn_limit=turn_limit)
    return rules


def resolve_cards(cards: CardSet | str | Path | Sequence[str | Path] | None = None) -> CardSet:
    """A card set from a ``CardSet``, one YAML path, a list of paths, a generated-pool spec
    (``"generated:seed=S,size=N"``, alone or as the list's only item) or None (the packaged cards)."""
    if cards is None:
        return default_cards()
    if isinstance(cards, CardSet):
        return cards
    if is_generated_spec(cards):
        return generated_card_set(str(cards))
    if isinstance(cards, (str, Path)):
        return load_cards([cards])
    try:
        paths = list(cards)
    except TypeError:  # not iterable (a number, for example)
        raise TypeError(f"cards: expected a CardSet, a card YAML path or a list of paths, got {cards!r}") from None
    if any(is_generated_spec(path) for path in paths):
        if len(paths) != 1:
            raise ValueError(f"cards: a generated pool ('generated:seed=S,size=N') is given alone, not with other "
                             f"card files: {paths!r}")
        return generated_card_set(str(paths[0]))
    return load_cards(paths)


def resolve_deck_pair(decks: Any, cards: CardSet, rules: Rules) -> tuple[Deck, Deck]:
    """The two seats' decks from two specs (Deck objects, packaged names or YAML paths); None: the defaults (for a
    generated pool, the first two of its decks).

    Raises:
        ValueError: not exactly two decks (a single deck given alone is named in the message).
    """
    if isinstance(decks, (str, Path, Deck)):
        raise ValueError(f"a game needs exactly two decks, got the single deck {str(decks)!r}; "
                         f"pass a pair such as [{str(decks)!r}, {str(decks)!r}]")
    if decks is None and isinstance(cards, GeneratedCardSet):
        decks = cards.decks(rules)[:2]
    specs = list(DEFAULT_DECKS if decks is None else decks)
    if len(specs) != 2:
        raise ValueError(f"a game needs exactly two decks, got {len(specs)}")
    return resolve_deck(specs[0], cards, rules), resolve_deck(specs[1], cards, rules)


def packaged_deck_pool(cards: CardSet, rules: Rules) -> tuple[Deck, ...]:
    """Every packaged deck, in name order: what ``decks="random"`` draws from (a generated pool's own decks)."""
    if isinstance(cards, GeneratedCardSet):
        return cards.decks(rules)
    return tuple(resolve_deck(name, cards, rules) for name in default_deck_paths())


def default_pool(cards: CardSet, rules: Rules) -> list[Deck | str]:
    """The deck pool when none is given: a generated pool's own decks, else every packaged deck's name."""
    if isinstance(cards, GeneratedCardSet):
        return list(cards.decks(rules))
    return list(default_deck_paths())


def pick_decks(pool: Sequence[Deck], seed: int) -> tuple[Deck, Deck]:
    """The two decks a game with this seed draws from ``pool`` (independently per seat; reproducible)."""
    picker = random.Random(f"decks-{seed}")
    return picker.choice(pool), picker.choice(pool)
