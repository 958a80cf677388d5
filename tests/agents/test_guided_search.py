"""Policy-guided search: the prior steers the root, legal play through a whole game, determinism, options."""

from __future__ import annotations

import numpy as np
import pytest

from ccg_env.agents.guided_search import GuidedSearchAgent, PolicyPrior
from ccg_env.agents.learned import LearnedAgent
from ccg_env.agents.match import MatchRunner
from ccg_env.agents.search import SearchAgent
from ccg_env.agent_api import make_agent
from ccg_env.engine import ChoiceKind, Game
from ccg_env.engine.view import GameView
from tests.agents.test_search import TAUNT_LETHAL, _names

FIREBALL_THE_TAUNT = (ChoiceKind.PLAY, "fireball", "senjin_shieldmasta")


def _sure_of(game: Game, wanted: tuple):
    """A stub prior: almost all probability on the choice named ``wanted``, the rest shared."""
    def prior(observation, action_mask, view, choices):
        return [0.99 if _names(game, c) == wanted else 0.01 / (len(choices) - 1) for c in choices]
    return prior


def _root_visits(game: Game, root) -> dict:
    return {_names(game, choice): child.visits for choice, child in root.children.items()}


def test_a_choice_the_prior_is_sure_of_gets_the_most_visits_where_plain_ucb1_does_not_try_it():
    game = Game.from_scenario(TAUNT_LETHAL)
    view = GameView(game, 0)
    plain = _root_visits(game, SearchAgent(iterations=4, seed=0).search(view))
    assert plain.get(FIREBALL_THE_TAUNT, 0) == 0  # four iterations go to four other root choices first
    agent = GuidedSearchAgent(iterations=4, seed=0, prior=_sure_of(game, FIREBALL_THE_TAUNT))
    guided = _root_visits(game, agent.search(view, agent.root(view, view.legal_choices(), None, None)))
    assert guided[FIREBALL_THE_TAUNT] == max(guided.values()) >= 3
    assert _names(game, agent.choose(view)) == FIREBALL_THE_TAUNT


def test_the_prior_steers_even_a_losing_choice_at_a_tiny_budget_and_plain_search_prefers_the_lethal():
    game = Game.from_scenario(TAUNT_LETHAL)
    view = GameView(game, 0)
    end_turn = (ChoiceKind.END_TURN, None, None)
    steered = GuidedSearchAgent(iterations=8, seed=0, prior=_sure_of(game, end_turn))
    assert _names(game, steered.choose(view)) == end_turn
    assert _names(game, SearchAgent(iterations=16, seed=0).choose(view)) != end_turn


def _play(agent, seed: int = 3):
    """Play one whole game against a small plain search; return the record and every applied choice."""
    choices: list = []
    record = MatchRunner().play([agent, SearchAgent(iterations=4)], seed, choices=choices)
    return record, choices


def test_guided_search_plays_only_legal_moves_through_a_whole_game_and_the_same_seed_repeats_it():
    record, choices = _play(make_agent("guided_search", iterations=6, seed=1))  # the shipped model as prior
    assert record.result != "unfinished" and record.decisions == len(choices) > 20
    assert _play(GuidedSearchAgent(iterations=6, seed=1))[1] == choices  # the runner raises on an illegal move


def test_the_policy_prior_is_the_softmax_of_the_learned_agents_logits_at_the_legal_ids():
    runner = MatchRunner()
    game = runner.new_game(5)
    for _ in range(12):
        runner.step(game, SearchAgent(iterations=2, seed=0))
    player = game.current_player
    legal = runner.core.legal(game)
    observation = runner.core.observation_encoder.new_buffer()
    runner.core.observation_encoder.encode(game, player, observation, legal.values())
    mask = runner.core.mask(legal)
    view = GameView(game, player, runner.codec)
    choices = view.legal_choices()
    probabilities = PolicyPrior()(observation, mask, view, choices)
    assert len(probabilities) == len(choices) and np.isclose(sum(probabilities), 1.0)
    greedy = LearnedAgent().act(observation, mask, view)
    assert view.action_ids([choices[int(np.argmax(probabilities))]]) == [greedy]


def test_guided_search_rejects_bad_options_naming_them():
    with pytest.raises(ValueError, match="c_puct"):
        GuidedSearchAgent(c_puct=-1.0, prior=lambda *args: [])
    with pytest.raises(ValueError, match="iterations"):
        GuidedSearchAgent(iterations=0, prior=lambda *args: [])
    with pytest.raises(ValueError, match="time_limit"):
        GuidedSearchAgent(time_limit=0.0, prior=lambda *args: [])
    with pytest.raises(ValueError, match="c_puct"):
        make_agent("guided_search", c_puct="high")
    with pytest.raises(ValueError, match="explore"):
        make_agent("guided_search", explore=1.0)
    with pytest.raises(FileNotFoundError, match="no-such-model"):
        GuidedSearchAgent(path="no-such-model.ccgmodel")
