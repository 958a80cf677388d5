"""Helpers for the one-scenario-per-card tests: build a small board, play cards, read the state, record coverage."""

from __future__ import annotations

from typing import Any, Callable, Iterable, TypeVar

from ccg_env.engine import Card, Choice, ChoiceKind, Game, Keyword

F = TypeVar("F", bound=Callable[..., Any])

#: Card ids that some test in this package claims to cover (filled by :func:`covers` at import time).
TESTED_IDS: set[str] = set()

ME, ENEMY = 0, 1


def covers(*card_ids: str) -> Callable[[F], F]:
    """Record that the decorated test covers these card ids (checked against the whole set in test_registry)."""

    def record(test: F) -> F:
        TESTED_IDS.update(card_ids)
        return test

    return record


def make_game(me: dict | None = None, enemy: dict | None = None, *, seed: int = 0, turn: int = 3,
              current: int = ME) -> Game:
    """Build a board with player 0 ("me") on turn unless ``current`` says otherwise; 10 mana each by default.

    ``me`` and ``enemy`` use the scenario format of :mod:`ccg_env.engine.scenario` (hand, battlefield, deck...).
    """
    players = [{"mana": 10, **(me or {})}, {"mana": 10, **(enemy or {})}]
    return Game.from_scenario({"current": current, "turn": turn, "players": players}, seed=seed)


def in_hand(game: Game, card_id: str, player: int | None = None) -> Card:
    """Return the first card with this id in a hand (the current player's by default)."""
    hand = game.player(game.current_player if player is None else player).hand
    return next(card for card in hand if card.definition.id == card_id)


def play(game: Game, card_id: str, target: Card | None = None) -> Card:
    """Play a card from the current player's hand through legal_actions/apply; return the played card."""
    card = in_hand(game, card_id)
    choice = Choice(ChoiceKind.PLAY, card.uid, None if target is None else target.uid)
    assert choice in game.legal_actions(), f"{choice} is not legal"
    game.apply(choice)
    return card


def attack(game: Game, attacker: Card, defender: Card) -> None:
    """Attack through legal_actions/apply."""
    choice = Choice(ChoiceKind.ATTACK, attacker.uid, defender.uid)
    assert choice in game.legal_actions(), f"{choice} is not legal"
    game.apply(choice)


def end_turn(game: Game) -> None:
    """End the current player's turn (the other player's turn starts)."""
    game.apply(Choice(ChoiceKind.END_TURN))


def hero(game: Game, player: int) -> Card:
    """The player's hero."""
    return game.player(player).hero


def board(game: Game, player: int) -> list[tuple[str, int, int]]:
    """The player's minions as (id, attack, health), left to right."""
    return [(c.definition.id, c.attack, c.health) for c in game.player(player).battlefield]


def minion(game: Game, player: int, index: int = 0) -> Card:
    """The minion in a battlefield slot."""
    return game.player(player).battlefield[index]


def ids(cards: Iterable[Card]) -> list[str]:
    """Card ids, in order."""
    return [c.definition.id for c in cards]


def has(card: Card, keyword: Keyword) -> bool:
    """Whether a card currently has a keyword."""
    return bool(card.keywords & int(keyword))


def kinds(game: Game, start: int = 0) -> list[str]:
    """Kinds of the logged actions from ``start`` on (cancelled ones included)."""
    return [entry.kind for entry in game.log[start:]]


def done_kinds(game: Game, start: int = 0) -> list[str]:
    """Kinds of the logged actions from ``start`` on that were not refused."""
    return [entry.kind for entry in game.log[start:] if entry.cancelled is None]


def can_attack(game: Game, attacker: Card) -> bool:
    """Whether any attack with this character is among the legal actions."""
    return any(c.kind is ChoiceKind.ATTACK and c.source == attacker.uid for c in game.legal_actions())


def play_targets(game: Game, card_id: str) -> list[int | None]:
    """The target uids (None for no target) listed in the legal plays of a card in hand."""
    card = in_hand(game, card_id)
    return [c.target for c in game.legal_actions() if c.kind is ChoiceKind.PLAY and c.source == card.uid]


def health_total(cards: Iterable[Card]) -> int:
    """Sum of health (heroes' armor not included)."""
    return sum(c.health for c in cards)
