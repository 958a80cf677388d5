"""Draft mode conformance: ccg_env/Draft-v1 (Gymnasium and SB3 checkers), the AEC env with mode="draft"
(api_test, seed_test, render_test), masks == accepted ids in both phases, observation pieces, seeding, illegal
actions and the batched env."""

import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env as gym_check_env
from pettingzoo.test import api_test, render_test, seed_test

import ccg_env
from ccg_env.engine import Game, Rules
from ccg_env.env.core import EnvCore
from ccg_env.env.draft_env import DRAFT_ENV_ID, CcgDraftEnv, render_draft
from ccg_env.env.render import render_text

FAST = {"opponent": "random", "opponent_draft": "random"}


def run_episode(env, seed, policy_seed=0, max_steps=5000):
    """Random legal actions to the end; return the list of (observation, reward, done, phase)."""
    rng = np.random.default_rng(policy_seed)
    observation, info = env.reset(seed=seed)
    trace = [(observation, 0.0, False, info["phase"])]
    for _ in range(max_steps):
        observation, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        trace.append((observation, reward, terminated or truncated, info["phase"]))
        if terminated or truncated:
            return trace, info
    raise AssertionError("episode did not end")


def test_registered_and_both_checkers_pass():
    env = gym.make(DRAFT_ENV_ID)
    assert isinstance(env.unwrapped, CcgDraftEnv)
    gym_check_env(env, skip_render_check=False)
    gym_check_env(gym.make(DRAFT_ENV_ID, render_mode="ansi", illegal_action="ignore", **FAST),
                  skip_render_check=False)
    from stable_baselines3.common.env_checker import check_env as sb3_check_env

    sb3_check_env(CcgDraftEnv(**FAST))


def test_action_space_is_the_duels_plus_three_picks_at_the_end():
    duel, draft = gym.make("ccg_env/Duel-v1"), gym.make(DRAFT_ENV_ID, **FAST)
    n = int(duel.action_space.n)  # 235 with the default rules (more once other ranges join the layout)
    assert draft.action_space.n == n + 3
    layout = draft.unwrapped.setup.core.codec.layout
    assert layout.draft_offset == n and layout.describe(n + 2) == "draft: pick offered card 2"
    assert draft.observation_space.shape[0] > duel.observation_space.shape[0]


def test_draft_then_battle_phases_masks_and_observation_pieces():
    env = CcgDraftEnv(**FAST, seat=0)
    observation, info = env.reset(seed=3)
    encoder, offset, deck_size = env.encoder, env.setup.core.codec.layout.draft_offset, Rules.load().deck_size
    for pick in range(deck_size):
        assert info["phase"] == "draft"
        assert np.flatnonzero(info["action_mask"]).tolist() == [offset, offset + 1, offset + 2]
        pieces = encoder.view(observation)
        assert not observation[:encoder.battle_size].any()  # no battle yet
        assert pieces["draft"].tolist() == [1.0, pick, deck_size - pick]
        side = env.draft.sides[0]
        offered = [encoder.cards[i].id for i in np.argmax(pieces["draft_offer"][:, -len(encoder.cards):], axis=1)]
        assert offered == list(side.offer)
        assert pieces["draft_deck"].sum() == pick == pieces["draft_curve"].sum()
        assert pieces["draft_hero"][list(type(side.hero)).index(side.hero)] == 1.0
        observation, reward, terminated, truncated, info = env.step(offset + pick % 3)
        assert reward == 0.0 and not terminated and not truncated
    assert info["phase"] == "battle" and env.game is not None
    pieces = encoder.view(observation)
    assert pieces["draft"].tolist() == [0.0, deck_size, 0.0] and not pieces["draft_offer"].any()
    assert pieces["draft_deck"].sum() == deck_size and observation[:encoder.battle_size].any()
    mask = info["action_mask"]
    assert not mask[offset:].any() and mask[:offset].any()
    assert [d.cards for d in env.draft.decks()] == [tuple(env.draft.sides[s].picks) for s in (0, 1)]


