"""One scenario per hero power (configs/heroes), and the rules every hero power follows (mana, uses, triggers)."""

from __future__ import annotations

from typing import Any, Callable, TypeVar

import pytest

from ccg_env.engine import CardClass, Choice, ChoiceKind, Deck, Game, IllegalActionError, default_cards
from ccg_env.engine.actions import UseHeroPower
from ccg_env.engine.heroes import default_heroes, load_heroes
from ccg_env.engine.invariants import check_invariants

from .helpers import ENEMY, ME, board, covers, end_turn, hero, make_game, minion, play

F = TypeVar("F", bound=Callable[..., Any])

#: Hero ids that some test here claims to cover (checked against configs/heroes below).
TESTED_HEROES: set[str] = set()


def covers_hero(hero_id: str) -> Callable[[F], F]:
    """Record that the decorated test is the scenario of this hero's power."""

    def record(test: F) -> F:
        TESTED_HEROES.add(hero_id)
        return test

    return record


def power(game: Game, player: int = ME):
    """The player's hero power card."""
    return game.player(player).hero_power[0]


def power_choices(game: Game) -> list[Choice]:
    return [c for c in game.legal_actions() if c.kind is ChoiceKind.HERO_POWER]


def use(game: Game, target=None) -> None:
    """Use the current player's hero power through legal_actions/apply."""
    choice = Choice(ChoiceKind.HERO_POWER, power(game, game.current_player).uid,
                    None if target is None else target.uid)
    assert choice in game.legal_actions(), f"{choice} is not legal: {game.legal_actions()}"
    game.apply(choice)
    check_invariants(game)


def test_every_hero_has_a_scenario_test_and_every_class_a_hero():
    heroes = default_heroes()
    assert {h.id for h in heroes.values()} == TESTED_HEROES
    assert set(heroes) == set(CardClass)
    assert all((h.power is None) == (c is CardClass.NEUTRAL) for c, h in heroes.items())


@covers_hero("hero")
def test_the_plain_hero_has_no_power_and_no_hero_power_choice():
    game = make_game({"hand": ["wisp"]})
    assert game.player(ME).hero_power == [] and game.player(ME).hero.definition.id == "hero"
    assert power_choices(game) == []


@covers_hero("jaina")
def test_fireblast_deals_1_damage_to_any_character_for_2_mana():
    game = make_game({"hero": "mage", "battlefield": ["river_crocolisk"]}, {"battlefield": ["bloodfen_raptor"]})
    targets = {c.target for c in power_choices(game)}
    everyone = {hero(game, ME).uid, hero(game, ENEMY).uid, minion(game, ME).uid, minion(game, ENEMY).uid}
    assert targets == everyone
    use(game, minion(game, ENEMY))
    assert board(game, ENEMY) == [("bloodfen_raptor", 3, 1)]
    assert game.player(ME).mana == 8 and game.player(ME).hero_power_uses == 1
    assert power_choices(game) == []  # once per turn


@covers_hero("garrosh")
def test_armor_up_gains_2_armor():
    game = make_game({"hero": "warrior"})
    assert [c.target for c in power_choices(game)] == [None]
    use(game)
    assert hero(game, ME).armor == 2 and game.player(ME).mana == 8


@covers("silver_hand_recruit")
@covers_hero("uther")
def test_reinforce_summons_a_silver_hand_recruit_and_needs_room_on_the_board():
    game = make_game({"hero": "paladin"})
    use(game)
    assert board(game, ME) == [("silver_hand_recruit", 1, 1)]
    assert minion(game, ME).sleeping and not minion(game, ME).definition.collectible
    full = make_game({"hero": "paladin", "battlefield": ["wisp"] * 7})
    assert power_choices(full) == []
    with pytest.raises(IllegalActionError, match="battlefield is full"):
        full.apply(Choice(ChoiceKind.HERO_POWER, power(full).uid, None))


