"""The arena's protocol: decks dealt independently of seats, each deal from both seats, and the seat/deck splits."""

from __future__ import annotations

from collections import Counter
from itertools import product

import pytest

from ccg_env.agents.arena import (TournamentResult, balance_note, cycle_games, deck_pairs, resolve_pool, run_tournament,
                          schedule)
from ccg_env.agents.heuristic import HeuristicAgent
from ccg_env.agents.match import GameRecord, MatchRunner
from ccg_env.agents.splits import OUTCOME_COLUMNS
from ccg_env.engine import DataError, Deck, Rules, default_cards
from ccg_env.engine.choices import END_TURN
from ccg_env.engine.decks import default_deck_paths, resolve_deck


# --- the schedule ------------------------------------------------------------------------------------------


def test_deck_pairs_are_every_ordered_pair_in_rounds_that_each_deal_every_deck_to_each_seat():
    pairs = deck_pairs(3)
    assert sorted(pairs) == sorted(product(range(3), repeat=2))
    for start in range(0, 9, 3):
        round_ = pairs[start:start + 3]
        assert sorted(d0 for d0, _ in round_) == [0, 1, 2] and sorted(d1 for _, d1 in round_) == [0, 1, 2]


def _seatings(tasks, agent: int) -> Counter:
    """(seat, deck) of ``agent`` in each of ``tasks`` it plays, counted."""
    counts: Counter = Counter()
    for task in tasks:
        seat = (task.seat0, task.seat1).index(agent)
        counts[seat, (task.deck0, task.deck1)[seat]] += 1
    return counts


def test_a_full_cycle_plays_each_deck_from_each_seat_equally_often_and_every_matchup_from_both_seats():
    n_decks, n_agents = 3, 3
    tasks = schedule(n_agents, cycle_games(n_decks), seed=5, n_decks=n_decks)
    assert len(tasks) == 3 * 18
    for start in range(0, len(tasks), 18):
        pair = tasks[start:start + 18]
        a, b = pair[0].seat0, pair[0].seat1
        for agent in (a, b):
            assert _seatings(pair, agent) == {(s, d): n_decks for s in (0, 1) for d in range(n_decks)}
        matchups = Counter(((t.seat0 == a), t.deck0 if t.seat0 == a else t.deck1, t.deck1 if t.seat0 == a else t.deck0)
                           for t in pair)
        assert matchups == {(first, x, y): 1 for first in (True, False) for x in range(3) for y in range(3)}
        for first, second in zip(pair[::2], pair[1::2]):  # each deal twice, agents swapped, same seed and decks
            assert (first.seed, first.deck0, first.deck1) == (second.seed, second.deck0, second.deck1)
            assert (first.seat0, first.seat1) == (second.seat1, second.seat0)
        assert [t.seed for t in pair[::2]] == list(range(5, 5 + 9))


def test_every_pair_of_agents_sees_the_same_deals():
    tasks = schedule(3, 10, seed=0, n_decks=2)
    deals = [[(t.seed, t.deck0, t.deck1) for t in tasks[start:start + 10]] for start in (0, 10, 20)]
    assert deals[0] == deals[1] == deals[2]


def test_whole_rounds_keep_deck_and_seat_balanced_even_between_cycles():
    tasks = schedule(2, 2 * 4 * 3, seed=0, n_decks=4)  # three rounds of a four-deck cycle (32 games)
    for agent in (0, 1):
        assert _seatings(tasks, agent) == {(s, d): 3 for s in (0, 1) for d in range(4)}


def test_the_balance_note_says_what_a_game_count_gives():
    assert "2 whole cycles of 98" in balance_note(196, 7) and "balanced in deck, seat and agent" in balance_note(196, 7)
    assert "not every deck matchup" in balance_note(14, 7) and "multiple of 98" in balance_note(14, 7)
    partial = balance_note(200, 7)
    assert "2 whole cycles of 98 + 4 games" in partial and "uneven" in partial and "multiple of 14" in partial


# --- the deck pool -----------------------------------------------------------------------------------------


def test_the_default_pool_is_every_packaged_deck_named_as_packaged():
    assert [deck.name for deck in resolve_pool(None)] == list(default_deck_paths())


def test_bad_pools_are_refused_with_the_reason():
    with pytest.raises(DataError, match="unknown deck 'nope'.*aggro"):
        resolve_pool(["aggro", "nope"])
    with pytest.raises(ValueError, match="'aggro' is in the pool twice"):
        resolve_pool(["aggro", "aggro"])
    with pytest.raises(ValueError, match="non-empty list"):
        resolve_pool([])
    for single in ("aggro", default_deck_paths()["aggro"]):
        with pytest.raises(ValueError, match="non-empty list"):
            resolve_pool(single)