def test_mask_equals_the_accepted_ids_in_both_phases():
    env = CcgDraftEnv(**FAST, illegal_action="raise")
    core = env.setup.core
    rng = np.random.default_rng(1)
    observation, info = env.reset(seed=5)
    for step in range(200):
        mask = info["action_mask"]
        assert sorted(core.legal(env.game)) == np.flatnonzero(mask).tolist()
        for action in range(core.size):
            assert core.play(env.game.clone(), action) == bool(mask[action])
        observation, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        if terminated or truncated:
            break
        if step > 80 and not env.game.in_draft:
            break


def test_same_seed_same_episode_and_opponent_draft_heuristic_by_default():
    first, _ = run_episode(CcgDraftEnv(**FAST), seed=9, policy_seed=2)
    again, _ = run_episode(CcgDraftEnv(**FAST), seed=9, policy_seed=2)
    assert len(first) == len(again)
    assert all(np.array_equal(a[0], b[0]) and a[1:] == b[1:] for a, b in zip(first, again))
    env = CcgDraftEnv()
    assert env.duel.opponent.drafter.name == "heuristic"
    trace, info = run_episode(env, seed=1)
    assert info["outcome"] in ("win", "loss", "draw", "turn_limit", "loop")
    assert sum(phase == "draft" for *_, phase in trace) == Rules.load().deck_size


@pytest.mark.parametrize("mode", ["forfeit", "raise", "ignore"])
def test_illegal_actions_during_the_draft(mode):
    env = CcgDraftEnv(**FAST, illegal_action=mode, illegal_reward=-0.25, seat=1)
    observation, info = env.reset(seed=2)
    offers = (env.draft.sides[1].offer, len(env.draft.sides[1].picks))
    if mode == "raise":
        with pytest.raises(ValueError, match="not a legal draft pick"):
            env.step(0)  # end turn is no pick
    else:
        observation, reward, terminated, truncated, info = env.step(0)
        assert (reward, terminated) == ((-1.0, True) if mode == "forfeit" else (-0.25, False))
        if mode == "forfeit":
            assert info["outcome"] == "illegal_action" and not info["action_mask"].any()
    assert (env.draft.sides[1].offer, len(env.draft.sides[1].picks)) == offers
    with pytest.raises(ValueError, match="out of the action space"):
        env.step(env.action_space.n)


def test_fixed_heroes_and_render():
    env = CcgDraftEnv(**FAST, heroes=["mage", "warrior"], render_mode="ansi", seat=0)
    env.reset(seed=0)
    assert [s.hero.value for s in env.draft.sides] == ["mage", "warrior"]
    text = env.render()
    assert "draft round 1/30" in text and "(mage)" in text and "[2]" in text
    with pytest.raises(ValueError, match="unknown hero class"):
        CcgDraftEnv(heroes=["druid", "mage"])


def test_agent_opponent_gets_the_draft_observation_in_both_phases():
    sizes = []

    def opponent(observation, mask, view):
        sizes.append((observation.shape[0], type(view).__name__))
        return int(np.flatnonzero(mask)[0])

    env = CcgDraftEnv(opponent=opponent, opponent_draft=opponent, seat=1)
    run_episode(env, seed=4)
    full = env.observation_space.shape[0]
    assert {size for size, _ in sizes} == {full}
    assert {"DraftView", "GameView"} <= {kind for _, kind in sizes}


def test_pettingzoo_api_seed_and_render_tests_pass_in_draft_mode():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(ccg_env.env(mode="draft", seed=0), num_cycles=200)
    seed_test(lambda: ccg_env.env(mode="draft"), num_cycles=200)
    render_test(lambda render_mode=None: ccg_env.env(mode="draft", render_mode=render_mode, seed=1))


