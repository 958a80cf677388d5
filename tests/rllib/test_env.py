"""CcgMultiAgentEnv's contract with RLlib: the env checker, random self-play games, scripted seats, illegal ids."""

from __future__ import annotations

import numpy as np
import pytest

from tests.rllib.ray_or_skip import require_rllib

require_rllib()

from ray.rllib.utils.pre_checks.env import check_multiagent_environments  # noqa: E402

from ccg_env.rllib.env import AGENTS, LEARNERS, CcgMultiAgentEnv  # noqa: E402


def test_rllib_env_checker_passes():
    check_multiagent_environments(CcgMultiAgentEnv({"seed": 0}))


def _play_random_game(env, rng, seed, choices_shown=None):
    """Play one game with random legal actions, checking the contract at every step; return the last step.

    ``choices_shown``: a list to which the number of legal ids of every observation is added."""
    observations, infos = env.reset(seed=seed)
    while True:
        assert len(observations) == 1, f"expected only the agent on turn, got {sorted(observations)}"
        (agent,) = observations
        game = env.game
        assert agent == env._seat_agents[game.state.current]
        mask = observations[agent]["action_mask"]
        assert mask.dtype == np.int8 and set(np.flatnonzero(mask)) == set(env.core.legal(game))
        if choices_shown is not None:
            choices_shown.append(int(mask.sum()))
        vector = observations[agent]["observations"]
        assert vector.dtype == np.float32 and vector.min() >= 0 and vector.max() <= 1
        assert env.observation_spaces[agent].contains(observations[agent])
        action = int(rng.choice(np.flatnonzero(mask)))
        observations, rewards, terminateds, truncateds, infos = env.step({agent: action})
        assert set(rewards) == set(env.agents), "every agent in the game gets a reward every step"
        if terminateds["__all__"] or truncateds["__all__"]:
            return observations, rewards, terminateds, truncateds, infos
        assert all(reward == 0.0 for reward in rewards.values())


def test_twenty_random_self_play_games_obey_the_contract():
    env, rng = CcgMultiAgentEnv({"seed": 7}), np.random.default_rng(7)
    outcomes = set()
    for game_index in range(20):
        observations, rewards, terminateds, truncateds, infos = _play_random_game(env, rng, seed=game_index)
        assert set(observations) == set(AGENTS), "both agents get their final observation"
        assert all(not obs["action_mask"].any() for obs in observations.values())
        assert sum(rewards.values()) == 0.0, f"zero-sum final rewards, got {rewards}"
        winner = env.game.state.winner
        if winner is not None:
            assert rewards[AGENTS[winner]] == 1.0 and rewards[AGENTS[1 - winner]] == -1.0
        assert terminateds["__all__"] != truncateds["__all__"]
        outcomes.add(tuple(sorted(info["outcome"] for info in infos.values())))
    assert ("loss", "win") in outcomes


def test_a_scripted_opponent_is_played_by_the_env():
    env, rng = CcgMultiAgentEnv({"opponents": {"heuristic": 1.0}, "seed": 3}), np.random.default_rng(3)
    seats = set()
    for game_index in range(4):
        observations, rewards, *_, infos = _play_random_game(env, rng, seed=game_index)
        (learner,) = observations
        assert learner in LEARNERS and env.agents == [learner] and set(rewards) == {learner}
        assert infos[learner]["opponent"] == "heuristic"
        seats.add(learner)
    assert seats == set(LEARNERS), "the learner's seat is drawn per game"


def test_a_masked_out_id_forfeits_by_default():
    env = CcgMultiAgentEnv({"seed": 1})
    observations, _ = env.reset(seed=1)
    (agent,) = observations
    illegal = int(np.flatnonzero(observations[agent]["action_mask"] == 0)[0])
    observations, rewards, terminateds, _, infos = env.step({agent: illegal})
    other = AGENTS[1 - AGENTS.index(agent)]
    assert rewards == {agent: -1.0, other: 0.0} and terminateds["__all__"]
    assert infos[agent]["outcome"] == "illegal_action"


def test_raise_mode_and_bad_actions_name_the_problem():
    env = CcgMultiAgentEnv({"illegal_action": "raise", "seed": 1})
    observations, _ = env.reset(seed=1)
    (agent,) = observations
    illegal = int(np.flatnonzero(observations[agent]["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="illegal now|empty slot"):
        env.step({agent: illegal})
    with pytest.raises(ValueError, match="out of the action space"):
        env.step({agent: env.core.size})
    other = AGENTS[1 - AGENTS.index(agent)]
    with pytest.raises(ValueError, match="agent on turn"):
        env.step({other: 0})
    with pytest.raises(ValueError, match="unknown keys"):
        CcgMultiAgentEnv({"opponent": "heuristic"})
    with pytest.raises(ValueError, match="unknown opponent 'nobody'"):
        CcgMultiAgentEnv({"opponents": {"nobody": 1.0}})


def test_an_only_legal_move_is_shown_like_any_other():
    shown = []
    _play_random_game(CcgMultiAgentEnv({"seed": 5}), np.random.default_rng(5), seed=0, choices_shown=shown)
    assert 1 in shown
    with pytest.raises(ValueError, match=r"unknown keys \['play_forced'\]"):  # the experiment's option is gone
        CcgMultiAgentEnv({"play_forced": True})


def test_ignore_mode_pays_the_offender_who_moves_again_and_a_scripted_game_forfeits_by_default():
    env = CcgMultiAgentEnv({"illegal_action": "ignore", "illegal_reward": -0.25, "seed": 2})
    observations, _ = env.reset(seed=2)
    (agent,) = observations
    mask = observations[agent]["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    again, rewards, terminateds, truncateds, _ = env.step({agent: illegal})
    other = AGENTS[1 - AGENTS.index(agent)]
    assert rewards == {agent: -0.25, other: 0.0} and not terminateds["__all__"] and not truncateds["__all__"]
    assert set(again) == {agent} and np.array_equal(again[agent]["action_mask"], mask)
    scripted = CcgMultiAgentEnv({"opponents": {"random": 1.0}, "seed": 4})
    observations, _ = scripted.reset(seed=4)
    (learner,) = observations
    illegal = int(np.flatnonzero(observations[learner]["action_mask"] == 0)[0])
    _, rewards, terminateds, _, infos = scripted.step({learner: illegal})
    assert rewards == {learner: -1.0} and terminateds == {learner: True, "__all__": True}
    assert infos[learner] == {"outcome": "illegal_action", "opponent": "random"}
