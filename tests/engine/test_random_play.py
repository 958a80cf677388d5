"""Invariants under seeded random play, and clones and JSON round-trips that play on identically."""

import random

import pytest

from ccg_env.engine import Game
from ccg_env.engine.decks import default_deck_paths

from .helpers import check_invariants, class_decks, random_game

DECKS = sorted(default_deck_paths())


def test_500_random_games_hold_the_invariants_and_end_with_a_result():
    results = {"win": 0, "draw": 0, "turn_limit": 0}
    for seed in range(500):
        decks = [DECKS[seed % len(DECKS)], DECKS[(seed // len(DECKS)) % len(DECKS)]]
        game, _ = random_game(seed, decks=decks, check=True)
        assert game.is_over and game.result is not None
        assert (game.winner is not None) == (game.result.value == "win")
        results[game.result.value] += 1
    assert sum(results.values()) == 500 and results["win"] > 400


def _play_on(game: Game, seed: int) -> list:
    rng = random.Random(seed)
    trace = []
    while not game.is_over:
        choice = rng.choice(game.legal_actions())
        trace.append(choice)
        game.apply(choice)
    return trace + [game.to_json()]


@pytest.mark.parametrize("seed", range(40))
def test_clone_and_json_round_trip_play_on_identically(seed):
    game = Game.new(seed=seed)
    rng = random.Random(seed)
    for _ in range(rng.randrange(5, 60)):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
    text = game.to_json()
    restored = Game.from_json(text)
    assert restored.to_json() == text
    clone = game.clone()
    expected = _play_on(game, seed + 1000)
    assert _play_on(clone, seed + 1000) == expected
    assert _play_on(restored, seed + 1000) == expected
    check_invariants(clone)


def test_clone_is_independent_of_the_original():
    game = Game.new(seed=7)
    clone = game.clone()
    before = game.to_json()
    _play_on(clone, 1)
    assert game.to_json() == before


def test_same_seed_same_game_and_log():
    first, a = random_game(11, log=True)
    second, b = random_game(11, log=True)
    assert a == b and first.to_json() == second.to_json()
    assert [str(e) for e in first.log] == [str(e) for e in second.log]
    assert random_game(12)[0].to_json() != first.to_json()


def test_random_games_with_every_hero_hold_the_invariants_and_use_every_power():
    used: set[str] = set()
    for seed in range(70):
        game, choices = random_game(seed, decks=class_decks(seed), check=True, log=True)
        assert game.is_over
        used |= {e.action.card.definition.id for e in game.log if e.kind == "UseHeroPower" and not e.cancelled}
    assert used == {"fireblast", "armor_up", "reinforce", "lesser_heal", "dagger_mastery", "life_tap"}


@pytest.mark.parametrize("seed", range(12))
def test_clone_and_json_round_trip_with_hero_powers_play_on_identically(seed):
    game = Game.new(seed=seed, decks=class_decks(seed))
    rng = random.Random(seed)
    for _ in range(rng.randrange(10, 60)):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
    restored = Game.from_json(game.to_json())
    expected = _play_on(game.clone(), seed + 1000)
    assert _play_on(restored, seed + 1000) == expected
    assert _play_on(game, seed + 1000) == expected
