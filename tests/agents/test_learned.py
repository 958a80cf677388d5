"""LearnedAgent: wraps a saved MaskablePPO model and plays legal games with it."""

from __future__ import annotations

import pytest

from agents.match import MatchRunner
from agents.random_agent import RandomAgent

pytest.importorskip("sb3_contrib")


@pytest.fixture(scope="module")
def model_path(tmp_path_factory):
    import torch
    from sb3_contrib import MaskablePPO

    from ccg_env.env.gym_env import CcgDuelEnv

    torch.set_num_threads(1)
    model = MaskablePPO("MlpPolicy", CcgDuelEnv(), n_steps=32, batch_size=32, n_epochs=1, seed=0,
                        policy_kwargs={"net_arch": [32]}, device="cpu")
    model.learn(32)
    path = tmp_path_factory.mktemp("learned") / "tiny.zip"
    model.save(path)
    return path


def test_learned_agent_plays_legal_games_from_both_seats(model_path):
    from agents.learned import LearnedAgent

    agent = LearnedAgent(model_path)
    runner = MatchRunner()
    for seats in ((agent, RandomAgent()), (RandomAgent(), agent)):
        record = runner.play(seats, seed=1)
        assert record.result in ("win", "draw", "turn_limit") and record.decisions > 10
    assert agent.name == "learned:tiny" and agent.normalize is False


def test_learned_agent_is_picklable_without_its_model(model_path):
    import pickle

    from agents.learned import LearnedAgent

    agent = LearnedAgent(str(model_path).removesuffix(".zip"))
    runner = MatchRunner()
    runner.play((agent, RandomAgent()), seed=2)
    clone = pickle.loads(pickle.dumps(agent))
    assert clone._model is None and clone.path == agent.path
    assert runner.play((clone, RandomAgent()), seed=2) == runner.play((agent, RandomAgent()), seed=2)


def test_missing_model_file_is_a_clear_error(tmp_path):
    from agents.learned import LearnedAgent

    with pytest.raises(FileNotFoundError, match="no model file"):
        LearnedAgent(tmp_path / "nothing.zip")
