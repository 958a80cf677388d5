"""Bad action ids in every env, and steps after the game is over: the documented behaviour, state unchanged.

Documented behaviour (module docstrings of ``ccg_env.env.aec``, ``gym_env`` and ``vector``):

- raw AEC env: an unmasked or out-of-range id raises ``ValueError`` and changes nothing;
- wrapped AEC env: an out-of-range id fails the bounds assertion; an in-range unmasked id ends the game with
  -1 for the offender (PettingZoo's ``TerminateIllegalWrapper``), the engine game left as it was;
- Gymnasium env: never raises for an unmasked id: ``illegal_action="lose"`` forfeits (-1, terminated,
  outcome ``"illegal_action"``), ``"ignore"`` pays ``illegal_reward`` and changes nothing;
- vector env: each slot behaves like the Gymnasium env; a finished slot resets on the next step.
"""

from __future__ import annotations

import random

import gymnasium as gym
import numpy as np
import pytest

from ccg_env.env.aec import env as wrapped_env
from ccg_env.env.aec import raw_env
from ccg_env.env.registration import register_duel_env

N = 235
register_duel_env()


def _unmasked_filled_id(codec, game, mask) -> int:
    """An in-range id naming real cards that the mask forbids (e.g. a card too expensive to play)."""
    return next(i for i in range(len(mask)) if not mask[i] and codec.decode(game, i) is not None)


def _empty_slot_id(codec, game) -> int:
    return next(i for i in range(N) if codec.decode(game, i) is None)


def _aec_snapshot(env) -> tuple:
    raw = env.unwrapped
    return (raw.game.to_json(), raw.agent_selection, dict(raw.rewards), dict(raw.terminations),
            dict(raw.truncations), list(raw.agents))


def _finish_aec(env, seed: int = 0) -> None:
    rng = random.Random(seed)
    while not any(env.terminations.values()) and not any(env.truncations.values()):
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))


# --- raw AEC env ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["negative", "N", "huge", "empty slot", "unmasked", "None", "text"])
def test_raw_env_refuses_bad_ids_with_value_error_and_changes_nothing(kind):
    env = raw_env(seed=1)
    env.reset()
    mask = env.observe(env.agent_selection)["action_mask"]
    action = {"negative": -1, "N": N, "huge": 10**9, "empty slot": _empty_slot_id(env.codec, env.game),
              "unmasked": _unmasked_filled_id(env.codec, env.game, mask), "None": None, "text": "abc"}[kind]
    before = _aec_snapshot(env)
    with pytest.raises(ValueError):
        env.step(action)
    assert _aec_snapshot(env) == before


def test_raw_env_error_says_what_the_id_means():
    env = raw_env(seed=1)
    env.reset()
    with pytest.raises(ValueError, match=r"action 235 \(out of range \(0\.\.234\)\)"):
        env.step(N)


def test_raw_env_step_before_reset_is_a_clear_error():
    with pytest.raises(RuntimeError, match="before reset"):
        raw_env(seed=1).step(0)


def test_raw_env_after_the_end_accepts_only_none_then_empties_agents():
    env = raw_env(seed=2)
    env.reset()
    _finish_aec(env)
    json_at_end = env.game.to_json()
    with pytest.raises(ValueError, match="only valid action is None"):
        env.step(0)
    env.step(None)
    env.step(None)
    assert env.agents == [] and env.game.to_json() == json_at_end


def test_raw_env_step_once_every_agent_is_done_is_a_clear_error():
    env = raw_env(seed=2)
    env.reset()
    _finish_aec(env)
    env.step(None)
    env.step(None)
    with pytest.raises((RuntimeError, ValueError), match="reset"):
        env.step(None)


def test_raw_env_refuses_a_fractional_id():
    env = raw_env(seed=1)
    env.reset()
    before = _aec_snapshot(env)
    with pytest.raises((TypeError, ValueError)):
        env.step(0.5)
    assert _aec_snapshot(env) == before