@covers_hero("anduin")
def test_lesser_heal_restores_2_health_never_above_the_maximum():
    game = make_game({"hero": "priest", "health": 25, "deck": ["wisp"] * 3,
                      "battlefield": [{"card": "chillwind_yeti", "health": 2}]}, {"deck": ["wisp"] * 3})
    use(game, minion(game, ME))
    assert board(game, ME) == [("chillwind_yeti", 4, 4)]
    end_turn(game)
    end_turn(game)
    use(game, hero(game, ME))
    assert hero(game, ME).health == 27
    end_turn(game)
    end_turn(game)
    yeti = minion(game, ME)
    use(game, yeti)
    assert yeti.health == 5  # 4 + 2 capped at 5


@covers("wicked_knife")
@covers_hero("valeera")
def test_dagger_mastery_equips_a_1_2_wicked_knife_replacing_a_weapon():
    game = make_game({"hero": "rogue", "weapon": "fiery_war_axe"})
    use(game)
    knife = game.player(ME).weapon[0]
    assert (knife.definition.id, knife.attack, knife.durability) == ("wicked_knife", 1, 2)
    assert hero(game, ME).attack == 1
    assert [c.definition.id for c in game.player(ME).graveyard] == ["fiery_war_axe"]


@covers_hero("guldan")
def test_life_tap_draws_a_card_and_deals_2_damage_to_its_hero():
    game = make_game({"hero": "warlock", "deck": ["wisp", "chillwind_yeti"]})
    use(game)
    assert [c.definition.id for c in game.player(ME).hand] == ["chillwind_yeti"]
    assert hero(game, ME).health == 28 and game.player(ME).mana == 8


# --- rules every hero power follows -------------------------------------------------------------------------


def test_a_hero_power_needs_its_cost_in_mana():
    game = make_game({"hero": "warrior", "mana": 1})
    assert power_choices(game) == []
    with pytest.raises(IllegalActionError, match="costs 2 but player 0 has 1 mana"):
        game.apply(Choice(ChoiceKind.HERO_POWER, power(game).uid, None))


def test_uses_come_back_at_the_start_of_the_owners_turn_only():
    game = make_game({"hero": "warrior", "deck": ["wisp"] * 3}, {"hero": "mage", "deck": ["wisp"] * 3})
    use(game)
    with pytest.raises(IllegalActionError, match="already used 1 of 1 times this turn"):
        game.apply(Choice(ChoiceKind.HERO_POWER, power(game).uid, None))
    end_turn(game)
    assert game.player(ME).hero_power_uses == 1 and power_choices(game)  # the enemy's own power is usable
    use(game, hero(game, ME))
    end_turn(game)
    assert game.player(ME).hero_power_uses == 0 and game.player(ENEMY).hero_power_uses == 1
    assert hero(game, ME).armor == 1  # Fireblast took one of the 2 armor
    use(game)
    assert hero(game, ME).armor == 3


def test_only_the_player_on_turn_may_use_their_own_hero_power():
    game = make_game({"hero": "warrior"}, {"hero": "warrior"})
    enemy_power = power(game, ENEMY)
    with pytest.raises(IllegalActionError, match="has no hero power"):
        game.apply(Choice(ChoiceKind.HERO_POWER, enemy_power.uid, None))
    game.perform(UseHeroPower(ENEMY, enemy_power))
    assert game.log[-1].cancelled == "player 1 cannot use a hero power on player 0's turn"
    assert hero(game, ENEMY).armor == 0


def test_a_targeted_power_refuses_a_missing_or_untargetable_target():
    game = make_game({"hero": "mage"}, {"battlefield": [{"card": "wisp", "keywords": ["stealth"]}]})
    assert minion(game, ENEMY).uid not in {c.target for c in power_choices(game)}
    with pytest.raises(IllegalActionError, match="requires a target"):
        game.apply(Choice(ChoiceKind.HERO_POWER, power(game).uid, None))
    with pytest.raises(IllegalActionError, match="is not an allowed target"):
        game.apply(Choice(ChoiceKind.HERO_POWER, power(game).uid, minion(game, ENEMY).uid))
    assert game.player(ME).mana == 10 and game.player(ME).hero_power_uses == 0


