"""AEC env behaviour: turns, rewards and infos, truncation, seeding, configuration, illegal moves, rendering."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from ccg_env.engine import Choice, ChoiceKind, DataError, Game, Rules
from ccg_env.env.aec import AGENTS, SHAPING_SCALE, env, raw_env
from tests.card_files import packaged_card_files

#: player_0 to act with a 10-mana fireball in hand; player_1's hero has 5 health.
LETHAL = {"current": 0, "players": [{"mana": 10, "hand": ["fireball"]}, {"health": 5, "hand": ["wisp"]}]}


def fireball_face_id(raw) -> int:
    """Action id of 'play hand slot 0 at the enemy hero'."""
    return 1 + raw.codec.layout.max_battlefield + 2


def play_random(e, seed: int) -> list[str]:
    """Play a whole game with random legal actions; return the agents in the order they were selected."""
    rng = random.Random(seed)
    order = []
    for agent in e.agent_iter():
        observation, _, terminated, truncated, _ = e.last()
        order.append(agent)
        e.step(None if terminated or truncated else rng.choice(np.flatnonzero(observation["action_mask"]).tolist()))
    return order


def test_agent_selection_follows_the_engines_current_player():
    raw = raw_env()
    raw.reset(seed=2)
    rng = random.Random(2)
    for _ in range(60):
        assert raw.agent_selection == AGENTS[raw.game.current_player]
        mask = raw.observe(raw.agent_selection)["action_mask"]
        raw.step(rng.choice(np.flatnonzero(mask).tolist()))
        if raw.game.is_over:
            break
    assert raw.game.turn > 3


def test_a_win_pays_plus_and_minus_one_and_fills_infos():
    raw = raw_env()
    raw.reset(seed=0, options={"scenario": LETHAL})
    raw.step(fireball_face_id(raw))
    assert raw.terminations == {"player_0": True, "player_1": True} and not any(raw.truncations.values())
    assert raw.rewards == {"player_0": 1.0, "player_1": -1.0}
    assert raw.infos["player_0"] == {"result": "win", "turn": 1, "winner": "player_0", "phase": "battle"}
    assert raw.agent_selection == "player_1"
    _, reward, terminated, _, _ = raw.last()
    assert reward == -1.0 and terminated
    with pytest.raises(ValueError):
        raw.step(0)  # a done agent may only step None
    raw.step(None)
    _, reward, _, _, _ = raw.last()
    assert raw.agents == ["player_0"] and reward == 1.0
    raw.step(None)
    assert raw.agents == []


def test_a_draw_pays_zero():
    raw = raw_env()
    raw.reset(seed=0, options={"scenario": {"current": 0, "players": [{}, {}]}})
    for player in raw.game.state.players:
        player.hero.health = 0  # both heroes dead: the reaper after the next action ends the game in a draw
    raw.step(0)
    assert raw.game.result.value == "draw"
    assert raw.rewards == {"player_0": 0.0, "player_1": 0.0} and all(raw.terminations.values())
    assert raw.infos["player_1"]["winner"] is None


def test_the_turn_limit_truncates_both_agents_with_zero_reward():
    raw = raw_env(turn_limit=4)
    assert raw.rules.turn_limit == 4
    raw.reset(seed=1)
    raw.step(0)
    raw.step(0)  # both players keep their opening hands: turn 1 begins
    for _ in range(4):
        raw.step(0)  # end turn
    assert raw.truncations == {"player_0": True, "player_1": True} and not any(raw.terminations.values())
    assert raw.rewards == {"player_0": 0.0, "player_1": 0.0}
    assert raw.infos["player_0"]["result"] == "turn_limit" and raw.infos["player_0"]["turn"] == 5
    assert raw.observation_space("player_0").contains(raw.observe("player_0"))
    assert raw.encoder.view(raw.observe("player_0")["observation"])["turn"][0] == 5  # turn_limit + 1, not clipped


def test_same_seed_same_game_and_reset_sequences_are_reproducible():
    first, second = raw_env(seed=11), raw_env(seed=11)
    first.reset()
    second.reset(seed=11)
    assert first.game.to_json() == second.game.to_json() == Game.new(seed=11, log=False).to_json()
    first.reset()
    second.reset()
    assert first.game_seed == second.game_seed != 11
    assert first.game.to_json() == second.game.to_json()
    assert raw_env(seed=np.int64(11)).game is None  # NumPy seeds are accepted; no game before reset()
    third = raw_env(seed=11)
    third.reset(seed=12)
    assert third.game.to_json() != first.game.to_json()


def test_random_decks_come_from_the_packaged_pool_and_depend_on_the_seed():
    raw = raw_env(decks="random")
    seen = set()
    for seed in range(12):
        raw.reset(seed=seed)
        seen.add(tuple(sorted({c.definition.id for c in raw.game.state.players[0].deck})))
    assert len(seen) > 2


@pytest.mark.parametrize("config, error, words", [
    ({"decks": ["midrange"]}, ValueError, "two decks"),
    ({"decks": "midrange"}, ValueError, "two decks"),  # one deck's name is not "random"
    ({"decks": ["midrange", "aggro", "ramp"]}, ValueError, "two decks"),
    ({"decks": Path("midrange.yaml")}, ValueError, "two decks"),
    ({"heroes": ["mage"]}, ValueError, "two hero classes"),
    ({"heroes": ["mage", "warrior", "rogue"]}, ValueError, "two hero classes"),
    ({"heroes": "mage"}, ValueError, "two hero classes"),
    ({"illegal_action": ["raise"]}, ValueError, "illegal_action"),
    ({"illegal_action": "explode"}, ValueError, "illegal_action"),
    ({"illegal_action": 3}, ValueError, "illegal_action"),  # the compiled build once refused it as "str expected"
    ({"illegal_reward": "x"}, ValueError, "illegal_reward"),
    ({"illegal_reward": float("nan")}, ValueError, "illegal_reward"),
    ({"mode": 3}, ValueError, "mode"),
    ({"turn_limit": 2.5}, ValueError, "turn_limit"),
    ({"turn_limit": "5"}, ValueError, "turn_limit"),
    ({"heroes": 5}, ValueError, "two hero classes"),
    ({"decks": 5}, ValueError, "two decks"),
    ({"cards": 5}, TypeError, "cards"),
    ({"decks": ["midrange", "no_such_deck"]}, DataError, "no_such_deck"),
    ({"turn_limit": 0}, ValueError, "turn_limit"),
    ({"render_mode": "rgb_array"}, ValueError, "render_mode"),
    ({"rules": 3}, TypeError, "rules"),
    ({"seed": 1.5}, TypeError, "seed"),
])
def test_bad_configuration_is_refused_with_a_clear_error(config, error, words):
    with pytest.raises(error, match=words):
        raw_env(**config)


def test_illegal_action_lose_is_another_name_for_forfeit():
    assert raw_env(illegal_action="lose").core.illegal_action == "forfeit"


def test_rules_object_and_log_are_used():
    raw = raw_env(rules=Rules(max_battlefield=5), log=True)
    raw.reset(seed=0)
    assert raw.action_space("player_0").n == 1 + 10 * 13 + 6 * 6 + 13 + 10  # end turn, plays, attacks, hero power, mulligan
    assert len(raw.game.log) > 0


def test_wrapped_env_ends_the_game_with_minus_one_for_an_illegal_action():
    e = env()
    e.reset(seed=4)
    mask = e.observe("player_0")["action_mask"]
    e.step(int(np.flatnonzero(mask == 0)[0]))
    assert e.rewards == {"player_0": -1.0, "player_1": 0.0}
    assert all(e.terminations.values())


def test_a_random_game_through_the_wrapped_env_ends_with_both_agents_removed():
    e = env(seed=8)
    e.reset()
    order = play_random(e, 8)
    assert e.agents == [] and set(order[-2:]) == set(AGENTS)
    assert e.unwrapped.game.is_over


def test_reward_shaping_is_zero_sum_and_telescopes():
    raw = raw_env(reward_shaping=True)
    raw.reset(seed=0, options={"scenario": LETHAL})
    raw.step(fireball_face_id(raw))
    expected = SHAPING_SCALE * 5 / raw.rules.hero_health
    assert raw.rewards["player_0"] == pytest.approx(1.0 + expected)
    assert raw.rewards["player_1"] == pytest.approx(-1.0 - expected)
    plain = raw_env()
    plain.reset(seed=3)
    shaped = raw_env(reward_shaping=True)
    shaped.reset(seed=3)
    play_random(plain, 3)
    total = {a: 0.0 for a in AGENTS}
    rng = random.Random(3)
    for agent in shaped.agent_iter():
        observation, reward, terminated, truncated, _ = shaped.last()
        total[agent] += reward
        shaped.step(None if terminated or truncated else
                    rng.choice(np.flatnonzero(observation["action_mask"]).tolist()))
    assert total["player_0"] == pytest.approx(-total["player_1"])


@pytest.mark.parametrize("seat", [0, 1])
def test_shaping_counts_armor_as_health_and_a_dead_hero_as_0_health_for_either_seat(seat):
    """Armor gained shapes like health gained (+), and a lethal blow is counted down to 0 health, not below."""
    me, other = AGENTS[seat], AGENTS[1 - seat]
    players = [{"health": 20, "armor": 3}, {"health": 20, "armor": 3}]
    players[seat] = {**players[seat], "hero": "warrior", "mana": 2}
    raw = raw_env(reward_shaping=True)
    raw.reset(seed=0, options={"scenario": {"current": seat, "players": players}})
    raw.step(raw.codec.layout.hero_power_offset)  # Armor Up!: +2 armor
    step = SHAPING_SCALE * 2 / raw.rules.hero_health
    assert (raw.rewards[me], raw.rewards[other]) == (pytest.approx(step), pytest.approx(-step))
    players = [{"health": 30}, {"health": 30}]
    players[seat], players[1 - seat] = {"mana": 10, "hand": ["fireball"]}, {"health": 4}  # Fireball deals 6
    raw.reset(seed=0, options={"scenario": {"current": seat, "players": players}})
    raw.step(fireball_face_id(raw))
    overkill = SHAPING_SCALE * 4 / raw.rules.hero_health  # 4 health lost, not 6
    assert (raw.rewards[me], raw.rewards[other]) == (pytest.approx(1.0 + overkill), pytest.approx(-1.0 - overkill))


def test_human_render_prints_the_board_after_each_step_and_other_modes_print_nothing(capsys, recwarn):
    board = {"current": 0, "players": [{"mana": 10, "hand": ["wisp"]}, {"hand": ["core_hound"]}]}
    for mode in (None, "ansi", "human"):
        raw = raw_env(render_mode=mode)
        raw.reset(seed=0, options={"scenario": board})
        capsys.readouterr()
        raw.step(1)  # play the wisp
        printed = capsys.readouterr().out
        if mode == "human":
            raw.render_mode = "ansi"
            assert printed == raw.render() + "\n"
        else:
            assert printed == ""
    assert not [w for w in recwarn if "render" in str(w.message)]  # stepping never calls render() unasked


def test_the_agent_off_turn_sees_which_enemy_characters_can_attack_now():
    board = {"current": 0, "players": [{"battlefield": ["river_crocolisk", "wisp"]}, {"battlefield": ["wisp"]}]}
    raw = raw_env()
    raw.reset(seed=0, options={"scenario": board})
    encoder = raw.core.encoder
    observation = raw.observe("player_1")["observation"]  # player_0 is on turn
    expected = encoder.new_buffer()
    encoder.encode(raw.game, 1, expected)
    np.testing.assert_array_equal(observation, expected)
    column = encoder.columns["enemy_battlefield"].index("can_attack")
    assert [row[column] for row in encoder.view(observation)["enemy_battlefield"][:2]] == [1, 1]


def test_reset_options_deal_the_given_deck_pair():
    from ccg_env.env.core import EnvCore

    raw = raw_env()
    for pair in (["aggro", "control"], ["traps", "ramp"]):
        raw.reset(seed=5, options={"decks": pair})
        assert raw.game.to_json() == EnvCore().new_game(5, decks=pair).to_json()


def test_ansi_render_shows_own_hand_only_and_the_reaction_tree():
    raw = raw_env(render_mode="ansi")
    board = {"current": 0, "players": [{"mana": 10, "hand": ["wisp"]}, {"hand": ["core_hound"]}]}
    raw.reset(seed=0, options={"scenario": board})
    raw.step(1)  # play the wisp
    text = raw.render()
    assert "Wisp" in text and "Core Hound" not in text and "hand 1" in text
    assert "You play Wisp" in text and "\n    Wisp enters your battlefield" in text  # indented under the play
    raw.step(0)
    assert "Core Hound" in raw.render()  # now player_1 acts and sees its own hand


def test_render_never_shows_what_the_enemy_drew():
    """The raw log names each drawn card by uid; the render shows the enemy's draws as "a card"."""
    from ccg_env.env.render import render_text

    raw = raw_env(render_mode="ansi")
    raw.reset(seed=4)
    raw.step(0)
    raw.step(0)  # both players keep their opening hands: turn 1 begins
    raw.step(0)  # player_0 ends its turn: player_1 draws
    draw = raw.game.log[-1]
    assert draw.kind == "DrawCards" and draw.action.player == 1
    drawn = draw.action.describe()["drawn"][0]
    name = next(c.name for c in raw.game.state.players[1].hand if c.uid == drawn)
    enemy_view = render_text(raw.game, 0)
    draw_line = [line for line in enemy_view.splitlines() if "Enemy draws" in line][-1]
    assert draw_line.strip() == "Enemy draws a card"
    assert f"#{drawn}" not in enemy_view and name not in enemy_view
    assert f"You draw {name}" in raw.render()  # player_1, on turn, sees its own draw


