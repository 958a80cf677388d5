"""The observation encoder: layout, documented piece table, known values, bounds and hidden information."""

from __future__ import annotations

import random
import re

import numpy as np
import pytest

from ccg_env.engine import Game, Keyword, Rules, default_cards
from ccg_env.env import aec
from ccg_env.env.observation import ObservationEncoder, card_order

RULES = Rules.load()


@pytest.fixture
def encoder() -> ObservationEncoder:
    """A fresh encoder for each test (1-2 ms): the mutation run credits a module-scoped one's construction to the
    first test only, so mutants of the layout would never meet the tests that state it."""
    return ObservationEncoder(RULES, default_cards())


BOARD = {
    "current": 0, "turn": 7,
    "players": [
        {"health": 25, "armor": 3, "mana": 4, "max_mana": 5, "fatigue": 2, "weapon": "fiery_war_axe",
         "hand": ["fireball", "wisp"], "deck": ["wisp", "wisp"], "secrets": ["explosive_trap"],
         "battlefield": [{"card": "chillwind_yeti", "health": 3, "keywords": ["taunt"]},
                         {"card": "wolfrider", "sleeping": True}]},
        {"health": 18, "mana": 6, "max_mana": 6, "hand": ["core_hound", "wisp", "wisp"],
         "secrets": ["explosive_trap"], "battlefield": [{"card": "magma_rager", "attack": 7}]},
    ],
}


def encoded(encoder: ObservationEncoder, game: Game, player: int) -> dict[str, np.ndarray]:
    out = encoder.new_buffer()
    encoder.encode(game, player, out)
    return encoder.view(out)


def test_pieces_are_contiguous_and_cover_the_vector(encoder):
    stops = [0] + [p.stop for p in encoder.pieces]
    assert [p.start for p in encoder.pieces] == stops[:-1]
    assert encoder.size == stops[-1] == encoder.space.shape[0]
    for piece in encoder.pieces:
        assert piece.stop - piece.start == int(np.prod(piece.shape))
        assert len(encoder.columns[piece.name]) == piece.shape[-1]


def test_documented_piece_table_matches_the_encoder(encoder):
    table = re.findall(r"^\| (\w+) +\| (\([^)]*\)) +\|", aec.__doc__, flags=re.MULTILINE)
    names = {"H": RULES.max_hand, "B": RULES.max_battlefield, "C": len(default_cards())}
    documented = [(name, tuple(np.atleast_1d(eval(shape, {}, names)).tolist())) for name, shape in table]
    assert documented == [(p.name, p.shape) for p in encoder.pieces]


def test_known_board_is_encoded_from_the_acting_players_point_of_view(encoder):
    game = Game.from_scenario(BOARD, cards=default_cards())
    view = encoded(encoder, game, 0)
    assert view["own_hero"].tolist() == [25, 3, 3, 3, 2, 0, 1]  # weapon 3/2 gives attack 3, can attack
    assert view["enemy_hero"].tolist() == [18, 0, 0, 0, 0, 0, 0]
    assert view["mana"].tolist() == [4, 5, 6]
    assert view["zone_sizes"].tolist() == [[2, 2, 0, 2, 1], [0, 3, 0, 1, 1]]
    assert view["fatigue"].tolist() == [2, 0] and view["turn"].tolist() == [7, 1]
    ids = [c.id for c in card_order(default_cards())]
    columns = encoder.columns["own_battlefield"]
    yeti, wolfrider = view["own_battlefield"][:2]
    assert yeti[columns.index("card_chillwind_yeti")] == 1 and yeti[:7].tolist() == [1, 4, 3, 5, 1, 0, 0]
    assert yeti[columns.index("keyword_taunt")] == 1 and yeti[columns.index("keyword_charge")] == 0
    assert wolfrider[columns.index("can_attack")] == 1  # sleeping, but charge
    assert not view["own_battlefield"][2:].any(), "empty slots are zero"
    fireball = view["own_hand"][0]
    hand_columns = encoder.columns["own_hand"]
    assert fireball[:5].tolist() == [1, 4, 0, 0, 1]  # costs 4 with 4 mana: affordable
    assert fireball[hand_columns.index("type_spell")] == 1 and fireball[hand_columns.index("target_required")] == 1
    assert int(np.flatnonzero(fireball[-len(ids):])[0]) == ids.index("fireball")
    assert view["own_secrets"][ids.index("explosive_trap")] == 1 and view["own_secrets"].sum() == 1
    assert view["enemy_battlefield"][0][:5].tolist() == [1, 7, 1, 1, 1]


