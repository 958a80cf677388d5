"""LearnedAgent: wraps a saved policy, plays legal games with it, seeds and scales like the env.

The agent loads ``.ccgmodel`` model files (and stable-baselines3 zips, built here, only with ``trust=True``) and
``.ccgrllib`` policy files, which need the ``rllib`` extra (tests/rllib plays those); one greedy rule serves both.
"""

from __future__ import annotations

import importlib.util
import os
import zipfile
from pathlib import Path

import numpy as np
import pytest

from ccg_env.agents.match import MatchRunner
from ccg_env.agents.random_agent import RandomAgent

pytest.importorskip("sb3_contrib")


@pytest.fixture(scope="module")
def zip_path(tmp_path_factory):
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.logger import Logger

    from ccg_env.env.gym_env import CcgDuelEnv

    torch.set_num_threads(1)
    model = MaskablePPO("MlpPolicy", CcgDuelEnv(), n_steps=32, batch_size=32, n_epochs=1, seed=0,
                        policy_kwargs={"net_arch": [32]}, device="cpu")
    model.set_logger(Logger(folder=None, output_formats=[]))  # no SB3-<time> folder left in /tmp
    model.learn(32)
    path = tmp_path_factory.mktemp("learned") / "tiny.zip"
    model.save(path)
    return path


@pytest.fixture(scope="module")
def model_path(zip_path):
    from ccg_env.saved_policy import convert

    return convert(zip_path, zip_path.with_suffix(".ccgmodel"), trust=True)


def test_learned_agent_plays_legal_games_from_both_seats(model_path):
    from ccg_env.agents.learned import LearnedAgent

    agent = LearnedAgent(model_path)
    runner = MatchRunner()
    for seats in ((agent, RandomAgent()), (RandomAgent(), agent)):
        record = runner.play(seats, seed=1)
        assert record.result in ("win", "draw", "turn_limit") and record.decisions > 10
    assert agent.name == "learned:tiny" and agent.normalize is False


def test_learned_agent_is_picklable_without_its_model(model_path):
    import pickle

    from ccg_env.agents.learned import LearnedAgent

    agent = LearnedAgent(str(model_path).removesuffix(".ccgmodel"))
    runner = MatchRunner()
    runner.play((agent, RandomAgent()), seed=2)
    clone = pickle.loads(pickle.dumps(agent))
    assert clone._model is None and clone.path == agent.path
    assert runner.play((clone, RandomAgent()), seed=2) == runner.play((agent, RandomAgent()), seed=2)


def test_missing_model_file_is_a_clear_error(tmp_path):
    from ccg_env.agents.learned import LearnedAgent

    with pytest.raises(FileNotFoundError, match="no model file"):
        LearnedAgent(tmp_path / "nothing.zip")


def test_an_sb3_zip_needs_trust_and_then_plays_as_its_model_file(zip_path, model_path):
    from ccg_env.agents.learned import LearnedAgent
    from ccg_env.model_file import UntrustedModelError

    with pytest.raises(UntrustedModelError, match="unpickles"):
        LearnedAgent(zip_path)
    runner = MatchRunner()
    trusted, safe = LearnedAgent(zip_path, trust=True, name="x"), LearnedAgent(model_path, name="x")
    assert runner.play((trusted, RandomAgent(seed=3)), seed=3) == runner.play((safe, RandomAgent(seed=3)), seed=3)


def test_a_sampling_agent_draws_only_legal_actions(model_path):
    from ccg_env.agents.learned import LearnedAgent

    observation, mask = _first_observation()
    mask[:] = 0
    mask[[0, 3, 7]] = 1
    agent = LearnedAgent(model_path, deterministic=False)
    agent.reset(seed=1)
    drawn = {agent.act(observation, mask) for _ in range(60)}
    assert drawn <= {0, 3, 7} and len(drawn) > 1


