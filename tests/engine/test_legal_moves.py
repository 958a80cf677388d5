"""Legal-move generation agrees with the validators, and apply() reuses the listed moves only while they hold.

``Game.apply`` accepts exactly the choices ``legal_actions()`` lists, so generation must agree with the rules'
validators, which are what a directly performed action goes through: every choice that names cards of the
position is listed if and only if the validators (source and target) accept the action it stands for.
"""

import random

import pytest

from ccg_env.engine import Choice, ChoiceKind, Game, IllegalActionError
from ccg_env.engine.choices import END_TURN, legal_moves, to_action
from ccg_env.engine.decks import default_deck_paths

from .helpers import board

DECKS = sorted(default_deck_paths())


def _every_conceivable_choice(game: Game) -> list[Choice]:
    """End turn, every own hand card at no target or at any card of the game, every own character at any card."""
    state = game.state
    me = state.players[state.current]
    everything = [card for player in state.players for _, cards in player.zones() for card in cards]
    choices = [END_TURN]
    for card in me.hand:
        choices.append(Choice(ChoiceKind.PLAY, card.uid, None))
        choices += [Choice(ChoiceKind.PLAY, card.uid, other.uid) for other in everything]
    for attacker in (*me.hero_zone, *me.battlefield):
        choices += [Choice(ChoiceKind.ATTACK, attacker.uid, other.uid) for other in everything]
    return choices


def _validators_accept(game: Game, choice: Choice) -> bool:
    action = to_action(game, choice)
    return not isinstance(action, str) and game.actions.refusal(game, action) is None


@pytest.mark.parametrize("seed", range(12))
def test_listed_moves_are_exactly_what_the_validators_accept(seed):
    game = Game.new(seed=seed, decks=[DECKS[seed % len(DECKS)], DECKS[(seed * 3 + 1) % len(DECKS)]])
    rng = random.Random(seed)
    positions = 0
    while not game.is_over:
        listed, moves = legal_moves(game)
        assert set(listed) == set(moves) and len(listed) == len(moves)
        for choice in _every_conceivable_choice(game):
            assert (choice in moves) == _validators_accept(game, choice), choice
        for choice, (source, target) in moves.items():
            assert (source.uid if source else None, target.uid if target else None) == choice[1:]
        positions += 1
        game.apply(rng.choice(listed))
    assert positions > 20


def test_apply_without_listing_first_checks_legality():
    game = Game.new(seed=3)
    choice = game.legal_actions()[-1]
    fresh = Game.new(seed=3)  # never listed its moves
    fresh.apply(choice)
    game.apply(choice)
    assert fresh.to_json() == game.to_json()


def test_moves_listed_before_an_action_are_not_reused_after_it():
    game = Game.from_scenario(board({"mana": 10, "hand": ["wisp", "wisp"]}))
    first, second = game.player(0).hand
    play_first, play_second = Choice(ChoiceKind.PLAY, first.uid), Choice(ChoiceKind.PLAY, second.uid)
    assert {play_first, play_second} <= set(game.legal_actions())
    game.apply(play_first)
    with pytest.raises(IllegalActionError, match="no card"):
        game.apply(play_first)  # listed before, but the card has left the hand
    game.apply(play_second)
    assert [c.uid for c in game.player(0).battlefield] == [first.uid, second.uid]
