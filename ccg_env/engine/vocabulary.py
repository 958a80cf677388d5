"""The closed vocabulary of the rules: zones, alliances, card types, keywords, triggers and effects."""

from __future__ import annotations

from enum import Enum, IntFlag
from typing import Final


class Zones(IntFlag):
    """A player's card collections, as bit flags so a mark can name several at once (seed values)."""

    NONE = 0
    HERO = 1 << 0
    WEAPON = 1 << 1
    DECK = 1 << 2
    HAND = 1 << 3
    BATTLEFIELD = 1 << 4
    SECRETS = 1 << 5
    GRAVEYARD = 1 << 6
    ACTIVE = 1 << 0 | 1 << 4  # HERO | BATTLEFIELD, spelled out: the compiler cannot combine members in the body


#: Zones in the order candidates are listed (the Targeting lesson's order).
ZONE_ORDER: Final = (
    Zones.HERO,
    Zones.WEAPON,
    Zones.DECK,
    Zones.HAND,
    Zones.BATTLEFIELD,
    Zones.SECRETS,
    Zones.GRAVEYARD,
)


#: Zones whose cards are characters in play. Hot paths test ``card.zone in CHARACTER_ZONES`` (a tuple
#: membership test) rather than ``card.zone & Zones.ACTIVE``, because IntFlag arithmetic allocates.
CHARACTER_ZONES: Final = (Zones.HERO, Zones.BATTLEFIELD)


class Alliance(IntFlag):
    """Sides of the match seen from a card's owner: ally is the owner even on the opponent's turn."""

    NONE = 0
    ALLY = 1 << 0
    ENEMY = 1 << 1
    ANY = 1 << 0 | 1 << 1  # ALLY | ENEMY, spelled out: the compiler cannot combine members in the body


class CardType(str, Enum):
    """What kind of card a definition describes."""

    MINION = "minion"
    SPELL = "spell"
    WEAPON = "weapon"
    SECRET = "secret"
    HERO = "hero"
    HERO_POWER = "hero_power"  # a hero's power: defined with its hero (configs/heroes), never in card files


class CardClass(str, Enum):
    """The hero class a card or deck belongs to; neutral cards go in any deck (heroes: configs/heroes/)."""

    NEUTRAL = "neutral"
    MAGE = "mage"
    WARRIOR = "warrior"
    PALADIN = "paladin"
    PRIEST = "priest"
    ROGUE = "rogue"
    WARLOCK = "warlock"


class Keyword(IntFlag):
    """Keywords a character can have; each one's behaviour lives in ``systems/keywords.py``."""

    NONE = 0
    TAUNT = 1 << 0
    CHARGE = 1 << 1
    DIVINE_SHIELD = 1 << 2
    WINDFURY = 1 << 3
    LIFESTEAL = 1 << 4
    POISONOUS = 1 << 5
    STEALTH = 1 << 6
    FREEZE = 1 << 7


KEYWORD_NAMES: Final[dict[str, Keyword]] = {str(k.name).lower(): k for k in Keyword if k is not Keyword.NONE}


class Trigger(str, Enum):
    """When an ability fires. Secret triggers fire only on the opponent's turn and reveal the secret."""

    BATTLECRY = "battlecry"  # on play: a minion from hand, a spell cast, a weapon equipped
    DEATHRATTLE = "deathrattle"
    CARD_PLAYED = "card_played"  # whenever you play a card
    SPELL_CAST = "spell_cast"  # whenever you cast a spell (before it resolves)
    MINION_SUMMONED = "minion_summoned"  # after you summon a minion
    SELF_DAMAGED = "self_damaged"  # whenever this takes damage
    TURN_START = "turn_start"  # at the start of your turn
    TURN_END = "turn_end"  # at the end of your turn
    SECRET_HERO_ATTACKED = "secret_hero_attacked"  # secret: when your hero is attacked
    SECRET_MINION_ATTACKED = "secret_minion_attacked"  # secret: when one of your minions is attacked
    SECRET_MINION_PLAYED = "secret_minion_played"  # secret: after your opponent plays a minion
    SECRET_SPELL_CAST = "secret_spell_cast"  # secret: after your opponent casts a spell


SECRET_TRIGGERS: Final = frozenset(t for t in Trigger if t.value.startswith("secret_"))


class EffectKind(str, Enum):
    """What an ability does."""

    DAMAGE = "damage"
    HEAL = "heal"
    DRAW = "draw"
    SUMMON = "summon"
    BUFF = "buff"
    GIVE_KEYWORD = "give_keyword"
    DESTROY = "destroy"
    GAIN_ARMOR = "gain_armor"
    EQUIP_WEAPON = "equip_weapon"
    FREEZE = "freeze"
    GAIN_MANA = "gain_mana"


class Selector(str, Enum):
    """Whom an effect acts on. ``chosen`` is the target declared with the play; the rest pick at resolution."""

    CHOSEN = "chosen"
    ALL = "all"
    RANDOM = "random"
    SELF = "self"
    OWN_HERO = "own_hero"
    ENEMY_HERO = "enemy_hero"
    TRIGGER_CARD = "trigger_card"  # the card that caused the trigger (the attacker, the played minion...)


# --- plain names for hot paths ------------------------------------------------------------------
# On Python 3.11 reading an enum member through its class (``Zones.HAND``) costs about 100 ns: the enum
# metaclass's ``__getattr__`` hook slows every class attribute lookup. The rules' hot paths use these
# module-level names, which are the very same member objects.

NO_ZONE: Final = Zones.NONE
HERO_ZONE: Final = Zones.HERO
WEAPON_ZONE: Final = Zones.WEAPON
DECK_ZONE: Final = Zones.DECK
HAND_ZONE: Final = Zones.HAND
BATTLEFIELD_ZONE: Final = Zones.BATTLEFIELD
SECRETS_ZONE: Final = Zones.SECRETS
GRAVEYARD_ZONE: Final = Zones.GRAVEYARD
MINION: Final = CardType.MINION
SPELL: Final = CardType.SPELL
WEAPON: Final = CardType.WEAPON
SECRET: Final = CardType.SECRET


#: The Player attribute that holds each zone's cards, in the canonical zone order.
ZONE_ATTRS: Final[dict[Zones, str]] = {
    Zones.HERO: "hero_zone",
    Zones.WEAPON: "weapon",
    Zones.DECK: "deck",
    Zones.HAND: "hand",
    Zones.BATTLEFIELD: "battlefield",
    Zones.SECRETS: "secrets",
    Zones.GRAVEYARD: "graveyard",
}
