"""Rule: the reward is the learner's own outcome, +1 for a win and -1 for a loss, in whichever seat it sits.

Every front-end is checked in both seats (Gymnasium single env, the batched vector env, the SB3 VecEnv and the
PettingZoo AEC env) on boards built so that one known action ends the game with a known winner, and the single
env also over whole seeded games, where the truth is the engine's own ``game.winner`` rather than the env's
outcome label (a bug that swaps the label and the reward together would agree with itself).
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import ccg_env
from ccg_env.env.gym_env import ENV_ID
from ccg_env.env.vector import CcgDuelVectorEnv

END_TURN = 0  # the action layout's first id (documented in ccg_env.env.aec)


def _seats(seat: int, learner: dict, enemy: dict) -> dict:
    """A scenario with the learner's player dict in ``seat`` and the learner on turn."""
    players = [learner, enemy] if seat == 0 else [enemy, learner]
    return {"current": seat, "turn": 5, "players": players}


def lethal_attack(seat: int) -> dict:
    """The learner's awake wisp can hit the enemy hero, who has 1 health: attacking wins."""
    return _seats(seat, {"mana": 0, "deck": ["wisp"], "battlefield": [{"card": "wisp", "sleeping": False}]},
                  {"mana": 0, "health": 1, "deck": ["wisp"]})


def suicide_attack(seat: int) -> dict:
    """The learner's 1-health hero holds an axe and may only hit a 3-attack taunt minion: attacking loses."""
    return _seats(seat, {"mana": 0, "health": 1, "weapon": "fiery_war_axe", "deck": ["wisp"]},
                  {"mana": 0, "deck": ["wisp"], "battlefield": [{"card": "senjin_shieldmasta"}]})


def enemy_fatigue(seat: int) -> dict:
    """The enemy has 1 health and an empty deck: ending the turn makes it draw into fatigue, and the learner wins."""
    return _seats(seat, {"mana": 0, "deck": ["wisp"]}, {"mana": 0, "health": 1})


def own_fatigue(seat: int) -> dict:
    """The learner has 1 health and an empty deck; the enemy can only end its turn: the learner's next draw loses."""
    return _seats(seat, {"mana": 0, "health": 1}, {"mana": 0})


def mutual_hellfire(seat: int) -> dict:
    """Both heroes have 3 health and the learner holds Hellfire (3 damage to all): casting it is a draw."""
    return _seats(seat, {"mana": 4, "health": 3, "hand": ["hellfire"], "deck": ["wisp"]},
                  {"mana": 0, "health": 3, "deck": ["wisp"]})


# (board, reward of the learner, the learner's outcome: "win", "loss" or "draw")
CASES = {
    "learner wins by attacking": (lethal_attack, 1.0, "win"),
    "learner loses by attacking": (suicide_attack, -1.0, "loss"),
    "learner wins on the enemy's turn": (enemy_fatigue, 1.0, "win"),
    "learner loses on its own next turn": (own_fatigue, -1.0, "loss"),
    "both heroes die at once": (mutual_hellfire, 0.0, "draw"),
}


def the_one_move(mask: np.ndarray) -> int:
    """The boards allow ending the turn and at most one other move: return that move, or end turn if none."""
    legal = np.flatnonzero(mask).tolist()
    assert legal[0] == END_TURN and len(legal) <= 2, f"the board should allow one move besides end turn: {legal}"
    return legal[-1]


def expected_winner(seat: int, outcome: str) -> int | None:
    return {"win": seat, "loss": 1 - seat, "draw": None}[outcome]


# --- Gymnasium single env --------------------------------------------------------------------------------


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("seat", [0, 1])
@pytest.mark.parametrize("seat_from", ["config", "reset option"])
def test_gym_env_pays_the_learner_its_own_outcome_in_either_seat(case, seat, seat_from):
    board, reward, outcome = CASES[case]
    if seat_from == "config":
        env = gym.make(ENV_ID, seat=seat)
        _, info = env.reset(seed=3, options={"scenario": board(seat)})
    else:
        env = gym.make(ENV_ID, seat="random")
        _, info = env.reset(seed=3, options={"scenario": board(seat), "seat": seat})
    assert info["seat"] == seat
    _, got, terminated, truncated, info = env.step(the_one_move(info["action_mask"]))
    game = env.unwrapped.game
    assert game.is_over and game.winner == expected_winner(seat, outcome)
    assert (got, terminated, truncated, info["outcome"]) == (reward, True, False, outcome)
    assert not info["action_mask"].any()


@pytest.mark.parametrize("seat", [0, 1])
def test_gym_env_rewards_follow_the_engines_winner_over_whole_games(seat):
    """Seeded random games played to the end: +1 exactly when the engine says the learner's seat won."""
    env = gym.make(ENV_ID, seat=seat, opponent="random", turn_limit=80)
    rewards = []
    for seed in range(12):
        rng = np.random.default_rng(seed)
        _, info = env.reset(seed=seed)
        total, done = 0.0, False
        while not done:
            _, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            total += reward
            done = terminated or truncated
        game = env.unwrapped.game
        truth = 0.0 if game.winner is None else (1.0 if game.winner == seat else -1.0)
        assert (info["seat"], total) == (seat, truth), f"seed {seed}: winner {game.winner}, learner seat {seat}"
        rewards.append(total)
    assert {1.0, -1.0} <= set(rewards), "the seeds should give the learner both wins and losses"


# --- batched vector env and SB3 VecEnv --------------------------------------------------------------------


def _steps_of(masks: np.ndarray) -> np.ndarray:
    return np.array([the_one_move(row) for row in masks])


