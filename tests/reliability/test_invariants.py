"""Each engine invariant holds on real games and catches its own kind of corruption, by name."""

from __future__ import annotations

import random
import re

import pytest

from ccg_env.engine import Game, Result, Zones
from ccg_env.engine.actions import TurnStart
from ccg_env.engine.decks import default_deck_paths
from ccg_env.engine.invariants import (
    InvariantError, InvariantMonitor, broken_invariants, check_invariants, check_log,
)
from ccg_env.engine.log import LogEntry

BOARD = {"players": [
    {"mana": 5, "hand": ["wisp", "fireball"], "deck": ["chillwind_yeti", "wisp"], "battlefield": ["chillwind_yeti"],
     "weapon": "fiery_war_axe", "secrets": ["explosive_trap"], "graveyard": ["arcane_explosion"]},
    {"hand": ["wisp"], "battlefield": ["bloodfen_raptor", "wisp"]},
]}


def board() -> Game:
    return Game.from_scenario(BOARD)


def _in_hand(game: Game, player: int = 0):
    return game.player(player).hand[0]


def _overfill_hand(game: Game) -> None:
    hand = game.player(0).hand
    while len(hand) <= game.state.rules.max_hand:
        card = hand[0].copy()
        card.uid = game.state.new_uid()
        hand.append(card)


def _set(obj, **values):
    """Set fields of ``obj(game)``; a callable value is computed from the game."""
    def mutate(game: Game) -> None:
        target = obj(game)
        for key, value in values.items():
            setattr(target, key, value(game) if callable(value) else value)
    return mutate


CORRUPTIONS = {
    "current player 2": ("match", _set(lambda g: g.state, current=2)),
    "players out of seat order": ("match", lambda g: g.state.players.reverse()),
    "turn 0": ("match", _set(lambda g: g.state, turn=0)),
    "card says the wrong zone": ("zones", _set(_in_hand, zone=Zones.BATTLEFIELD)),
    "card owned by the other player": ("zones", _set(_in_hand, owner=1)),
    "card in two zones": ("zones", lambda g: g.player(0).graveyard.append(g.player(0).hand[0])),
    "uid not yet handed out": ("zones", _set(_in_hand, uid=10**6)),
    "order of play from the future": ("zones", _set(lambda g: g.player(0).battlefield[0], order_of_play=10**6)),
    "no hero": ("zone-kinds", lambda g: g.player(1).hero_zone.clear()),
    "spell on the battlefield": ("zone-kinds", lambda g: _move(g, g.player(0).hand[1], Zones.BATTLEFIELD)),
    "secret twice": ("zone-kinds", lambda g: _duplicate(g, g.player(0).secrets)),
    "two weapons": ("zone-kinds", lambda g: _duplicate(g, g.player(0).weapon)),
    "hand above max": ("zone-limits", _overfill_hand),
    "health above max": ("stats", _set(lambda g: g.player(0).battlefield[0], health=99)),
    "negative attack": ("stats", _set(lambda g: g.player(1).battlefield[0], attack=-1)),
    "negative armor": ("stats", _set(lambda g: g.player(0).hero, armor=-2)),
    "negative cost": ("stats", _set(_in_hand, cost=-1)),
    "negative durability": ("stats", _set(lambda g: g.player(0).weapon[0], durability=-1)),
    "negative attacks made": ("stats", _set(lambda g: g.player(0).battlefield[0], attacks_made=-1)),
    "frozen on a negative turn": ("stats", _set(lambda g: g.player(1).battlefield[0], frozen_on_turn=-3)),
    "minion at 0 health in hand": ("stats", _set(_in_hand, health=0)),
    "mana above the rules": ("mana", _set(lambda g: g.player(0), mana=11)),
    "negative mana": ("mana", _set(lambda g: g.player(1), mana=-1)),
    "crystals above the rules": ("mana", _set(lambda g: g.player(1), max_mana=11)),
    "negative fatigue": ("mana", _set(lambda g: g.player(1), fatigue=-1)),
    "dead minion not reaped": ("reaped", _set(lambda g: g.player(1).battlefield[1], health=0)),
    "spent weapon equipped": ("reaped", _set(lambda g: g.player(0).weapon[0], durability=0)),
    "dead hero, game goes on": ("result", _set(lambda g: g.player(1).hero, health=0)),
    "winner without a result": ("result", _set(lambda g: g.state, winner=0)),
    "win without a winner": ("result", _set(lambda g: g.state, result=Result.WIN)),
    "win for the dead hero": ("result", lambda g: _end(g, Result.WIN, winner=1, dead=1)),
    "draw with a winner": ("result", lambda g: _end(g, Result.DRAW, winner=0, dead=None)),
    "loop with a winner": ("result", lambda g: _end(g, Result.LOOP, winner=0, dead=None)),
    "turn limit before the limit": ("result", lambda g: _end(g, Result.TURN_LIMIT, winner=None, dead=None)),
    "past the turn limit, game goes on": ("result", _set(lambda g: g.state, turn=81)),
    "log starts below the root": ("log", lambda g: g.log.append(LogEntry(1, TurnStart(0)))),
    "log skips a depth": ("log", lambda g: g.log.extend([LogEntry(0, TurnStart(0)), LogEntry(2, TurnStart(0))])),
    "cancelled action with reactions": ("log", lambda g: g.log.extend([LogEntry(0, TurnStart(0), "no"),
                                                                       LogEntry(1, TurnStart(0))])),
}


