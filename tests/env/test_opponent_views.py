"""What the env core hands opponents and keeps per game: views that speak action ids, no action log unless asked."""

import numpy as np

from ccg_env.env.core import EnvCore
from ccg_env.env.gym_env import CcgDuelEnv


class IdSpeakingAgent:
    """An opponent that decides from its view in action ids: it plays the highest legal id."""

    name = "id_speaker"

    def __init__(self) -> None:
        self.decisions = 0

    def reset(self, seed=None) -> None:
        pass

    def act(self, observation, action_mask, view=None) -> int:
        raise AssertionError("an agent offering choose_from_view is asked through it")

    def choose_from_view(self, view):
        self.decisions += 1
        return view.choice_of(max(view.legal_action_ids()))


def test_an_opponent_choosing_from_its_view_can_speak_in_action_ids():
    agent = IdSpeakingAgent()
    env = CcgDuelEnv(opponent=agent, seat=1)  # the opponent sits in seat 0 and moves first
    observation, info = env.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(40):
        if agent.decisions >= 3:
            break
        observation, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        if terminated or truncated:
            observation, info = env.reset()
    assert agent.decisions >= 3


def test_env_games_keep_no_action_log_unless_asked():
    """The log costs time and memory on every step: training games go without it, replays and viewers ask."""
    quiet, logged = EnvCore().new_game(0), EnvCore(log=True).new_game(0)
    for game in (quiet, logged):
        game.apply(game.legal_actions()[0])
    assert quiet.state.log is None and quiet.log == []
    assert len(logged.log) > 0