@pytest.mark.parametrize("seat", [0, 1])
@pytest.mark.parametrize("make", ["constructor", "gym.make_vec"])
def test_vector_env_pays_each_slot_its_learners_outcome_in_either_seat(seat, make):
    names = list(CASES)
    env = (CcgDuelVectorEnv(num_envs=len(names), seat=seat) if make == "constructor"
           else gym.make_vec(ENV_ID, num_envs=len(names), seat=seat))
    env.reset(seed=5, options={"scenario": CASES[names[0]][0](seat)})
    for slot, name in enumerate(names[1:], start=1):  # every slot gets its own board
        only = np.arange(len(names)) == slot
        _, infos = env.reset(options={"scenario": CASES[name][0](seat), "reset_mask": only})
    _, rewards, terminated, truncated, infos = env.step(_steps_of(infos["action_mask"]))
    assert rewards.tolist() == [CASES[name][1] for name in names]
    assert terminated.all() and not truncated.any()
    assert infos["outcome"].tolist() == [CASES[name][2] for name in names]


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("seat", [0, 1])
def test_sb3_vec_env_pays_the_learner_its_own_outcome_in_either_seat(case, seat):
    pytest.importorskip("stable_baselines3")
    from ccg_env.env.sb3_vec import CcgDuelSb3VecEnv

    board, reward, outcome = CASES[case]
    env = CcgDuelSb3VecEnv(num_envs=2, seat=seat)
    env.seed(7)
    env.set_options({"scenario": board(seat)})
    env.reset()
    _, rewards, dones, infos = env.step(_steps_of(env.action_masks()))
    assert rewards.tolist() == [reward, reward] and dones.all()
    for info in infos:
        assert (info["outcome"], info["episode"]["r"], info["episode"]["l"]) == (outcome, reward, 1)


# --- PettingZoo AEC env ---------------------------------------------------------------------------------


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("seat", [0, 1])
@pytest.mark.parametrize("make", [ccg_env.raw_env, ccg_env.env])
def test_aec_env_pays_each_agent_its_own_outcome_in_either_seat(case, seat, make):
    board, reward, outcome = CASES[case]
    learner, other = f"player_{seat}", f"player_{1 - seat}"
    env = make()
    env.reset(seed=11, options={"scenario": board(seat)})
    assert env.agent_selection == learner
    returns, final_infos = {learner: 0.0, other: 0.0}, {}
    while env.agents:
        agent = env.agent_selection
        observation, cumulative, terminated, truncated, info = env.last()
        returns[agent] += cumulative
        if terminated or truncated:
            final_infos[agent] = dict(info)
        env.step(None if terminated or truncated else the_one_move(observation["action_mask"]))
    winner = expected_winner(seat, outcome)
    assert env.unwrapped.game.winner == winner
    assert returns == {learner: reward, other: -reward}
    assert {agent: info["winner"] for agent, info in final_infos.items()} == {
        learner: None if winner is None else f"player_{winner}", other: None if winner is None else f"player_{winner}"}


def test_aec_rewards_follow_the_engines_winner_over_whole_games():
    """Random play in both seats: the agent of the engine's winning seat collects +1, the other -1."""
    env = ccg_env.raw_env()
    winners = set()
    for seed in range(10):
        rng = np.random.default_rng(seed)
        env.reset(seed=seed)
        returns = {"player_0": 0.0, "player_1": 0.0}
        while env.agents:
            agent = env.agent_selection
            observation, cumulative, terminated, truncated, _ = env.last()
            returns[agent] += cumulative
            env.step(None if terminated or truncated
                     else int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        winner = env.unwrapped.game.winner
        truth = {"player_0": 0.0, "player_1": 0.0} if winner is None else {
            f"player_{winner}": 1.0, f"player_{1 - winner}": -1.0}
        assert returns == truth, f"seed {seed}: winner {winner}"
        winners.add(winner)
    assert {0, 1} <= winners, "the seeds should give each seat wins"


# --- forfeits (illegal_action="forfeit") ------------------------------------------------------------


def _play_until_on_turn(env, agent: str, rng: np.random.Generator) -> None:
    while env.agent_selection != agent:
        observation, *_ = env.last()
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))


@pytest.mark.parametrize("seat", [0, 1])
def test_an_illegal_id_in_the_aec_env_costs_its_agent_1_and_the_other_agent_nothing(seat):
    """A forfeit: -1 to the agent that played the masked-out id, 0 to the other, in either seat."""
    offender, other = f"player_{seat}", f"player_{1 - seat}"
    env = ccg_env.raw_env()  # illegal_action="forfeit" by default
    env.reset(seed=21)
    _play_until_on_turn(env, offender, np.random.default_rng(seat))
    observation, *_ = env.last()
    env.step(int(np.flatnonzero(observation["action_mask"] == 0)[0]))
    assert env.rewards == {offender: -1.0, other: 0.0}
    assert env.terminations == {offender: True, other: True}
    assert {agent: info["result"] for agent, info in env.infos.items()} == {offender: "illegal_action",
                                                                          other: "illegal_action"}


@pytest.mark.parametrize("seat", [0, 1])
def test_an_illegal_id_in_the_gym_env_costs_the_learner_1_in_either_seat(seat):
    env = gym.make(ENV_ID, opponent="random", illegal_action="forfeit", seat=seat)
    env.reset(seed=4)
    masked_out = int(np.flatnonzero(env.unwrapped.action_masks() == 0)[0])
    _, reward, terminated, truncated, info = env.step(masked_out)
    assert (reward, terminated, truncated, info["outcome"]) == (-1.0, True, False, "illegal_action")
