"""PettingZoo conformance: api_test, seed_test and render_test, spaces built once, metadata."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
from pettingzoo.test import api_test, render_test, seed_test

from ccg_env.env.aec import AGENTS, CcgAECEnv, env, raw_env


def test_pettingzoo_api_test_passes():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Dict observations draw PettingZoo's generic style warnings
        api_test(env(seed=0), num_cycles=200)


def test_pettingzoo_api_test_passes_with_the_shaping_wrapper():
    """Every step's rewards are that step's alone: the shaping paid on one step is not paid again on the next."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env(seed=0, reward_shaping=True), num_cycles=300)


def test_pettingzoo_seed_test_passes():
    seed_test(lambda: env(decks="random"), num_cycles=200)


def test_pettingzoo_api_and_seed_tests_pass_with_hero_powers():
    from ..engine.helpers import class_decks

    decks = class_decks(12)  # a rogue and a warlock
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env(seed=0, decks=decks), num_cycles=200)
    seed_test(lambda: env(decks=decks), num_cycles=200)


def test_pettingzoo_render_test_passes(capsys):
    render_test(lambda render_mode=None: env(render_mode=render_mode, seed=1))
    assert "Recent actions:" in capsys.readouterr().out  # the human mode printed boards


def test_spaces_are_built_once_and_shaped_by_the_layout():
    raw = raw_env()
    for agent in AGENTS:
        space = raw.observation_space(agent)
        assert space is raw.observation_space(agent) and raw.action_space(agent) is raw.action_space(agent)
        assert isinstance(space, gymnasium.spaces.Dict) and set(space.spaces) == {"observation", "action_mask"}
        assert space["observation"].dtype == np.float32 and space["action_mask"].dtype == np.int8
        assert space["action_mask"].shape == (raw.action_space(agent).n,) == (262,)
    raw.reset(seed=0)
    observation = raw.observe("player_0")
    assert observation["observation"].shape == raw.observation_space("player_0")["observation"].shape


def test_metadata_and_wrapping_follow_the_classic_envs():
    wrapped = env()
    assert isinstance(wrapped.unwrapped, CcgAECEnv)
    assert CcgAECEnv.metadata == {"name": "ccg_env_v1", "render_modes": ["ansi", "human"],
                                  "is_parallelizable": False}
    names = []
    layer = wrapped
    while hasattr(layer, "env"):
        names.append(type(layer).__name__)
        layer = layer.env
    assert names == ["OrderEnforcingWrapper"]  # the raw env checks actions and forfeits itself (env core)


def test_public_factories_are_reachable_from_the_package():
    import ccg_env
    import ccg_env.env.aec  # noqa: F401  (importing the subpackage must not shadow the factory)

    assert isinstance(ccg_env.raw_env(), CcgAECEnv)
    assert isinstance(ccg_env.env().unwrapped, CcgAECEnv)
