"""EnvCore.step and play_until: the one step (illegal actions, the end of the game, rewards) and the one play loop."""

from __future__ import annotations

import random

import pytest

from ccg_env.engine import Game
from ccg_env.env.aec import raw_env
from ccg_env.env.core import EnvCore

LETHAL = {"current": 0, "players": [{"mana": 10, "hand": ["fireball"]}, {"health": 5, "hand": ["wisp"]}]}
FIREBALL_FACE = 1 + 7 + 2  # play hand slot 0 at the enemy hero (target slot B + 2)
YETI_NO_MANA = {"current": 1, "players": [{}, {"mana": 0, "hand": ["chillwind_yeti"]}]}


def _random_choice(rng: random.Random):
    return lambda game, seat: rng.choice(game.legal_actions())


def test_a_legal_id_is_applied_as_the_engine_would_and_nobody_is_paid():
    core = EnvCore()
    match, by_hand = core.new_match(5), Game.new(5, decks=core.decks_for(5))
    action_id, choice = next(iter(core.legal_ids(match).items()))
    step = core.step(match, action_id)
    by_hand.apply(choice)
    assert match.game.to_json() == by_hand.to_json()
    assert (step.rewards, step.terminated, step.truncated, step.result, step.illegal) == ((0.0, 0.0), False, False,
                                                                                         None, False)
    assert step.current == by_hand.current_player == match.current


def test_a_lethal_blow_ends_the_game_with_the_winner_paid_and_the_loser_charged():
    core = EnvCore()
    match = core.new_match(0, scenario=LETHAL)
    step = core.step(match, FIREBALL_FACE)
    assert (step.rewards, step.terminated, step.truncated, step.result) == ((1.0, -1.0), True, False, "win")
    assert (step.outcome(0), step.outcome(1), step.current, match.is_over) == ("win", "loss", -1, True)
    assert core.legal_ids(match) == {}
    with pytest.raises(RuntimeError, match="the game is over"):
        core.step(match, 0)


def test_the_turn_limit_truncates_with_no_reward():
    core = EnvCore(turn_limit=2)
    match = core.new_match(1)
    step = core.play_until(match, -1, _random_choice(random.Random(1)))
    assert (step.rewards, step.terminated, step.truncated, step.result) == ((0.0, 0.0), False, True, "turn_limit")
    assert step.outcome(0) == step.outcome(1) == "turn_limit"


def test_a_forfeit_charges_the_offender_ends_the_game_and_leaves_the_engine_game_as_it_was():
    core = EnvCore()
    match = core.new_match(0, scenario=YETI_NO_MANA)
    before = match.game.to_json()
    step = core.step(match, 1, "learner")  # the yeti costs 4 and seat 1 has no mana
    assert (step.rewards, step.terminated, step.truncated, step.illegal) == ((0.0, -1.0), True, False, True)
    assert step.outcome(0) == step.outcome(1) == "illegal_action" and match.forfeit == 1
    assert match.game.to_json() == before and match.is_over and core.legal_ids(match) == {}


def test_an_ignored_id_pays_the_offender_who_moves_again_and_a_refused_one_raises():
    ignoring = EnvCore(illegal_action="ignore", illegal_reward=-0.25)
    match = ignoring.new_match(0, scenario=YETI_NO_MANA)
    before = match.game.to_json()
    step = ignoring.step(match, 1)
    assert (step.rewards, step.terminated, step.current, step.illegal) == ((0.0, -0.25), False, 1, True)
    assert match.game.to_json() == before and not match.is_over
    raising = EnvCore(illegal_action="raise")
    match = raising.new_match(0, scenario=YETI_NO_MANA)
    with pytest.raises(ValueError, match=r"^learner: action 1 \(play hand slot 0 at no target\) is illegal now"):
        raising.step(match, 1, "learner")
    assert match.game.to_json() == before and match.forfeit is None


def test_play_until_stops_when_the_seat_is_to_move_and_a_chooser_may_stop_it():
    core = EnvCore()
    match = core.new_match(3)
    seat = 1 - match.current
    step = core.play_until(match, seat, _random_choice(random.Random(0)))
    assert step.current == match.current == seat and match.game.state.result is None
    before = match.game.to_json()
    assert core.play_until(match, 1 - seat, lambda game, player: None).current == seat  # deferred: nothing moves
    assert match.game.to_json() == before
    assert core.play_until(match, seat, _random_choice(random.Random(0))).current == seat  # already its move


def test_play_until_plays_a_whole_game_as_the_engine_would():
    core = EnvCore()
    match, by_hand, rng, again = core.new_match(9), Game.new(9, decks=core.decks_for(9)), random.Random(2), random.Random(2)
    step = core.play_until(match, -1, _random_choice(rng))
    while not by_hand.is_over:
        by_hand.apply(again.choice(by_hand.legal_actions()))
    assert match.game.to_json() == by_hand.to_json() and step.current == -1 and step.result is not None


def test_a_draft_match_steps_its_picks_then_deals_its_battle_with_the_drafted_decks_and_its_seed():
    core = EnvCore(mode="draft")
    match = core.new_match(4)
    offset, game, seats = core.codec.layout.draft_offset, match.game, []
    while game.in_draft:
        assert set(core.legal_ids(match)) == {offset, offset + 1, offset + 2}
        seats.append(match.current)
        step = core.step(match, offset)
        assert step.rewards == (0.0, 0.0) and step.result is None
    assert seats == [0, 1] * core.rules.deck_size  # seat 0 picks first in every round
    assert match.game is game and game.to_json() == Game.new(4, decks=game.draft.decks()).to_json()
    assert step.current == game.current_player


def test_a_draft_match_plays_both_seats_picks_through_play_until():
    core = EnvCore(mode="draft")
    match, picks = core.new_match(2), []

    def choose(game, seat):
        if game.in_draft:
            picks.append(seat)
        return game.legal_actions()[0]

    step = core.play_until(match, -1, choose)
    assert len(picks) == 2 * core.rules.deck_size and picks[:2] == [0, 1]
    assert not match.game.in_draft and step.result is not None


def test_the_aec_env_pays_nothing_again_after_an_ignored_id():
    env = raw_env(illegal_action="ignore", illegal_reward=-0.5)
    env.reset(seed=0, options={"scenario": {"current": 0, "players": [{"mana": 0, "hand": ["chillwind_yeti"]}, {}]}})
    env.step(1)
    assert env.rewards == {"player_0": -0.5, "player_1": 0.0} and env.agent_selection == "player_0"
    env.step(0)  # end turn: a legal step pays nobody
    assert env.rewards == {"player_0": 0.0, "player_1": 0.0}