def test_enemy_view_swaps_sides_and_hides_the_other_hand(encoder):
    game = Game.from_scenario(BOARD, cards=default_cards())
    view = encoded(encoder, game, 1)
    assert view["own_hero"][0] == 18 and view["enemy_hero"][0] == 25
    assert view["own_hand"][:3, 0].tolist() == [1, 1, 1] and view["turn"][1] == 0


def test_values_beyond_the_bounds_are_clipped(encoder):
    board = {"players": [{"health": -4, "battlefield": [{"card": "wisp", "attack": 500, "health": 400}]}, {}]}
    view = encoded(encoder, Game.from_scenario(board, cards=default_cards()), 0)
    assert view["own_hero"][0] == 0
    assert view["own_battlefield"][0][1:4].tolist() == [100, 100, 100]


def test_enemy_hand_contents_and_deck_order_do_not_change_the_observation(encoder):
    game = Game.new(seed=3, log=False)
    rng = random.Random(3)
    for _ in range(40):
        game.apply(rng.choice(game.legal_actions()))
    me = game.current_player
    before = encoded(encoder, game, me)
    other = game.clone()
    enemy = other.state.players[1 - me]
    replacement = default_cards()["core_hound"]
    for card in enemy.hand:
        card.definition, card.cost, card.attack, card.health = replacement, 7, 9, 5
    rng.shuffle(enemy.deck)
    rng.shuffle(other.state.players[me].deck)
    after = encoded(encoder, other, me)
    assert all(np.array_equal(before[name], after[name]) for name in before)
    assert len(enemy.hand) > 0


def test_encode_rejects_a_wrong_buffer(encoder):
    game = Game.new(seed=0, log=False)
    with pytest.raises(ValueError, match="contiguous float32"):
        encoder.encode(game, 0, np.zeros(encoder.size, dtype=np.float64))
    with pytest.raises(ValueError, match=f"shape \\({encoder.size},\\)"):
        encoder.encode(game, 0, np.zeros(encoder.size + 1, dtype=np.float32))


def test_view_reshapes_a_batch(encoder):
    batch = np.zeros((4, encoder.size), dtype=np.float32)
    assert encoder.view(batch)["own_hand"].shape == (4, RULES.max_hand, encoder.pieces[6].shape[1])
    assert set(Keyword.__members__) - {"NONE"} == {c.removeprefix("keyword_").upper()
                                                   for c in encoder.columns["own_hand"] if c.startswith("keyword_")}


def _random_positions(seed: int, decks=("buffs", "aggro"), steps: int = 400):
    """Successive positions of random games (new games as they end), as the games go."""
    rng = random.Random(seed)
    game = Game.new(seed, decks=list(decks), log=False)
    for _ in range(steps):
        if game.is_over:
            game = Game.new(rng.randrange(10**6), decks=list(decks), log=False)
        yield game
        game.apply(rng.choice(game.legal_actions()))


@pytest.mark.parametrize("normalize", [False, True])
def test_bound_writers_write_what_encode_writes_along_games(encoder, normalize):
    """Exclusive writers (rows rewritten only when they change) and writers given the legal choices agree with
    a fresh encode at every step, for both seats."""
    outputs = [encoder.new_buffer() for _ in range(2)]
    writers = [encoder.writer(out, normalize=normalize, exclusive=True) for out in outputs]
    expected = encoder.new_buffer()
    for game in _random_positions(5):
        legal = game.legal_actions()
        for seat, (writer, out) in enumerate(zip(writers, outputs)):
            writer(game, seat, legal if seat == game.current_player else None)
            encoder.encode(game, seat, expected)
            if normalize:
                expected *= encoder.scale
            np.testing.assert_array_equal(out, expected)


