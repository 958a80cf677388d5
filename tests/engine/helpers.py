"""Shared helpers for engine tests: building boards, playing seeded random games, invariant checks."""

from __future__ import annotations

import random
from collections import Counter

from ccg_env.engine import Choice, ChoiceKind, Game, Zones


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


def check_invariants(game: Game) -> None:
    """Every card id in exactly one zone, zone limits, mana and health bounds."""
    state, rules = game.state, game.state.rules
    seen = Counter()
    for player in state.players:
        for zone, cards in player.zones():
            for card in cards:
                seen[card.uid] += 1
                assert card.zone is zone, f"{card!r} listed in {zone.name} but says {Zones(card.zone).name}"
        assert len(player.hand) <= rules.max_hand
        assert len(player.battlefield) <= rules.max_battlefield
        assert len(player.secrets) <= rules.max_secrets
        assert len(player.hero_zone) == 1 and len(player.weapon) <= 1
        assert 0 <= player.mana <= rules.max_mana and 0 <= player.max_mana <= rules.max_mana
        for card in (*player.hero_zone, *player.battlefield):
            assert card.health <= card.max_health, f"{card!r} above its maximum health"
        for card in player.battlefield:
            assert card.health > 0, f"{card!r} survived the reaper"
    duplicated = [uid for uid, n in seen.items() if n != 1]
    assert not duplicated, f"card ids in more than one zone: {duplicated}"


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
