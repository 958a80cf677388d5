"""The agents: full legal games, the protocol, the heuristic's rules, search determinism and no peeking."""

from __future__ import annotations

import numpy as np
import pytest

from ccg_env.agents.heuristic import HeuristicAgent, choose
from ccg_env.agents.match import MatchRunner
from ccg_env.agents.random_agent import RandomAgent
from ccg_env.agents.search import SearchAgent
from ccg_env.agent_api import Agent, make_agent
from ccg_env.engine import ChoiceKind, Game, Rules
from ccg_env.env.codec import ActionCodec, ActionLayout
from ccg_env.env.gym_env import CcgDuelEnv
from ccg_env.engine.view import GameView
from tests.agents.test_view import _hide_differently, mid_game

CODEC = ActionCodec(ActionLayout.for_rules(Rules.load()))
AGENT_FACTORIES = {
    "random": lambda: RandomAgent(),
    "heuristic": lambda: HeuristicAgent(),
    "search": lambda: SearchAgent(iterations=8),
}


@pytest.mark.parametrize("name", sorted(AGENT_FACTORIES))
def test_agent_plays_full_games_from_both_seats_without_illegal_moves(name):
    runner = MatchRunner()
    for seed in (0, 1):
        record = runner.play((AGENT_FACTORIES[name](), RandomAgent()), seed)
        assert record.result in ("win", "draw", "turn_limit") and record.decisions > 10
        record = runner.play((HeuristicAgent(), AGENT_FACTORIES[name]()), seed)
        assert record.result in ("win", "draw", "turn_limit") and record.decisions > 10


@pytest.mark.parametrize("name", ["heuristic", "search"])
def test_agent_plays_full_episodes_as_the_gym_env_opponent(name):
    env = CcgDuelEnv(opponent=make_agent(name, **({"iterations": 4} if name == "search" else {})))
    learner = RandomAgent(seed=0)
    for episode in range(2):
        observation, info = env.reset(seed=episode)
        done, steps = False, 0
        while not done:
            observation, reward, terminated, truncated, info = env.step(learner.act(observation, env.action_masks()))
            done, steps = terminated or truncated, steps + 1
        assert info["outcome"] in ("win", "loss", "draw", "turn_limit") and steps > 3


def test_registered_names_build_agents_that_follow_the_protocol():
    for name in ("random", "heuristic", "search"):
        agent = make_agent(name)
        assert isinstance(agent, Agent) and agent.name == name


def test_random_agent_is_uniform_over_the_mask_and_seeded():
    mask = np.zeros(CODEC.layout.size, dtype=np.int8)
    mask[[0, 5, 9]] = 1
    agent = RandomAgent(seed=3)
    picks = [agent.act(None, mask) for _ in range(300)]
    assert set(picks) == {0, 5, 9} and min(picks.count(i) for i in (0, 5, 9)) > 60
    agent.reset(seed=3)
    assert [agent.act(None, mask) for _ in range(300)] == picks
    with pytest.raises(ValueError, match="all-zero action mask"):
        agent.act(None, np.zeros_like(mask))


@pytest.mark.parametrize("agent", [HeuristicAgent(), SearchAgent()])
def test_rule_reading_agents_need_a_view(agent):
    with pytest.raises(ValueError, match="GameView"):
        agent.act(None, np.ones(CODEC.layout.size, dtype=np.int8), None)


def _board(me: dict, enemy: dict) -> Game:
    return Game.from_scenario({"current": 0, "players": [{"deck": ["wisp"] * 5, **me},
                                                          {"deck": ["wisp"] * 5, **enemy}]})


def _pick(game: Game):
    choice = choose(GameView(game, 0))
    find = game.state.find
    return choice.kind, find(choice.source).definition.id if choice.source else None, \
        find(choice.target).definition.id if choice.target else None


def test_heuristic_takes_lethal_instead_of_trading():
    game = _board({"battlefield": [{"card": "chillwind_yeti", "sleeping": False}]},
                  {"health": 4, "battlefield": ["bloodfen_raptor"]})
    assert _pick(game) == (ChoiceKind.ATTACK, "chillwind_yeti", "hero")


def test_heuristic_burns_face_for_lethal():
    game = _board({"mana": 4, "hand": ["fireball"]}, {"health": 6, "battlefield": ["boulderfist_ogre"]})
    assert _pick(game) == (ChoiceKind.PLAY, "fireball", "hero")


