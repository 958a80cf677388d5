"""Games whose observation differs from the packaged one by one thing (a card added, a card removed, a piece
resized, a keyword the model has not seen), for the tests of model files against observation specs."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from ccg_env.engine.game_setup import resolve_cards, resolve_rules
from ccg_env.env.observation import ObservationEncoder
from ccg_env.env.observation_spec import ObservationSpec
from tests.card_files import packaged_card_files

NEW_CARD = "test_wisp"
REMOVED_CARD = "wisp"  # a card no other card, hero power or deck refers to
UNSEEN_KEYWORD = "freeze"  # the last keyword column: a model written before it existed lacks it
#: What each game differs by, and the words naming it in a model's refusal.
NAMED = {"card added": rf"card '{NEW_CARD}' is new",
         "card removed": rf"card '{REMOVED_CARD}' is not in the game's card set",
         "piece resized": r"the model's observation has piece 'own_hand' of shape \(10, \d+\) \(\d+ values\), the "
                          r"game's \(9, \d+\)"}


def packaged_spec() -> ObservationSpec:
    return ObservationEncoder(resolve_rules(), resolve_cards()).spec


def cards_with_one_more(folder: Path) -> list[Path]:
    """The packaged card files and one more file holding a single new card."""
    folder.mkdir(parents=True, exist_ok=True)
    extra = folder / "extra.yaml"
    extra.write_text(f"set: extra\ncards:\n  - {{id: {NEW_CARD}, name: Test Wisp, type: minion, cost: 0, "
                     f"attack: 1, health: 1}}\n")
    return [*packaged_card_files(), extra]


def cards_with_one_less(folder: Path) -> list[Path]:
    """Copies of the packaged card files without the card ``REMOVED_CARD``."""
    folder.mkdir(parents=True, exist_ok=True)
    copies = []
    for path in packaged_card_files():
        text = path.read_text()
        line = f"  - {{id: {REMOVED_CARD}, name: Wisp, type: minion, cost: 0, attack: 1, health: 1}}\n"
        if path.name == "basic.yaml":
            assert text.count(line) == 1
            text = text.replace(line, "")
        copies.append(folder / path.name)
        copies[-1].write_text(text)
    return copies


def rules_with_a_smaller_hand(folder: Path) -> object:
    """The packaged rules with a hand of 9 cards: the hand pieces have 9 rows instead of 10."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "rules.yaml"
    path.write_text("max_hand: 9\n")
    return resolve_rules(str(path))


def spec_of_game(rules: object = None, cards: object = None) -> ObservationSpec:
    return ObservationEncoder(resolve_rules(rules), resolve_cards(cards)).spec


def spec_without_the_last_keyword(spec: ObservationSpec) -> ObservationSpec:
    """The spec a model written before ``UNSEEN_KEYWORD`` existed records: one keyword column fewer per row."""
    assert spec.keywords[-1] == UNSEEN_KEYWORD
    narrower = {"own_hand", "own_battlefield", "enemy_battlefield"}
    pieces = tuple((name, (shape[0], shape[1] - 1) if name in narrower else shape) for name, shape in spec.pieces)
    return dataclasses.replace(spec, keywords=spec.keywords[:-1], pieces=pieces)