#: What each corruption above reads as, in full (the cards are the board's: their uids are fixed).
PROBLEMS = {
    "cancelled action with reactions": [
        "[log] entry 1 (TurnStart) has depth 1, at most 0 allowed after TurnStart(player=0)  [cancelled: no]",
    ],
    "card in two zones": ["[zones] <wisp#5 p0 1/1> is listed in player 0 GRAVEYARD but says HAND"],
    "card owned by the other player": ["[zones] <wisp#5 p1 1/1> is listed in player 0 HAND but its owner is 1"],
    "card says the wrong zone": ["[zones] <wisp#5 p0 1/1> is listed in player 0 HAND but says BATTLEFIELD"],
    "crystals above the rules": ["[mana] player 1 has 0/11 mana (bounds 0..10)"],
    "current player 2": ["[match] current player is 2"],
    "dead hero, game goes on": ["[result] a hero is dead (30, 0) but the game goes on"],
    "dead minion not reaped": ["[reaped] <wisp#13 p1 1/0> of player 1 is at 0 health but not reaped"],
    "draw with a winner": ["[result] a draw with winner 0 and hero health 30, 30"],
    "frozen on a negative turn": ["[stats] <bloodfen_raptor#12 p1 3/2> in BATTLEFIELD: negative frozen_on_turn -3"],
    "hand above max": ["[zone-limits] player 0 has 11 cards in hand, limit 10"],
    "health above max": ["[stats] <chillwind_yeti#10 p0 4/99> in BATTLEFIELD: health 99 above its maximum 5"],
    "log skips a depth": ["[log] entry 1 (TurnStart) has depth 2, at most 1 allowed after TurnStart(player=0)"],
    "log starts below the root": ["[log] entry 0 (TurnStart) has depth 1, at most 0 allowed after nothing"],
    "loop with a winner": ["[result] a loop (a draw) with winner 0"],
    "mana above the rules": ["[mana] player 0 has 11/5 mana (bounds 0..10)"],
    "minion at 0 health in hand": ["[stats] <wisp#5 p0 1/0> in HAND: a minion at 0 health"],
    "negative armor": ["[stats] <hero#1 p0 3/30> in HERO: negative armor -2"],
    "negative attack": ["[stats] <bloodfen_raptor#12 p1 -1/2> in BATTLEFIELD: negative attack -1"],
    "negative attacks made": ["[stats] <chillwind_yeti#10 p0 4/5> in BATTLEFIELD: negative attacks_made -1"],
    "negative cost": ["[stats] <wisp#5 p0 1/1> in HAND: negative cost -1"],
    "negative durability": [
        "[stats] <fiery_war_axe#9 p0 3/0> in WEAPON: negative durability -1",
        "[reaped] <fiery_war_axe#9 p0 3/0> of player 0 is equipped with -1 durability",
    ],
    "negative fatigue": ["[mana] player 1 has fatigue -1"],
    "negative mana": ["[mana] player 1 has -1/0 mana (bounds 0..10)"],
    "no hero": [
        "[zone-kinds] player 1 has heroes []",
        "[check_result] could not run on this state: IndexError: list index out of range",
    ],
    "order of play from the future": ["[zones] <chillwind_yeti#10 p0 4/5> has order of play 1000000 >= next 5"],
    "past the turn limit, game goes on": ["[result] turn 81 is past the limit 80 but the game goes on"],
    "players out of seat order": ["[match] expected players 0 and 1, got [1, 0]"],
    "secret twice": ["[zone-kinds] player 0 has secrets ['explosive_trap', 'explosive_trap']"],
    "spell on the battlefield": [
        "[zone-kinds] player 0 has a non-minion on the battlefield: [<chillwind_yeti#10 p0 4/5>, <fireball#6 p0 0/0>]",
        "[reaped] <fireball#6 p0 0/0> of player 0 is at 0 health but not reaped",
    ],
    "spent weapon equipped": ["[reaped] <fiery_war_axe#9 p0 3/0> of player 0 is equipped with 0 durability"],
    "turn 0": ["[match] turn is 0"],
    "turn limit before the limit": ["[result] turn_limit at turn 1 (limit 80), winner None"],
    "two weapons": ["[zone-kinds] player 0 has weapons [<fiery_war_axe#9 p0 3/0>, <fiery_war_axe#14 p0 3/0>]"],
    "uid not yet handed out": ["[zones] <wisp#1000000 p0 1/1> in player 0 HAND has a uid outside 1..13"],
    "win for the dead hero": ["[result] winner 1 but hero health 30, 0"],
    "win without a winner": ["[result] a win with winner None"],
    "winner without a result": ["[result] winner 0 recorded but the game is not over"],
}


