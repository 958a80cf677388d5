"""The action system: phases, validation, reaction order (priority, then order of play), depth-first resolution."""

from dataclasses import dataclass

import pytest

from ccg_env.engine import Choice, ChoiceKind, EngineBusyError, Game, Keyword, Result
from ccg_env.engine.actions import (Attack, ChangeTurn, DrawCards, GameAction, GameOver, MulliganMark, Overdraw,
                                    PlayCard, UseHeroPower)
from ccg_env.engine.choices import END_TURN
from ccg_env.engine.events import Phase
from ccg_env.engine.view import GameView

from .helpers import board


@dataclass(slots=True, eq=False)
class Note(GameAction):
    """A test action that only carries a label."""

    label: str = ""


def _game_with_recorder():
    game = Game.from_scenario(board(), log=True)
    seen = []
    game.bus.on(Phase.PERFORM, Note, lambda g, a: seen.append(a.label))
    return game, seen


def test_reactions_sort_by_priority_then_order_of_play_depth_first():
    game, seen = _game_with_recorder()
    children = {
        "root": [Note(0, "late", order_of_play=9), Note(0, "urgent", priority=5, order_of_play=20),
                 Note(0, "early", order_of_play=1), Note(0, "early-tie", order_of_play=1)],
        "early": [Note(0, "early.child", order_of_play=3)],
        "early.child": [Note(0, "early.grandchild")],
    }

    def react(g, action):
        for child in children.get(action.label, []):
            g.add_reaction(child)

    game.bus.on(Phase.PERFORM, Note, react)
    game.perform(Note(0, "root"))
    assert seen == ["root", "urgent", "early", "early.child", "early.grandchild", "early-tie", "late"]
    depths = [(e.depth, e.action.label) for e in game.log]
    assert depths == [(0, "root"), (1, "urgent"), (1, "early"), (2, "early.child"), (3, "early.grandchild"),
                      (1, "early-tie"), (1, "late")]


def _attack_the_berserker(attacker: str, attacker_first: bool):
    """``attacker`` hits a Gurubashi Berserker (whose damage trigger gives it +3 attack); the game, the berserker and
    the kinds of the hit's reactions in the order they resolved."""
    mine = {"card": attacker, "sleeping": False, "order_of_play": 1 if attacker_first else 2}
    berserker = {"card": "gurubashi_berserker", "order_of_play": 2 if attacker_first else 1}
    game = Game.from_scenario(board({"battlefield": [mine]}, {"battlefield": [berserker]}), log=True)
    defender = game.player(1).battlefield[0]
    game.apply(Choice(ChoiceKind.ATTACK, game.player(0).battlefield[0].uid, defender.uid))
    return game, defender, [e.kind for e in game.log if e.depth == 2]


@pytest.mark.parametrize("first_played", ["freezer", "berserker"])
def test_a_damage_trigger_and_a_freeze_from_one_hit_resolve_in_order_of_play(first_played):
    """Neither reaction to the hit outranks the other: the card played first reacts first (Hearthstone's rule for
    simultaneous triggers), whichever side it is on."""
    game, defender, reactions = _attack_the_berserker("water_elemental", first_played == "freezer")
    assert reactions == (["Freeze", "TriggerAbility"] if first_played == "freezer" else ["TriggerAbility", "Freeze"])
    assert defender.frozen_on_turn == game.state.turn and defender.attack == 2 + 3


@pytest.mark.parametrize("first_played", ["cobra", "berserker"])
def test_a_damage_trigger_and_a_poisonous_kill_from_one_hit_resolve_in_order_of_play(first_played):
    """As with the freeze above: the poisonous attacker's destroy and the defender's own damage trigger."""
    game, defender, reactions = _attack_the_berserker("emperor_cobra", first_played == "cobra")
    assert reactions == (["Destroy", "TriggerAbility"] if first_played == "cobra" else ["TriggerAbility", "Destroy"])
    assert defender in game.player(1).graveyard


@pytest.mark.parametrize("first_played", ["bat", "berserker"])
def test_a_damage_trigger_and_a_lifesteal_heal_from_one_hit_resolve_in_order_of_play(first_played):
    game, defender, reactions = _attack_the_berserker("vampire_bat", first_played == "bat")
    assert reactions == (["Heal", "TriggerAbility"] if first_played == "bat" else ["TriggerAbility", "Heal"])