def test_heuristic_makes_a_favourable_trade():
    game = _board({"mana": 0, "battlefield": [{"card": "chillwind_yeti", "sleeping": False}]},
                  {"battlefield": ["bloodfen_raptor"]})
    assert _pick(game) == (ChoiceKind.ATTACK, "chillwind_yeti", "bloodfen_raptor")


def test_heuristic_goes_face_rather_than_losing_a_minion_for_nothing():
    game = _board({"mana": 0, "battlefield": [{"card": "bloodfen_raptor", "sleeping": False}]},
                  {"battlefield": ["boulderfist_ogre"]})
    assert _pick(game) == (ChoiceKind.ATTACK, "bloodfen_raptor", "hero")


def test_heuristic_attacks_through_taunt_where_it_loses_least():
    game = _board({"mana": 0, "battlefield": [{"card": "chillwind_yeti", "sleeping": False}]},
                  {"battlefield": ["senjin_shieldmasta", "boulderfist_ogre"]})
    assert _pick(game) == (ChoiceKind.ATTACK, "chillwind_yeti", "senjin_shieldmasta")


def test_heuristic_fireballs_the_biggest_threat_from_its_preferred_targets():
    game = _board({"mana": 4, "hand": ["fireball"]}, {"battlefield": ["wisp", "core_hound"]})
    assert _pick(game) == (ChoiceKind.PLAY, "fireball", "core_hound")


def test_heuristic_holds_a_spell_that_would_be_wasted_and_ends_turn():
    game = _board({"mana": 4, "hand": ["fireball"]}, {"battlefield": ["wisp"]})
    assert _pick(game) == (ChoiceKind.END_TURN, None, None)


def test_heuristic_spends_mana_on_its_biggest_minion():
    game = _board({"mana": 4, "hand": ["wisp", "river_crocolisk", "chillwind_yeti"]}, {})
    assert _pick(game) == (ChoiceKind.PLAY, "chillwind_yeti", None)


def test_heuristic_pays_health_for_a_card_but_never_its_last_health():
    game = _board({"mana": 1, "health": 10, "hand": ["flame_imp"]}, {})
    assert _pick(game) == (ChoiceKind.PLAY, "flame_imp", None)
    game = _board({"mana": 1, "health": 2, "armor": 1, "hand": ["flame_imp"]}, {})
    assert _pick(game) == (ChoiceKind.END_TURN, None, None)


def test_search_is_deterministic_given_its_seed():
    runner = MatchRunner()
    first = runner.play((SearchAgent(iterations=8), HeuristicAgent()), 4)
    again = runner.play((SearchAgent(iterations=8), HeuristicAgent()), 4)
    assert first == again


def test_search_decisions_do_not_depend_on_hidden_information():
    for seed in (3, 5, 8):
        game = mid_game(seed, decisions=25)
        viewer = game.current_player
        other = _hide_differently(game, viewer)
        mine = SearchAgent(iterations=24, seed=1).choose(GameView(game, viewer))
        theirs = SearchAgent(iterations=24, seed=1).choose(GameView(other, viewer))
        assert mine == theirs


def test_search_rejects_bad_budgets():
    with pytest.raises(ValueError, match="iterations >= 1"):
        SearchAgent(iterations=0)
    with pytest.raises(ValueError, match="time_limit"):
        SearchAgent(time_limit=0)


# --- hero powers ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("me, enemy, expected", [
    ({"hero": "warrior", "mana": 2}, {}, (ChoiceKind.HERO_POWER, "armor_up", None)),
    ({"hero": "paladin", "mana": 3}, {}, (ChoiceKind.HERO_POWER, "reinforce", None)),
    ({"hero": "rogue", "mana": 2}, {}, (ChoiceKind.HERO_POWER, "dagger_mastery", None)),
    ({"hero": "warlock", "mana": 2}, {}, (ChoiceKind.HERO_POWER, "life_tap", None)),
    ({"hero": "mage", "mana": 2}, {"battlefield": ["wisp", "chillwind_yeti"]}, (ChoiceKind.HERO_POWER, "fireblast",
                                                                               "wisp")),
    ({"hero": "priest", "mana": 2, "battlefield": [{"card": "chillwind_yeti", "health": 2}]}, {},
     (ChoiceKind.HERO_POWER, "lesser_heal", "chillwind_yeti")),
])
def test_heuristic_spends_left_over_mana_on_a_useful_hero_power(me, enemy, expected):
    assert _pick(_board(me, enemy)) == expected


