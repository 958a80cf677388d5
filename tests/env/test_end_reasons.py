"""Rule: a game's end sets exactly one of terminated and truncated, in the env core and in every front-end.

A win, a draw and a forfeit (an illegal action) terminate; the turn limit and a looping card stopped by the engine
truncate. Each end is reached from a described board by one learner action, then read through the env core's
``Step``, the Gymnasium env, the batched vector env, the SB3 VecEnv and the AEC env (raw and wrapped).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import ccg_env
from ccg_env.engine import Result
from ccg_env.engine.state import TRUNCATING_RESULTS
from ccg_env.env.core import EnvCore
from ccg_env.env.gym_env import CcgDuelEnv
from ccg_env.env.vector import CcgDuelVectorEnv
from tests.card_files import packaged_card_files
from tests.reliability.loop_cards import LOOP_CARDS

TURN_LIMIT = 10
END_TURN = 0
#: end reason -> (board with seat 0 to move, the learner's action: "end turn", "play" its card or "illegal")
ENDS = {
    "win": ({"current": 0, "players": [{}, {"health": 0}]}, "end turn"),  # the reaper after the next action
    "draw": ({"current": 0, "players": [{"health": 0}, {"health": 0}]}, "end turn"),
    "illegal_action": ({"current": 0, "players": [{}, {}]}, "illegal"),
    "turn_limit": ({"current": 0, "turn": TURN_LIMIT, "players": [{}, {}]}, "end turn"),
    "loop": ({"current": 0, "players": [{"hand": ["self_harmer"]}, {}]}, "play"),
}
TRUNCATING = {"turn_limit", "loop"}
#: how each end reads in seat 0's outcome (a win is seat 0's: the other hero is the dead one)
OUTCOMES = {"win": "win", "draw": "draw", "illegal_action": "illegal_action", "turn_limit": "turn_limit",
            "loop": "loop"}


@pytest.fixture(scope="module")
def cards(tmp_path_factory) -> list:
    """The packaged cards and the looping ones."""
    path = tmp_path_factory.mktemp("cards") / "loop_cards.yaml"
    path.write_text(LOOP_CARDS)
    return [*packaged_card_files(), path]


@pytest.fixture(scope="module")
def config(cards) -> dict:
    return {"cards": cards, "turn_limit": TURN_LIMIT}


def learner_action(config: dict, end: str) -> int:
    """The action id that ends the game of ``ENDS[end]``'s board as its row says."""
    board, action = ENDS[end]
    core = EnvCore(**config)
    legal = core.legal_ids(core.new_match(0, scenario=board))
    if action == "end turn":
        assert END_TURN in legal
        return END_TURN
    if action == "play":
        return next(i for i, choice in legal.items() if choice.kind.value == "play")
    return next(i for i in range(core.size) if i not in legal)


def test_the_table_covers_every_end_and_the_truncating_ones_are_the_engines():
    assert set(ENDS) == {result.value for result in Result} | {"illegal_action"}
    assert TRUNCATING == {result.value for result in TRUNCATING_RESULTS}


@pytest.mark.parametrize("end", sorted(ENDS))
def test_the_core_step_sets_exactly_one_flag(config, end):
    core = EnvCore(**config)
    match = core.new_match(0, scenario=ENDS[end][0])
    step = core.step(match, learner_action(config, end), "learner")
    assert step.result == end and step.outcome(0) == OUTCOMES[end]
    assert (step.terminated, step.truncated) == (end not in TRUNCATING, end in TRUNCATING)
    if end != "illegal_action":  # the engine's own ends: the position after them reads the same
        position = core.position(match)
        assert position.result == end
        assert (position.terminated, position.truncated) == (end not in TRUNCATING, end in TRUNCATING)


@pytest.mark.parametrize("end", sorted(ENDS))
def test_the_gymnasium_env_sets_exactly_one_flag(config, end):
    env = CcgDuelEnv(opponent="random", seat=0, **config)
    env.reset(seed=0, options={"scenario": ENDS[end][0]})
    _, _, terminated, truncated, info = env.step(learner_action(config, end))
    assert info["outcome"] == OUTCOMES[end]
    assert (terminated, truncated) == (end not in TRUNCATING, end in TRUNCATING)


@pytest.mark.parametrize("end", sorted(ENDS))
def test_the_vector_env_sets_exactly_one_flag(config, end):
    env = CcgDuelVectorEnv(num_envs=2, opponent="random", seat=0, **config)
    env.reset(seed=0, options={"scenario": ENDS[end][0]})
    action = learner_action(config, end)
    _, _, terminated, truncated, infos = env.step(np.array([action, action]))
    assert infos["outcome"].tolist() == [OUTCOMES[end]] * 2
    assert terminated.tolist() == [end not in TRUNCATING] * 2 and truncated.tolist() == [end in TRUNCATING] * 2


@pytest.mark.parametrize("end", sorted(ENDS))
def test_the_sb3_vec_env_marks_only_truncations_as_time_limits(config, end):
    pytest.importorskip("stable_baselines3")
    from ccg_env.env.sb3_vec import CcgDuelSb3VecEnv

    env = CcgDuelSb3VecEnv(num_envs=1, opponent="random", seat=0, **config)
    env.seed(0)
    env.set_options({"scenario": ENDS[end][0]})
    env.reset()
    _, _, dones, infos = env.step(np.array([learner_action(config, end)]))
    assert bool(dones[0]) and infos[0]["outcome"] == OUTCOMES[end]
    assert infos[0].get("TimeLimit.truncated", False) is (end in TRUNCATING)


@pytest.mark.parametrize("wrapped", [False, True])
@pytest.mark.parametrize("end", sorted(ENDS))
def test_the_aec_env_sets_exactly_one_flag_for_both_agents(config, end, wrapped):
    env = ccg_env.env(**config) if wrapped else ccg_env.raw_env(**config)
    env.reset(seed=0, options={"scenario": ENDS[end][0]})
    assert env.agent_selection == "player_0"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a wrapper may warn about the illegal action it passes on
        env.step(learner_action(config, end))
    assert env.unwrapped.infos["player_0"]["result"] == end
    for agent in ("player_0", "player_1"):
        assert (env.terminations[agent], env.truncations[agent]) == (end not in TRUNCATING, end in TRUNCATING)
    _, _, terminated, truncated, _ = env.last()
    assert (terminated, truncated) == (end not in TRUNCATING, end in TRUNCATING)