def test_a_hit_of_no_damage_sets_nothing_off():
    """A 0-attack defender hits back for 0: no damage trigger (the Berserker), no divine shield lost (the Squire),
    no poisonous kill (a 0-attack Cobra)."""
    game = Game.from_scenario(board(
        {"battlefield": [{"card": "gurubashi_berserker", "sleeping": False},
                         {"card": "argent_squire", "sleeping": False}, {"card": "wisp", "sleeping": False}]},
        {"battlefield": [{"card": "river_crocolisk", "attack": 0}, {"card": "emperor_cobra", "attack": 0}]}))
    berserker, squire, wisp = game.player(0).battlefield
    croc, cobra = game.player(1).battlefield
    for attacker, defender in ((berserker, croc), (squire, croc), (wisp, cobra)):
        game.apply(Choice(ChoiceKind.ATTACK, attacker.uid, defender.uid))
    assert (berserker.attack, berserker.health) == (2, 7)  # as printed
    assert squire.keywords & Keyword.DIVINE_SHIELD and squire.health == 1
    assert wisp in game.player(0).battlefield and wisp.health == 1


def test_triggers_of_the_minions_in_play_fire_in_order_of_play_not_board_order():
    """Young Priestess was played first but stands right of Master Swordsmith: her turn-end trigger fires first."""
    game = Game.from_scenario(board({"battlefield": [{"card": "master_swordsmith", "order_of_play": 2},
                                                     {"card": "young_priestess", "order_of_play": 1}]}), log=True)
    start = len(game.log)
    game.apply(END_TURN)
    fired = [e.action.card.definition.id for e in game.log[start:] if e.kind == "TriggerAbility"]
    assert fired == ["young_priestess", "master_swordsmith"]


def test_a_loop_of_actions_about_no_card_ends_the_game_naming_no_card():
    game, seen = _game_with_recorder()
    game.bus.on(Phase.PERFORM, Note, lambda g, action: g.add_reaction(Note(1, "again")))
    game.perform(Note(1, "start"))
    assert game.result is Result.LOOP and game.winner is None and len(seen) == 1 + 100  # depths 0 to 100
    stop = game.log[-1]
    assert stop.kind == "StopLoop" and stop.depth == 0 and stop.action.card is None
    assert stop.action.reason == "reactions nested more than 100 deep (at Note)" and stop.action.player == 0


def test_actions_performed_out_of_turn_or_with_cards_out_of_place_are_refused_with_why():
    """The validators behind the legal choices, met directly: each refusal is logged, and nothing happens."""
    secrets = ["explosive_trap", "ice_barrier", "noble_sacrifice", "vaporize", "snake_trap"]
    game = Game.from_scenario({"current": 0, "turn": 3, "players": [
        {"mana": 10, "hero": "mage", "hand": ["snipe"], "secrets": secrets,
         "battlefield": [{"card": "wisp", "sleeping": False}]},
        {"mana": 10, "hero": "warrior", "hand": ["wisp"], "battlefield": ["river_crocolisk"]}]})
    me, enemy = game.player(0), game.player(1)
    wisp, croc = me.battlefield[0], enemy.battlefield[0]
    refusals = [
        (PlayCard(1, enemy.hand[0]), "player 1 cannot play on player 0's turn"),
        (PlayCard(0, wisp), f"{wisp!r} is not in player 0's hand"),
        (PlayCard(0, me.hand[0]), "player 0 already has 5 secrets"),
        (ChangeTurn(1, 0), "player 1 cannot end player 0's turn"),
        (UseHeroPower(0, enemy.hero_power[0]), f"{enemy.hero_power[0]!r} is not player 0's hero power"),
        (Attack(1, croc, wisp), "player 1 cannot attack on player 0's turn"),
        (Attack(0, croc, wisp), f"{croc!r} is not a character of player 0 in play"),
    ]
    before = game.to_json()
    for action, reason in refusals:
        size = len(game.log)
        game.perform(action)
        assert [e.cancelled for e in game.log[size:]] == [reason]
    assert game.to_json() == before
    last = GameView(game, 0).log_words().text(len(game.log) - 1)
    assert last == [f"River Crocolisk attacks Wisp (cancelled: {reason})"]
    mulligan = Game.new(seed=4)
    card = mulligan.player(1).hand[0]
    for action, reason in [(MulliganMark(1, card), "player 1 cannot decide in player 0's mulligan"),
                           (MulliganMark(0, card), f"card #{card.uid} is not in player 0's opening hand")]:
        size = len(mulligan.log)
        mulligan.perform(action)
        assert [e.cancelled for e in mulligan.log[size:]] == [reason]