def test_aec_draft_masks_are_the_accepted_ids_then_the_battle_starts():
    aec = ccg_env.env(mode="draft", seed=6, illegal_action="raise")
    aec.reset()
    raw, core = aec.unwrapped, aec.unwrapped.core
    picks = 0
    while raw.game.in_draft:
        agent = aec.agent_selection
        other = "player_1" if agent == "player_0" else "player_0"
        observation = aec.observe(agent)
        assert not aec.observe(other)["action_mask"].any()
        mask = observation["action_mask"]
        for action in range(core.size):
            assert core.play(raw.game.clone(), action) == bool(mask[action])
        aec.step(int(np.flatnonzero(mask)[picks % 3]))
        picks += 1
    assert picks == 2 * Rules.load().deck_size
    assert aec.infos["player_0"]["phase"] == "battle"
    decks = raw.draft.decks()
    state = raw.game.state
    for seat in (0, 1):
        ids = sorted(c.definition.id for z in (state.players[seat].deck, state.players[seat].hand) for c in z
                     if c.definition.id != "the_coin")
        assert ids == sorted(decks[seat].cards)


def _masked_out(mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask == 0)[0])


@pytest.mark.parametrize("picks_first", [0, 1])
def test_aec_forfeit_in_the_draft_costs_its_agent_1_and_the_other_nothing(picks_first):
    """An illegal pick by either seat ends the game: -1 to that agent (also through ``last()``), 0 to the other,
    both terminated, result "illegal_action" and no winner; the other agent is selected next."""
    aec = ccg_env.env(mode="draft", seed=6)
    aec.reset()
    for _ in range(picks_first):  # legal picks until the wanted seat is on turn
        aec.step(int(np.flatnonzero(aec.observe(aec.agent_selection)["action_mask"])[0]))
    offender = aec.agent_selection
    other = "player_1" if offender == "player_0" else "player_0"
    aec.step(_masked_out(aec.observe(offender)["action_mask"]))
    assert aec.rewards == {offender: -1.0, other: 0.0}
    assert aec.terminations == {offender: True, other: True}
    assert {name: (info["result"], info["winner"]) for name, info in aec.infos.items()} == {
        offender: ("illegal_action", None), other: ("illegal_action", None)}
    assert aec.agent_selection == other
    returns = {}
    while aec.agents:
        agent = aec.agent_selection
        returns[agent] = aec.last()[1]
        aec.step(None)
    assert returns == {offender: -1.0, other: 0.0}


def test_aec_illegal_pick_in_raise_mode_names_the_id_and_the_legal_picks_and_changes_nothing():
    aec = ccg_env.env(mode="draft", seed=6, illegal_action="raise")
    aec.reset()
    raw = aec.unwrapped
    mask = aec.observe(aec.agent_selection)["action_mask"]
    bad, legal = _masked_out(mask), sorted(int(i) for i in np.flatnonzero(mask))
    before = raw.draft.clone()
    with pytest.raises(ValueError, match=rf"player_0: action {bad} \(.*\) is not a legal draft pick now "
                                         rf"\(legal ids: \{legal}\)"):
        aec.step(bad)
    def seen(draft):
        return draft.current, [draft.picks(seat) for seat in (0, 1)], [draft.offer(seat) for seat in (0, 1)]

    assert seen(raw.draft) == seen(before) and raw.game.in_draft


