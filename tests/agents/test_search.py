"""The search tree: lethal found in the right order, visits that follow the budget, availability, determinism."""

from __future__ import annotations

import pytest

from ccg_env.agents.heuristic import choose
from ccg_env.agents.search import SearchAgent
from ccg_env.engine import ChoiceKind, Game
from ccg_env.engine.choices import END_TURN
from ccg_env.engine.view import GameView
from tests.agents.test_view import _hide_differently, mid_game
from tests.engine.helpers import board

#: Lethal only in one order: fireball the taunt, then the core hound (9 attack) hits the 8-health hero.
#: Fireball at the face leaves 2 health, and trading the hound into the taunt (the heuristic's move) wastes it.
TAUNT_LETHAL = board({"mana": 4, "hand": ["fireball"], "deck": ["wisp"] * 5,
                      "battlefield": [{"card": "core_hound", "sleeping": False}]},
                     {"health": 8, "hand": ["wisp"], "deck": ["wisp"] * 5, "battlefield": ["senjin_shieldmasta"]})


def _names(game: Game, choice) -> tuple[ChoiceKind, str | None, str | None]:
    find = game.state.find
    return (choice.kind, find(choice.source).definition.id if choice.source else None,
            find(choice.target).definition.id if choice.target else None)


def _play_turn(game: Game, pick) -> list[tuple]:
    """Let ``pick(view)`` play player 0's turn; return the choices by card name."""
    played = []
    while not game.is_over and game.current_player == 0:
        choice = pick(GameView(game, 0))
        played.append(_names(game, choice))
        game.apply(choice)
    return played


def _visits(root) -> dict:
    return {choice: (child.visits, round(child.total, 9), child.available) for choice, child in root.children.items()}


def test_search_finds_a_lethal_that_needs_two_decisions_in_the_right_order():
    game = Game.from_scenario(TAUNT_LETHAL)
    played = _play_turn(game, SearchAgent(iterations=32, seed=0).choose)
    assert played == [(ChoiceKind.PLAY, "fireball", "senjin_shieldmasta"), (ChoiceKind.ATTACK, "core_hound", "hero")]
    assert game.winner == 0


def test_the_heuristic_misses_that_lethal():
    game = Game.from_scenario(TAUNT_LETHAL)
    assert _play_turn(game, choose)[0] == (ChoiceKind.ATTACK, "core_hound", "senjin_shieldmasta")
    assert not game.is_over


def test_the_tree_reaches_the_second_decision_and_rates_the_lethal_line_a_sure_win():
    game = Game.from_scenario(TAUNT_LETHAL)
    root = SearchAgent(iterations=32, seed=0).search(GameView(game, 0))
    first, best = max(root.children.items(), key=lambda item: item[1].visits)
    second, finish = max(best.children.items(), key=lambda item: item[1].visits)
    assert (_names(game, first), _names(game, second)) == (
        (ChoiceKind.PLAY, "fireball", "senjin_shieldmasta"), (ChoiceKind.ATTACK, "core_hound", "hero"))
    assert finish.visits > best.visits / 2 and finish.mean == 1.0  # every visit of the line won


def test_root_visits_add_up_to_the_budget_and_the_best_choice_gains_visits_with_it():
    game = mid_game(5, decisions=25)
    view = GameView(game, game.current_player)
    best_visits = []
    for iterations in (8, 32, 128):
        root = SearchAgent(iterations=iterations, seed=0).search(view)
        assert sum(child.visits for child in root.children.values()) == iterations
        best_visits.append(max(child.visits for child in root.children.values()))
    assert best_visits[0] < best_visits[1] < best_visits[2]


def test_choices_legal_only_in_some_worlds_count_their_availability():
    """After Arcane Intellect the two cards drawn differ between worlds; each play is counted where legal."""
    game = Game.from_scenario(board({"mana": 5, "hand": ["arcane_intellect"], "deck": ["wisp"] * 6},
                                    {"deck": ["wisp"] * 5}))
    root = SearchAgent(iterations=40, seed=0).search(GameView(game, 0))
    intellect = next(node for choice, node in root.children.items() if choice.kind is ChoiceKind.PLAY)
    plays = [node for choice, node in intellect.children.items() if choice.kind is ChoiceKind.PLAY]
    end_turn = intellect.children[END_TURN]
    assert len(plays) > 2  # more distinct wisps than one hand ever holds
    assert all(node.available < end_turn.available for node in plays)
    assert end_turn.available <= intellect.visits - 1


def test_same_seed_same_tree_and_choice():
    game = mid_game(8, decisions=25)
    view = GameView(game, game.current_player)
    first, again = SearchAgent(iterations=24, seed=4), SearchAgent(iterations=24, seed=4)
    assert _visits(first.search(view)) == _visits(again.search(view))
    assert first.choose(view) == again.choose(view)


def test_tree_statistics_do_not_depend_on_hidden_information():
    game = mid_game(3, decisions=25)
    viewer = game.current_player
    other = _hide_differently(game, viewer)
    mine = SearchAgent(iterations=24, seed=1).search(GameView(game, viewer))
    theirs = SearchAgent(iterations=24, seed=1).search(GameView(other, viewer))
    assert _visits(mine) == _visits(theirs)


def test_a_single_legal_choice_is_returned_without_searching():
    game = Game.from_scenario(board({"mana": 0, "deck": ["wisp"] * 5}, {"deck": ["wisp"] * 5}))
    assert SearchAgent(iterations=4, seed=0).choose(GameView(game, 0)) == END_TURN


def test_the_tree_stays_in_the_agents_turn_unless_asked_to_cover_the_reply():
    game = mid_game(5, decisions=25)
    me = game.current_player
    view = GameView(game, me)

    def movers(node) -> set[int]:
        found: set[int] = set()
        for child in node.children.values():
            found |= {child.mover} | movers(child)
        return found

    assert movers(SearchAgent(iterations=256, seed=0).search(view)) == {me}
    assert movers(SearchAgent(iterations=256, seed=0, tree_turns=2).search(view)) == {me, 1 - me}


def test_search_rejects_bad_options():
    with pytest.raises(ValueError, match="tree_turns"):
        SearchAgent(tree_turns=3)
    with pytest.raises(ValueError, match="exploration"):
        SearchAgent(exploration=-1.0)
