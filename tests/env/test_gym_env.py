"""The single-agent Gymnasium env: both checkers, registration, opponents, seats, illegal actions, masks."""

import subprocess
import sys

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env as gym_check_env

from ccg_env.engine import Choice, ChoiceKind, Game
from ccg_env.engine.game_setup import resolve_deck_pair
from ccg_env.env.codec import ActionCodec, ActionLayout
from ccg_env.env.gym_env import ENV_ID, CcgDuelEnv
from ccg_env.env.masks import legal_mask


def play_random(env, seed, steps):
    """Random legal actions; return the (observation, reward, terminated, truncated) sequence."""
    rng = np.random.default_rng(seed)
    observation, info = env.reset(seed=seed)
    trace = []
    for _ in range(steps):
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        observation, reward, terminated, truncated, info = env.step(action)
        trace.append((observation, reward, terminated, truncated))
        if terminated or truncated:
            observation, info = env.reset()
    return trace


def test_gymnasium_checker_passes():
    gym_check_env(gym.make(ENV_ID), skip_render_check=False)


def test_gymnasium_checker_passes_with_ansi_render_and_ignore_mode():
    gym_check_env(gym.make(ENV_ID, render_mode="ansi", illegal_action="ignore"), skip_render_check=False)


def test_gymnasium_checker_passes_with_hero_powers():
    from ..engine.helpers import class_decks

    gym_check_env(gym.make(ENV_ID, decks=class_decks(5), render_mode="ansi"), skip_render_check=False)


def test_stable_baselines3_checker_passes():
    from stable_baselines3.common.env_checker import check_env as sb3_check_env

    sb3_check_env(CcgDuelEnv(), warn=True)
    sb3_check_env(CcgDuelEnv(normalize_observations=True), warn=True)


def test_gym_make_returns_the_env_with_action_masks():
    env = gym.make(ENV_ID, opponent="random", seat=0)
    assert isinstance(env, CcgDuelEnv)
    observation, info = env.reset(seed=3)
    assert env.action_masks().dtype == np.bool_
    np.testing.assert_array_equal(env.action_masks(), info["action_mask"].astype(bool))
    assert observation in env.observation_space


def test_module_prefixed_id_imports_and_makes_the_env():
    code = ("import gymnasium as gym; env = gym.make('ccg_env.env.gym_env:ccg_env/Duel-v1'); "
            "print(type(env).__name__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "CcgDuelEnv"


def test_plain_id_resolves_after_import_ccg_env_without_loading_numpy_early():
    code = ("import sys, ccg_env; early = 'numpy' in sys.modules or 'gymnasium' in sys.modules; "
            "import gymnasium as gym; env = gym.make('ccg_env/Duel-v1'); print(early, type(env).__name__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "CcgDuelEnv"]


def test_mask_is_the_engine_legal_set_and_the_same_as_the_aec_mask():
    env = CcgDuelEnv()
    codec = ActionCodec(ActionLayout.for_rules(env.setup.rules))
    rng = np.random.default_rng(0)
    _, info = env.reset(seed=11)
    for _ in range(300):
        game, seat = env.game, env.duel.seat
        assert game.current_player == seat
        expected = np.zeros(env.action_space.n, dtype=np.int8)
        legal_mask(game, codec, seat, expected)
        np.testing.assert_array_equal(info["action_mask"], expected)
        _, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        if terminated or truncated:
            assert not info["action_mask"].any()
            _, info = env.reset()


def test_same_seed_same_trajectory_and_other_seed_differs():
    first, second = play_random(CcgDuelEnv(), 5, 200), play_random(CcgDuelEnv(), 5, 200)
    other = play_random(CcgDuelEnv(), 6, 200)
    for a, b in zip(first, second):
        np.testing.assert_array_equal(a[0], b[0])
        assert a[1:] == b[1:]
    assert any(not np.array_equal(a[0], c[0]) for a, c in zip(first, other))


def test_fixed_seat_and_random_seat():
    assert {CcgDuelEnv(seat=1).reset(seed=s)[1]["seat"] for s in range(6)} == {1}
    assert {CcgDuelEnv(seat="random").reset(seed=s)[1]["seat"] for s in range(20)} == {0, 1}
    env = CcgDuelEnv(seat=1)
    env.reset(seed=0)
    assert env.game.current_player == 1 and env.game.in_mulligan  # the opponent already decided its mulligan
    env.step(0)  # keep the opening hand
    assert env.game.current_player == 1 and env.game.turn == 2  # the opponent already played turn 1


def test_illegal_action_loses_by_default_without_raising():
    env = CcgDuelEnv()
    _, info = env.reset(seed=2)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["outcome"]) == (-1.0, True, False, "illegal_action")
    assert not env.action_masks().any()


def test_illegal_action_ignored_keeps_the_state_and_pays_the_penalty():
    env = CcgDuelEnv(illegal_action="ignore", illegal_reward=-0.25)
    observation, info = env.reset(seed=2)
    before = env.game.to_json()
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    after, reward, terminated, truncated, info2 = env.step(illegal)
    assert (reward, terminated, truncated) == (-0.25, False, False)
    assert env.game.to_json() == before
    np.testing.assert_array_equal(after, observation)
    np.testing.assert_array_equal(info2["action_mask"], info["action_mask"])


def test_out_of_range_action_is_an_error_that_changes_nothing():
    env = CcgDuelEnv()
    env.reset(seed=0)
    before = env.game.to_json()
    with pytest.raises(ValueError, match="out of the action space"):
        env.step(10_000)
    assert env.game.to_json() == before and env.duel.outcome is None


def test_illegal_action_raises_in_raise_mode_and_changes_nothing():
    env = CcgDuelEnv(illegal_action="raise")
    _, info = env.reset(seed=2)
    before = env.game.to_json()
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match=f"learner: action {illegal} "):
        env.step(illegal)
    assert env.game.to_json() == before and env.action_masks().any()


