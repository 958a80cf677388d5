"""The env core's contract with every front-end: the action space's bounds, decks drawn per seed, illegal ids in
"raise" mode, and drafts offered from the core's own card set."""

from __future__ import annotations

import numpy as np
import pytest

from ccg_env.engine import load_cards
from ccg_env.env.core import EnvCore
from ccg_env.env.gym_env import CcgDuelEnv
from tests.card_files import packaged_card_files


def test_every_id_of_the_action_space_is_accepted_and_the_ids_just_outside_are_refused():
    core = EnvCore()
    assert [core.action_id(i) for i in range(core.size)] == list(range(core.size))
    assert core.action_id(np.int64(core.size - 1)) == core.size - 1
    assert core.action_id(np.int64(0)) == 0 and core.action_id(np.array(0, dtype=np.int32)) == 0  # both ends, NumPy
    for outside in (core.size, np.int64(core.size), -1):
        with pytest.raises(ValueError, match=rf"out of the action space: expected an integer in 0\.\.{core.size - 1}"):
            core.action_id(outside)


def test_random_decks_are_drawn_from_the_packaged_pool_by_the_game_seed():
    core = EnvCore(decks="random")
    pool_names = {deck.name for deck in core.deck_pool}
    pairs = [core.decks_for(seed) for seed in range(40)]
    assert all(len(pair) == 2 and {deck.name for deck in pair} <= pool_names for pair in pairs)
    assert len({tuple(deck.name for deck in pair) for pair in pairs}) > 5  # the seed picks among many pairs
    assert [core.decks_for(seed) for seed in range(40)] == pairs  # the same seed, the same decks
    game_decks = core.decks_for(7)
    dealt = sorted(c.definition.id for c in (*core.new_game(7).player(0).deck, *core.new_game(7).player(0).hand))
    assert dealt == sorted(card for card in game_decks[0].cards)


def test_a_masked_out_id_raises_in_raise_mode_and_changes_nothing():
    env = CcgDuelEnv(opponent="random", illegal_action="raise", seat=0)
    env.reset(seed=3)
    masked_out = int(np.flatnonzero(env.action_masks() == 0)[0])
    before = env.duel.game.to_json()
    with pytest.raises(ValueError, match=f"action {masked_out} .*is illegal now"):
        env.step(masked_out)
    assert env.duel.game.to_json() == before


def test_a_draft_offers_the_cards_of_the_core_s_own_card_set(tmp_path):
    extra = tmp_path / "extra.yaml"
    extra.write_text("cards:\n  - {id: test_pet, name: Test Pet, type: minion, cost: 1, attack: 1, health: 2}\n")
    files = [*packaged_card_files(), extra]
    core = EnvCore(mode="draft", cards=files, heroes=("mage", "warrior"))
    offered: set[str] = set()
    for seed in range(6):
        draft = core.new_game(seed).draft
        while not draft.is_over:
            offered.update(card.id for card in draft.offer(draft.current))
            draft.pick(0)
    assert "test_pet" in offered and offered <= set(load_cards(files))


def test_a_refused_id_is_named_with_its_meaning_and_why_it_is_refused():
    core = EnvCore(illegal_action="raise")
    game = core.new_game(0, scenario={"players": [{"mana": 0, "hand": ["chillwind_yeti"]}, {}]})
    assert core.refusal("learner", game, 1) == (  # the yeti costs 4: it is there but cannot be played
        "learner: action 1 (play hand slot 0 at no target) is illegal now; pick an action with action_mask == 1")
    assert core.refusal("player_0", game, 18) == (  # hand slot 1 holds nothing
        "player_0: action 18 (play hand slot 1 at no target) names an empty slot; pick an action with "
        "action_mask == 1")


@pytest.mark.parametrize("heroes", [("mage", "warrior"), ("warrior", "mage")])
def test_a_draft_gives_each_seat_the_hero_class_the_core_was_configured_with(heroes):
    core = EnvCore(mode="draft", heroes=heroes)
    for seed in range(6):  # a hero drawn from the seed would differ from the configured one for some seed
        assert tuple(side.hero.value for side in core.new_game(seed).draft.sides) == heroes


@pytest.mark.parametrize("make", [list, tuple, np.array, lambda ids: np.array(ids, dtype=object)],
                         ids=["list", "tuple", "int array", "object array"])