@pytest.mark.parametrize("normalize", [False, True])
def test_bound_writers_show_a_secret_while_it_is_active_and_not_after(encoder, normalize):
    """Along games of the secrets deck, exclusive writers (which rewrite the secrets piece only when it changes)
    agree with a fresh encode: an active secret is counted (and scaled), and a revealed one is gone."""
    outputs = [encoder.new_buffer() for _ in range(2)]
    writers = [encoder.writer(out, normalize=normalize, exclusive=True) for out in outputs]
    expected = encoder.new_buffer()
    active_before, shown, revealed = [0, 0], 0, 0
    for game in _random_positions(7, decks=("traps", "traps"), steps=600):
        for seat, (writer, out) in enumerate(zip(writers, outputs)):
            writer(game, seat)
            encoder.encode(game, seat, expected)
            if normalize:
                expected *= encoder.scale
            np.testing.assert_array_equal(out, expected)
            active = len(game.state.players[seat].secrets)
            shown += active > 0
            revealed += active < active_before[seat]
            active_before[seat] = active
    assert shown > 50 and revealed > 5  # the games did play and reveal secrets


def test_normalized_writer_clips_then_scales_out_of_bound_values(encoder):
    board = {"players": [{"health": -4, "battlefield": [{"card": "wisp", "attack": 500, "health": 400}]}, {}]}
    out = encoder.new_buffer()
    encoder.writer(out, normalize=True, exclusive=True)(Game.from_scenario(board, cards=default_cards()), 0)
    view = encoder.view(out)
    assert view["own_hero"][0] == 0 and view["own_battlefield"][0][1:4].tolist() == [1, 1, 1]
    assert out.min() >= 0 and out.max() <= 1


def test_can_attack_of_the_side_on_turn_is_what_the_engine_validators_say(encoder):
    """Read from the legal choices or asked of the Attack validators, "can attack" is the same; it matches the
    characters that have a legal attack."""
    from ccg_env.engine.attacks import attackers_now

    checked = 0
    for game in _random_positions(11):
        if game.is_over:
            continue
        legal = game.legal_actions()
        with_attacks = {c.source for c in legal if c.kind.value == "attack"}
        assert attackers_now(game, legal) == attackers_now(game) == with_attacks
        side = game.state.players[game.current_player]
        view = encoded(encoder, game, game.current_player)
        assert view["own_hero"][6] == (side.hero.uid in with_attacks)
        column = encoder.columns["own_battlefield"].index("can_attack")
        assert [bool(row[column]) for row in view["own_battlefield"][:len(side.battlefield)]] == \
            [card.uid in with_attacks for card in side.battlefield]
        checked += len(side.battlefield)
    assert checked > 50


# --- heroes and hero powers ---------------------------------------------------------------------------------


def test_hero_classes_and_hero_powers_follow_the_zones_and_precede_the_mulligan(encoder):
    assert [p.name for p in encoder.pieces[-6:]] == ["own_secrets", "own_hero_class", "enemy_hero_class", "hero_powers",
                                                     "in_mulligan", "mulligan_marked"]
    assert encoder.columns["own_hero_class"] == ("class_neutral", "class_mage", "class_warrior", "class_paladin",
                                                 "class_priest", "class_rogue", "class_warlock")
    assert encoder.columns["hero_powers"] == ("has_power", "cost", "used_this_turn", "usable_now")


def test_hero_classes_and_powers_are_encoded_from_each_side(encoder):
    game = Game.from_scenario({"players": [{"hero": "mage", "mana": 3}, {"hero": "warlock"}]})
    mage = encoded(encoder, game, 0)
    assert mage["own_hero_class"].tolist() == [0, 1, 0, 0, 0, 0, 0]
    assert mage["enemy_hero_class"].tolist() == [0, 0, 0, 0, 0, 0, 1]
    assert mage["hero_powers"].tolist() == [[1, 2, 0, 1], [1, 2, 0, 0]]
    warlock = encoded(encoder, game, 1)
    assert warlock["own_hero_class"].tolist() == [0, 0, 0, 0, 0, 0, 1]
    assert warlock["hero_powers"].tolist() == [[1, 2, 0, 0], [1, 2, 0, 0]]  # usable now: only the side on turn
    power = game.player(0).hero_power[0]
    game.apply(next(c for c in game.legal_actions() if c.source == power.uid))
    assert encoded(encoder, game, 0)["hero_powers"].tolist() == [[1, 2, 1, 0], [1, 2, 0, 0]]
    assert encoded(encoder, game, 1)["hero_powers"].tolist() == [[1, 2, 0, 0], [1, 2, 1, 0]]
    poor = Game.from_scenario({"players": [{"hero": "warrior", "mana": 1}, {}]})
    view = encoded(encoder, poor, 0)
    assert view["hero_powers"].tolist() == [[1, 2, 0, 0], [0, 0, 0, 0]]
    assert view["enemy_hero_class"].tolist() == [1, 0, 0, 0, 0, 0, 0]


