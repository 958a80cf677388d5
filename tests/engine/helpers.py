"""Shared helpers for engine tests: building boards and playing seeded random games (with invariant checks)."""

from __future__ import annotations

import random
from ccg_env.engine import Choice, ChoiceKind, Game, Rules
from ccg_env.engine.invariants import check_invariants

#: The default rules without the mulligan: games that start at turn 1, as before the mulligan existed (for tests
#: of other rules that need the opening hands as dealt).
NO_MULLIGAN = Rules(mulligan=False)


def board(p0: dict | None = None, p1: dict | None = None, current: int = 0, **extra) -> dict:
    """A scenario dict with sensible defaults (10 mana each, no cards)."""
    base = {"mana": 10}
    return {"current": current, "players": [{**base, **(p0 or {})}, {**base, **(p1 or {})}], **extra}


def minions(game: Game, player: int) -> list[tuple[str, int, int]]:
    """(id, attack, health) of a player's battlefield, left to right."""
    return [(c.definition.id, c.attack, c.health) for c in game.player(player).battlefield]


def play(game: Game, card_id: str, target=None) -> None:
    """Play the first card with this id from the current player's hand at ``target`` (a Card or None)."""
    hand = game.player(game.current_player).hand
    card = next(c for c in hand if c.definition.id == card_id)
    game.apply(Choice(ChoiceKind.PLAY, card.uid, None if target is None else target.uid))


def attack(game: Game, attacker, defender) -> None:
    game.apply(Choice(ChoiceKind.ATTACK, attacker.uid, defender.uid))


def kinds(game: Game) -> list[tuple[int, str]]:
    """(depth, kind) of every log entry."""
    return [(e.depth, e.kind) for e in game.log]


def random_game(seed: int, decks=None, check: bool = False, log: bool = False) -> tuple[Game, list[Choice]]:
    """Play a seeded random game to the end; return it with the choices made."""
    game = Game.new(seed=seed, decks=decks, log=log)
    rng = random.Random(seed)
    choices = []
    while not game.is_over:
        choice = rng.choice(game.legal_actions())
        choices.append(choice)
        game.apply(choice)
        if check:
            check_invariants(game)
    return game, choices


def class_decks(seed: int) -> list:
    """Two packaged decks (neutral cards only) played by heroes of classes picked by the seed: every class and
    every pair of packaged decks comes up over consecutive seeds."""
    import dataclasses

    from ccg_env.engine import CardClass, Rules, default_cards
    from ccg_env.engine.decks import default_deck_paths, resolve_deck

    names, classes = sorted(default_deck_paths()), list(CardClass)
    rules, cards = Rules.load(), default_cards()
    return [dataclasses.replace(resolve_deck(names[(seed + i) % len(names)], cards, rules),
                                hero=classes[(seed // (1 + i)) % len(classes)]) for i in range(2)]
