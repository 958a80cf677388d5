"""The packaged decks: each loads into a game, and seeded random play over every deck keeps the zones sound."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from ccg_env.engine import CardClass, Game, Rules, default_cards, load_deck
from ccg_env.engine.decks import default_deck_paths

DECKS = sorted(default_deck_paths())


def test_there_are_at_least_four_packaged_decks_including_the_defaults():
    assert len(DECKS) >= 4 and {"midrange", "aggro"} <= set(DECKS)


@pytest.mark.parametrize("name", DECKS)
def test_deck_is_thirty_collectible_cards_with_at_most_two_copies(name):
    cards, rules = default_cards(), Rules.load()
    deck = load_deck(default_deck_paths()[name], cards, rules)
    assert len(deck.cards) == rules.deck_size == 30
    assert max(Counter(deck.cards).values()) <= rules.max_copies
    assert all(cards[card_id].collectible for card_id in deck.cards)


def test_every_packaged_deck_is_a_class_deck_and_every_class_is_played():
    cards, rules = default_cards(), Rules.load()
    decks = {name: load_deck(path, cards, rules) for name, path in default_deck_paths().items()}
    assert 7 <= len(decks) <= 8  # the arena plays every ordered pair
    assert {deck.hero for deck in decks.values()} == set(CardClass) - {CardClass.NEUTRAL}
    for name, deck in decks.items():
        class_cards = [card_id for card_id in deck.cards if cards[card_id].card_class is deck.hero]
        assert len(class_cards) >= 7, f"{name} ({deck.hero.value}) holds only {len(class_cards)} class cards"


def _assert_zones_sound(game: Game, initial: set[int]) -> None:
    uids = Counter(card.uid for card in game.state.all_cards())
    assert max(uids.values()) == 1, "a card is in two places"
    assert initial <= set(uids), "a card vanished"
    for player in game.state.players:
        for zone, cards in player.zones():
            assert all(card.zone == zone and card.owner == player.index for card in cards)
        assert len(player.battlefield) <= 7 and len(player.hand) <= 10
        assert all(0 < m.health <= m.max_health for m in player.battlefield)


@pytest.mark.parametrize("name", DECKS)
def test_random_play_with_each_deck_finishes_with_every_card_in_one_zone(name):
    for seed in range(3):
        opponent = DECKS[(DECKS.index(name) + seed + 1) % len(DECKS)]
        game = Game.new(seed, decks=[name, opponent], log=False)
        initial = {card.uid for card in game.state.all_cards()}
        chooser = random.Random(seed)
        while not game.is_over:
            game.apply(chooser.choice(game.legal_actions()))
            _assert_zones_sound(game, initial)
        assert game.result is not None
