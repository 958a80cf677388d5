"""The mulligan: conformance (hand size, deck conservation, seeded), its rules, and the opening without it."""

from __future__ import annotations

import hashlib
import json
import random
from collections import Counter

import pytest

from ccg_env.engine import Choice, ChoiceKind, Game, IllegalActionError, Rules
from ccg_env.engine.actions import ChangeTurn, Mulligan, MulliganMark
from ccg_env.engine.choices import END_TURN
from ccg_env.engine.decks import default_deck_paths
from ccg_env.engine.invariants import InvariantError, InvariantMonitor, check_invariants
from ccg_env.engine.state import GamePhase

from .helpers import NO_MULLIGAN

DECKS = sorted(default_deck_paths())

#: Digest of 14 seeded random games over deck pairs as main played them before the mulligan existed (legal
#: lists, final state without the fields the mulligan added, log), computed with main's code before the mulligan
#: merge (heroes, class decks and the rules-fidelity changes in; log lines as describe() writes them since f44863b).
TODAYS_OPENING = "c7f3e0ec22ad419babbb65f122994672658d16018d3caf54119ab053e144086b"


def put_back(game: Game, *slots: int) -> None:
    """Mark the cards at these hand slots of the player deciding, then be done."""
    hand = game.player(game.current_player).hand
    for uid in [hand[slot].uid for slot in slots]:
        game.apply(Choice(ChoiceKind.MULLIGAN, uid))
    game.apply(END_TURN)


def card_ids(cards) -> Counter:
    return Counter(card.definition.id for card in cards)


def deck_list(name: str) -> Counter:
    game = Game.new(seed=0, decks=[name, name], rules=NO_MULLIGAN)
    player = game.player(0)
    return card_ids([*player.deck, *player.hand])


# --- with the mulligan off: today's opening ---------------------------------------------------------


def test_mulligan_off_plays_exactly_the_games_played_before_the_mulligan_existed():
    digest = hashlib.sha256()
    for seed in range(14):
        game = Game.new(seed=seed, decks=[DECKS[seed % len(DECKS)], DECKS[(seed + 2) % len(DECKS)]],
                        rules=NO_MULLIGAN)
        rng = random.Random(seed)
        while not game.is_over:
            legal = game.legal_actions()
            digest.update(repr(legal).encode())
            game.apply(rng.choice(legal))
        doc = json.loads(game.to_json())
        assert doc.pop("phase") == "battle" and doc["rules"].pop("mulligan") is False
        assert [p.pop("marked") for p in doc["players"]] == [[], []]
        digest.update(json.dumps(doc, sort_keys=True).encode())
        digest.update("\n".join(str(e) for e in game.log).encode())
    assert digest.hexdigest() == TODAYS_OPENING


def test_the_mulligan_is_on_by_default_and_off_starts_turn_one():
    assert Rules.load().mulligan is True and Rules().mulligan is True
    on, off = Game.new(seed=3), Game.new(seed=3, rules=NO_MULLIGAN)
    assert on.in_mulligan and on.state.phase is GamePhase.MULLIGAN and on.current_player == 0
    assert not off.in_mulligan and [e.kind for e in off.log if e.depth == 1][-1] == "TurnStart"


def test_keeping_both_hands_gives_the_same_game_as_no_mulligan():
    """Done with no marks keeps the hand: nothing is shuffled, and turn 1 starts as it does without a mulligan."""
    for seed in range(5):
        game = Game.new(seed=seed)
        hands = [[c.uid for c in game.player(p).hand] for p in (0, 1)]
        game.apply(END_TURN)
        assert [c.uid for c in game.player(0).hand] == hands[0] and game.current_player == 1
        game.apply(END_TURN)
        expected = json.loads(Game.new(seed=seed, rules=NO_MULLIGAN).to_json())
        expected["rules"]["mulligan"] = True
        assert json.loads(game.to_json()) == expected


# --- conformance --------------------------------------------------------------------------------------


def test_legal_choices_in_the_mulligan_are_done_then_each_opening_card():
    game = Game.new(seed=1)
    hand = game.player(0).hand
    assert game.legal_actions() == [END_TURN] + [Choice(ChoiceKind.MULLIGAN, c.uid) for c in hand]
    game.apply(Choice(ChoiceKind.MULLIGAN, hand[1].uid))
    assert game.legal_actions() == [END_TURN] + [Choice(ChoiceKind.MULLIGAN, c.uid) for c in hand if c is not hand[1]]
    assert game.player(0).marked == [hand[1].uid]