def _move(game: Game, card, zone: Zones) -> None:
    game.player(card.owner).zone(card.zone).remove(card)
    card.zone = zone
    game.player(card.owner).zone(zone).append(card)


def _duplicate(game: Game, cards: list) -> None:
    copy = cards[0].copy()
    copy.uid = game.state.new_uid()
    cards.append(copy)


def _end(game: Game, result: Result, winner: int | None, dead: int | None) -> None:
    game.state.result, game.state.winner = result, winner
    if dead is not None:
        game.player(dead).hero.health = 0


@pytest.mark.parametrize("result, winner, dead, turn, problems", [
    (Result.WIN, 0, [], 5, ["[result] winner 0 but hero health 30, 30"]),  # both heroes alive
    (Result.WIN, 1, [0], 5, []),
    (Result.DRAW, None, [1], 5, ["[result] a draw with winner None and hero health 30, 0"]),  # one hero alive
    (Result.DRAW, None, [0], 5, ["[result] a draw with winner None and hero health 0, 30"]),
    (Result.DRAW, None, [0, 1], 5, []),  # both heroes died at once
    (Result.TURN_LIMIT, None, [], 80, ["[result] turn_limit at turn 80 (limit 80), winner None"]),  # not past it yet
    (Result.TURN_LIMIT, None, [], 81, []),
    (None, None, [], 80, []),  # the last turn is played
    (None, None, [], 81, ["[result] turn 81 is past the limit 80 but the game goes on"]),
])
def test_a_finished_game_needs_the_heroes_and_turn_its_result_says(result, winner, dead, turn, problems):
    game = board()
    _end(game, result, winner, dead=None)
    for seat in dead:
        game.player(seat).hero.health = 0
    game.state.turn = turn
    assert broken_invariants(game) == problems


@pytest.mark.parametrize("zone, seat, card", [("hand", 0, "wisp"), ("battlefield", 1, "wisp"),
                                             ("secrets", 0, "explosive_trap")])
def test_each_zone_holds_up_to_its_limit_and_one_more_is_named(zone, seat, card):
    rules = Game.new(seed=0).state.rules
    limit = {"hand": rules.max_hand, "battlefield": rules.max_battlefield, "secrets": rules.max_secrets}[zone]
    full = Game.from_scenario({"players": [{}, {}]})
    cards = getattr(full.player(seat), zone)
    while len(cards) < limit + 1:
        extra = Game.from_scenario({"players": [{zone: [card]}, {}]}).player(0)
        copy = getattr(extra, zone)[0].copy()
        copy.uid, copy.owner = full.state.new_uid(), seat
        cards.append(copy)
        problems = broken_invariants(full)
        if len(cards) <= limit:
            assert not [p for p in problems if p.startswith("[zone-limits]")], (len(cards), problems)
    assert f"[zone-limits] player {seat} has {limit + 1} cards in {zone}, limit {limit}" in problems


