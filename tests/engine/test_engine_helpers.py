"""The engine's small public helpers: game repr, deck names, log rendering, bus removal, attacks, read-only views,
choices in words."""

from __future__ import annotations

import json

from ccg_env.engine import Choice, ChoiceKind, Game, Keyword, Result
from ccg_env.engine.actions import ChangeTurn, GameAction
from ccg_env.engine.attacks import allowed_attacks, attack_refusal
from ccg_env.engine.choices import END_TURN, describe_choice, hero_power_usable
from ccg_env.engine.decks import default_deck_paths
from ccg_env.engine.definitions import HERO
from ccg_env.engine.events import Phase
from ccg_env.engine.factory import new_player
from ccg_env.engine.game import default_decks
from ccg_env.engine.log import format_log
from ccg_env.engine.rng import Rng
from ccg_env.engine.rules import Rules
from ccg_env.engine.state import GameState
from ccg_env.engine.view import GameView


def _fireball_board() -> Game:
    """Seat 0 holds a Fireball and an awake Yeti; seat 1 has a Yeti and a Goldshire Footman (taunt)."""
    return Game.from_scenario({"current": 0, "turn": 3, "players": [
        {"mana": 10, "hand": ["fireball"], "battlefield": [{"card": "chillwind_yeti", "sleeping": False}]},
        {"mana": 10, "battlefield": ["chillwind_yeti", "goldshire_footman"]}]})


def test_a_games_repr_says_the_turn_who_acts_and_the_result():
    game = _fireball_board()
    assert repr(game) == "<Game turn 3, player 0 to act, in progress>"
    game.state.result = Result.DRAW
    assert repr(game) == "<Game turn 3, player 0 to act, draw>"


def test_default_decks_names_every_packaged_deck():
    assert default_decks() == list(default_deck_paths()) and "midrange" in default_decks()


def test_log_entries_render_as_an_indented_tree_and_as_plain_data():
    game = _fireball_board()
    start = len(game.log)
    game.apply(Choice(ChoiceKind.PLAY, game.player(0).hand[0].uid, game.player(1).battlefield[0].uid))
    entries = game.log[start:]
    lines = format_log(entries).split("\n")
    assert len(lines) == len(entries) and lines[0].startswith("PlayCard(player=0, card=")
    assert lines[1].startswith("  CastSpell(") and lines[3].startswith("      Damage(")
    data = json.loads(json.dumps([e.to_dict() for e in entries]))
    assert data[0] == {"depth": 0, "kind": "PlayCard", "player": 0, "card": entries[0].action.card.uid,
                       "target": entries[0].action.target.uid}
    assert [d["depth"] for d in data] == [e.depth for e in entries] and not any("cancelled" in d for d in data)


def test_a_cancelled_entry_keeps_its_reason_in_plain_data_and_in_text():
    game = Game.new(seed=4)  # in the mulligan, where a turn change is refused
    before = len(game.log)
    game.perform(ChangeTurn(0, 1))
    entry = game.log[before]
    assert entry.cancelled and entry.cancelled.startswith("the mulligan is not over")
    assert entry.to_dict()["cancelled"] == entry.cancelled
    assert str(entry).endswith(f")  [cancelled: {entry.cancelled}]")


class _Ping(GameAction):
    """A test action."""

    __slots__ = ()


def test_a_handler_taken_off_the_bus_no_longer_runs_even_after_its_plan_was_cached():
    game = _fireball_board()
    seen: list[str] = []

    def handler(g: Game, action: GameAction) -> None:
        seen.append("ran")

    def other(g: Game, action: GameAction) -> None:
        seen.append("other")

    game.bus.on(Phase.PERFORM, _Ping, handler)
    game.bus.on(Phase.PERFORM, _Ping, other)
    game.perform(_Ping(0))
    game.bus.off(Phase.PERFORM, _Ping, handler)
    game.perform(_Ping(0))
    assert seen == ["ran", "other", "other"]  # the other handler stays
    game.bus.off(Phase.PREPARE, _Ping, handler)  # never registered there: nothing to remove, no error


def test_allowed_attacks_are_the_taunts_and_none_for_a_sleeping_minion():
    game = _fireball_board()
    attacker = game.player(0).battlefield[0]
    assert [c.definition.id for c in allowed_attacks(game, attacker)] == ["goldshire_footman"]
    attacker.sleeping = True
    assert allowed_attacks(game, attacker) == []


def test_attack_refusal_says_why_a_character_cannot_attack_now():
    game = _fireball_board()
    yeti, hero = game.player(0).battlefield[0], game.player(0).hero
    enemy_yeti = game.player(1).battlefield[0]
    assert attack_refusal(game, yeti) is None
    assert attack_refusal(game, hero) == "the attacker has no attack"  # no weapon: the validators' reasons from here
    assert attack_refusal(game, enemy_yeti) == "it is not its owner's turn"
    yeti.sleeping = True
    assert attack_refusal(game, yeti) == "the attacker was summoned this turn and has no charge"
    yeti.sleeping = False
    yeti.frozen_on_turn = game.state.turn
    assert attack_refusal(game, yeti) == "the attacker is frozen"
    yeti.frozen_on_turn = 0
    game.apply(Choice(ChoiceKind.ATTACK, yeti.uid, game.player(1).battlefield[1].uid))  # the taunt
    assert attack_refusal(game, yeti) == "the attacker has no attacks left this turn"
    game.state.result = Result.DRAW
    assert attack_refusal(game, yeti) == "the game is over (draw)"


def test_the_bus_has_no_handlers_for_a_class_nothing_registered():
    game = _fireball_board()
    assert game.bus.handlers(Phase.PERFORM, _Ping) == ()
    assert tuple(game.bus.handlers(Phase.PERFORM, ChangeTurn))  # the match system's


