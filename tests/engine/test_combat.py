"""Combat: simultaneous damage, summoning sickness, taunt, keywords in combat, and the death loop."""

import pytest

from ccg_env.engine import Choice, ChoiceKind, Game, IllegalActionError, Keyword

from .helpers import attack, board, minions, play


def _attack_targets(game, attacker):
    return {c.target for c in game.legal_actions() if c.kind is ChoiceKind.ATTACK and c.source == attacker.uid}


def test_combat_damage_is_simultaneous_and_both_die():
    game = Game.from_scenario(board({"battlefield": ["bloodfen_raptor"]}, {"battlefield": ["bloodfen_raptor"]}))
    raptor, enemy = game.player(0).battlefield[0], game.player(1).battlefield[0]
    attack(game, raptor, enemy)
    assert minions(game, 0) == [] and minions(game, 1) == []
    damage = next(e for e in game.log if e.kind == "Damage")
    assert len(damage.action.hits) == 2  # one action, both hits
    assert [e.kind for e in game.log if e.depth == 0] == ["Attack", "Reap"]


def test_attacking_a_hero_takes_no_damage_back():
    game = Game.from_scenario(board({"battlefield": ["chillwind_yeti"]}))
    yeti = game.player(0).battlefield[0]
    attack(game, yeti, game.player(1).hero)
    assert game.player(1).hero.health == 26 and yeti.health == 5


@pytest.mark.parametrize("card, can_attack", [("chillwind_yeti", False), ("wolfrider", True)])
def test_summoning_sickness_and_charge(card, can_attack):
    game = Game.from_scenario(board({"hand": [card]}))
    play(game, card)
    minion = game.player(0).battlefield[0]
    assert bool(_attack_targets(game, minion)) == can_attack


def test_one_attack_per_turn_and_refresh_next_turn():
    game = Game.from_scenario(board({"battlefield": ["chillwind_yeti"]}))
    yeti = game.player(0).battlefield[0]
    attack(game, yeti, game.player(1).hero)
    assert _attack_targets(game, yeti) == set()
    with pytest.raises(IllegalActionError, match="no attacks left"):
        attack(game, yeti, game.player(1).hero)
    from ccg_env.engine.choices import END_TURN

    game.apply(END_TURN)
    game.apply(END_TURN)
    assert _attack_targets(game, yeti) == {game.player(1).hero.uid}


def test_taunt_restricts_attack_targets():
    game = Game.from_scenario(board({"battlefield": ["chillwind_yeti"]},
                                    {"battlefield": ["river_crocolisk", "senjin_shieldmasta", "goldshire_footman"]}))
    yeti = game.player(0).battlefield[0]
    taunts = {c.uid for c in game.player(1).battlefield if c.definition.id != "river_crocolisk"}
    assert _attack_targets(game, yeti) == taunts
    croc = game.player(1).battlefield[0]
    before = game.to_json()
    with pytest.raises(IllegalActionError, match="taunt"):
        attack(game, yeti, croc)
    assert game.to_json() == before


def test_taunt_gone_opens_the_hero():
    game = Game.from_scenario(board({"battlefield": ["chillwind_yeti", "chillwind_yeti"]},
                                    {"battlefield": ["goldshire_footman"]}))
    first, second = game.player(0).battlefield
    attack(game, first, game.player(1).battlefield[0])
    assert game.player(1).hero.uid in _attack_targets(game, second)


def test_death_loop_repeats_until_no_one_dies():
    # Tentacle dies -> its deathrattle kills the other tentacle and the leper -> leper's deathrattle -> second reap.
    game = Game.from_scenario(board(
        {"battlefield": ["chillwind_yeti"]},
        {"battlefield": ["tentacle_of_nzoth", "tentacle_of_nzoth", "backstreet_leper"]}))
    yeti = game.player(0).battlefield[0]
    attack(game, yeti, game.player(1).battlefield[0])
    reaps = [e for e in game.log if e.kind == "Reap"]
    assert len(reaps) == 2
    assert [c.definition.id for c in reaps[0].action.cards] == ["tentacle_of_nzoth"]
    assert sorted(c.definition.id for c in reaps[1].action.cards) == ["backstreet_leper", "tentacle_of_nzoth"]
    assert minions(game, 1) == []
    assert game.player(0).hero.health == 28  # leper's deathrattle hits its enemy: player 0
    assert minions(game, 0) == [("chillwind_yeti", 4, 5 - 1 - 1 - 1)]  # 1 from combat, 1 per tentacle deathrattle


