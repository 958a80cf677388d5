"""Training evaluations play the arena's deals: every ordered deck pair from both seats, whatever the batch size."""

from collections import Counter

import numpy as np
import pytest

from ccg_env.env.deals import Deal, balanced_deals, deck_pairs
from ccg_env.env.vector import DuelBatch
from ccg_env.training.eval_games import play_deals


def test_a_cycle_of_deals_plays_every_ordered_deck_pair_from_both_seats_once():
    deals = balanced_deals(98, seed=10, n_decks=7)
    assert Counter((deal.decks, deal.seat) for deal in deals) == {(pair, seat): 1 for pair in deck_pairs(7)
                                                                   for seat in (0, 1)}
    assert [deal.seed for deal in deals[:4]] == [10, 10, 11, 11]  # each deal from both seats, then the next
    assert deals[0].decks == deals[1].decks and (deals[0].seat, deals[1].seat) == (0, 1)
    first_round = balanced_deals(14, seed=0, n_decks=7)  # 2 x 7 games: every deck from each seat once
    assert Counter((deal.decks[deal.seat], deal.seat) for deal in first_round) == {(d, s): 1 for d in range(7)
                                                                                    for s in (0, 1)}


def test_a_fixed_seat_or_no_pool_is_kept():
    assert {deal.seat for deal in balanced_deals(10, seed=0, n_decks=3, seat=1)} == {1}
    assert balanced_deals(3, seed=5, n_decks=0) == [Deal(5, None, 0), Deal(5, None, 1), Deal(6, None, 0)]
    with pytest.raises(ValueError, match="seat: expected None, 0 or 1, got 2"):
        balanced_deals(4, seed=0, n_decks=3, seat=2)
    with pytest.raises(ValueError, match="games: expected a whole number >= 0, got -1"):
        balanced_deals(-1, seed=0, n_decks=3)


def _first_legal(observations, masks):
    return np.argmax(masks, axis=1)


class RecordingDuel:
    """A duel of the batch that notes what each game was dealt (the options ``Duel.reset`` is given)."""

    def __init__(self, duel, dealt):
        self.duel, self.dealt = duel, dealt

    def reset(self, rng, options=None):
        self.duel.reset(rng, options)
        self.dealt.append((options["seat"], tuple(deck.name for deck in options.get("decks", ())),
                           getattr(self.duel, "game_seed", None)))  # a draft duel has no seed of its own

    def step(self, action):
        return self.duel.step(action)

    @property
    def outcome(self):
        return self.duel.outcome


def _recorded_batch(dealt, num_envs, **options):
    batch = DuelBatch(num_envs, **options)
    batch.duels = [RecordingDuel(duel, dealt) for duel in batch.duels]
    return batch


def test_play_deals_deals_the_pool_as_scheduled_and_does_not_depend_on_the_batch_size():
    results = []
    for num_envs in (1, 5, 16):
        dealt = []
        batch = _recorded_batch(dealt, num_envs, opponent="heuristic", decks="random", normalize_observations=True)
        outcomes = play_deals(batch, _first_legal, 28, seed=3)
        assert sum(outcomes.values()) == 28
        results.append((outcomes, sorted(dealt)))
    assert results[0] == results[1] == results[2]  # the same games, whatever the batch size
    pool = [deck.name for deck in batch.setup.core.deck_pool]
    expected = sorted((deal.seat, (pool[deal.decks[0]], pool[deal.decks[1]])) for deal in balanced_deals(28, 3, 7))
    assert sorted(row[:2] for row in results[0][1]) == expected


def test_play_deals_keeps_a_fixed_pair_and_seat():
    dealt = []
    batch = _recorded_batch(dealt, 4, opponent="random", decks=["aggro", "control"], seat=1)
    assert sum(play_deals(batch, _first_legal, 6, seed=0).values()) == 6
    assert {row[:2] for row in dealt} == {(1, ())} and len(dealt) == 6


def test_play_deals_takes_one_action_per_row_in_any_shape():
    """``act`` may return its action ids as a column (a batch of one-element rows): the same games as a flat array."""
    flat = play_deals(DuelBatch(3, opponent="random", decks="random"), _first_legal, 8, seed=1)
    column = play_deals(DuelBatch(3, opponent="random", decks="random"),
                        lambda observations, masks: _first_legal(observations, masks).reshape(-1, 1), 8, seed=1)
    assert column == flat and sum(flat.values()) == 8


def test_play_deals_in_draft_mode_deals_no_decks_so_every_game_drafts_its_own():
    dealt = []
    batch = _recorded_batch(dealt, 2, opponent="random", decks="random", mode="draft")
    assert sum(play_deals(batch, _first_legal, 4, seed=0).values()) == 4
    assert [row[:2] for row in dealt] == [(0, ()), (1, ()), (0, ()), (1, ())]


def test_play_deals_steps_each_game_with_the_action_id_act_chose_for_its_row():
    chosen, stepped = [], []

    class StepRecordingDuel(RecordingDuel):
        def step(self, action):
            stepped.append(action)
            return self.duel.step(action)

    def act(observations, masks):
        actions = _first_legal(observations, masks)
        chosen.extend(actions.tolist())
        return actions

    batch = DuelBatch(3, opponent="random", decks="random")
    batch.duels = [StepRecordingDuel(duel, []) for duel in batch.duels]
    assert sum(play_deals(batch, act, 4, seed=2).values()) == 4
    assert stepped == chosen and all(type(action) is int for action in stepped)


@pytest.mark.parametrize("games", [True, False, 2.0, "4", None])
def test_balanced_deals_refuses_a_game_count_that_is_not_a_whole_number(games):
    with pytest.raises(ValueError, match=f"games: expected a whole number >= 0, got {games!r}"):
        balanced_deals(games, seed=0, n_decks=3)


def test_balanced_deals_of_no_games_is_empty_and_either_seat_may_be_fixed():
    assert balanced_deals(0, seed=0, n_decks=3) == []
    assert [deal.seat for deal in balanced_deals(3, seed=0, n_decks=3, seat=0)] == [0, 0, 0]
    assert [deal.seat for deal in balanced_deals(3, seed=0, n_decks=3, seat=1)] == [1, 1, 1]


def test_deck_pairs_round_r_deals_deck_i_against_deck_i_plus_r():
    assert deck_pairs(3) == [(0, 0), (1, 1), (2, 2), (0, 1), (1, 2), (2, 0), (0, 2), (1, 0), (2, 1)]
    assert deck_pairs(0) == [] and deck_pairs(1) == [(0, 0)]
