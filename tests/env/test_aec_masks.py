"""Property test over seeded random games: the mask is exactly the set of actions the engine accepts."""

from __future__ import annotations

import random

import numpy as np
import pytest

from ccg_env.engine import CardClass, Game, IllegalActionError
from ccg_env.env.aec import AGENTS, raw_env

from ..engine.helpers import class_decks

SEEDS = range(20)


def accepted(game: Game, codec, action_id: int) -> bool:
    """Whether the engine accepts an action id (tried on a clone)."""
    choice = codec.decode(game, action_id)
    if choice is None:
        return False
    try:
        game.clone().apply(choice)
    except IllegalActionError:
        return False
    return True


def refused_without_change(game: Game, codec, action_id: int) -> bool:
    """Whether an id decodes to nothing or ``apply`` raises; a refused apply must not touch the state."""
    choice = codec.decode(game, action_id)
    if choice is None:
        return True
    try:
        game.apply(choice)
    except IllegalActionError:
        return True
    return False


def check_position(env, rng: random.Random) -> None:
    """Check both agents' observations and the acting agent's mask against the engine."""
    game, codec = env.game, env.codec
    acting = env.agent_selection
    for agent in AGENTS:
        observation = env.observe(agent)
        assert env.observation_space(agent).contains(observation), f"{agent}'s observation is out of its space"
        if agent != acting:
            assert not observation["action_mask"].any(), "the agent not on turn must see an all-zero mask"
    mask = env.observe(acting)["action_mask"]
    masked = np.flatnonzero(mask).tolist()
    assert masked, "the agent on turn always has at least end turn"
    for action_id in masked:
        assert accepted(game, codec, action_id), f"masked action {codec.layout.describe(action_id)} was refused"
    before = game.to_json()
    unmasked = [i for i in range(codec.layout.size) if not mask[i]]
    decodable = [i for i in unmasked if codec.decode(game, i) is not None]
    sample = decodable + rng.sample(unmasked, min(20, len(unmasked)))
    for action_id in sample:
        assert refused_without_change(game, codec, action_id), \
            f"unmasked action {codec.layout.describe(action_id)} was accepted"
    assert game.to_json() == before, "a refused action changed the state"


def check_hidden_information(env, rng: random.Random) -> None:
    """Swapping the enemy's hand and secret cards and shuffling both decks leaves the observation unchanged."""
    agent = env.agent_selection
    seat = AGENTS.index(agent)
    before = env.observe(agent)
    real = env.game
    env.game = real.clone()
    definitions = list(real.cards.values())
    enemy = env.game.state.players[1 - seat]
    for card in (*enemy.hand, *enemy.secrets):
        card.definition = rng.choice(definitions)
        card.cost, card.attack, card.health = rng.randrange(10), rng.randrange(10), rng.randrange(1, 10)
    for player in env.game.state.players:
        rng.shuffle(player.deck)
    after = env.observe(agent)
    env.game = real
    assert np.array_equal(before["observation"], after["observation"]), "enemy hidden cards leaked"
    assert np.array_equal(before["action_mask"], after["action_mask"])


@pytest.mark.parametrize("seed", SEEDS)
def test_mask_equals_accepted_actions_and_observations_stay_in_space(seed):
    _play_checked(raw_env(decks="random" if seed % 2 else None), seed)


@pytest.mark.parametrize("seed", range(1, 9))
def test_mask_equals_accepted_actions_with_hero_powers(seed):
    decks = class_decks(seed)
    assert any(deck.hero is not CardClass.NEUTRAL for deck in decks)
    env = _play_checked(raw_env(decks=decks, log=True), seed)
    assert any(entry.kind == "UseHeroPower" and not entry.cancelled for entry in env.game.log)


def _play_checked(env, seed: int):
    """Play a random game through ``env``, checking every position; return the env at the end."""
    env.reset(seed=seed)
    rng = random.Random(seed)
    steps = 0
    while not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
        check_position(env, rng)
        if steps % 4 == 0:
            check_hidden_information(env, rng)
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(rng.choice(np.flatnonzero(mask).tolist()))
        steps += 1
    assert env.game.is_over and steps > 10
    for agent in AGENTS:
        final = env.observe(agent)
        assert env.observation_space(agent).contains(final), "the final observation is out of its space"
        assert not final["action_mask"].any(), "masks must be all zero once the game is over"
    return env


def test_unmasked_action_is_refused_by_raw_env_in_raise_mode_with_state_unchanged():
    env = raw_env(illegal_action="raise")
    env.reset(seed=5)
    mask = env.observe(env.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    before = env.game.to_json()
    with pytest.raises(ValueError, match="player_0: action"):
        env.step(illegal)
    assert env.game.to_json() == before
    assert env.agent_selection == "player_0"