def test_both_heroes_dying_together_is_a_draw():
    game = Game.from_scenario(board({"health": 1, "hand": ["consecration"]},
                                    {"health": 2, "battlefield": ["backstreet_leper"]}))
    play(game, "consecration")  # 2 to all enemies: enemy hero dies, leper dies -> 2 to player 0's hero
    assert game.is_over and game.result.value == "draw" and game.winner is None


def test_nothing_acts_after_game_over():
    game = Game.from_scenario(board({"battlefield": ["core_hound"]}, {"health": 5}))
    attack(game, game.player(0).battlefield[0], game.player(1).hero)
    assert game.is_over and game.winner == 0
    assert game.legal_actions() == []
    with pytest.raises(IllegalActionError, match="game is over"):
        game.apply(Choice(ChoiceKind.END_TURN))


def test_weapon_lets_the_hero_attack_and_breaks():
    game = Game.from_scenario(board({"hand": ["fiery_war_axe"]}))
    play(game, "fiery_war_axe")
    hero = game.player(0).hero
    assert hero.attack == 3
    attack(game, hero, game.player(1).hero)
    assert game.player(1).hero.health == 27 and game.player(0).weapon[0].durability == 1
    from ccg_env.engine.choices import END_TURN

    game.apply(END_TURN)
    game.apply(END_TURN)
    attack(game, hero, game.player(1).hero)
    assert game.player(0).weapon == [] and hero.attack == 0
    assert game.player(0).graveyard[-1].definition.id == "fiery_war_axe"


def test_weapon_keywords_strike_with_the_hero_while_equipped(tmp_path):
    from ccg_env.engine import load_cards
    from ccg_env.engine.cards import default_cards

    path = tmp_path / "weapon.yaml"
    path.write_text("cards:\n  - {id: venom_blade, name: Venom Blade, type: weapon, cost: 1, attack: 1, "
                    "durability: 1, keywords: [poisonous, lifesteal]}\n")
    cards = load_cards([*default_cards().sources, path])
    game = Game.from_scenario(board({"hand": ["venom_blade"], "health": 20}, {"battlefield": ["boulderfist_ogre"]}),
                              cards=cards)
    play(game, "venom_blade")
    hero = game.player(0).hero
    attack(game, hero, game.player(1).battlefield[0])
    assert minions(game, 1) == []  # poisonous
    assert hero.health == 20 - 6 + 1  # the ogre hits back for 6, lifesteal heals 1
    assert game.player(0).weapon == [] and not hero.keywords  # the broken weapon takes its keywords along


def _with_cards(tmp_path, text):
    from ccg_env.engine import load_cards
    from ccg_env.engine.cards import default_cards

    path = tmp_path / "extra.yaml"
    path.write_text("cards:\n" + text)
    return load_cards([*default_cards().sources, path])


def test_a_weapon_takes_back_only_its_own_keywords_and_leaves_the_heros_own(tmp_path):
    cards = _with_cards(tmp_path,
                        "  - {id: venom_blade, name: Venom Blade, type: weapon, cost: 1, attack: 1, durability: 1, "
                        "keywords: [poisonous, lifesteal]}\n"
                        "  - id: hero_gust\n    name: Hero Gust\n    type: spell\n    cost: 0\n"
                        "    target: {allowed: {alliance: ally, zones: hero}}\n"
                        "    abilities: [{trigger: battlecry, effect: give_keyword, keyword: windfury}]\n")
    game = Game.from_scenario(board({"hand": ["hero_gust", "venom_blade"]}, {"battlefield": ["wisp"]}), cards=cards)
    hero = game.player(0).hero
    play(game, "hero_gust", hero)
    assert hero.keywords == Keyword.WINDFURY
    play(game, "venom_blade")
    assert hero.keywords == Keyword.WINDFURY | Keyword.POISONOUS | Keyword.LIFESTEAL
    attack(game, hero, game.player(1).battlefield[0])  # the blade's only durability: it breaks
    assert game.player(0).weapon == [] and hero.keywords == Keyword.WINDFURY


def test_a_weapon_with_two_battlecries_resolves_both_in_the_order_written(tmp_path):
    cards = _with_cards(tmp_path,
                        "  - id: twin_edge\n    name: Twin Edge\n    type: weapon\n    cost: 1\n    attack: 1\n"
                        "    durability: 2\n    abilities:\n"
                        "      - {trigger: battlecry, effect: damage, amount: 2, select: enemy_hero}\n"
                        "      - {trigger: battlecry, effect: gain_armor, amount: 3}\n")
    game = Game.from_scenario(board({"hand": ["twin_edge"]}), cards=cards)
    before = len(game.log)
    play(game, "twin_edge")
    assert game.player(1).hero.health == 28 and game.player(0).hero.armor == 3
    effects = [e.kind for e in game.log[before:] if e.kind in ("Damage", "GainArmor")]
    assert effects == ["Damage", "GainArmor"]


