"""Bad action ids in every env, and steps after the game is over: the documented behaviour, state unchanged.

Documented behaviour (``ccg_env.env.core``, the same in every front-end):

- an action outside the action space (a bool, a float, text, None, a negative or too large id, a NumPy value of
  those kinds, a batch of the wrong shape) raises ``ValueError`` and changes nothing, in every env;
- an in-range id the mask forbids: ``illegal_action="forfeit"`` (default) ends the game with -1 for the offender
  and 0 for the other seat, the engine game left as it was; ``"raise"`` raises ``ValueError`` and changes
  nothing; ``"ignore"`` pays ``illegal_reward`` and changes nothing;
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

N = 262
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


#: Actions outside ``Discrete(262)``: every front-end raises ValueError for each and changes nothing.
OUT_OF_SPACE = {
    "True": True, "False": False, "np.bool_": np.bool_(True), "float": 0.5, "whole float": 3.0,
    "np.float32": np.float32(2.0), "negative": -1, "N": N, "huge": 10**9, "np.int64 too large": np.int64(N),
    "np.int8 negative": np.int8(-3), "text": "abc", "digit text": "3", "list": [0], "array of one": np.array([0]),
}


@pytest.mark.parametrize("kind", [*OUT_OF_SPACE, "None"])
@pytest.mark.parametrize("make", [raw_env, wrapped_env], ids=["raw", "wrapped"])
def test_aec_env_refuses_actions_outside_the_space_with_value_error_and_changes_nothing(make, kind):
    env = make(seed=1)
    env.reset()
    env.observe(env.agent_selection)
    action = None if kind == "None" else OUT_OF_SPACE[kind]
    before = _aec_snapshot(env)
    with pytest.raises(ValueError):
        env.step(action)
    assert _aec_snapshot(env) == before


@pytest.mark.parametrize("kind", ["empty slot", "unmasked"])
def test_raw_env_in_raise_mode_refuses_masked_out_ids_and_changes_nothing(kind):
    env = raw_env(seed=1, illegal_action="raise")
    env.reset()
    mask = env.observe(env.agent_selection)["action_mask"]
    action = {"empty slot": _empty_slot_id(env.codec, env.game),
              "unmasked": _unmasked_filled_id(env.codec, env.game, mask)}[kind]
    before = _aec_snapshot(env)
    with pytest.raises(ValueError, match=f"player_0: action {action} "):
        env.step(action)
    assert _aec_snapshot(env) == before


@pytest.mark.parametrize("make", [raw_env, wrapped_env], ids=["raw", "wrapped"])
def test_aec_env_forfeits_a_masked_out_id_by_default(make):
    env = make(seed=1)
    env.reset()
    raw = env.unwrapped
    offender = env.agent_selection
    other = next(a for a in env.agents if a != offender)
    mask = env.observe(offender)["action_mask"]
    before = raw.game.to_json()
    env.step(_unmasked_filled_id(raw.codec, raw.game, mask))
    assert env.terminations == {offender: True, other: True} and not any(env.truncations.values())
    assert env.rewards == {offender: -1.0, other: 0.0}
    assert raw.infos[offender]["result"] == "illegal_action" and raw.infos[offender]["winner"] is None
    assert raw.game.to_json() == before and raw.game.result is None
    env.step(None)
    env.step(None)
    assert env.agents == []


def test_raw_env_ignore_mode_pays_the_penalty_and_the_offender_acts_again():
    env = raw_env(seed=1, illegal_action="ignore", illegal_reward=-0.25)
    env.reset()
    offender = env.agent_selection
    mask = env.observe(offender)["action_mask"]
    before = env.game.to_json()
    env.step(_unmasked_filled_id(env.codec, env.game, mask))
    assert env.rewards[offender] == -0.25 and env.agent_selection == offender
    assert env.game.to_json() == before and not any(env.terminations.values())


def test_raw_env_error_says_what_the_id_means():
    env = raw_env(seed=1)
    env.reset()
    with pytest.raises(ValueError, match=r"action 262 is out of the action space: expected an integer in 0\.\.261"):
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


# --- wrapped AEC env ------------------------------------------------------------------------------------


def test_wrapped_env_step_before_reset_is_refused():
    with pytest.raises(AssertionError, match="reset"):
        wrapped_env(seed=1).step(0)


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
    env = gym.make("ccg_env/Duel-v1", seat=0, **config)
    env.reset(seed=3)
    return env


def _bad_gym_id(env, kind: str) -> int:
    game, codec = env.unwrapped.game, env.unwrapped.setup.codec
    mask = env.unwrapped.action_masks()
    return {"empty slot": _empty_slot_id(codec, game), "unmasked": _unmasked_filled_id(codec, game, mask)}[kind]


@pytest.mark.parametrize("kind", [*OUT_OF_SPACE, "None"])
@pytest.mark.parametrize("mode", ["forfeit", "raise", "ignore"])
def test_gym_env_refuses_actions_outside_the_space_in_every_mode(mode, kind):
    env = _duel(illegal_action=mode)
    before, mask = env.unwrapped.game.to_json(), env.unwrapped.action_masks().copy()
    with pytest.raises(ValueError):
        env.step(None if kind == "None" else OUT_OF_SPACE[kind])
    assert env.unwrapped.game.to_json() == before and (env.unwrapped.action_masks() == mask).all()
    assert env.unwrapped.duel.outcome is None and env.unwrapped.duel.length == 0


@pytest.mark.parametrize("kind", ["empty slot", "unmasked"])
def test_gym_env_forfeits_on_a_masked_out_id_and_leaves_the_game_as_it_was(kind):
    env = _duel()
    before = env.unwrapped.game.to_json()
    _, reward, terminated, truncated, info = env.step(_bad_gym_id(env, kind))
    assert (reward, terminated, truncated, info["outcome"]) == (-1.0, True, False, "illegal_action")
    assert env.unwrapped.game.to_json() == before
    assert not env.unwrapped.action_masks().any() and not info["action_mask"].any()


@pytest.mark.parametrize("kind", ["empty slot", "unmasked"])
def test_gym_env_ignore_mode_pays_the_penalty_and_changes_nothing(kind):
    env = _duel(illegal_action="ignore")
    before, mask = env.unwrapped.game.to_json(), env.unwrapped.action_masks().copy()
    _, reward, terminated, truncated, info = env.step(_bad_gym_id(env, kind))
    assert (reward, terminated, truncated) == (-0.1, False, False) and "outcome" not in info
    assert env.unwrapped.game.to_json() == before and (env.unwrapped.action_masks() == mask).all()


def test_gym_env_step_before_reset_and_after_the_end_are_clear_errors():
    with pytest.raises(RuntimeError, match="before reset"):
        gym.make("ccg_env/Duel-v1").step(0)
    env = _duel()
    env.step(_bad_gym_id(env, "unmasked"))
    before = env.unwrapped.game.to_json()
    with pytest.raises(RuntimeError, match="episode is over"):
        env.step(0)
    assert env.unwrapped.game.to_json() == before


# --- vector env -----------------------------------------------------------------------------------------


def _vector(num_envs: int = 3):
    env = gym.make_vec("ccg_env/Duel-v1", num_envs=num_envs, seat=0)
    env.reset(seed=5)
    return env


def _games(env) -> list[str]:
    return [duel.game.to_json() for duel in env.batch.duels]


def _masked_out_ids(env) -> list[int]:
    return [_unmasked_filled_id(duel.setup.codec, duel.game, env.batch.masks[i])
            for i, duel in enumerate(env.batch.duels)]


def test_vector_env_forfeits_only_the_slots_with_masked_out_ids():
    env = _vector()
    before = _games(env)
    bad = _masked_out_ids(env)
    _, rewards, terminated, truncated, infos = env.step(np.array([bad[0], bad[1], 0]))
    assert rewards.tolist() == [-1.0, -1.0, 0.0] and terminated.tolist() == [True, True, False]
    assert not truncated.any() and infos["outcome"].tolist()[:2] == ["illegal_action"] * 2
    after = _games(env)
    assert after[:2] == before[:2] and after[2] != before[2]
    assert not infos["action_mask"][:2].any() and infos["action_mask"][2].any()


def test_vector_env_resets_a_finished_slot_on_the_next_step_whatever_its_action():
    env = _vector()
    env.step(np.array([_masked_out_ids(env)[0], 0, 0]))
    finished = env.batch.duels[0].game
    _, rewards, terminated, truncated, infos = env.step(np.array([N - 1, 0, 0]))
    assert env.batch.duels[0].game is not finished and env.batch.duels[0].outcome is None
    assert rewards[0] == 0.0 and not terminated[0] and not truncated[0] and infos["action_mask"][0].any()


@pytest.mark.parametrize("actions", [np.array([0, 0]), np.zeros((3, 2), dtype=np.int64)], ids=["short", "2-D"])
def test_vector_env_refuses_a_badly_shaped_action_array_before_stepping(actions):
    env = _vector()
    before = _games(env)
    with pytest.raises(ValueError, match="shape|actions"):
        env.step(actions)
    assert _games(env) == before


@pytest.mark.parametrize("actions", [
    np.array(["0", "0", "0"]), [0, None, 0], [0, "abc", 0], np.array([0.0, 0.5, 0.0]), np.array([0.0, 0.0, 0.0]),
    np.array([True, False, True]), [0, True, 0], np.array([0, -1, 0]), np.array([0, 0, N]), [0, 0, 10**30],
    np.array([0, 0, N], dtype=np.uint16),
], ids=["strings", "None", "text", "fraction", "whole floats", "bools", "a bool", "negative", "N", "huge", "uint16"])
def test_vector_env_refuses_actions_outside_the_space_before_stepping(actions):
    env = _vector()
    before = _games(env)
    with pytest.raises(ValueError, match=r"actions\[\d\]"):
        env.step(actions)
    assert _games(env) == before


def test_sb3_vec_env_refuses_a_wrong_number_of_actions_before_stepping():
    pytest.importorskip("stable_baselines3")
    from ccg_env.env.sb3_vec import CcgDuelSb3VecEnv

    env = CcgDuelSb3VecEnv(3)
    env.reset()
    before = [duel.game.to_json() for duel in env.batch.duels]
    with pytest.raises(ValueError, match="shape"):
        env.step(np.array([0, 0]))
    assert [duel.game.to_json() for duel in env.batch.duels] == before


@pytest.mark.parametrize("actions", [np.array([0, -1, 0]), np.array([[0], [0], [N]]), np.array([0.0, 1.0, 0.0])],
                         ids=["negative", "too large (N, 1)", "floats"])
def test_sb3_vec_env_refuses_actions_outside_the_space_before_stepping(actions):
    pytest.importorskip("stable_baselines3")
    from ccg_env.env.sb3_vec import CcgDuelSb3VecEnv

    env = CcgDuelSb3VecEnv(3)
    env.reset()
    before = [duel.game.to_json() for duel in env.batch.duels]
    with pytest.raises(ValueError, match=r"actions\[\d\]"):
        env.step(actions)
    assert [duel.game.to_json() for duel in env.batch.duels] == before
