"""The hero power's action ids (right after the attacks, one per target slot) and its place in the text render."""

from __future__ import annotations

from ccg_env.engine import Choice, ChoiceKind, Game, Rules
from ccg_env.env.codec import ActionCodec, ActionLayout
from ccg_env.env.render import render_text

LAYOUT = ActionLayout.for_rules(Rules.load())
CODEC = ActionCodec(LAYOUT)


def test_the_hero_power_range_follows_the_attacks_with_one_id_per_target_slot():
    attacks_end = LAYOUT.attack_offset + LAYOUT.attack_slots * LAYOUT.attack_slots
    assert LAYOUT.hero_power_offset == attacks_end == 235
    assert LAYOUT.mulligan_offset == LAYOUT.hero_power_offset + LAYOUT.target_slots == 252  # then the mulligan's
    assert LAYOUT.describe(235) == "use the hero power at no target"
    assert LAYOUT.describe(236) == "use the hero power at own hero"
    assert LAYOUT.describe(244) == "use the hero power at enemy hero"
    assert LAYOUT.describe(251) == "use the hero power at enemy minion 6"
    assert LAYOUT.describe(234) == "attack with own minion 6 at enemy minion 6"


def test_every_legal_hero_power_choice_encodes_to_its_target_slot_and_back():
    game = Game.from_scenario({"players": [{"hero": "mage", "mana": 2, "battlefield": ["wisp", "wisp"]},
                                           {"battlefield": ["river_crocolisk"]}]})
    powers = [c for c in game.legal_actions() if c.kind is ChoiceKind.HERO_POWER]
    ids = CODEC.encode_all(game, powers)
    # own hero 1, own minions 2 and 3, enemy hero B + 2 = 9, enemy minion B + 3 = 10
    assert ids == [LAYOUT.hero_power_offset + slot for slot in (1, 2, 3, 9, 10)]  # candidate order
    assert [CODEC.decode(game, i) for i in ids] == powers
    assert CODEC.decode(game, LAYOUT.hero_power_offset + 4) is None  # an empty own minion slot


def test_an_untargeted_power_is_slot_0_and_a_hero_without_power_decodes_nothing():
    warrior = Game.from_scenario({"players": [{"hero": "warrior", "mana": 2}, {}]})
    power = warrior.player(0).hero_power[0]
    assert CODEC.encode(warrior, Choice(ChoiceKind.HERO_POWER, power.uid, None)) == LAYOUT.hero_power_offset
    assert CODEC.decode(warrior, LAYOUT.hero_power_offset) == Choice(ChoiceKind.HERO_POWER, power.uid, None)
    plain = Game.from_scenario({"players": [{"mana": 10}, {}]})
    assert all(CODEC.decode(plain, i) is None for i in range(LAYOUT.hero_power_offset, LAYOUT.size))


def test_the_render_shows_both_heroes_classes_and_powers():
    game = Game.from_scenario({"players": [{"hero": "mage", "mana": 3}, {"hero": "warlock"}]})
    power = game.player(0).hero_power[0]
    game.apply(Choice(ChoiceKind.HERO_POWER, power.uid, game.player(1).hero.uid))
    text = render_text(game, 0)
    assert (f"  Jaina Proudmoore (mage), hero power Fireblast#{power.uid} (2) used 1/1 this turn: Deal 1 damage."
            in text)
    assert "Gul'dan (warlock), hero power Life Tap" in text and "used 0/1" in text
    assert "You use the hero power Fireblast on the enemy hero" in text
    assert "Fireblast deals 1 damage to the enemy hero" in text
    plain = render_text(Game.from_scenario({"players": [{}, {}]}), 0)
    assert "hero power" not in plain


def test_an_attack_id_decodes_to_nothing_when_its_attacker_or_its_defender_slot_is_empty():
    game = Game.from_scenario({"players": [{"battlefield": ["wisp"]}, {"battlefield": ["river_crocolisk"]}]})
    own_wisp = 1  # attacker index 0 is the own hero; defender index 0 the enemy hero, 1 its first minion

    def attack(attacker: int, defender: int) -> int:
        return LAYOUT.attack_offset + attacker * LAYOUT.attack_slots + defender

    wisp, crocolisk = game.player(0).battlefield[0].uid, game.player(1).battlefield[0].uid
    assert CODEC.decode(game, attack(own_wisp, 1)) == Choice(ChoiceKind.ATTACK, wisp, crocolisk)
    assert CODEC.decode(game, attack(own_wisp, 2)) is None  # the enemy's second minion slot is empty
    assert CODEC.decode(game, attack(own_wisp + 1, 1)) is None  # the own second minion slot is empty
    assert CODEC.decode(game, attack(own_wisp + 1, 2)) is None  # both empty