def test_episode_rewards_match_the_outcome():
    env = CcgDuelEnv(turn_limit=60)
    outcomes = set()
    for seed in range(8):
        rng = np.random.default_rng(seed)
        _, info = env.reset(seed=seed)
        while True:
            _, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            if terminated or truncated:
                break
            assert reward == 0.0
        outcome = info["outcome"]
        outcomes.add(outcome)
        assert reward == {"win": 1.0, "loss": -1.0, "draw": 0.0, "turn_limit": 0.0}[outcome]
        assert truncated == (outcome == "turn_limit")
        assert env.game.is_over
    assert {"win", "loss"} <= outcomes


def test_callable_and_agent_object_opponents_get_legal_masks_and_views():
    seen = []

    def first_legal(observation, mask, view):
        seen.append((observation.shape, mask.dtype, view.player, view.is_my_turn))
        return int(np.flatnonzero(mask)[0])

    env = CcgDuelEnv(opponent=first_legal, seat=1)
    observation, _ = env.reset(seed=4)
    assert seen and seen[0] == (observation.shape, np.int8, 0, True)


def test_agent_opponent_sees_a_fresh_full_observation_of_its_seat_at_every_decision():
    """The opponent's observation is written by a long-lived writer that rewrites only changed rows: each one
    must equal a from-scratch encoding of the position, and what the agent does to its copy must not leak."""
    checked = []

    def scribbling_random(observation, mask, view):
        expected = env.setup.encoder.new_buffer()
        env.setup.encoder.encode(env.game, view.player, expected)
        checked.append(np.array_equal(observation, expected))
        observation[:] = 7.0  # an agent modifying its observation in place must not corrupt the next one
        return int(rng.choice(np.flatnonzero(mask)))

    rng = np.random.default_rng(0)
    env = CcgDuelEnv(opponent=scribbling_random)
    play_random(env, seed=5, steps=300)
    assert len(checked) > 200 and all(checked)


def test_an_opponent_choosing_from_the_view_plays_as_it_would_through_act():
    from ccg_env.agents.heuristic import HeuristicAgent

    heuristic = HeuristicAgent()
    direct = play_random(CcgDuelEnv(opponent=heuristic, seat="random"), seed=9, steps=400)
    through_act = play_random(CcgDuelEnv(opponent=lambda o, m, v: heuristic.act(o, m, v)), seed=9, steps=400)
    assert sum(step[2] or step[3] for step in direct) >= 3  # several whole games
    for (obs_a, *rest_a), (obs_b, *rest_b) in zip(direct, through_act, strict=True):
        assert np.array_equal(obs_a, obs_b) and rest_a == rest_b