def test_greedy_rows_takes_the_best_legal_id_lowest_on_ties_and_0_for_a_finished_game():
    from ccg_env.training.greedy import best_legal, greedy_rows

    logits = np.array([[5.0, 1.0, 3.0, 3.0], [0.0, 2.0, 2.0, 9.0], [1.0, 2.0, 3.0, 4.0]], dtype=np.float32)
    masks = np.array([[0, 1, 1, 1], [1, 1, 1, 0], [0, 0, 0, 0]], dtype=np.int8)
    assert greedy_rows(logits, masks).tolist() == [2, 1, 0]
    assert best_legal(logits[0], [3, 1, 2]) == 2 and best_legal(logits[1], [0]) == 0
    with pytest.raises(ValueError, match="no legal action"):
        best_legal(logits[0], [])


def _rllib_policy_file(path: Path, weights: bytes = b"not read without ray") -> Path:
    """A policy file that passes the checks made before loading (its weights are loaded only with Ray)."""
    import hashlib
    import json
    import zipfile

    metadata = {"format": "ccg-env-rllib-module", "format_version": 1, "module_class": "MaskedPPOTorchRLModule",
                "fcnet_hiddens": [8], "head_fcnet_hiddens": [], "fcnet_activation": "tanh",
                "vf_share_layers": False, "observation_size": 4, "action_size": 3, "rules": None, "card_ids": None,
                "weights_sha256": hashlib.sha256(weights).hexdigest()}
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("metadata.json", json.dumps(metadata))
        archive.writestr("weights.pt", weights)
    return path


@pytest.mark.skipif(importlib.util.find_spec("ray") is not None, reason="ray is installed: tests/rllib plays it")
def test_an_rllib_policy_file_is_checked_at_once_and_refused_without_the_rllib_extra(tmp_path):
    from ccg_env.agents.arena import build_agent
    from ccg_env.agents.learned import LearnedAgent
    from ccg_env.extras import MissingExtraError
    from ccg_env.model_file import ModelFileError

    path = _rllib_policy_file(tmp_path / "p.ccgrllib")
    refusal = r"^agent 'learned:p' needs the optional extra 'rllib' \(ray\b.*\): pip install 'ccg-env\[rllib\]'$"
    with pytest.raises(MissingExtraError, match=refusal):  # the suffix found, the file read, then the agent refused
        LearnedAgent(tmp_path / "p")
    with pytest.raises(MissingExtraError, match=refusal):
        build_agent(f"rllib:path={path}")  # the former agent name, an alias
    with zipfile.ZipFile(path, "a") as archive:  # a third member: no longer the format
        archive.writestr("extra.txt", "x")
    with pytest.raises(ModelFileError, match="not a ccg-env RLlib policy file"):
        LearnedAgent(path)


# --- seeding, observation scale, the shipped model --------------------------------------------------


def _first_observation():
    from ccg_env.env.gym_env import CcgDuelEnv

    env = CcgDuelEnv()
    observation, _ = env.reset(seed=0)
    return observation, np.ones(env.action_space.n, dtype=np.int8)


def _samples(agent, seed: int, count: int = 30) -> list[int]:
    observation, mask = _first_observation()
    agent.reset(seed=seed)
    return [agent.act(observation, mask) for _ in range(count)]


def test_reset_seeds_a_sampling_policy_even_when_the_model_loads_after_it(model_path):
    from ccg_env.agents.learned import LearnedAgent

    lazy = _samples(LearnedAgent(model_path, deterministic=False), seed=5)  # loads at the first act, after reset
    eager = LearnedAgent(model_path, deterministic=False)
    eager.act(*_first_observation())  # loaded before the reset
    assert _samples(eager, seed=5) == lazy
    assert _samples(LearnedAgent(model_path, deterministic=False), seed=6) != lazy


def _raw_observation(rules):
    from ccg_env.engine import Game, default_cards
    from ccg_env.env.observation import ObservationEncoder
    from ccg_env.engine.view import GameView

    game = Game.new(seed=0, rules=rules)
    encoder = ObservationEncoder(rules, default_cards())
    observation = encoder.new_buffer()
    encoder.encode(game, game.current_player, observation)
    return observation, encoder.scale, GameView(game, game.current_player)


