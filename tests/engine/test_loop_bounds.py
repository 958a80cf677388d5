"""The action system's bounds, in process: each looping board stops at the bound it passes first, names the card
behind the loop and ends the game as a loop; an action performed after the end is refused."""

from __future__ import annotations

import warnings

import pytest

from ccg_env.engine import COMPILED, Game, GameOverError, Result, Zones, load_cards
from ccg_env.engine.action_system import MAX_DEATH_ROUNDS, looping_card
from ccg_env.engine.actions import Attack, ChangeTurn, Damage, DrawCards, Freeze, Heal, Hit, Reap, Summon
from ccg_env.engine.invariants import check_invariants
from tests.card_files import packaged_card_files
from tests.reliability.loop_cards import BOARDS, LOOP_CARDS


@pytest.fixture
def loop_cards(tmp_path):
    path = tmp_path / "loops.yaml"
    path.write_text(LOOP_CARDS)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the loader warns about these cards (tests/test_card_loader_errors.py)
        return load_cards(packaged_card_files() + [path])


def set_off(cards, board_name: str) -> Game:
    """Build a looping board and make the choice that starts its loop."""
    board, (kind, source, target), _ = BOARDS[board_name]
    game = Game.from_scenario(board, cards=cards)

    def uid(card_id: str) -> int:
        return next(c.uid for p in game.state.players for _, cards_ in p.zones() for c in cards_
                    if c.definition.id == card_id)

    choice = next(c for c in game.legal_actions() if c.kind.value == kind and c.source == uid(source)
                  and (target is None or c.target == uid(target)))
    game.apply(choice)
    return game


@pytest.mark.parametrize("board_name, reason", [
    ("self-damage", "reactions nested more than 100 deep (at TriggerAbility, card self_harmer)"),
    ("heal-then-damage", "reactions nested more than 100 deep (at Heal, card mender)"),
    ("weapon-battlecry-while-casting", "reactions nested more than 100 deep (at EquipWeapon, card mirror_blade)"),
    ("deathrattle-summon", "more than 50 death-phase rounds (at Reap, card phoenix)"),
])
def test_each_loop_stops_at_its_bound_naming_the_card_behind_it(loop_cards, board_name, reason):
    game = set_off(loop_cards, board_name)
    assert game.result is Result.LOOP and game.winner is None and game.legal_actions() == []
    stop = game.log[-1]
    assert stop.kind == "StopLoop" and stop.action.reason == reason
    assert stop.action.card.definition.id == BOARDS[board_name][2]
    check_invariants(game)


@pytest.mark.skipif(COMPILED, reason="the compiled build fixes the bound at build time")
def test_the_bound_on_actions_set_off_by_one_action(loop_cards, monkeypatch):
    import ccg_env.engine.action_system as action_system

    monkeypatch.setattr(action_system, "MAX_ACTIONS_PER_ROOT", 50)
    game = set_off(loop_cards, "heal-then-damage")
    assert game.result is Result.LOOP
    assert game.log[-1].action.reason == "more than 50 actions set off by one action (at TriggerAbility, card mender)"
    assert len(game.log) == 51


def test_an_action_performed_after_the_end_is_refused_naming_the_result(loop_cards):
    game = set_off(loop_cards, "self-damage")
    size = len(game.log)
    with pytest.raises(GameOverError, match=r"^cannot perform ChangeTurn: the game is over \(loop\)$"):
        game.perform(ChangeTurn(0, 1))
    assert len(game.log) == size and game.legal_actions() == []