def test_render_without_a_mode_warns_and_returns_none():
    raw = raw_env()
    raw.reset(seed=0)
    with pytest.warns(UserWarning, match="render_mode"):
        assert raw.render() is None


def test_choice_ids_round_trip_through_the_codec_in_the_env():
    raw = raw_env()
    raw.reset(seed=9)
    choices = raw.game.legal_actions()
    ids = raw.codec.encode_all(raw.game, choices)
    assert [raw.codec.decode(raw.game, i) for i in ids] == choices
    assert Choice(ChoiceKind.END_TURN) in choices


def test_env_pickles_for_subprocess_vectorisation():
    import pickle

    original = raw_env(seed=3, decks="random", turn_limit=30)
    copy = pickle.loads(pickle.dumps(original))
    original.reset()
    copy.reset()
    assert copy.rules.turn_limit == 30 and copy.game.to_json() == original.game.to_json()


def test_a_pickled_env_keeps_every_setting(tmp_path):
    """Subprocess vector envs rebuild the env from its constructor arguments: every one must travel."""
    import pickle

    extra = tmp_path / "extra.yaml"
    extra.write_text("cards:\n  - {id: test_pet, name: Test Pet, type: minion, cost: 1, attack: 1, health: 2}\n")
    cards = [*packaged_card_files(), extra]
    rules = Rules(max_hand=9)
    original = raw_env(rules=rules, cards=cards, render_mode="ansi", reward_shaping=True, log=True,
                       illegal_action="ignore", illegal_reward=-0.5, mode="draft", heroes=("mage", "warrior"))
    copy = pickle.loads(pickle.dumps(original))
    assert copy.rules.max_hand == 9 and "test_pet" in copy.core.cards and copy.render_mode == "ansi"
    assert (copy.reward_shaping, copy.core.log, copy.core.illegal_action, copy.core.illegal_reward) == (
        True, True, "ignore", -0.5)
    assert copy.core.mode == "draft" and copy.core.heroes == original.core.heroes is not None
    assert pickle.loads(pickle.dumps(raw_env(log=True))).core.log  # the log asked for without a render mode


def test_before_its_first_reset_an_env_lists_both_agents_and_has_no_game():
    raw = raw_env()
    assert raw.agents == raw.possible_agents == list(AGENTS)
    assert raw.game is None and raw.game_seed is None


def test_an_env_built_and_reset_without_any_seed_deals_its_games_from_fresh_entropy():
    first, second = raw_env(), raw_env()
    first.reset()
    second.reset()
    assert isinstance(first.game_seed, int) and first.game_seed != second.game_seed  # equal once in 2**63
    first.reset()
    assert first.game is not None and first.game_seed != second.game_seed


def test_the_mask_space_is_zeros_and_ones():
    space = raw_env().observation_space("player_0")["action_mask"]
    assert space.dtype == np.int8 and set(space.low.tolist()) == {0} and set(space.high.tolist()) == {1}


def test_render_text_says_when_the_log_is_off_and_raw_env_needs_a_reset_first():
    from ccg_env.env.render import render_text

    raw = raw_env()
    with pytest.raises(RuntimeError, match="reset"):
        raw.observe("player_0")
    with pytest.raises(RuntimeError, match="reset"):
        raw.step(0)
    raw.reset(seed=0)
    assert "log is off" in render_text(raw.game, 0)
