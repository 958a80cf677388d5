"""What the env core hands opponents and keeps per game: views that speak action ids, no action log unless asked,
the opponent's own drafted deck in draft mode, and its reseeding with each game's seed."""

import random

import numpy as np

from ccg_env.agent_api import make_agent
from ccg_env.engine import CardClass
from ccg_env.env.core import EnvCore
from ccg_env.env.duel import AgentOpponent, DuelSetup
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


class RecordingAgent:
    """An opponent asked through act(): it keeps each observation it is given and plays the first legal id."""

    name = "recorder"

    def __init__(self) -> None:
        self.observations = []

    def act(self, observation, action_mask, view=None) -> int:
        self.observations.append(observation)
        return int(np.flatnonzero(action_mask)[0])


def test_in_draft_mode_an_opponent_sees_its_own_drafted_deck_in_every_battle_observation():
    setup = DuelSetup.build(mode="draft", heroes=("mage", "warrior"))
    core, encoder = setup.core, setup.encoder
    game = core.new_game(4)
    while game.in_draft:
        game.apply(game.legal_actions()[game.state.current % 3])  # the seats pick differently: their decks differ
    agent, viewer = RecordingAgent(), AgentOpponent(make_agent("heuristic"), setup)
    opponent = AgentOpponent(agent, setup)
    while game.state.current != 1:
        game.apply(viewer.choose(game, game.state.current))  # an opponent choosing from its view: no observation
    opponent.choose(game, 1)
    drafted = encoder.new_buffer()
    encoder.write_draft(game.draft, 1, drafted)
    seen = encoder.view(agent.observations[-1])
    assert seen["draft_hero"][list(CardClass).index(CardClass.WARRIOR)] == 1.0 and seen["draft_deck"].sum() == 30
    for piece in ("draft", "draft_hero", "draft_offer", "draft_deck", "draft_curve"):
        np.testing.assert_array_equal(seen[piece], encoder.view(drafted)[piece])
    np.testing.assert_array_equal(agent.observations[-1][:encoder.battle_size],
                                  _battle_observation(core, game, 1))


def _battle_observation(core, game, seat):
    expected = core.encoder.new_buffer()
    core.encoder.encode(game, seat, expected, core.legal(game).values())
    return expected


def test_in_duel_mode_an_opponent_sees_the_battle_observation_alone():
    setup = DuelSetup.build()
    agent = RecordingAgent()
    opponent = AgentOpponent(agent, setup)
    game = setup.core.new_game(0)
    opponent.choose(game, game.state.current)
    expected = setup.encoder.new_buffer()
    setup.encoder.encode(game, game.state.current, expected)
    np.testing.assert_array_equal(agent.observations[-1], expected)


class CoinFlipAgent:
    """An opponent with its own random generator, reseeded by reset(seed) before each game."""

    name = "coin_flip"

    def __init__(self) -> None:
        self._rng = random.Random()

    def reset(self, seed=None) -> None:
        self._rng.seed(seed)

    def act(self, observation, action_mask, view=None) -> int:
        return int(self._rng.choice(np.flatnonzero(action_mask)))


def test_the_same_seed_gives_the_same_game_against_an_opponent_with_its_own_random_generator():
    """The opponent is reseeded with each game's seed: a replayed seed replays the opponent's moves too."""
    env = CcgDuelEnv(opponent=CoinFlipAgent(), seat=0)

    def game_log(seed: int) -> str:
        _, info = env.reset(seed=seed)
        for _ in range(30):  # the learner always plays its first legal id; the opponent's moves are random
            _, _, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
            if terminated or truncated:
                break
        return env.duel.game.to_json()

    first = game_log(5)
    game_log(6)
    assert game_log(5) == first