def test_aec_battle_after_the_draft_is_dealt_from_the_reset_seed_and_played_as_a_battle():
    """The battle is seeded with the game's seed (the same seed, the same battle), the infos switch to the battle
    with its turn, and from then on observations carry the battle's mask, a masked-out id is refused as a battle
    action and the render shows the board, not the draft."""
    battles = []
    for _ in range(2):
        aec = ccg_env.env(mode="draft", illegal_action="raise", render_mode="ansi")
        aec.reset(seed=17)
        raw = aec.unwrapped
        while raw.game.in_draft:
            aec.step(int(np.flatnonzero(aec.observe(aec.agent_selection)["action_mask"])[0]))
        assert raw.game.to_json() == Game.new(17, decks=raw.draft.decks()).to_json()
        battles.append(raw.game.to_json())
        assert all((info["phase"], info["turn"]) == ("battle", raw.game.state.turn) for info in aec.infos.values())
        agent = aec.agent_selection
        mask = aec.observe(agent)["action_mask"]
        assert mask.tolist() == raw.core.mask(raw.core.legal(raw.game)).tolist()
        assert not mask[raw.core.codec.layout.draft_offset:].any()
        assert aec.render() == render_text(raw.game, int(agent[-1]), names=("player_0", "player_1"))
        with pytest.raises(ValueError, match=rf"{agent}: action {_masked_out(mask)} .*is illegal now"):
            aec.step(_masked_out(mask))
    assert battles[0] == battles[1]


def test_aec_render_says_when_there_is_no_game_and_shows_the_draft_while_drafting():
    aec = ccg_env.raw_env(render_mode="ansi")
    assert aec.render() == "(no game yet: call reset() first)"
    drafting = ccg_env.raw_env(mode="draft", render_mode="ansi")
    drafting.reset(seed=3)
    assert drafting.render() == render_draft(drafting.draft, drafting.draft.current)
    silent = ccg_env.raw_env(mode="draft")
    silent.reset(seed=3)
    with pytest.warns(UserWarning, match=r"render\(\) was called without a render_mode"):
        assert silent.render() is None  # no render_mode: a warning, no text


def test_aec_draft_mode_starts_with_the_draft_infos_or_with_a_described_board_as_the_battle():
    aec = ccg_env.raw_env(mode="draft")
    aec.reset(seed=2)
    assert aec.game.in_draft and aec.draft is not None
    assert aec.infos == {agent: {"result": None, "turn": 0, "winner": None, "phase": "draft"}
                         for agent in ("player_0", "player_1")}
    board = {"current": 1, "players": [{}, {"battlefield": ["wisp"]}]}
    aec.reset(seed=2, options={"scenario": board})  # a described board skips the draft
    assert aec.draft is None and aec.agent_selection == "player_1"
    assert aec.game.player(1).battlefield[0].definition.id == "wisp"
    assert all(info["phase"] == "battle" for info in aec.infos.values())


def test_duel_mode_core_has_no_draft_range():
    core = EnvCore()
    assert core.size == core.codec.layout.draft_offset and core.draft_encoder is None
    assert core.observation_encoder is core.encoder
    with pytest.raises(ValueError, match="mode"):
        EnvCore(mode="sealed")


def test_batched_and_sb3_envs_in_draft_mode():
    from ccg_env.env.sb3_vec import CcgDuelSb3VecEnv

    vec = CcgDuelSb3VecEnv(3, mode="draft", **FAST)
    vec.seed(0)
    observations = vec.reset()
    assert observations.shape == (3, CcgDraftEnv(**FAST).observation_space.shape[0])
    rng, ended = np.random.default_rng(0), 0
    for _ in range(400):
        masks = vec.action_masks()
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in masks])
        observations, rewards, dones, infos = vec.step(actions)
        ended += int(dones.sum())
        assert all("outcome" in infos[i] for i in np.flatnonzero(dones))
    assert ended >= 1


def test_health_shaping_pays_nothing_during_the_draft_and_passes_the_api_test():
    aec = ccg_env.env(mode="draft", seed=3, reward_shaping=True)
    aec.reset()
    while aec.unwrapped.game.in_draft:  # no heroes yet: no potential
        aec.step(int(np.flatnonzero(aec.observe(aec.agent_selection)["action_mask"])[0]))
        assert not any(aec.rewards.values())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(ccg_env.env(mode="draft", seed=0, reward_shaping=True), num_cycles=200)