def test_a_spent_weapon_still_equipped_is_named_with_its_durability():
    game = board()
    weapon = game.player(0).weapon[0]
    weapon.durability = 0
    assert broken_invariants(game) == [f"[reaped] {weapon!r} of player 0 is equipped with 0 durability"]


def test_a_scenario_board_and_a_new_game_hold_every_invariant():
    check_invariants(board())
    check_invariants(Game.new(seed=4))
    assert broken_invariants(board()) == []


@pytest.mark.parametrize("name", sorted(CORRUPTIONS))
def test_each_corruption_breaks_the_invariant_named(name):
    expected, corrupt = CORRUPTIONS[name]
    game = board()
    corrupt(game)
    with pytest.raises(InvariantError) as info:
        check_invariants(game)
    assert info.value.invariant == expected
    assert str(info.value).startswith(f"[{expected}] ")
    assert any(problem.startswith(f"[{expected}]") for problem in broken_invariants(game))


def _second_power(game: Game) -> None:
    _duplicate(game, game.player(0).hero_power)


@pytest.mark.parametrize("corrupt, problem", [
    (_second_power, r"player 0 has hero powers \["),
    (lambda g: setattr(g.player(1).hero_power[0], "owner", 0), r"of player 1 has owner 0 and zone NONE"),
    (lambda g: setattr(g.player(0).hero_power[0], "zone", Zones.HAND), r"of player 0 has owner 0 and zone HAND"),
    (lambda g: setattr(g.player(0), "hero_power_uses", 2), r"player 0 used its hero power 2 times \(limit 1\)"),
])
def test_each_hero_power_corruption_breaks_the_hero_power_invariant(corrupt, problem):
    game = Game.new(seed=1)
    assert broken_invariants(game) == []
    corrupt(game)
    assert any(p.startswith("[hero-power]") and re.search(problem, p) for p in broken_invariants(game))


@pytest.mark.parametrize("corrupt, problems", [
    (_set(_in_hand, uid=lambda g: g.player(1).battlefield[0].uid),
     ["[zones] card id {raptor} appears twice: in player 0 HAND and in player 1 BATTLEFIELD"]),
    (_set(_in_hand, uid=0), ["[zones] <wisp#0 p0 1/1> in player 0 HAND has a uid outside 1..{last}"]),
    (_set(_in_hand, uid=lambda g: g.state.next_uid),
     ["[zones] <wisp#{next} p0 1/1> in player 0 HAND has a uid outside 1..{last}"]),
    (_set(_in_hand, uid=lambda g: g.state.next_uid - 1),  # the last uid is taken: shared
     ["[zones] card id {last} appears twice: in player 0 HAND and in player 1 BATTLEFIELD"]),
    (_set(_in_hand, order_of_play=lambda g: g.state.next_order),
     ["[zones] <wisp#5 p0 1/1> has order of play {order} >= next {order}"]),
    (_set(_in_hand, order_of_play=lambda g: g.state.next_order - 1), []),
])
def test_every_card_has_its_own_uid_handed_out_and_an_order_of_play_already_given(corrupt, problems):
    game = board()
    raptor, last, order = game.player(1).battlefield[0].uid, game.state.next_uid - 1, game.state.next_order
    corrupt(game)
    assert broken_invariants(game) == [p.format(raptor=raptor, last=last, next=last + 1, order=order)
                                       for p in problems]


@pytest.mark.parametrize("field, at_bound, past_it", [
    ("cost", 0, -1), ("attack", 0, -1), ("armor", 0, -1), ("attacks_made", 0, -1), ("frozen_on_turn", 0, -1),
    ("health", 1, 0),  # a minion in hand
])
def test_card_stats_hold_at_their_bound_and_break_one_past_it(field, at_bound, past_it):
    game = board()
    wisp = _in_hand(game)
    setattr(wisp, field, at_bound)
    assert broken_invariants(game) == []
    setattr(wisp, field, past_it)
    assert [p.partition(":")[0] for p in broken_invariants(game)] == [f"[stats] {wisp!r} in HAND"]