def test_a_game_stopped_at_the_loop_bound_buries_a_spent_weapon_still_waiting_to_break(tmp_path):
    """The hero's last swing spends the weapon, but the Mender it hits loops (healing itself, then hitting itself)
    before the weapon's destruction resolves; the engine stops the loop and the end of the game retires the weapon."""
    import warnings

    from ccg_env.engine import Result

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the loader warns that the Mender sets itself off
        cards = _with_cards(tmp_path,
                            "  - id: mender\n    name: Mender\n    type: minion\n    cost: 2\n    attack: 1\n"
                            "    health: 4\n    abilities:\n"
                            "      - {trigger: self_damaged, effect: heal, amount: 5, select: self}\n"
                            "      - {trigger: self_damaged, effect: damage, amount: 1, select: all,\n"
                            "         mark: {alliance: ally, zones: battlefield}}\n")
    game = Game.from_scenario({"current": 1, "turn": 4, "players": [{"battlefield": ["mender"]},
                                                                    {"weapon": "fiery_war_axe"}]}, cards=cards)
    axe = game.player(1).weapon[0]
    axe.durability = 1
    attack(game, game.player(1).hero, game.player(0).battlefield[0])
    assert game.result is Result.LOOP and game.log[-1].kind == "StopLoop"
    assert game.player(1).weapon == [] and game.player(1).graveyard == [axe] and game.player(1).hero.attack == 0


@pytest.mark.parametrize("defender", ["bloodfen_raptor", "wisp"])  # left at exactly 0 health, and at -1
def test_an_attack_whose_defender_dies_in_the_prepare_phase_deals_no_combat_damage(tmp_path, defender):
    """A secret springing as the attack is declared kills the defender: the fight is called off, so no combat
    damage is dealt either way (a defender left at exactly 0 health is as dead as one below)."""
    cards = _with_cards(tmp_path,
                        "  - id: backfire\n    name: Backfire\n    type: secret\n    cost: 1\n    abilities:\n"
                        "      - {trigger: secret_minion_attacked, effect: damage, amount: 2, select: all,\n"
                        "         mark: {alliance: ally, zones: battlefield}}\n")
    game = Game.from_scenario({"current": 1, "turn": 4, "players": [{"secrets": ["backfire"], "battlefield": [defender]},
                                                                    {"battlefield": ["chillwind_yeti"]}]}, cards=cards)
    yeti, target = game.player(1).battlefield[0], game.player(0).battlefield[0]
    attack(game, yeti, target)
    assert game.player(0).battlefield == [] and target.health == {"bloodfen_raptor": 0, "wisp": -1}[defender]
    assert yeti.health == 5
    assert not any(e.kind == "Damage" and any(h.source is yeti for h in e.action.hits) for e in game.log)


def test_an_attack_with_the_enemys_minion_or_a_card_in_hand_is_cancelled_by_the_validator():
    """Players' choices are checked before they become actions; an Attack performed directly (by an effect, a
    scenario or a test) meets the validator, which refuses any attacker that is not the player's character in play."""
    from ccg_env.engine.actions import Attack

    game = Game.from_scenario(board({"battlefield": ["chillwind_yeti"], "hand": ["wisp"]},
                                    {"battlefield": ["chillwind_yeti"]}), log=True)
    enemy_hero = game.player(1).hero
    for attacker in (game.player(1).battlefield[0], game.player(0).hand[0]):
        game.perform(Attack(0, attacker, enemy_hero))
        assert game.log[-1].cancelled == f"{attacker!r} is not a character of player 0 in play"
    assert enemy_hero.health == 30 and game.player(1).battlefield[0].attacks_made == 0


def test_the_end_of_a_game_is_logged_as_an_action_of_the_player_on_turn():
    draw = Game.from_scenario(board({"health": 1, "hand": ["consecration"]},
                                    {"health": 2, "battlefield": ["backstreet_leper"]}))
    play(draw, "consecration")
    win = Game.from_scenario(board({"battlefield": ["core_hound"]}, {"health": 5}))
    attack(win, win.player(0).battlefield[0], win.player(1).hero)
    assert [(e.kind, e.fields) for e in (draw.log[-1], win.log[-1])] == [
        ("GameOver", {"player": 0, "result": "draw", "winner": None}),
        ("GameOver", {"player": 0, "result": "win", "winner": 0})]