@pytest.mark.parametrize("seed", range(12))
def test_hand_size_and_deck_contents_are_kept(seed):
    """After both mulligans each hand has its opening size and deck + hand is the same 30 cards (+ the coin)."""
    decks = [DECKS[seed % len(DECKS)], DECKS[(seed + 1) % len(DECKS)]]
    game = Game.new(seed=seed, decks=decks)
    monitor = InvariantMonitor(game)
    rng = random.Random(seed)
    for player in (0, 1):
        size = len(game.player(player).hand)
        put_back(game, *rng.sample(range(size), rng.randrange(size + 1)))
        monitor.check()
        assert len(game.player(player).hand) == size + player  # the second player then gets the coin
    assert not game.in_mulligan and game.turn == 1 and game.current_player == 0
    first, second = game.player(0), game.player(1)
    assert len(first.hand) == 3 + 1 and len(second.hand) == 4 + 1  # the turn-1 draw; the coin
    assert card_ids([*first.deck, *first.hand]) == deck_list(decks[0])
    assert card_ids([*second.deck, *second.hand]) == deck_list(decks[1]) + Counter({"the_coin": 1})
    assert len(first.deck) + len(first.hand) == 30 and len(second.deck) + len(second.hand) == 31


@pytest.mark.parametrize("seed", range(6))
def test_same_seed_and_choices_same_game(seed):
    def play(game_seed: int) -> tuple[str, list[str]]:
        game = Game.new(seed=game_seed)
        rng = random.Random(seed)
        while not game.is_over:
            game.apply(rng.choice(game.legal_actions()))
        return game.to_json(), [str(e) for e in game.log]

    first = play(seed)
    assert play(seed) == first
    assert play(seed + 100) != first


# --- rules ---------------------------------------------------------------------------------------------


def test_both_players_decide_first_then_second_then_turn_one():
    game = Game.new(seed=2)
    assert game.current_player == 0 and game.in_mulligan
    put_back(game, 0)
    assert game.current_player == 1 and game.in_mulligan and game.player(0).marked == []
    put_back(game, 0, 3)
    assert game.current_player == 0 and not game.in_mulligan and game.turn == 1
    roots = [e.kind for e in game.log if e.depth == 0]
    assert roots == ["StartGame", "MulliganMark", "Mulligan", "MulliganMark", "MulliganMark", "Mulligan"]


def test_the_coin_comes_after_the_second_mulligan_and_cannot_be_put_back():
    game = Game.new(seed=5)
    put_back(game)
    second = game.player(1)
    assert "the_coin" not in card_ids(second.hand) and len(second.hand) == 4
    assert all(c.kind is ChoiceKind.END_TURN or game.state.find(c.source).definition.id != "the_coin"
               for c in game.legal_actions())
    put_back(game, 0, 1, 2, 3)
    assert second.hand[-1].definition.id == "the_coin" and len(second.hand) == 5
    assert card_ids(second.deck)["the_coin"] == 0


def test_put_back_cards_are_not_drawn_again_in_their_replacement():
    """The replacements come from the deck before the put-back cards join it; slots keep their places."""
    deck = ["wisp", "river_crocolisk", "chillwind_yeti", "boulderfist_ogre", "magma_rager"]  # last drawn first
    game = Game.from_scenario({"mulligan": True, "players": [
        {"hand": ["fireball", "frostbolt", "arcane_intellect"], "deck": deck}, {}]}, seed=9)
    hand = game.player(0).hand
    fireball, frostbolt, intellect = (c.uid for c in hand)
    put_back(game, 0, 2)
    assert [c.definition.id for c in game.player(0).hand] == ["magma_rager", "frostbolt", "boulderfist_ogre"]
    assert game.player(0).hand[1].uid == frostbolt
    assert card_ids(game.player(0).deck) == Counter(["wisp", "river_crocolisk", "chillwind_yeti", "fireball",
                                                     "arcane_intellect"])
    assert {c.uid for c in game.player(0).deck} >= {fireball, intellect}
    mulligan = next(e.action for e in game.log if e.kind == "Mulligan")
    assert [c.uid for c in mulligan.returned] == [fireball, intellect]


@pytest.mark.parametrize("seed", range(20))
def test_no_replacement_is_a_put_back_card_in_dealt_games(seed):
    game = Game.new(seed=seed)
    put_back(game, 0, 1, 2)
    entry = next(e.action for e in game.log if e.kind == "Mulligan")
    assert {c.uid for c in entry.returned}.isdisjoint(c.uid for c in entry.drawn)
    assert {c.uid for c in entry.returned} <= {c.uid for c in game.player(0).deck}


def test_the_put_back_cards_are_shuffled_into_the_deck_with_the_game_generator():
    orders = set()
    for seed in range(6):
        game = Game.from_scenario({"mulligan": True, "players": [
            {"hand": ["fireball", "frostbolt"], "deck": ["wisp"] * 2 + ["chillwind_yeti"] * 2}, {}]}, seed=seed)
        put_back(game, 0, 1)
        orders.add(tuple(c.definition.id for c in game.player(0).deck))
    assert len(orders) > 1  # the deck order depends on the seed


def test_a_player_cannot_put_back_more_cards_than_its_deck_can_replace():
    game = Game.from_scenario({"mulligan": True, "players": [
        {"hand": ["fireball", "frostbolt", "wisp"], "deck": ["chillwind_yeti"]}, {}]})
    hand = game.player(0).hand
    game.apply(Choice(ChoiceKind.MULLIGAN, hand[0].uid))
    assert game.legal_actions() == [END_TURN]
    with pytest.raises(IllegalActionError, match="deck holds only 1 card"):
        game.apply(Choice(ChoiceKind.MULLIGAN, hand[1].uid))