@pytest.mark.parametrize("field, values", [("mana", (0, 10)), ("max_mana", (0, 10)), ("fatigue", (0, 30))])
def test_mana_crystals_and_fatigue_hold_at_their_bounds_and_break_past_them(field, values):
    game = board()
    player = game.player(1)
    for value in values:
        player.mana, player.max_mana = (value, 10) if field == "mana" else (0, value) if field == "max_mana" else (0, 0)
        setattr(player, field, value)
        assert broken_invariants(game) == [], (field, value)
    setattr(player, field, values[0] - 1)
    assert [p.startswith("[mana] player 1 has") for p in broken_invariants(game)] == [True]
    if field != "fatigue":
        setattr(player, field, values[1] + 1)
        assert [p.startswith("[mana] player 1 has") for p in broken_invariants(game)] == [True]


def _power_uid(game: Game, uid: int) -> None:
    game.player(0).hero_power[0].uid = uid


def _hero_elsewhere_power_at_1(game: Game) -> None:
    game.player(0).hero.uid = game.state.new_uid()  # uid 1 is free for the power then
    _power_uid(game, 1)


@pytest.mark.parametrize("corrupt, problems", [
    (lambda g: _power_uid(g, 0), ["[hero-power] <fireblast#0 p0 0/0> of player 0 has a uid used by a card or outside "
                                  "1..{last}"]),
    (lambda g: _power_uid(g, g.state.next_uid), ["[hero-power] <fireblast#{next} p0 0/0> of player 0 has a uid used by "
                                                 "a card or outside 1..{last}"]),
    (lambda g: _power_uid(g, g.state.next_uid - 1), []),  # the last uid handed out
    (_hero_elsewhere_power_at_1, []),  # the first uid, when no card holds it
    (lambda g: setattr(g.player(1), "hero_power", []), []),  # no hero power, no uses
    (lambda g: (setattr(g.player(1), "hero_power", []), setattr(g.player(1), "hero_power_uses", 1)),
     ["[hero-power] player 1 used its hero power 1 times (limit 0)"]),
])
def test_a_hero_powers_uid_is_one_handed_out_to_no_card_and_its_uses_stay_in_its_limit(corrupt, problems):
    game = Game.from_scenario({"players": [{"hero": "mage"}, {"hero": "mage"}]})
    corrupt(game)
    last = game.state.next_uid - 1
    assert broken_invariants(game) == [p.format(last=last, next=last + 1) for p in problems]


def test_more_mulligan_marks_than_the_deck_can_replace_break_the_mulligan_invariant():
    game = Game.new(seed=1)
    player = game.player(game.current_player)
    player.marked = [card.uid for card in player.hand]
    del player.deck[len(player.hand):]
    assert broken_invariants(game) == []  # as many cards as marked: each can be replaced
    del player.deck[0]
    assert any(p == f"[mulligan] player {player.index} marked {len(player.hand)} cards but its deck holds "
               f"{len(player.hand) - 1}" for p in broken_invariants(game))


def test_a_loop_may_end_the_game_on_any_turn_but_never_with_a_winner():
    game = board()
    _end(game, Result.LOOP, winner=None, dead=None)
    assert broken_invariants(game) == []
    game.state.winner = 0
    assert broken_invariants(game) == ["[result] a loop (a draw) with winner 0"]


@pytest.mark.parametrize("corrupt, problem", [
    (_set(lambda g: g.player(0).hero, armor=-2), r"in HERO: negative armor -2$"),
    (_set(_in_hand, health=0), r"in HAND: a minion at 0 health$"),
    (_set(lambda g: g.player(0).battlefield[0], health=99), r"in BATTLEFIELD: health 99 above its maximum 5$"),
    (_set(lambda g: g.player(0).weapon[0], durability=-1), r"in WEAPON: negative durability -1$"),
])
def test_a_broken_stat_is_named_with_its_value(corrupt, problem):
    game = board()
    corrupt(game)
    assert any(p.startswith("[stats]") and re.search(problem, p) for p in broken_invariants(game)), \
        broken_invariants(game)