def test_a_pool_takes_deck_objects_and_files_by_name(tmp_path):
    path = tmp_path / "my_deck.yaml"
    path.write_text(default_deck_paths()["midrange"].read_text())
    custom = Deck("custom", resolve_deck("aggro", default_cards(), Rules.load()).cards)
    assert [deck.name for deck in resolve_pool([custom, str(path), "control"])] == ["custom", "my_deck", "control"]


# --- game records carry the decks ----------------------------------------------------------------------------


def test_match_runner_deals_the_decks_asked_for_and_records_them():
    runner, agents = MatchRunner(), (HeuristicAgent(), HeuristicAgent())
    assert runner.play(agents, seed=1).deck0 == "midrange"  # the packaged default pair
    record = runner.play(agents, seed=1, decks=("aggro", "control"))
    assert (record.deck0, record.deck1) == ("aggro", "control")
    game = runner.new_game(3, decks=("spells", "traps"))
    game.apply(END_TURN)
    game.apply(END_TURN)  # both keep their opening hands: the coin comes after the mulligan
    for player, deck in zip(game.state.players, ("spells", "traps")):
        dealt = Counter(card.definition.id for card in [*player.deck, *player.hand])
        wanted = Counter(resolve_deck(deck, runner.cards, runner.rules).cards)
        assert dealt - wanted == Counter(_COIN if player.index == 1 else {})  # seat 1 also gets the coin


_COIN = {"the_coin": 1}


# --- splits on hand-made results (known answers) ---------------------------------------------------------------


def _record(seat0: str, seat1: str, winner: int | None, deck0: str, deck1: str) -> GameRecord:
    return GameRecord(seat0, seat1, 0, winner, "win" if winner is not None else "draw", 10, 50, deck0, deck1)


def _hand_made() -> TournamentResult:
    """A (agent 0) against B (agent 1): A wins every game it moves first, and one more with aggro from seat 1."""
    games = [(_record("A", "B", 0, "aggro", "ramp"), (0, 1)), (_record("B", "A", 0, "aggro", "ramp"), (1, 0)),
             (_record("A", "B", 0, "ramp", "ramp"), (0, 1)), (_record("B", "A", None, "ramp", "ramp"), (1, 0)),
             (_record("A", "B", 0, "ramp", "aggro"), (0, 1)), (_record("B", "A", 1, "ramp", "aggro"), (1, 0))]
    return TournamentResult(["A", "B"], [g for g, _ in games], [s for _, s in games])


def test_splits_of_a_hand_made_result_are_the_known_counts():
    result = _hand_made()
    assert result.decks == ["aggro", "ramp"]
    seat = {row["seat_a"]: row for row in result.seat_splits()}
    assert (seat[0]["games"], seat[0]["wins_a"], seat[0]["win_rate_a"]) == (3, 3, 1.0)
    assert (seat[1]["games"], seat[1]["wins_a"], seat[1]["wins_b"], seat[1]["draws"]) == (3, 1, 1, 1)
    deck = {row["deck_a"]: row for row in result.deck_splits()}
    assert (deck["aggro"]["games"], deck["aggro"]["wins_a"]) == (2, 2)
    assert (deck["ramp"]["games"], deck["ramp"]["wins_a"], deck["ramp"]["draws"]) == (4, 2, 1)
    matchup = {(row["deck_a"], row["deck_b"]): row for row in result.matchups()}
    assert matchup["ramp", "ramp"]["games"] == 2 and matchup["ramp", "aggro"]["wins_b"] == 1
    assert matchup["aggro", "aggro"]["games"] == 0 and matchup["aggro", "aggro"]["win_rate_a"] is None
    pair = result.pairs()[0]
    assert (pair["win_rate_a_first"], pair["games_a_second"]) == (1.0, 3)
    assert pair["win_rate_a_second"] == pytest.approx(1 / 3)


def test_the_table_prints_the_seat_and_deck_splits():
    text = _hand_made().table()
    assert "A moves first [95% CI]" in text and "A moves second [95% CI]" in text
    assert "1.000 [0.439, 1.000] n=3" in text  # A's three wins from seat 0, with the Wilson interval
    deck_header = next(line for line in text.splitlines() if line.startswith("by A's deck"))
    assert deck_header.split()[-2:] == ["aggro", "ramp"]