# --- wrapped AEC env ------------------------------------------------------------------------------------


def test_wrapped_env_step_before_reset_is_refused():
    with pytest.raises(AssertionError, match="reset"):
        wrapped_env(seed=1).step(0)


@pytest.mark.parametrize("action", [-1, N, 10**6])
def test_wrapped_env_refuses_out_of_range_ids_and_changes_nothing(action):
    env = wrapped_env(seed=1)
    env.reset()
    before = _aec_snapshot(env)
    with pytest.raises(AssertionError, match="action is not in action space"):
        env.step(action)
    assert _aec_snapshot(env) == before


def test_wrapped_env_ends_the_game_against_an_unmasked_id_and_leaves_the_engine_game_alone():
    env = wrapped_env(seed=1)
    env.reset()
    raw = env.unwrapped
    offender = env.agent_selection
    other = next(a for a in env.agents if a != offender)
    mask = env.observe(offender)["action_mask"]
    before = raw.game.to_json()
    env.step(_unmasked_filled_id(raw.codec, raw.game, mask))
    assert env.terminations == {offender: True, other: True}
    assert env._cumulative_rewards == {offender: -1.0, other: 0.0}
    assert raw.game.to_json() == before and raw.game.result is None
    with pytest.raises(ValueError, match="only valid action is None"):
        env.step(0)
    env.step(None)
    env.step(None)
    assert env.agents == []


def test_wrapped_env_after_a_real_end_accepts_only_none():
    env = wrapped_env(seed=3)
    env.reset()
    _finish_aec(env, seed=3)
    json_at_end = env.unwrapped.game.to_json()
    with pytest.raises(ValueError, match="only valid action is None"):
        env.step(0)
    assert env.unwrapped.game.to_json() == json_at_end and env.unwrapped.game.is_over


# --- Gymnasium env --------------------------------------------------------------------------------------


def _duel(**config):
    env = gym.make("ccg_env/Duel-v0", seat=0, **config)
    env.reset(seed=3)
    return env


def _bad_gym_id(env, kind: str) -> int:
    game, codec = env.unwrapped.game, env.unwrapped.setup.codec
    mask = env.unwrapped.action_masks()
    return {"negative": -1, "N": N, "huge": 10**9, "empty slot": _empty_slot_id(codec, game),
            "unmasked": _unmasked_filled_id(codec, game, mask)}[kind]


@pytest.mark.parametrize("kind", ["negative", "N", "huge", "empty slot", "unmasked"])
def test_gym_env_forfeits_on_a_bad_id_and_leaves_the_game_as_it_was(kind):
    env = _duel()
    before = env.unwrapped.game.to_json()
    _, reward, terminated, truncated, info = env.step(_bad_gym_id(env, kind))
    assert (reward, terminated, truncated, info["outcome"]) == (-1.0, True, False, "illegal_action")
    assert env.unwrapped.game.to_json() == before
    assert not env.unwrapped.action_masks().any() and not info["action_mask"].any()


@pytest.mark.parametrize("kind", ["negative", "N", "empty slot", "unmasked"])
def test_gym_env_ignore_mode_pays_the_penalty_and_changes_nothing(kind):
    env = _duel(illegal_action="ignore")
    before, mask = env.unwrapped.game.to_json(), env.unwrapped.action_masks().copy()
    _, reward, terminated, truncated, info = env.step(_bad_gym_id(env, kind))
    assert (reward, terminated, truncated) == (-0.1, False, False) and "outcome" not in info
    assert env.unwrapped.game.to_json() == before and (env.unwrapped.action_masks() == mask).all()


@pytest.mark.parametrize("action, error", [("abc", ValueError), (None, TypeError)])
def test_gym_env_refuses_values_that_are_not_ids(action, error):
    env = _duel()
    before = env.unwrapped.game.to_json()
    with pytest.raises(error):
        env.step(action)
    assert env.unwrapped.game.to_json() == before