def test_prepare_reactions_resolve_before_perform():
    game, seen = _game_with_recorder()
    game.bus.on(Phase.PREPARE, Note, lambda g, a: a.label == "root" and g.add_reaction(Note(0, "before")))
    game.perform(Note(0, "root"))
    assert seen == ["before", "root"]


def test_validator_cancels_and_logs_reason_without_running_phases():
    game, seen = _game_with_recorder()
    game.bus.on(Phase.VALIDATE, Note, lambda g, a: "no thanks" if a.label == "refused" else None)
    game.perform(Note(0, "refused"))
    assert seen == []
    assert game.log[-1].cancelled == "no thanks" and game.log[-1].action.cancelled


def test_a_prepare_handler_can_cancel_the_perform_phase():
    game, seen = _game_with_recorder()
    game.bus.on(Phase.PREPARE, Note, lambda g, a: a.cancel())
    game.perform(Note(0, "x"))
    assert seen == []


def test_new_root_action_while_one_runs_is_an_error():
    game, _ = _game_with_recorder()
    game.bus.on(Phase.PERFORM, Note, lambda g, a: g.perform(Note(0, "nested")) if a.label == "root" else None)
    with pytest.raises(EngineBusyError):
        game.perform(Note(0, "root"))


def test_overdraw_does_not_fire_draw_handlers_unless_asked():
    game = Game.from_scenario(board({"deck": ["wisp"] * 3, "hand": ["wisp"] * 10}))
    plain, inclusive = [], []
    game.bus.on(Phase.PERFORM, DrawCards, lambda g, a: plain.append(type(a).__name__))
    game.bus.on(Phase.PERFORM, DrawCards, lambda g, a: inclusive.append(type(a).__name__), subclasses=True)
    game.perform(DrawCards(0, 2))
    assert plain == ["DrawCards"]
    assert inclusive == ["DrawCards", "Overdraw"]
    assert Overdraw.__mro__[1] is DrawCards


def test_each_game_has_its_own_bus():
    first = Game.from_scenario(board())
    second = Game.from_scenario(board())
    calls = []
    first.bus.on(Phase.PERFORM, Note, lambda g, a: calls.append(g))
    second.perform(Note(0, "x"))
    first.clone().perform(Note(0, "y"))
    first.perform(Note(0, "z"))
    assert len(calls) == 2 and calls[1] is first  # the clone copied the registration, the other game never had it


def test_a_reaction_added_outside_any_phase_is_refused_before_and_after_the_first_action():
    game = Game.from_scenario(board())
    with pytest.raises(EngineBusyError, match=r"^Note added as a reaction outside of an action's phase$"):
        game.add_reaction(Note(0, "stray"))
    game.perform(Note(0, "root"))
    with pytest.raises(EngineBusyError, match=r"^Note added as a reaction outside of an action's phase$"):
        game.add_reaction(Note(0, "stray"))
    assert not game.reactions_pending()


def test_once_the_game_is_over_every_action_left_is_refused_as_the_game_being_over():
    game, seen = _game_with_recorder()

    def end_then_note(g, action):
        if action.label == "root":
            g.add_reaction(GameOver(0, result=Result.WIN, winner=0))
            g.add_reaction(Note(0, "after the end"))

    game.bus.on(Phase.PERFORM, Note, end_then_note)
    game.perform(Note(0, "root"))
    assert seen == ["root"] and game.winner == 0
    assert [(e.kind, e.cancelled) for e in game.log] == [("Note", None), ("GameOver", None),
                                                         ("Note", "the game is over")]


def test_an_action_cancelled_before_its_turn_runs_none_of_its_phases():
    game, seen = _game_with_recorder()
    game.bus.on(Phase.PREPARE, Note, lambda g, a: seen.append(f"prepare {a.label}"))
    game.perform(Note(0, "kept"))
    game.perform(Note(0, "dropped", cancelled=True))
    assert seen == ["prepare kept", "kept"]


def test_the_action_system_reads_idle_as_false_after_an_action_and_after_a_handler_that_raised():
    game, _ = _game_with_recorder()
    assert game.actions.active is False
    game.perform(Note(0, "x"))
    assert game.actions.active is False
    game.bus.on(Phase.PERFORM, Note, lambda g, a: 1 / 0 if a.label == "broken" else None)
    with pytest.raises(ZeroDivisionError):
        game.perform(Note(0, "broken"))
    assert game.actions.active is False  # a bool, as typed: the compiled build refuses None here
    game.perform(Note(0, "after"))  # and the next root action is not taken for a nested one
