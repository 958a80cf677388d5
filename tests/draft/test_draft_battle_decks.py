"""ccg_env/Draft-v1 battles with exactly the decks just drafted: the learner's battle seat holds the cards the
learner picked and the other seat the opponent's picks, whichever seat the learner drafted from."""

import numpy as np
import pytest

from ccg_env.env.draft_env import CcgDraftEnv

FAST = {"opponent": "random", "opponent_draft": "random"}


def dealt_card_ids(game, seat: int, zones=("deck", "hand")) -> list[str]:
    """The sorted ids of a seat's cards in ``zones``, without the coin the second player is given."""
    player = game.state.players[seat]
    return sorted(card.definition.id for zone in zones for card in getattr(player, zone)
                  if card.definition.id != "the_coin")


def draft_to_the_battle(env: CcgDraftEnv, seed: int) -> tuple[list[str], dict]:
    """Draft with varied picks until the battle starts; return the ids of the cards the learner took and the info."""
    rng = np.random.default_rng(seed)
    offset = env.setup.core.codec.layout.draft_offset
    _, info = env.reset(seed=seed)
    taken = []
    while info["phase"] == "draft":
        k = int(rng.integers(3))
        taken.append(env.draft.offer(env.duel.seat)[k].id)
        _, _, terminated, truncated, info = env.step(offset + k)
        assert not (terminated or truncated)
    return sorted(taken), info


@pytest.mark.parametrize("seat", [0, 1])
def test_the_battle_deals_the_learner_its_own_picks_and_the_opponent_its_picks(seat):
    env = CcgDraftEnv(**FAST, seat=seat)
    taken, info = draft_to_the_battle(env, seed=21 + seat)
    game = env.game
    assert info["phase"] == "battle" and game is not None and env.duel.seat == seat
    assert len(taken) == env.draft.rules.deck_size
    # the learner has not moved in the battle yet: all its cards are still in its deck or hand
    assert dealt_card_ids(game, seat) == taken
    opponent_picks = sorted(card.id for card in env.draft.picks(1 - seat))
    zones = ("deck", "hand", "battlefield", "graveyard", "secrets", "weapon")  # seat 0 may have played a turn
    assert dealt_card_ids(game, 1 - seat, zones if seat == 1 else ("deck", "hand")) == opponent_picks
    assert opponent_picks != taken  # the two decks differ, so a swap or a default deck would show


def test_each_episode_battles_with_its_own_new_draft():
    env = CcgDraftEnv(**FAST, seat=0)
    first, _ = draft_to_the_battle(env, seed=4)
    second, _ = draft_to_the_battle(env, seed=5)
    assert first != second
    assert dealt_card_ids(env.game, 0) == second