def test_card_views_show_keywords_and_graveyards_show_the_dead_oldest_first():
    game = _fireball_board()
    view = GameView(game, 0)
    footman = game.player(1).battlefield[1]
    seen = view.card(footman.uid)
    assert seen is not None and seen.has(Keyword.TAUNT) and not seen.has(Keyword.CHARGE)
    assert view.graveyard(1) == ()
    game.apply(Choice(ChoiceKind.PLAY, game.player(0).hand[0].uid, footman.uid))
    assert [c.card_id for c in view.graveyard(1)] == ["goldshire_footman"]
    assert [c.card_id for c in view.graveyard(0)] == ["fireball"]


def _mage_board(current: int = 0) -> Game:
    """A mage (seat 0) with Fireball, Wisp and an awake Yeti; seat 1 has a River Crocolisk."""
    return Game.from_scenario({"current": current, "turn": 3, "players": [
        {"mana": 10, "hero": "mage", "hand": ["fireball", "wisp"],
         "battlefield": [{"card": "chillwind_yeti", "sleeping": False}]},
        {"mana": 10, "battlefield": [{"card": "river_crocolisk", "sleeping": False}]}]})


def test_each_kind_of_choice_reads_as_a_line_naming_cards_sides_and_stats():
    game = _mage_board()
    me, enemy = game.player(0), game.player(1)
    fireball, wisp, yeti, croc = me.hand[0], me.hand[1], me.battlefield[0], enemy.battlefield[0]
    power = me.hero_power[0]
    lines = {
        END_TURN: "End turn",
        Choice(ChoiceKind.PLAY, wisp.uid): "Play Wisp",
        Choice(ChoiceKind.PLAY, fireball.uid, me.hero.uid): "Play Fireball -> your hero",
        Choice(ChoiceKind.PLAY, fireball.uid, enemy.hero.uid): "Play Fireball -> enemy hero",
        Choice(ChoiceKind.PLAY, fireball.uid, yeti.uid): "Play Fireball -> your Chillwind Yeti (4/5)",
        Choice(ChoiceKind.ATTACK, yeti.uid, croc.uid): "Attack with Chillwind Yeti -> enemy River Crocolisk (2/3)",
        Choice(ChoiceKind.HERO_POWER, power.uid, croc.uid): "Use hero power Fireblast -> enemy River Crocolisk (2/3)",
        Choice(ChoiceKind.PLAY, 999): "Play #999",
    }
    assert {choice: describe_choice(game, choice) for choice in lines} == lines


def test_choice_lines_speak_from_the_side_on_turn():
    game = _mage_board(current=1)
    croc, yeti = game.player(1).battlefield[0], game.player(0).battlefield[0]
    assert describe_choice(game, Choice(ChoiceKind.ATTACK, croc.uid, yeti.uid)) == (
        "Attack with River Crocolisk -> enemy Chillwind Yeti (4/5)")
    assert describe_choice(game, Choice(ChoiceKind.ATTACK, croc.uid, game.player(0).hero.uid)) == (
        "Attack with River Crocolisk -> enemy hero")


def test_mulligan_choices_read_as_putting_back_and_keeping():
    game = Game.new(seed=4)
    card = game.player(0).hand[0]
    assert describe_choice(game, Choice(ChoiceKind.MULLIGAN, card.uid)) == f"Put back {card.name}"
    assert describe_choice(game, END_TURN) == "Keep the rest of the hand"


def test_hero_power_usable_needs_a_power_mana_and_a_game_going_on():
    assert not hero_power_usable(Game.from_scenario({"current": 0, "turn": 3, "players": [{"mana": 10}, {}]}))
    game = _mage_board()
    assert hero_power_usable(game)
    game.player(0).mana = 1  # Fireblast costs 2
    assert not hero_power_usable(game)
    game.player(0).mana = 2
    game.state.result = Result.DRAW
    assert not hero_power_usable(game)


def test_a_validator_registered_on_a_games_bus_refuses_its_actions():
    """An extension may add validators after the game began; the action system reads the bus's current plan."""
    game = _fireball_board()
    assert game.actions.refusal(game, _Ping(0)) is None
    game.bus.on(Phase.VALIDATE, _Ping, lambda game, action: "no pings today")
    assert game.actions.refusal(game, _Ping(0)) == "no pings today"


def test_attackers_now_reads_the_legal_choices_when_given_and_next_turns_attackers_need_attack_and_no_freeze():
    from ccg_env.engine.attacks import attackers_next_turn, attackers_now

    game = Game.from_scenario({"current": 0, "turn": 3, "players": [
        {"battlefield": [{"card": "chillwind_yeti", "sleeping": False}]},
        {"battlefield": ["chillwind_yeti", "wisp", {"card": "river_crocolisk", "attack": 0}]}]})
    mine = game.player(0).battlefield[0]
    assert attackers_now(game) == attackers_now(game, game.legal_actions()) == {mine.uid}
    assert attackers_now(game, [END_TURN]) == set()  # the choices given are the ones read (envs pass theirs)
    frozen, wisp, no_attack = game.player(1).battlefield
    frozen.frozen_on_turn = game.state.turn
    assert attackers_next_turn(game.player(1)) == {wisp.uid}  # not frozen, not at 0 attack, not the unarmed hero


def test_a_player_made_without_a_hero_definition_gets_the_plain_hero_at_full_health_and_no_power():
    rules = Rules(hero_health=25)
    state = GameState(rules=rules, players=[], rng=Rng(0))
    player = new_player(state, 1)
    assert player.index == 1 and player.hero.definition is HERO and player.hero_power == []
    assert player.hero.health == player.hero.max_health == 25
    assert player.hero.order_of_play == -1  # the second seat's hero, in play before any card