@pytest.mark.parametrize("me", [
    {"hero": "warlock", "mana": 2, "health": 11},  # Life Tap would cost health it cannot spare
    {"hero": "warlock", "mana": 2, "hand": ["wisp"] * 9},  # no room in the hand for the card
    {"hero": "rogue", "mana": 2, "weapon": "fiery_war_axe"},  # a knife would throw the axe away
    {"hero": "priest", "mana": 2},  # nobody to heal
    {"hero": "warrior", "mana": 1},  # not enough mana
])
def test_heuristic_keeps_its_hero_power_when_it_would_waste_it(me):
    kind, source, _ = _pick(_board(me, {}))
    assert kind is not ChoiceKind.HERO_POWER, source


def test_heuristic_plays_its_cards_before_the_hero_power():
    game = _board({"hero": "warrior", "mana": 4, "hand": ["chillwind_yeti"]}, {})
    assert _pick(game) == (ChoiceKind.PLAY, "chillwind_yeti", None)


def test_heuristic_counts_fireblast_towards_lethal():
    game = _board({"hero": "mage", "mana": 2}, {"health": 1, "battlefield": ["senjin_shieldmasta"]})
    assert _pick(game) == (ChoiceKind.HERO_POWER, "fireblast", "hero")


@pytest.mark.parametrize("name", sorted(AGENT_FACTORIES))
def test_agents_play_full_games_with_hero_powers(name):
    from tests.engine.helpers import class_decks

    runner = MatchRunner()
    used = 0
    for seed in (3, 12):
        decks = class_decks(seed)
        game = runner.new_game(seed, log=True, decks=decks)
        record = runner.play((AGENT_FACTORIES[name](), HeuristicAgent()), seed, game=game, decks=decks)
        assert record.result in ("win", "draw", "turn_limit") and record.decisions > 10
        used += sum(e.kind == "UseHeroPower" and not e.cancelled and e.action.player == 0 for e in game.log)
    assert used > 0, f"{name} never used a hero power in two games"
# --- the mulligan ----------------------------------------------------------------------------------------------


def test_the_heuristic_keeps_cheap_cards_and_a_curve():
    from ccg_env.agents.heuristic import mulligan_keeps

    assert mulligan_keeps([1, 5, 3, 7]) == [True, False, True, False]
    assert mulligan_keeps([2, 3, 4, 4]) == [True, True, True, False]  # one 4-drop on top of a 2 and a 3
    assert mulligan_keeps([1, 3, 4]) == [True, True, False]  # no 2-drop: no curve to the 4


def _mulligan_game(hand: list[str]):
    from ccg_env.engine import Game

    deck = ["wisp"] * 6
    return Game.from_scenario({"mulligan": True, "players": [{"hand": hand, "deck": deck}, {"deck": deck}]})


def test_the_heuristic_and_the_search_agent_put_back_expensive_cards_then_are_done():
    from ccg_env.agents.heuristic import HeuristicAgent
    from ccg_env.agents.search import SearchAgent
    from ccg_env.engine.view import GameView

    for agent in (HeuristicAgent(), SearchAgent(iterations=4, seed=0)):
        game = _mulligan_game(["boulderfist_ogre", "wisp", "core_hound", "river_crocolisk"])
        chosen = []
        while game.in_mulligan and game.current_player == 0:
            choice = agent.choose_from_view(GameView(game, 0)) if hasattr(agent, "choose_from_view") else \
                agent.choose(GameView(game, 0))
            chosen.append(choice)
            game.apply(choice)
        hand = game.player(0).hand
        assert [c.kind.value for c in chosen] == ["mulligan", "mulligan", "end_turn"], agent
        assert [c.definition.id for c in hand][1::2] == ["wisp", "river_crocolisk"]  # the cheap cards stay put


def test_the_random_agent_mulligans_through_the_mask():
    import numpy as np

    from ccg_env.agents.random_agent import RandomAgent
    from ccg_env.env.aec import raw_env

    env = raw_env()
    env.reset(seed=0)
    agent = RandomAgent(seed=3)
    picks = set()
    for _ in range(20):
        clone_mask = env.observe(env.agent_selection)["action_mask"]
        picks.add(agent.act(None, clone_mask))
    assert picks <= set(np.flatnonzero(clone_mask).tolist()) and len(picks) > 1
    assert any(pick >= env.codec.layout.mulligan_offset for pick in picks)