def test_usable_now_is_whether_a_hero_power_choice_is_legal(encoder):
    from ccg_env.engine import ChoiceKind

    from ..engine.helpers import class_decks

    seen = set()
    for seed in range(1, 4):
        for game in _random_positions(seed, decks=class_decks(seed), steps=150):
            legal = game.legal_actions()
            usable = any(c.kind is ChoiceKind.HERO_POWER for c in legal)
            seen.add(usable)
            me = game.current_player
            assert encoded(encoder, game, me)["hero_powers"][0][3] == usable
            out = encoder.new_buffer()
            encoder.writer(out)(game, me, legal)
            assert encoder.view(out)["hero_powers"][0][3] == usable
    assert seen == {True, False}


@pytest.mark.parametrize("normalize", [False, True])
def test_bound_writers_agree_with_encode_in_games_with_hero_powers(encoder, normalize):
    from ..engine.helpers import class_decks

    outputs = [encoder.new_buffer() for _ in range(2)]
    writers = [encoder.writer(out, normalize=normalize, exclusive=True) for out in outputs]
    expected = encoder.new_buffer()
    for game in _random_positions(3, decks=class_decks(3), steps=300):
        legal = game.legal_actions()
        for seat, (writer, out) in enumerate(zip(writers, outputs)):
            writer(game, seat, legal if seat == game.current_player else None)
            encoder.encode(game, seat, expected)
            if normalize:
                expected *= encoder.scale
            np.testing.assert_array_equal(out, expected)
            assert (out.min() >= 0 and out.max() <= 1) if normalize else encoder.space.contains(out)


@pytest.mark.parametrize("turn", [1, 2, 7])
def test_a_hero_frozen_on_any_turn_shows_frozen_to_both_players_even_on_the_first_turn(encoder, turn):
    """``frozen_on_turn`` holds the turn of the freeze (0: not frozen), so a freeze on turn 1 counts too."""
    game = Game.from_scenario({"current": 0, "turn": turn, "players": [{"hero": "mage"}, {"hero": "warlock"}]},
                              cards=default_cards())
    frozen_column = encoder.columns["own_hero"].index("frozen")
    for seat in (0, 1):
        game.state.players[seat].hero.frozen_on_turn = turn
        for viewer in (0, 1):
            view = encoded(encoder, game, viewer)
            assert view["own_hero" if viewer == seat else "enemy_hero"][frozen_column] == 1.0
            assert view["enemy_hero" if viewer == seat else "own_hero"][frozen_column] == float(seat == 1)


def test_a_hand_cards_stats_show_a_minions_health_a_weapons_durability_and_whether_it_names_a_target(encoder):
    board = {"players": [{"mana": 3, "max_mana": 3, "hand": ["chillwind_yeti", "fiery_war_axe", "fireball", "wisp"]},
                         {}]}
    view = encoded(encoder, Game.from_scenario(board, cards=default_cards()), 0)
    assert encoder.columns["own_hand"][:5] == ("present", "cost", "attack", "health", "affordable")
    assert view["own_hand"][:4, :5].tolist() == [[1, 4, 4, 5, 0],  # a 4/5 for 4 with 3 mana: not affordable
                                                 [1, 3, 3, 2, 1],  # a 3/2 weapon: durability 2 in the health column
                                                 [1, 4, 0, 0, 0],
                                                 [1, 0, 1, 1, 1]]
    columns = encoder.columns["own_hand"]
    targets = view["own_hand"][:4, [columns.index("has_target"), columns.index("target_required")]]
    assert targets.tolist() == [[0, 0], [0, 0], [1, 1], [0, 0]]  # only Fireball names a target