def test_an_opponent_choosing_an_illegal_choice_from_the_view_is_reported_clearly():
    class Cheater:
        name = "cheater"

        def act(self, observation, mask, view):
            return int(np.flatnonzero(mask)[0])

        def choose_from_view(self, view):
            return Choice(ChoiceKind.ATTACK, 999, 998)

    with pytest.raises(ValueError, match="opponent 'cheater' chose .* not legal now"):
        CcgDuelEnv(opponent=Cheater(), seat=1).reset(seed=0)


def test_opponent_choosing_an_illegal_action_is_reported_clearly():
    env = CcgDuelEnv(opponent=lambda observation, mask, view: int(np.flatnonzero(mask == 0)[0]), seat=1)
    with pytest.raises(ValueError, match="opponent .* not legal"):
        env.reset(seed=0)


def test_an_opponent_without_a_name_is_named_after_its_class_when_it_chooses_an_illegal_action():
    class NamelessCheater:
        def act(self, observation, mask, view):
            return int(np.flatnonzero(mask == 0)[0])

    with pytest.raises(ValueError, match=r"^opponent 'NamelessCheater' chose action \d+ \(.+\), which is not legal now$"):
        CcgDuelEnv(opponent=NamelessCheater(), seat=1).reset(seed=0)


def test_an_opponent_with_a_name_is_called_by_it_when_it_chooses_an_illegal_action():
    class Cheater:
        name = "sly"

        def act(self, observation, mask, view):
            return int(np.flatnonzero(mask == 0)[0])

    with pytest.raises(ValueError, match=r"^opponent 'sly' chose action \d+ \(.+\), which is not legal now$"):
        CcgDuelEnv(opponent=Cheater(), seat=1).reset(seed=0)


def test_named_opponents_resolve_and_play():
    for name in ("heuristic", "random"):
        env = CcgDuelEnv(opponent=name)
        _, info = env.reset(seed=1)
        assert info["action_mask"].any()
    with pytest.raises(ValueError, match="opponent"):
        CcgDuelEnv(opponent="no-such-agent")


def test_bad_options_name_the_option():
    with pytest.raises(ValueError, match="seat"):
        CcgDuelEnv(seat=2)
    with pytest.raises(ValueError, match="illegal_action"):
        CcgDuelEnv(illegal_action="explode")
    with pytest.raises(RuntimeError, match="reset"):
        CcgDuelEnv().step(0)


def test_normalized_observations_lie_in_the_unit_box():
    env = CcgDuelEnv(normalize_observations=True)
    for observation, *_ in play_random(env, 0, 100):
        assert observation in env.observation_space
        assert observation.max() <= 1.0


def test_scenario_option_starts_from_a_described_board_and_lethal_wins():
    scenario = {"current": 0, "players": [{"battlefield": [{"card": "wisp", "sleeping": False}]}, {"health": 1}]}
    env = CcgDuelEnv(seat="random")
    _, info = env.reset(seed=0, options={"scenario": scenario, "seat": 0})
    layout = env.setup.codec.layout
    wisp_hits_face = layout.attack_offset + 1 * layout.attack_slots + 0
    assert info["action_mask"][wisp_hits_face] == 1
    _, reward, terminated, truncated, info = env.step(wisp_hits_face)
    assert (reward, terminated, truncated, info["outcome"]) == (1.0, True, False, "win")


@pytest.mark.parametrize("seat", [0, 1])
def test_the_text_render_calls_the_learner_learner_and_the_other_seat_opponent_in_either_seat(seat):
    env = CcgDuelEnv(opponent="random", render_mode="ansi", seat=seat)
    env.reset(seed=2)
    lines = env.render().splitlines()
    assert lines[1].startswith("Enemy (opponent): ") and any(line.startswith("You (learner): ") for line in lines)
    assert lines[0] == "Mulligan: learner chooses opening cards to put back"  # the learner acts when asked


def test_reset_options_deal_that_game_the_given_deck_pair_and_the_next_game_the_configured_one():
    env = CcgDuelEnv(opponent="random", seat=0, decks=["midrange", "midrange"])
    env.reset(seed=4, options={"decks": ["aggro", "control"]})
    core = env.duel.core
    for player, deck in zip(env.duel.game.state.players, resolve_deck_pair(["aggro", "control"], core.cards, core.rules)):
        assert sorted(card.definition.id for card in (*player.deck, *player.hand)) == sorted(deck.cards)
    env.reset(seed=4)
    assert env.duel.game.to_json() == core.new_game(env.duel.game_seed).to_json()  # the configured pair again
