"""Mana crystals over the first turns, turn changes, start-of-game dealing and the turn limit."""

import pytest

from ccg_env.engine import Choice, ChoiceKind, Game, Rules
from ccg_env.engine.choices import END_TURN
from ccg_env.engine.vocabulary import Zones

from .helpers import NO_MULLIGAN, board


def test_mana_over_the_first_turns_for_both_players():
    game = Game.new(seed=3, rules=NO_MULLIGAN)
    seen = []
    for _ in range(24):
        p = game.current_player
        seen.append((game.turn, p, game.player(p).mana, game.player(p).max_mana, game.player(1 - p).max_mana))
        game.apply(END_TURN)
    expected = []
    for turn in range(1, 25):
        p = (turn - 1) % 2
        own = min((turn + 1) // 2, 10)
        other = min(turn // 2, 10)  # the other player's crystals are not touched on my turn
        expected.append((turn, p, own, own, other))
    assert seen == expected


def test_opening_hands_and_coin():
    game = Game.new(seed=1, rules=NO_MULLIGAN)
    first, second = game.player(0), game.player(1)
    assert len(first.hand) == 4  # 3 + the turn-1 draw
    assert len(second.hand) == 5 and second.hand[-1].definition.id == "the_coin"
    assert len(first.deck) == 26 and len(second.deck) == 26
    assert game.turn == 1 and game.current_player == 0


def test_coin_gives_one_mana_this_turn_only():
    game = Game.from_scenario(board({"mana": 1, "max_mana": 1, "hand": ["the_coin"]}))
    coin = game.player(0).hand[0]
    game.apply(Choice(ChoiceKind.PLAY, coin.uid))
    assert game.player(0).mana == 2 and game.player(0).max_mana == 1


def test_mana_refills_for_the_player_whose_turn_starts():
    game = Game.from_scenario(board({"mana": 0, "max_mana": 4}, {"mana": 0, "max_mana": 6}))
    game.apply(END_TURN)
    assert game.current_player == 1
    assert (game.player(1).mana, game.player(1).max_mana) == (7, 7)
    assert (game.player(0).mana, game.player(0).max_mana) == (0, 4)  # not refilled on the opponent's turn


def test_turn_limit_ends_the_game_as_a_truncation():
    rules = Rules(turn_limit=6)
    game = Game.new(seed=2, rules=rules)
    while not game.is_over:
        game.apply(END_TURN)
    assert game.result.value == "turn_limit" and game.winner is None and game.turn == 7
    assert game.legal_actions() == []


def test_minions_dying_as_the_turn_limit_ends_the_game_are_buried_at_zero_health_too(tmp_path):
    """Once the game is over the reaper's actions are cancelled: the end of the game moves every dying minion
    (health 0 or less) to its graveyard, without triggers."""
    from ccg_env.engine import load_cards
    from ccg_env.engine.cards import default_cards

    path = tmp_path / "clock.yaml"
    path.write_text("cards:\n  - {id: doom_clock, name: Doom Clock, type: minion, cost: 3, attack: 0, health: 2,\n"
                    "     abilities: [{trigger: turn_end, effect: damage, amount: 2, select: all,\n"
                    "                  mark: {alliance: any, zones: battlefield}}]}\n")
    cards = load_cards([*default_cards().sources, path])
    game = Game.from_scenario({"turn": 80, "players": [{"battlefield": ["doom_clock", "wisp"]}, {}]}, cards=cards)
    game.apply(END_TURN)  # the last turn: the clock leaves itself at 0 health and the wisp at -1
    assert game.result.value == "turn_limit" and game.player(0).battlefield == []
    buried = game.player(0).graveyard
    assert [(c.definition.id, c.health, c.zone) for c in buried] == [
        ("doom_clock", 0, Zones.GRAVEYARD), ("wisp", -1, Zones.GRAVEYARD)]


@pytest.mark.parametrize("max_hand", [4, 5])
def test_the_second_players_coin_is_burned_when_its_opening_hand_fills_the_hand(max_hand):
    """The second player is dealt four cards, then the Coin: kept while the hand has room, else it goes to the
    graveyard (as an overdrawn card does)."""
    game = Game.new(seed=1, rules=Rules(max_hand=max_hand, mulligan=False))
    second = game.player(1)
    coins = [c for c in second.hand + second.graveyard if c.definition.id == "the_coin"]
    assert len(coins) == 1 and len(second.hand) == min(5, max_hand)
    [coin] = coins
    where = second.hand if max_hand == 5 else second.graveyard
    assert where[-1] is coin and coin.zone is (Zones.HAND if max_hand == 5 else Zones.GRAVEYARD)


@pytest.mark.parametrize("coin", [True, False])
def test_the_second_player_gets_the_coin_only_if_the_rules_give_it(coin):
    game = Game.new(seed=1, rules=Rules(coin_for_second=coin, mulligan=False))
    hand = [c.definition.id for c in game.player(1).hand]
    assert hand.count("the_coin") == int(coin) and len(hand) == 4 + int(coin)
    assert "the_coin" not in [c.definition.id for c in game.player(0).hand + game.player(1).graveyard]


def test_start_and_end_of_turn_events_are_logged_in_order():
    game = Game.from_scenario(board())
    game.apply(END_TURN)
    assert [(e.depth, e.kind) for e in game.log] == [
        (0, "ChangeTurn"), (1, "TurnEnd"), (1, "TurnStart"), (2, "DrawCards"), (3, "Fatigue"), (4, "Damage")]
