"""Cards that set themselves off without end, and the boards where one choice starts each loop (shared by the
subprocess loop tests and the in-process tests of the engine's bounds)."""

from __future__ import annotations

import textwrap

LOOP_CARDS = textwrap.dedent("""
    cards:
      - id: self_harmer
        name: Self Harmer
        type: minion
        cost: 0
        attack: 1
        health: 3
        text: "Battlecry, and whenever this minion takes damage: deal 1 damage to it."
        abilities:
          - {trigger: battlecry, effect: damage, amount: 1, select: self}
          - {trigger: self_damaged, effect: damage, amount: 1, select: self}
      - id: mender
        name: Mender
        type: minion
        cost: 2
        attack: 1
        health: 4
        text: "Whenever this minion takes damage, restore 5 health to it, then deal 1 damage to your minions."
        abilities:
          - {trigger: self_damaged, effect: heal, amount: 5, select: self}
          - {trigger: self_damaged, effect: damage, amount: 1, select: all,
             mark: {alliance: ally, zones: battlefield}}
      - id: phoenix
        name: Phoenix
        type: minion
        cost: 1
        attack: 1
        health: 1
        text: "Deathrattle: summon a Phoenix."
        abilities:
          - {trigger: deathrattle, effect: summon, card: phoenix}
      - id: summon_hater
        name: Summon Hater
        type: minion
        cost: 3
        attack: 0
        health: 5
        text: "After you summon a minion, deal 1 damage to it."
        abilities:
          - {trigger: minion_summoned, effect: damage, amount: 1, select: trigger_card}
      - id: mirror_blade
        name: Mirror Blade
        type: weapon
        cost: 2
        attack: 1
        durability: 2
        text: "Battlecry: equip a Mirror Blade."
        abilities:
          - {trigger: battlecry, effect: equip_weapon, card: mirror_blade}
      - id: blade_smith
        name: Blade Smith
        type: minion
        cost: 2
        attack: 1
        health: 2
        text: "Whenever you cast a spell, equip a Mirror Blade."
        abilities:
          - {trigger: spell_cast, effect: equip_weapon, card: mirror_blade}
      - id: wall
        name: Wall
        type: minion
        cost: 2
        attack: 1
        health: 10
""")

#: board, the choice that sets the loop off (kind, source card id, target card id or None), the card that loops
BOARDS = {
    "self-damage": ({"players": [{"hand": ["self_harmer"]}, {}]}, ("play", "self_harmer", None), "self_harmer"),
    "heal-then-damage": ({"players": [{"battlefield": ["wall"]}, {"battlefield": ["mender"]}]},
                         ("attack", "wall", "mender"), "mender"),
    "weapon-battlecry-while-casting": ({"players": [{"battlefield": ["blade_smith"], "hand": ["the_coin"]}, {}]},
                                       ("play", "the_coin", None), "mirror_blade"),
    "deathrattle-summon": ({"players": [{"battlefield": ["summon_hater", "phoenix"]}, {"battlefield": ["wall"]}]},
                           ("attack", "phoenix", "wall"), "phoenix"),
}
