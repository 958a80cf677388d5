"""Rule: every option given to a Gymnasium front-end (the single env, the batched env, the draft env) reaches the env
core under its games: the card set, the deck pair, the draft's hero classes and the normalized observation space (the
unit box); and the batched env's games keep no action log unless asked (the log costs time on every training step)."""

from __future__ import annotations

import numpy as np

from ccg_env.engine import CardClass
from ccg_env.engine.game_setup import resolve_deck_pair
from ccg_env.env.duel import DuelSetup
from ccg_env.env.gym_env import CcgDuelEnv
from ccg_env.env.vector import CcgDuelVectorEnv
from tests.card_files import packaged_card_files


def test_the_gym_env_plays_the_card_set_and_decks_it_was_given(tmp_path):
    extra = tmp_path / "extra.yaml"
    extra.write_text("cards:\n  - {id: test_pet, name: Test Pet, type: minion, cost: 1, attack: 1, health: 2}\n")
    files = [*packaged_card_files(), extra]
    env = CcgDuelEnv(opponent="random", seat=0, cards=files, decks=["aggro", "control"])
    env.reset(seed=3)
    core = env.duel.core
    assert "test_pet" in core.cards and env.duel.game.cards is core.cards
    for player, deck in zip(env.duel.game.state.players, resolve_deck_pair(["aggro", "control"], core.cards, core.rules)):
        assert sorted(card.definition.id for card in (*player.deck, *player.hand)) == sorted(deck.cards)


def test_the_draft_setup_keeps_the_hero_classes_it_was_given():
    setup = DuelSetup.build(mode="draft", heroes=("warrior", "mage"))
    assert setup.core.heroes == (CardClass.WARRIOR, CardClass.MAGE)
    assert [side.hero for side in setup.core.new_game(0).draft.sides] == [CardClass.WARRIOR, CardClass.MAGE]


def test_the_batched_env_keeps_no_action_log_unless_asked():
    quiet, logged = CcgDuelVectorEnv(2), CcgDuelVectorEnv(2, log=True)
    quiet.reset(seed=0)
    logged.reset(seed=0)
    assert all(duel.game.state.log is None for duel in quiet.batch.duels)
    assert all(len(duel.game.log) > 0 for duel in logged.batch.duels)


def test_normalized_observations_have_the_unit_box_as_their_space_and_raw_ones_the_encoder_bounds():
    raw, normalized = CcgDuelEnv(seat=0), CcgDuelEnv(seat=0, normalize_observations=True)
    encoder = raw.setup.encoder
    assert normalized.observation_space.dtype == raw.observation_space.dtype == np.float32
    np.testing.assert_array_equal(normalized.observation_space.low, np.zeros(encoder.size, dtype=np.float32))
    np.testing.assert_array_equal(normalized.observation_space.high, np.ones(encoder.size, dtype=np.float32))
    np.testing.assert_array_equal(raw.observation_space.high, encoder.high)
    observation, _ = normalized.reset(seed=1)
    assert normalized.observation_space.contains(observation) and observation.max() <= 1.0