def test_a_check_that_cannot_run_on_a_broken_state_is_reported_by_name():
    game = Game.new(seed=1)
    game.state.log.append(None)
    assert broken_invariants(game) == [
        "[check_log] could not run on this state: AttributeError: 'NoneType' object has no attribute 'depth'"]
    game = Game.new(seed=1)
    game.player(0).hand.append(None)
    assert broken_invariants(game)[0] == ("[check_zones] could not run on this state: AttributeError: 'NoneType' "
                                          "object has no attribute 'zone'")


def test_invariant_error_is_an_assertion_error():
    assert issubclass(InvariantError, AssertionError)


def test_the_monitor_finds_a_card_that_left_every_zone():
    game = board()
    monitor = InvariantMonitor(game)
    game.player(0).hand.pop()
    with pytest.raises(InvariantError, match=r"^\[nothing-lost\] card ids \[\d+\]"):
        monitor.check()


def test_the_monitor_finds_a_log_that_shrank():
    game = Game.new(seed=2)
    monitor = InvariantMonitor(game)
    game.log.pop()
    with pytest.raises(InvariantError, match=r"^\[log\] the log shrank"):
        monitor.check()


def test_the_monitor_follows_a_clone_and_a_restored_game_without_its_log():
    game = Game.new(seed=2)
    monitor = InvariantMonitor(game)
    restored = Game.from_json(game.to_json())  # a JSON round trip starts a new, empty log
    monitor.rebind(restored)
    monitor.check()
    clone = restored.clone()
    monitor.rebind(clone)
    clone.player(0).hand.pop()
    with pytest.raises(InvariantError, match=r"^\[nothing-lost\]"):
        monitor.check()
    assert monitor.game is clone


def test_a_log_depth_error_names_the_entry_and_what_came_before():
    with pytest.raises(InvariantError) as info:
        check_log([LogEntry(1, TurnStart(0))])
    assert str(info.value) == "[log] entry 0 (TurnStart) has depth 1, at most 0 allowed after nothing"
    first = LogEntry(0, TurnStart(0), "refused")
    with pytest.raises(InvariantError) as info:
        check_log([first, LogEntry(1, TurnStart(0))])
    assert str(info.value) == (f"[log] entry 1 (TurnStart) has depth 1, at most 0 allowed after {str(first).strip()}")
    check_log([LogEntry(0, TurnStart(0)), LogEntry(1, TurnStart(0)), LogEntry(0, TurnStart(1))])  # a valid tree


def test_log_check_resumes_from_an_offset():
    entries = [LogEntry(0, TurnStart(0)), LogEntry(1, TurnStart(0)), LogEntry(3, TurnStart(0))]
    check_log(entries[:2])
    with pytest.raises(InvariantError, match="entry 2"):
        check_log(entries, start=2, previous=entries[1])
    # entries before start were checked when they were appended (the monitor checks each action's entries once):
    # a resumed check does not read them again, even a broken one
    check_log([LogEntry(-1, TurnStart(0)), LogEntry(0, TurnStart(0))], start=1, previous=LogEntry(0, TurnStart(0)))


def test_checking_the_log_from_any_entry_reads_it_under_the_entry_before():
    """check_invariants(log_from=i) resumes the tree check at entry i (which may sit deep in the tree), as the
    monitor does after each action."""
    game = board()
    fireball = game.player(0).hand[1]
    game.apply(next(c for c in game.legal_actions() if c.source == fireball.uid and c.target is not None))
    assert max(entry.depth for entry in game.log) > 1
    for start in range(len(game.log) + 1):
        check_invariants(game, log_from=start)


@pytest.mark.parametrize("seed", range(14))
def test_random_games_on_every_deck_pair_hold_every_invariant_after_each_action(seed):
    decks = sorted(default_deck_paths())
    game = Game.new(seed=seed, decks=[decks[seed % len(decks)], decks[(seed * 3 + 1) % len(decks)]])
    monitor = InvariantMonitor(game)
    rng = random.Random(seed)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
        monitor.check()
    assert game.result is not None and len(game.log) > 100


@pytest.mark.parametrize("name", sorted(PROBLEMS))
def test_each_corruption_reads_as_what_is_wrong_and_where(name):
    game = board()
    CORRUPTIONS[name][1](game)
    assert broken_invariants(game) == PROBLEMS[name]
