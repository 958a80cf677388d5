"""The ``--cards``, ``--decks`` and ``--rules`` options of the ccg-env commands: your own data files or folders.

Each path is checked by the engine's own loaders (:func:`~ccg_env.engine.cards.load_cards`,
:func:`~ccg_env.engine.decks.resolve_deck`, :meth:`~ccg_env.engine.rules.Rules.load`) before anything is
played, so a bad file stops the command with a message naming the file (and the card or field). A folder
stands for every ``*.yaml`` / ``*.yml`` file in it, in name order.

- ``--cards PATH...``: card files or folders; they replace the packaged card set (add ``configs/cards`` to keep it).
  Or, alone, a generated pool: ``--cards generated:seed=S,size=N`` (:mod:`ccg_env.engine.generated_pool`), whose
  own decks are played when no ``--decks`` are given.
- ``--decks DECK [DECK]``: packaged deck names, deck files, or a folder of one or two deck files; one deck is
  used by both seats; the first is seat 0's.
- ``--rules PATH``: a rules file.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from .engine import CardSet, Rules
from .engine.cards import default_cards, load_cards
from .engine.decks import Deck, default_deck_paths, resolve_deck
from .engine.generated_pool import generated_card_set, is_generated_spec

_YAML = (".yaml", ".yml")


def add_data_options(command: argparse.ArgumentParser, decks: bool = True) -> None:
    """Add ``--cards``, ``--decks`` (unless ``decks`` is False: the arena has a deck pool) and ``--rules``."""
    command.add_argument("--cards", nargs="+", metavar="PATH",
                         help="card YAML files or folders of them, replacing the packaged cards, or a generated pool "
                              "'generated:seed=S,size=N' alone (default: packaged)")
    if decks:
        command.add_argument("--decks", nargs="+", metavar="DECK",
                             help="one or two decks (seat 0's first): packaged names "
                                  f"({', '.join(default_deck_paths())}), deck YAML files, or a folder of them "
                                  "(default: the packaged pair)")
    command.add_argument("--rules", metavar="PATH", help="rules YAML file (default: the packaged rules)")


@dataclass(frozen=True)
class GameData:
    """Checked rules, cards and decks (None = the packaged default) and the paths they came from."""

    rules: Rules | None = None
    cards: CardSet | None = None
    decks: tuple[Deck, Deck] | None = None
    sources: dict[str, Any] | None = None

    def game_kwargs(self) -> dict[str, Any]:
        """Keyword arguments for ``Game.new``, ``MatchRunner`` and ``run_tournament``."""
        return {"rules": self.rules, "cards": self.cards, "decks": list(self.decks) if self.decks else None}


def yaml_files(paths: Sequence[str], option: str) -> list[Path]:
    """Files for ``paths``: each file as given, each folder as its YAML files; a missing path is an error."""
    files: list[Path] = []
    for text in paths:
        path = Path(text)
        if path.is_dir():
            found = sorted(p for p in path.iterdir() if p.suffix in _YAML and p.is_file())
            if not found:
                raise ValueError(f"{option} {text!r}: the folder holds no .yaml files")
            files += found
        elif path.is_file():
            files.append(path)
        else:
            raise ValueError(f"{option} {text!r}: no such file or folder")
    return files


def load_game_data(cards: Sequence[str] | None = None, decks: Sequence[str] | None = None,
                   rules: str | None = None) -> GameData:
    """Load and check the given files (None: the packaged default for that part).

    Raises:
        ValueError: a path is missing, or a file fails the engine's checks (the engine's ``DataError`` names
            the file, item and field).
    """
    rules_set = Rules.load(_one_file(rules, "--rules")) if rules is not None else None
    card_files, card_set = _cards(cards)
    deck_pair = None
    deck_specs: list[str] | None = None
    if decks:
        deck_specs = _deck_specs(decks)
        checked = [resolve_deck(spec, card_set if card_set is not None else default_cards(),
                                rules_set if rules_set is not None else Rules.load()) for spec in deck_specs]
        deck_pair = (checked[0], checked[-1])
    sources = {"cards": [str(p) for p in card_files] if card_files else None, "decks": deck_specs,
               "rules": str(rules) if rules is not None else None}
    return GameData(rules_set, card_set, deck_pair, sources if any(sources.values()) else None)


def _cards(cards: Sequence[str] | None) -> tuple[list[Any] | None, CardSet | None]:
    """The ``--cards`` given (files, or a generated pool's spec alone) and the card set they load."""
    if not cards:
        return None, None
    if any(is_generated_spec(text) for text in cards):
        if len(cards) != 1:
            raise ValueError(f"--cards: a generated pool is given alone, not with card files: {' '.join(cards)}")
        pool = generated_card_set(cards[0])
        return [pool.spec], pool
    files = yaml_files(cards, "--cards")
    return files, load_cards(files)


def _one_file(text: str, option: str) -> Path:
    path = Path(text)
    if not path.is_file():
        raise ValueError(f"{option} {text!r}: " + ("a folder, not a file" if path.is_dir() else "no such file"))
    return path


def _deck_specs(decks: Sequence[str]) -> list[str]:
    specs: list[str] = []
    for text in decks:
        if text in default_deck_paths():
            specs.append(text)
        else:
            specs += [str(p) for p in yaml_files([text], "--decks")]
    if not 1 <= len(specs) <= 2:
        raise ValueError(f"--decks: give one deck (both seats) or two (seat 0's first); {decks!r} gives "
                         f"{len(specs)}: {', '.join(specs)}")
    return specs