@pytest.mark.parametrize("cost, shown", [(250, 100), (-3, 0), (100, 100), (0, 0), (2, 2)])
def test_a_hero_powers_cost_beyond_its_bound_is_clipped_to_it_for_both_heroes(encoder, cost, shown):
    """Costs change with effects; the observation keeps every value within the space's bounds."""
    game = Game.from_scenario({"players": [{"hero": "mage"}, {"hero": "warlock"}]}, cards=default_cards())
    for seat in (0, 1):
        game.state.players[seat].hero_power[0].cost = cost
    view = encoded(encoder, game, 0)
    assert encoder.view(encoder.high)["hero_powers"][:, 1].tolist() == [100, 100]  # the bound of the cost column
    assert view["hero_powers"][:, 1].tolist() == [shown, shown]


@pytest.mark.parametrize("turn", [1, 4])
def test_a_minion_frozen_on_any_turn_shows_frozen_even_on_the_first_turn(encoder, turn):
    board = {"current": 0, "turn": turn, "players": [{"battlefield": ["chillwind_yeti"]},
                                                     {"battlefield": ["chillwind_yeti"]}]}
    game = Game.from_scenario(board, cards=default_cards())
    frozen = encoder.columns["own_battlefield"].index("frozen")
    game.state.players[1].battlefield[0].frozen_on_turn = turn
    view = encoded(encoder, game, 0)
    assert view["own_battlefield"][0][frozen] == 0 and view["enemy_battlefield"][0][frozen] == 1


def test_the_encoders_bounds_and_scale_are_float32_like_the_observation(encoder):
    assert encoder.low.dtype == encoder.high.dtype == encoder.scale.dtype == encoder.space.dtype == np.float32
    assert not encoder.low.any() and (encoder.high > 0).all()
    assert encoder.rules is RULES  # the rules its layout was built for


KEYWORD_COLUMNS = ["keyword_taunt", "keyword_charge", "keyword_divine_shield", "keyword_windfury", "keyword_lifesteal",
                   "keyword_poisonous", "keyword_stealth", "keyword_freeze"]
CLASS_COLUMNS = ["class_neutral", "class_mage", "class_warrior", "class_paladin", "class_priest", "class_rogue",
                 "class_warlock"]
MINION_COLUMNS = ["present", "attack", "health", "max_health", "can_attack", "sleeping", "frozen", *KEYWORD_COLUMNS]
#: the names users index the observation by (``encoder.columns``; card columns apart): renaming one breaks them
NAMED_COLUMNS = {
    "own_hero": ["health", "armor", "attack", "weapon_attack", "weapon_durability", "frozen", "can_attack"],
    "mana": ["mana", "max_mana", "enemy_max_mana"],
    "zone_sizes": ["deck", "hand", "graveyard", "battlefield", "secrets"],
    "fatigue": ["own", "enemy"],
    "turn": ["turn", "went_first"],
    "own_hand": ["present", "cost", "attack", "health", "affordable", *KEYWORD_COLUMNS, "type_minion", "type_spell",
                 "type_weapon", "type_secret", "has_target", "target_required"],
    "own_battlefield": MINION_COLUMNS, "enemy_battlefield": MINION_COLUMNS, "own_secrets": [],
    "own_hero_class": CLASS_COLUMNS, "enemy_hero_class": CLASS_COLUMNS,
    "hero_powers": ["has_power", "cost", "used_this_turn", "usable_now"],
    "in_mulligan": ["in_mulligan"], "mulligan_marked": [f"hand_slot_{slot}" for slot in range(RULES.max_hand)],
}


def test_every_piece_names_its_columns_and_card_columns_follow_the_card_order(encoder):
    card_columns = [f"card_{card.id}" for card in card_order(default_cards())]
    expected = {**NAMED_COLUMNS, "enemy_hero": NAMED_COLUMNS["own_hero"]}
    assert [p.name for p in encoder.pieces] == list(encoder.columns) and set(encoder.columns) == set(expected)
    for name, columns in encoder.columns.items():
        with_cards = name in ("own_hand", "own_battlefield", "enemy_battlefield", "own_secrets")
        assert list(columns) == expected[name] + (card_columns if with_cards else []), name