def test_gym_env_step_before_reset_and_after_the_end_are_clear_errors():
    with pytest.raises(RuntimeError, match="before reset"):
        gym.make("ccg_env/Duel-v0").step(0)
    env = _duel()
    env.step(-1)
    before = env.unwrapped.game.to_json()
    with pytest.raises(RuntimeError, match="episode is over"):
        env.step(0)
    assert env.unwrapped.game.to_json() == before


def test_gym_env_refuses_a_fractional_id():
    env = _duel()
    before = env.unwrapped.game.to_json()
    try:
        _, reward, *_ = env.step(0.5)
    except (TypeError, ValueError):
        reward = None
    assert reward in (None, -1.0) and env.unwrapped.game.to_json() == before


# --- vector env -----------------------------------------------------------------------------------------


def _vector(num_envs: int = 3):
    env = gym.make_vec("ccg_env/Duel-v0", num_envs=num_envs, seat=0)
    env.reset(seed=5)
    return env


def _games(env) -> list[str]:
    return [duel.game.to_json() for duel in env.batch.duels]


def test_vector_env_forfeits_only_the_slots_with_bad_ids():
    env = _vector()
    before = _games(env)
    _, rewards, terminated, truncated, infos = env.step(np.array([-1, N, 0]))
    assert rewards.tolist() == [-1.0, -1.0, 0.0] and terminated.tolist() == [True, True, False]
    assert not truncated.any() and infos["outcome"].tolist()[:2] == ["illegal_action"] * 2
    after = _games(env)
    assert after[:2] == before[:2] and after[2] != before[2]
    assert not infos["action_mask"][:2].any() and infos["action_mask"][2].any()


def test_vector_env_resets_a_finished_slot_on_the_next_step_whatever_its_action():
    env = _vector()
    env.step(np.array([-1, 0, 0]))
    finished = env.batch.duels[0].game
    _, rewards, terminated, truncated, infos = env.step(np.array([10**6, 0, 0]))
    assert env.batch.duels[0].game is not finished and env.batch.duels[0].outcome is None
    assert rewards[0] == 0.0 and not terminated[0] and not truncated[0] and infos["action_mask"][0].any()


@pytest.mark.parametrize("actions", [np.array([0, 0]), np.zeros((3, 2), dtype=np.int64)], ids=["short", "2-D"])
def test_vector_env_refuses_a_badly_shaped_action_array_before_stepping(actions):
    env = _vector()
    before = _games(env)
    with pytest.raises(ValueError, match="shape|actions"):
        env.step(actions)
    assert _games(env) == before


@pytest.mark.parametrize("actions, error", [
    (np.array(["0", "0", "0"]), TypeError), ([0, None, 0], TypeError), ([0, "abc", 0], TypeError),
    (np.array([0.0, 0.5, 0.0]), ValueError), (np.array([True, False, True]), TypeError),
], ids=["strings", "None", "text", "fraction", "bools"])
def test_vector_env_refuses_values_that_are_not_ids_before_stepping(actions, error):
    env = _vector()
    before = _games(env)
    with pytest.raises(error, match=r"actions\[\d\]"):
        env.step(actions)
    assert _games(env) == before


def test_vector_env_takes_whole_float_ids():
    env = _vector()
    _, _, terminated, _, infos = env.step(np.array([0.0, 0.0, 0.0]))
    assert not terminated.any() and "outcome" not in infos


def test_sb3_vec_env_refuses_a_wrong_number_of_actions_before_stepping():
    pytest.importorskip("stable_baselines3")
    from ccg_env.env.sb3_vec import CcgDuelSb3VecEnv

    env = CcgDuelSb3VecEnv(3)
    env.reset()
    before = [duel.game.to_json() for duel in env.batch.duels]
    with pytest.raises(ValueError, match="shape"):
        env.step(np.array([0, 0]))
    assert [duel.game.to_json() for duel in env.batch.duels] == before