def test_the_card_behind_a_stopped_action_is_the_one_it_acts_for_first():
    """looping_card: the card an action fires or plays, else its source or attacker, else the first of its hits'
    sources (or targets), reaped cards or targets; None for an action about no card."""
    game = Game.from_scenario({"players": [{"battlefield": ["wisp", "river_crocolisk"]}, {"battlefield": ["wisp"]}]})
    wisp, croc = game.player(0).battlefield
    enemy = game.player(1).battlefield[0]
    hero = game.player(0).hero
    assert looping_card(Summon(0, croc)) is croc
    assert looping_card(Heal(0, wisp, [croc], 1)) is wisp
    assert looping_card(Heal(0, None, [croc, wisp], 1)) is croc
    assert looping_card(Attack(0, croc, enemy)) is croc
    assert hero.uid == 1 and looping_card(Attack(0, hero, enemy)) is hero  # the first uid handed out counts too
    assert looping_card(Damage(0, [Hit(wisp, enemy, 1), Hit(croc, enemy, 1)])) is wisp
    assert looping_card(Damage(0, [Hit(None, hero, 1)])) is hero  # fatigue: no source, so its target
    assert looping_card(Reap(0, [enemy, wisp])) is enemy
    assert looping_card(Freeze(0, None, [wisp])) is wisp
    assert looping_card(DrawCards(0, 2)) is None and looping_card(Damage(0, [])) is None


@pytest.mark.skipif(COMPILED, reason="the compiled build fixes the bound at build time")
@pytest.mark.parametrize("spare", [0, 1, 2])
def test_an_action_within_the_bound_has_its_deaths_resolved_however_little_it_has_to_spare(monkeypatch, spare):
    """Two wisps trade: the attack, its damage and the reap of both are 3 actions. With a bound of 3 + spare the
    trade ends with both wisps in their graveyards (the death phase is never skipped for want of budget); with a
    bound of 2 the reap passes it and the game ends as a loop."""
    import ccg_env.engine.action_system as action_system

    game = Game.from_scenario({"players": [{"battlefield": [{"card": "wisp", "sleeping": False}]},
                                           {"battlefield": ["wisp"]}]})
    mine, theirs = game.player(0).battlefield[0], game.player(1).battlefield[0]
    monkeypatch.setattr(action_system, "MAX_ACTIONS_PER_ROOT", 3 + spare)
    game.perform(Attack(0, mine, theirs))
    assert game.result is None and game.player(0).battlefield == game.player(1).battlefield == []
    assert [c.definition.id for p in game.state.players for c in p.graveyard] == ["wisp", "wisp"]


@pytest.mark.skipif(COMPILED, reason="the compiled build fixes the bound at build time")
def test_a_reap_past_the_bound_ends_the_game_as_a_loop(monkeypatch):
    import ccg_env.engine.action_system as action_system

    game = Game.from_scenario({"players": [{"battlefield": [{"card": "wisp", "sleeping": False}]},
                                           {"battlefield": ["wisp"]}]})
    mine, theirs = game.player(0).battlefield[0], game.player(1).battlefield[0]
    monkeypatch.setattr(action_system, "MAX_ACTIONS_PER_ROOT", 2)
    game.perform(Attack(0, mine, theirs))
    assert game.result is Result.LOOP and game.log[-1].action.reason.startswith("more than 2 actions set off")


def test_a_root_action_has_exactly_the_bound_on_death_rounds_before_it_is_stopped(loop_cards):
    """The phoenix dies and comes back once per death-phase round: 50 rounds reap it, the 51st is stopped."""
    game = set_off(loop_cards, "deathrattle-summon")
    reaps = [e for e in game.log if e.kind == "Reap" and e.cancelled is None]
    assert len(reaps) == MAX_DEATH_ROUNDS == 50


def test_a_card_broken_off_while_being_played_goes_to_its_owners_graveyard(loop_cards):
    """The coin sets off the blade smith's loop while it is being cast (in no zone yet): the stop names it as the
    card left unplayed, and it ends in its owner's graveyard instead of nowhere."""
    game = set_off(loop_cards, "weapon-battlecry-while-casting")
    coin = game.log[0].action.card
    assert coin.definition.id == "the_coin" and game.log[-1].action.unplayed is coin
    assert coin.zone is Zones.GRAVEYARD and coin in game.player(0).graveyard
