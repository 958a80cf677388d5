"""The mulligan in the envs: its action ids, mask and observation pieces, and seat 1 in the Gymnasium duel."""

from __future__ import annotations

import warnings

import gymnasium as gym
import numpy as np
import pytest

from ccg_env.engine import Choice, ChoiceKind, IllegalActionError, Rules
from ccg_env.env.aec import raw_env
from ccg_env.env.codec import ActionCodec, ActionLayout
from ccg_env.env.gym_env import CcgDuelEnv

LAYOUT = ActionLayout.for_rules(Rules())
M = LAYOUT.mulligan_offset


def accepted_ids(game, codec) -> set[int]:
    """Every id of the whole action space that the engine accepts now (each tried on a clone)."""
    out = set()
    for action_id in range(codec.layout.size):
        choice = codec.decode(game, action_id)
        if choice is None:
            continue
        try:
            game.clone().apply(choice)
        except IllegalActionError:
            continue
        out.add(action_id)
    return out


def pieces(env, agent):
    observation = env.observe(agent)
    return observation, env.encoder.view(observation["observation"])


def test_the_mulligan_range_is_last_and_names_hand_slots():
    assert M == LAYOUT.hero_power_offset + LAYOUT.target_slots == 252  # after the attacks and the hero power
    assert LAYOUT.size == M + 10 == 262
    assert LAYOUT.describe(M + 3) == "mulligan: put back hand slot 3"
    assert LAYOUT.describe(0) == "end turn"


def test_mulligan_ids_encode_and_decode_hand_slots():
    env = raw_env()
    env.reset(seed=3)
    game, codec = env.game, env.codec
    hand = game.player(0).hand
    for slot, card in enumerate(hand):
        choice = Choice(ChoiceKind.MULLIGAN, card.uid)
        assert codec.encode(game, choice) == M + slot
        assert codec.decode(game, M + slot) == choice
    assert codec.decode(game, M + len(hand)) is None


def test_the_mask_in_the_mulligan_is_exactly_what_apply_accepts():
    env = raw_env()
    env.reset(seed=7)
    game, codec = env.game, env.codec
    for step in range(4):
        mask = env.observe(env.agent_selection)["action_mask"]
        assert set(np.flatnonzero(mask).tolist()) == accepted_ids(game, codec)
        env.step(M + 1 if step in (0, 2) else 0)  # mark slot 1, then done, for each seat
    assert not game.in_mulligan
    mask = env.observe(env.agent_selection)["action_mask"]
    assert not mask[M:].any() and set(np.flatnonzero(mask).tolist()) == accepted_ids(game, codec)


def test_mask_and_observation_follow_each_decision():
    env = raw_env()
    env.reset(seed=1)
    assert env.agent_selection == "player_0"
    observation, view = pieces(env, "player_0")
    assert np.flatnonzero(observation["action_mask"]).tolist() == [0, M, M + 1, M + 2]
    assert view["in_mulligan"].tolist() == [1.0] and not view["mulligan_marked"].any()
    env.step(M + 1)
    observation, view = pieces(env, "player_0")
    assert np.flatnonzero(observation["action_mask"]).tolist() == [0, M, M + 2]
    assert view["mulligan_marked"].tolist() == [0, 1] + [0] * 8
    env.step(0)
    assert env.agent_selection == "player_1"
    observation, view = pieces(env, "player_1")
    assert np.flatnonzero(observation["action_mask"]).tolist() == [0, M, M + 1, M + 2, M + 3]  # no coin yet
    env.step(M + 3)
    _, enemy_view = pieces(env, "player_0")
    assert enemy_view["in_mulligan"].tolist() == [1.0] and not enemy_view["mulligan_marked"].any()  # hidden
    env.step(0)
    for agent in ("player_0", "player_1"):
        _, view = pieces(env, agent)
        assert view["in_mulligan"].tolist() == [0.0] and not view["mulligan_marked"].any()
    assert env.agent_selection == "player_0" and env.game.turn == 1


def test_the_observation_of_a_game_without_the_mulligan_has_the_pieces_at_zero():
    env = raw_env(rules=Rules(mulligan=False))
    env.reset(seed=1)
    _, view = pieces(env, "player_0")
    assert not view["in_mulligan"].any() and not view["mulligan_marked"].any()
    assert np.flatnonzero(env.observe("player_0")["action_mask"]).max() < M


@pytest.mark.parametrize("opponent", ["random", "heuristic"])
def test_a_learner_in_seat_1_gets_its_mulligan_after_the_opponents(opponent):
    env = CcgDuelEnv(opponent=opponent, seat=1, render_mode="ansi")  # a render mode keeps the log
    observation, info = env.reset(seed=4)
    game = env.game
    assert info["seat"] == 1 and game.in_mulligan and game.current_player == 1
    assert [e.action.player for e in game.log if e.kind == "Mulligan"] == [0]  # the opponent's, before reset returned
    assert env.render().startswith("Mulligan: learner chooses")
    view = env.setup.encoder.view(observation)
    assert view["in_mulligan"].tolist() == [1.0]
    assert np.flatnonzero(env.action_masks()).tolist() == [0, M, M + 1, M + 2, M + 3]
    observation, reward, terminated, truncated, info = env.step(M)
    assert np.flatnonzero(env.action_masks()).tolist() == [0, M + 1, M + 2, M + 3]
    env.step(0)
    assert not game.in_mulligan and game.current_player == 1 and game.turn == 2  # the opponent played turn 1
    assert game.player(1).hand[-2].definition.id == "the_coin"


@pytest.mark.parametrize("seed", range(6))
def test_seat_1_games_play_to_the_end_through_the_mask(seed):
    env = CcgDuelEnv(opponent="heuristic" if seed % 2 else "random", seat=1)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    terminated = truncated = False
    steps = 0
    while not (terminated or truncated):
        _, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        steps += 1
    assert info["outcome"] in ("win", "loss", "draw", "turn_limit", "loop") and steps > 3


def test_seat_0_starts_in_its_own_mulligan_and_the_opponent_decides_inside_step():
    env = gym.make("ccg_env/Duel-v1", opponent="heuristic", seat=0, render_mode="ansi")
    env.reset(seed=2)
    game = env.unwrapped.game
    assert game.in_mulligan and game.current_player == 0
    env.step(0)
    assert not game.in_mulligan and game.current_player == 0 and game.turn == 1
    assert [e.action.player for e in game.log if e.kind == "Mulligan"] == [0, 1]


def test_codec_of_custom_rules_sizes_the_mulligan_range_by_the_hand():
    layout = ActionLayout.for_rules(Rules(max_hand=5, max_battlefield=3))
    codec = ActionCodec(layout)
    assert layout.size == layout.mulligan_offset + 5 and codec.layout is layout


def test_conformance_checkers_pass_with_the_mulligan_on_and_off():
    """The default env (mulligan on) is checked in test_aec_api and test_gym_env; here seat 1 and the rule off."""
    from gymnasium.utils.env_checker import check_env
    from pettingzoo.test import api_test, seed_test

    import ccg_env

    check_env(CcgDuelEnv(seat=1, opponent="heuristic"), skip_render_check=True)
    check_env(CcgDuelEnv(rules=Rules(mulligan=False)), skip_render_check=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Dict observations draw PettingZoo's generic style warnings
        api_test(ccg_env.env(seed=0, rules=Rules(mulligan=False)), num_cycles=100)
    seed_test(lambda: ccg_env.env(rules=Rules(mulligan=False)), num_cycles=100)