def test_battle_choices_are_refused_in_the_mulligan_and_mulligan_choices_after_it():
    game = Game.new(seed=4)
    card = game.player(0).hand[0]
    with pytest.raises(IllegalActionError, match=r"is illegal: the game is in the mulligan: put back opening-hand "
                                                  r"cards, or end_turn to keep the rest$"):
        game.apply(Choice(ChoiceKind.PLAY, card.uid))
    game.apply(Choice(ChoiceKind.MULLIGAN, card.uid))
    with pytest.raises(IllegalActionError, match="already marked"):
        game.apply(Choice(ChoiceKind.MULLIGAN, card.uid))
    put_back(game)
    put_back(game)
    with pytest.raises(IllegalActionError, match="the mulligan is over"):
        game.apply(Choice(ChoiceKind.MULLIGAN, game.player(0).hand[0].uid))


def test_a_turn_change_performed_in_the_mulligan_is_refused_and_logged_with_why():
    game = Game.new(seed=4)
    before = len(game.log)
    game.perform(ChangeTurn(0, 1))
    assert game.in_mulligan and game.current_player == 0
    [entry] = game.log[before:]
    assert isinstance(entry.action, ChangeTurn) and entry.cancelled == (
        "the mulligan is not over (end_turn in the mulligan means: done, keep the rest of the hand)")


def test_mulligan_actions_performed_after_the_mulligan_are_refused_and_logged_with_why():
    game = Game.new(seed=4)
    put_back(game)
    put_back(game)
    hand = list(game.player(0).hand)
    before = len(game.log)
    game.perform(MulliganMark(0, hand[0]))
    game.perform(Mulligan(0))
    assert [e.cancelled for e in game.log[before:]] == ["the mulligan is over"] * 2
    assert game.player(0).hand == hand and game.player(0).marked == []


def test_a_scenario_starts_in_battle_unless_it_asks_for_the_mulligan():
    assert not Game.from_scenario({"players": [{}, {}]}).in_mulligan
    game = Game.from_scenario({"mulligan": True, "current": 1, "players": [{}, {"hand": ["wisp"], "deck": ["wisp"]}]})
    assert game.in_mulligan and game.current_player == 1
    put_back(game, 0)
    assert not game.in_mulligan and game.current_player == 0


def test_the_mulligan_invariant_catches_marks_out_of_place():
    game = Game.new(seed=1)
    game.player(1).marked.append(game.player(1).hand[0].uid)
    with pytest.raises(InvariantError, match=r"\[mulligan\] player 1"):
        check_invariants(game)
    game = Game.new(seed=1, rules=NO_MULLIGAN)
    game.player(0).marked.append(game.player(0).hand[0].uid)
    with pytest.raises(InvariantError, match="not deciding a mulligan"):
        check_invariants(game)


def test_the_rules_file_validates_the_flag():
    from ccg_env.engine.errors import DataError

    assert Rules.from_dict({"mulligan": False}).mulligan is False
    with pytest.raises(DataError, match="mulligan.*true or false|true or false.*mulligan"):
        Rules.from_dict({"mulligan": "yes"})


def test_a_saved_state_with_bad_mulligan_fields_is_refused_naming_them():
    from ccg_env.engine import StateError

    game = Game.new(seed=1)
    game.apply(Choice(ChoiceKind.MULLIGAN, game.player(0).hand[0].uid))
    doc = json.loads(game.to_json())
    assert doc["phase"] == "mulligan" and doc["players"][0]["marked"] == [game.player(0).hand[0].uid]
    assert Game.from_json(json.dumps(doc)).player(0).marked == game.player(0).marked
    for change, message in [
        (lambda d: d.update(phase="draft"), "unknown phase 'draft'"),
        (lambda d: d["players"][0].update(marked="all"), "field 'marked'"),
        (lambda d: d["players"][0].update(marked=[True]), "field 'marked'"),
        (lambda d: d["players"][1].update(marked=[d["players"][1]["zones"]["hand"][0]["uid"]]),
         r"\[mulligan\] player 1 .* not deciding"),
        (lambda d: d["players"][0].update(marked=[9999]), r"\[mulligan\] player 0 marked \[9999\]"),
    ]:
        broken = json.loads(json.dumps(doc))
        change(broken)
        with pytest.raises(StateError, match=message):
            Game.from_json(json.dumps(broken))
    del doc["phase"]  # a document saved before the mulligan existed loads in battle, without marks
    for player in doc["players"]:
        del player["marked"]
    old = Game.from_json(json.dumps(doc))
    assert not old.in_mulligan and old.player(0).marked == []


def test_mulligan_moves_lists_nothing_once_the_mulligan_is_over():
    from ccg_env.engine.choices import mulligan_moves

    game = Game.new(seed=4)
    assert mulligan_moves(game)[0][0] == END_TURN and len(mulligan_moves(game)[0]) > 1
    put_back(game)
    put_back(game)
    assert not game.in_mulligan and mulligan_moves(game) == ([], {})