def test_the_deck_matrix_draws_a_panel_per_pair_or_only_those_of_one_agent():
    from ccg_env.agents.figures import deck_matrix_figure

    games = [_record("A", "B", 0, "aggro", "ramp"), _record("A", "C", 1, "ramp", "ramp"),
             _record("B", "C", 0, "aggro", "aggro")]
    three = TournamentResult(["A", "B", "C"], games, [(0, 1), (0, 2), (1, 2)])
    titles = [ax.get_title() for ax in deck_matrix_figure(three).axes if ax.get_title()]
    assert titles == ["A = A\nB = B", "A = A\nB = C", "A = B\nB = C"]
    titles = [ax.get_title() for ax in deck_matrix_figure(three, involving="C").axes if ax.get_title()]
    assert titles == ["A = A\nB = C", "A = B\nB = C"]
    with pytest.raises(ValueError, match="no agent 'D'"):
        deck_matrix_figure(three, involving="D")


# --- splits on played tournaments --------------------------------------------------------------------------


def _sums(rows, group_keys) -> dict:
    totals: dict = {}
    for row in rows:
        key = tuple(row[k] for k in group_keys)
        totals[key] = [a + b for a, b in zip(totals.get(key, [0, 0, 0, 0]),
                                               (row["games"], row["wins_a"], row["wins_b"], row["draws"]))]
    return totals


def test_seat_deck_and_matchup_splits_add_up_to_each_pair():
    result = run_tournament(["random", "heuristic", "random"], games_per_pair=16, seed=2, workers=1, progress=False,
                            decks=["aggro", "control"])
    overall = {(p["agent_a"], p["agent_b"]): [p["games"], p["wins_a"], p["wins_b"], p["draws"]] for p in result.pairs()}
    for rows in (result.seat_splits(), result.deck_splits(), result.matchups()):
        assert _sums(rows, ("agent_a", "agent_b")) == overall
        assert set(OUTCOME_COLUMNS) <= set(rows[0])
    for pair in result.pairs():
        seats = [r for r in result.seat_splits() if (r["agent_a"], r["agent_b"]) == (pair["agent_a"], pair["agent_b"])]
        assert [pair["games_a_first"], pair["games_a_second"]] == [r["games"] for r in seats] == [8, 8]
        first = seats[0]["wins_a"] / 8
        assert pair["win_rate_a_first"] == pytest.approx(first)
        assert pair["win_rate_a"] == pytest.approx((seats[0]["wins_a"] + seats[1]["wins_a"]) / 16)


def test_a_played_cycle_gives_each_agent_each_deck_from_each_seat_equally_often():
    result = run_tournament(["random", "heuristic"], games_per_pair=cycle_games(2), seed=0, workers=1, progress=False,
                            decks=["midrange", "traps"])
    for name in ("random", "heuristic"):
        counts = Counter((0, r.deck0) if r.seat0 == name else (1, r.deck1) for r in result.games)
        assert counts == {(s, d): 2 for s in (0, 1) for d in ("midrange", "traps")}
    assert result.config["decks"] == ["midrange", "traps"] and result.config["cycle_games"] == 8


def test_results_with_a_deck_pool_do_not_depend_on_the_number_of_workers():
    spec, decks = ["random", "heuristic"], ["aggro", "ramp", "spells"]
    one = run_tournament(spec, games_per_pair=18, seed=4, workers=1, progress=False, decks=decks)
    two = run_tournament(spec, games_per_pair=18, seed=4, workers=2, progress=False, decks=decks)
    assert one.games == two.games and one.pairs() == two.pairs()


class SeatZeroOnly:
    """Plays like the heuristic when it moves first; from seat 1 it only ever ends its turn."""

    name = "seat0_only"

    def __init__(self) -> None:
        self.heuristic = HeuristicAgent()

    def act(self, observation, action_mask, view=None) -> int:
        return self.heuristic.act(observation, action_mask, view) if view.player == 0 else 0

    def reset(self, seed=None) -> None:
        self.heuristic.reset(seed)


def test_a_seat_biased_agent_shows_in_the_seat_split_and_not_in_the_overall_rate():
    result = run_tournament([SeatZeroOnly(), "random"], games_per_pair=16, seed=0, workers=1, progress=False,
                            decks=["midrange", "aggro"])
    pair = result.pairs()[0]
    assert pair["win_rate_a_first"] >= 0.75 and pair["win_rate_a_second"] <= 0.25
    assert pair["ci_low_a_first"] > pair["ci_high_a_second"]  # the intervals do not even overlap
    assert pair["win_rate_a"] == pytest.approx((pair["win_rate_a_first"] + pair["win_rate_a_second"]) / 2)
    assert 0.3 <= pair["win_rate_a"] <= 0.7  # the overall figure alone would hide the bias