def _predicted_inputs(agent, monkeypatch) -> list:
    seen: list = []
    model = agent._load()
    monkeypatch.setattr(model, "logits", lambda obs, masks: seen.append(obs[0]) or np.zeros(masks.shape))
    return seen


def test_normalized_observations_are_scaled_by_the_rules_of_the_game_played(model_path, monkeypatch):
    import dataclasses

    from ccg_env.agents.learned import LearnedAgent, observation_scale
    from ccg_env.engine import Rules

    rules = dataclasses.replace(Rules.load(), max_mana=8, turn_limit=60)
    observation, scale, view = _raw_observation(rules)
    assert not np.array_equal(scale, observation_scale()), "these rules must change the scale"
    agent = LearnedAgent(model_path, normalize=True)
    seen = _predicted_inputs(agent, monkeypatch)
    mask = np.ones(agent._model.action_space.n, dtype=np.int8)
    agent.act(observation, mask, view)
    agent.act(observation, mask)  # no view: the packaged rules
    assert np.array_equal(seen[0], observation * scale)
    assert np.array_equal(seen[1], observation * observation_scale())


def test_a_card_set_that_does_not_fit_the_observation_is_a_clear_error(zip_path, monkeypatch):
    from ccg_env.agents.learned import LearnedAgent
    from ccg_env.engine import Rules
    from ccg_env.engine.datafiles import config_dir

    observation, _, view = _raw_observation(Rules.load())
    # an SB3 zip records no card set (a model file does: tests/test_model_files.py), so the scale check catches it
    agent = LearnedAgent(zip_path, normalize=True, cards=config_dir() / "cards" / "basic.yaml", trust=True)
    _predicted_inputs(agent, monkeypatch)
    with pytest.raises(ValueError, match=r"observation has \d+ entries .* pass the game's card set as cards="):
        agent.act(observation, np.ones(agent._model.action_space.n, dtype=np.int8), view)


SHIPPED_MODEL_SPEC = "learned"  # no path: the model shipped with the package
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def shipped_agent():
    from ccg_env.agents.arena import build_agent

    previous = Path.cwd()
    os.chdir(REPO)  # the spec's path is relative to the repository, as in docs/training.md
    try:
        return build_agent(SHIPPED_MODEL_SPEC)
    finally:
        os.chdir(previous)


def test_the_shipped_model_plays_legal_games_and_still_plays_well(shipped_agent):
    from ccg_env.agents.heuristic import HeuristicAgent

    runner = MatchRunner()
    wins = {"random": 0, "heuristic": 0}
    for seed in (0, 1, 2):
        for rival_name, rival in (("random", RandomAgent(seed=seed)), ("heuristic", HeuristicAgent())):
            for seat in (0, 1):
                seats = (shipped_agent, rival) if seat == 0 else (rival, shipped_agent)
                record = runner.play(seats, seed)  # an illegal choice raises IllegalActionError
                assert record.result in ("win", "draw", "turn_limit") and record.decisions > 10
                wins[rival_name] += record.winner == seat
    # it wins about 0.99 of its games against random play and 0.7 against the heuristic: a model that no
    # longer understands the observation falls far below this
    assert wins["random"] >= 5 and wins["heuristic"] >= 2, wins


def test_the_shipped_model_plays_as_the_gym_env_opponent(shipped_agent):
    import gymnasium as gym

    import ccg_env  # noqa: F401  (registers ccg_env/Duel-v1)

    env = gym.make("ccg_env/Duel-v1", opponent=shipped_agent)
    assert env.observation_space.shape == shipped_agent._load().observation_space.shape
    learner = RandomAgent(seed=0)
    for episode in range(2):
        observation, info = env.reset(seed=episode)
        done = False
        while not done:  # the env raises if the opponent picks an action that is not legal
            action = learner.act(observation, env.unwrapped.action_masks())
            observation, reward, terminated, truncated, info = env.step(action)
            done = terminated or truncated
        assert info["outcome"] in ("win", "loss", "draw", "turn_limit")
    env.close()