def test_a_hero_power_is_not_a_played_card_nor_a_cast_spell():
    """Hearthstone: hero powers set off neither "whenever you play a card" nor "whenever you cast a spell"
    triggers, nor the enemy's secrets against spells."""
    game = make_game({"hero": "mage", "battlefield": ["questing_adventurer", "mana_wyrm", "illidan_stormrage"]},
                     {"secrets": ["cat_trick"]})
    before = board(game, ME)
    start = len(game.log)
    use(game, hero(game, ENEMY))
    assert board(game, ME) == before
    assert [e.kind for e in game.log[start:]] == ["UseHeroPower", "TriggerAbility", "Damage"]
    assert game.player(ENEMY).secrets and board(game, ENEMY) == []
    spell = make_game({"hero": "mage", "hand": ["arcane_explosion"],
                       "battlefield": ["questing_adventurer", "mana_wyrm"]}, {"secrets": ["cat_trick"]})
    play(spell, "arcane_explosion")
    assert [a for _, a, _ in board(spell, ME)] == [3, 2]  # both triggers fired for a spell
    assert board(spell, ENEMY) == [("jungle_panther", 4, 2)]


def test_a_power_that_kills_resolves_deaths_like_a_spell():
    game = make_game({"hero": "mage"}, {"battlefield": ["wisp"]})
    use(game, minion(game, ENEMY))
    assert board(game, ENEMY) == [] and [c.definition.id for c in game.player(ENEMY).graveyard] == ["wisp"]


def test_a_deck_s_hero_class_picks_the_hero_and_its_power():
    mage = Deck("mage test", ("wisp",) * 30, hero=CardClass.MAGE)
    warlock = Deck("warlock test", ("wisp",) * 30, hero=CardClass.WARLOCK)
    game = Game.new(seed=3, decks=[mage, warlock])
    assert game.player(0).hero.definition.id == "jaina" and power(game, 0).definition.id == "fireblast"
    assert game.player(1).hero.definition.id == "guldan" and power(game, 1).definition.id == "life_tap"
    assert game.player(0).hero.health == game.state.rules.hero_health
    plain = Game.new(seed=3, decks=[Deck("neutral test", ("wisp",) * 30)] * 2)  # a neutral deck: the plain hero
    assert plain.player(0).hero_power == [] and plain.player(1).hero_power == []


def test_cost_and_uses_per_turn_come_from_the_data(tmp_path):
    (tmp_path / "neutral.yaml").write_text("id: hero\nname: Hero\nclass: neutral\n")
    (tmp_path / "warrior.yaml").write_text(
        "id: cheap\nname: Cheap Garrosh\nclass: warrior\npower:\n  id: cheap_armor\n  name: Cheap Armor\n"
        "  cost: 0\n  uses_per_turn: 2\n  abilities: [{effect: gain_armor, amount: 1}]\n")
    heroes = load_heroes([tmp_path / "neutral.yaml", tmp_path / "warrior.yaml"], cards=default_cards())
    game = Game.from_scenario({"players": [{"hero": "warrior", "mana": 0}, {}]}, heroes=heroes)
    use(game)
    use(game)
    assert hero(game, ME).armor == 2 and power_choices(game) == []
    restored = Game.from_json(game.to_json(), heroes=heroes)
    assert restored.player(ME).hero_power_uses == 2 and power(restored).definition is power(game).definition


def test_a_scenario_names_an_unknown_class_clearly():
    with pytest.raises(Exception, match=r"players\[0\], field 'hero': unknown hero class 'druid'"):
        make_game({"hero": "druid"})


def test_hero_powers_survive_clone_and_json():
    game = make_game({"hero": "rogue"}, {"hero": "priest"})
    use(game)
    for copy in (game.clone(), Game.from_json(game.to_json())):
        assert power(copy).definition is power(game).definition and power(copy).uid == power(game).uid
        assert copy.player(ME).hero_power_uses == 1 and copy.legal_actions() == game.legal_actions()
        assert copy.player(ENEMY).hero.definition.id == "anduin"