def test_a_batch_of_ids_is_accepted_in_any_sequence_and_a_bad_entry_is_named_by_its_index(make):
    core = EnvCore()
    checked = core.action_batch(make([0, 5, 261]), 3)
    assert checked == [0, 5, 261] and all(type(action) is int for action in checked)
    with pytest.raises(ValueError, match=r"^actions\[1\]: action 262 is out of the action space"):
        core.action_batch(make([0, 262, 1]), 3)
    with pytest.raises(ValueError, match=r"^actions: expected an array of shape \(3,\), one action id per env"):
        core.action_batch(make([0, 5]), 3)  # one id short


def test_a_0d_integer_array_is_an_action_id_and_a_0d_float_array_is_not():
    core = EnvCore()
    assert core.action_id(np.array(5)) == 5 and type(core.action_id(np.array(5))) is int
    assert core.action_id(np.array(5, dtype=np.uint8)) == 5
    for not_an_id in (np.array(5.0), np.array(True), np.array([5])):
        with pytest.raises(ValueError, match="expected an integer action id"):
            core.action_id(not_an_id)


def test_games_get_the_core_s_rules_and_cards_and_its_log_setting_unless_the_call_sets_the_log(tmp_path):
    extra = tmp_path / "extra.yaml"
    extra.write_text("cards:\n  - {id: test_pet, name: Test Pet, type: minion, cost: 1, attack: 1, health: 2}\n")
    core = EnvCore(turn_limit=17, cards=[*packaged_card_files(), extra])
    board = {"players": [{"battlefield": [{"card": "test_pet"}]}, {}]}
    dealt, described = core.new_game(3), core.new_game(3, scenario=board)
    for game in (dealt, described):
        assert game.state.rules.turn_limit == 17 and game.cards is core.cards
    assert described.state.players[0].battlefield[0].definition.id == "test_pet"
    assert dealt.state.log is None and described.state.log is None  # the core keeps no log unless asked
    assert core.new_game(3, log=True).state.log is not None
    assert core.new_game(3, scenario=board, log=True).state.log is not None
    assert EnvCore(log=True).new_game(3, log=False).state.log is None
    seeded = [core.new_game(seed, scenario=board).to_json() for seed in (3, 3, 4)]  # the seed reaches scenarios too
    assert seeded[0] == seeded[1] != seeded[2]


def test_a_default_observation_writer_shows_the_position_even_after_someone_else_wrote_into_its_buffer():
    """Only a writer asked to be exclusive may skip rows it believes unchanged; by default others may write too
    (an agent scribbling on the array it was given, a draft writer sharing the buffer)."""
    core = EnvCore()
    game, rng = core.new_game(11), np.random.default_rng(11)
    shared, other = np.zeros(core.encoder.size, np.float32), np.zeros(core.encoder.size, np.float32)
    fresh = np.zeros(core.encoder.size, np.float32)
    writers = [(core.observation_writer(shared), shared), (core.encoder.writer(other), other)]  # both defaults
    for _ in range(40):
        if game.is_over:
            break
        player = game.current_player
        core.encoder.encode(game, player, fresh)
        for write, out in writers:
            write(game, player)
            assert np.array_equal(out, fresh)
            out[:] = 7.0  # someone else writes into the buffer between two writes
        legal = list(core.legal(game).values())
        game.apply(legal[int(rng.integers(len(legal)))])


@pytest.mark.parametrize("setting, value", [
    ("seat", "0"), ("illegal_action", 3), ("illegal_reward", "x"), ("normalize_observations", "yes"),
    ("turn_limit", 2.5), ("decks", 5),
])
def test_a_gym_env_setting_of_the_wrong_type_is_refused_by_name_in_either_build(setting, value):
    """The compiled build checks annotated types on entry; the settings are checked by the env, which names them."""
    with pytest.raises(ValueError, match=f"^{setting}: " if setting != "decks" else "two decks"):
        CcgDuelEnv(**{setting: value})


def test_log_is_a_yes_or_no_setting():
    assert EnvCore(log=1).log is True and EnvCore(log=0).log is False and EnvCore(log=np.bool_(False)).log is False
    for value in ("yes", 2, 1.0):
        with pytest.raises(ValueError, match=f"^log: expected True or False, got {value!r}$"):
            EnvCore(log=value)


def test_a_fixed_deck_pair_leaves_the_pool_empty_and_random_decks_fill_it():
    assert EnvCore(decks=["aggro", "ramp"]).deck_pool == () and EnvCore(decks="random").deck_pool
    assert EnvCore(decks="random").decks is None
