"""Generated card pools: seeded card definitions from the effect vocabulary, priced by the cost model.

:func:`generate_card_data` writes ``size`` collectible cards and a few tokens as card-file data (the mappings a
card YAML file holds, so a pool can be written out and loaded like any user's file). Each card is drawn from the
seed alone: its type (minion, spell, weapon, secret), a cost *budget* along a mana curve, keywords and abilities
from :data:`TEMPLATES` (every effect, with sensible selectors, marks and target specs, on every trigger where it
makes sense), with amounts and stats sized to the budget; then its printed cost is the cost model's
(:func:`ccg_env.engine.cost_model.model_cost`), never the budget. Classes: at least half the pool, and never
fewer than :data:`MIN_NEUTRAL` cards, is neutral; the rest is dealt round the hero classes in turn.
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass
from typing import Any, Final, Mapping, Sequence

from .cards import parse_ability, parse_card
from .cost_model import PER_AMOUNT, SELECTOR_SCALE, ability_power, keyword_power, model_cost
from .definitions import CardDef
from .vocabulary import KEYWORD_NAMES, CardType, EffectKind

#: The prefix of every generated card id (``gen_0``, ``gen_token_1``...).
ID_PREFIX: Final = "gen_"
#: Neutral cards in a pool of at least this size (so every class deck of 30 at 2 copies is legal).
MIN_NEUTRAL: Final = 15
#: Card types and their weights.
TYPE_WEIGHTS: Final = {"minion": 60, "spell": 26, "weapon": 7, "secret": 7}
#: Cost budgets and their weights (a mana curve).
BUDGET_WEIGHTS: Final = {1: 3, 2: 5, 3: 5, 4: 4, 5: 3, 6: 2, 7: 1, 8: 1}
#: Keywords a generated minion may have, and the chance of one (of two: a tenth of that).
MINION_KEYWORDS: Final = ("taunt", "charge", "divine_shield", "windfury", "lifesteal", "poisonous", "stealth")
KEYWORD_CHANCE: Final = 0.35
#: The chance a minion has an ability, and which triggers its abilities use (battlecry the most).
MINION_ABILITY_CHANCE: Final = 0.5
MINION_TRIGGERS: Final = {"battlecry": 8, "deathrattle": 3, "turn_end": 2, "turn_start": 1, "spell_cast": 1,
                          "card_played": 1, "minion_summoned": 1, "self_damaged": 1}
SECRET_TRIGGERS: Final = ("secret_hero_attacked", "secret_minion_attacked", "secret_minion_played",
                          "secret_spell_cast")

_ENEMY_ACTIVE: Final = {"alliance": "enemy", "zones": "active"}
_ENEMY_MINIONS: Final = {"alliance": "enemy", "zones": "battlefield"}
_ALLY_ACTIVE: Final = {"alliance": "ally", "zones": "active"}
_ALLY_MINIONS: Final = {"alliance": "ally", "zones": "battlefield"}
_ANY_MINIONS: Final = {"alliance": "any", "zones": "battlefield"}
_ANY_ACTIVE: Final = {"alliance": "any", "zones": "active"}


@dataclass(frozen=True)
class Template:
    """One kind of ability: effect, selector and mark or target spec, amounts, and where it may appear.

    ``uses``: "chosen" templates act on the target declared with the play (battlecries only); "any" ones may
    fire on any trigger; "secret" ones only on a secret's trigger (they act on the trigger's card).
    """

    name: str
    effect: str
    select: str
    text: str
    amounts: tuple[int, int] = (1, 1)
    mark: Mapping[str, Any] | None = None
    target: Mapping[str, Any] | None = None
    count: int = 1
    uses: str = "any"


#: Every ability a generated card may have. ``{n}`` is the amount, ``{buff}`` +A/+H, ``{keyword}`` a keyword,
#: ``{token}`` the summoned or equipped card.
TEMPLATES: Final[tuple[Template, ...]] = (
    Template("damage_chosen", "damage", "chosen", "deal {n} damage", (1, 7),
             target={"required": True, "allowed": _ANY_ACTIVE, "preferred": _ENEMY_ACTIVE}, uses="chosen"),
    Template("damage_enemy_minion", "damage", "chosen", "deal {n} damage to an enemy minion", (1, 8),
             target={"required": True, "allowed": _ENEMY_MINIONS}, uses="chosen"),
    Template("damage_enemy_hero", "damage", "enemy_hero", "deal {n} damage to the enemy hero", (1, 6)),
    Template("damage_enemy_minions", "damage", "all", "deal {n} damage to all enemy minions", (1, 4),
             mark=_ENEMY_MINIONS),
    Template("damage_enemies", "damage", "all", "deal {n} damage to all enemies", (1, 3), mark=_ENEMY_ACTIVE),
    Template("damage_all_minions", "damage", "all", "deal {n} damage to all minions", (1, 4), mark=_ANY_MINIONS),
    Template("damage_random_enemies", "damage", "random", "deal {n} damage to 2 random enemies", (1, 4),
             mark=_ENEMY_ACTIVE, count=2),
    Template("destroy_random_injured", "destroy", "random", "destroy a random injured enemy minion",
             mark={**_ENEMY_MINIONS, "filters": ["injured"]}),
    Template("heal_chosen", "heal", "chosen", "restore {n} Health", (2, 8),
             target={"required": True, "allowed": _ANY_ACTIVE, "preferred": _ALLY_ACTIVE}, uses="chosen"),
    Template("heal_own_hero", "heal", "own_hero", "restore {n} Health to your hero", (2, 8)),
    Template("heal_friends", "heal", "all", "restore {n} Health to all friendly characters", (1, 4),
             mark=_ALLY_ACTIVE),
    Template("draw", "draw", "own_hero", "draw {n} card(s)", (1, 2)),
    Template("summon", "summon", "own_hero", "summon {n} {token}", (1, 2)),
    Template("buff_chosen", "buff", "chosen", "give a friendly minion {buff}", (1, 6),
             target={"required": True, "allowed": _ALLY_MINIONS}, uses="chosen"),
    Template("buff_self", "buff", "self", "gain {buff}", (1, 3), uses="minion"),
    Template("buff_friends", "buff", "all", "give your minions {buff}", (1, 3), mark=_ALLY_MINIONS),
    Template("buff_random_friend", "buff", "random", "give a random friendly minion {buff}", (1, 4),
             mark=_ALLY_MINIONS, count=1),
    Template("keyword_chosen", "give_keyword", "chosen", "give a friendly minion {keyword}",
             target={"required": True, "allowed": _ALLY_MINIONS}, uses="chosen"),
    Template("keyword_self", "give_keyword", "self", "gain {keyword}", uses="minion"),
    Template("destroy_chosen", "destroy", "chosen", "destroy an enemy minion with 3 or more Attack",
             target={"required": True, "allowed": {**_ENEMY_MINIONS, "filters": ["attack_3_or_more"]}},
             uses="chosen"),
    Template("destroy_random", "destroy", "random", "destroy a random enemy minion", mark=_ENEMY_MINIONS),
    Template("armor", "gain_armor", "own_hero", "gain {n} Armor", (1, 8)),
    Template("equip", "equip_weapon", "own_hero", "equip a {token}"),
    Template("freeze_chosen", "freeze", "chosen", "freeze an enemy",
             target={"required": True, "allowed": _ENEMY_ACTIVE}, uses="chosen"),
    Template("freeze_enemy_minions", "freeze", "all", "freeze all enemy minions", mark=_ENEMY_MINIONS),
    Template("mana", "gain_mana", "own_hero", "gain {n} mana crystal(s) this turn only", (1, 1), uses="spell"),
    Template("damage_trigger_card", "damage", "trigger_card", "deal {n} damage to it", (1, 6), uses="secret"),
    Template("freeze_trigger_card", "freeze", "trigger_card", "freeze it", uses="secret"),
)

_TRIGGER_TEXT: Final = {
    "battlecry": "Battlecry: ", "deathrattle": "Deathrattle: ", "turn_end": "At the end of your turn, ",
    "turn_start": "At the start of your turn, ", "spell_cast": "Whenever you cast a spell, ",
    "card_played": "Whenever you play a card, ", "minion_summoned": "After you summon a minion, ",
    "self_damaged": "Whenever this takes damage, ", "secret_hero_attacked": "Secret: When your hero is attacked, ",
    "secret_minion_attacked": "Secret: When one of your minions is attacked, ",
    "secret_minion_played": "Secret: After your opponent plays a minion, ",
    "secret_spell_cast": "Secret: After your opponent casts a spell, ",
}
#: Summons that would set themselves off (a summon whenever a minion is summoned or a card played) are left out.
_LOOPING: Final = {("minion_summoned", "summon"), ("card_played", "summon"), ("self_damaged", "damage_all_minions")}
_ADJECTIVES: Final = ("Ashen", "Bold", "Crimson", "Dusk", "Ember", "Frost", "Gilded", "Hollow", "Iron", "Jade",
                      "Keen", "Lunar", "Mossy", "Night", "Obsidian", "Pale", "Quiet", "Rune", "Storm", "Thorn",
                      "Umber", "Vile", "Wild", "Young")
_NOUNS: Final = {"minion": ("Warden", "Drake", "Acolyte", "Golem", "Raider", "Seer", "Brute", "Whelp", "Knight",
                            "Stalker", "Sage", "Imp"),
                 "spell": ("Bolt", "Blessing", "Nova", "Insight", "Ritual", "Surge", "Ward", "Curse"),
                 "weapon": ("Blade", "Axe", "Hammer", "Dagger"), "secret": ("Trap", "Snare", "Vow", "Ambush")}


def _plural(text: str, amount: Any) -> str:
    """Card text with "(s)" resolved and "summon 1" read as "summon a"."""
    text = text.replace("(s)", "" if amount == 1 else "s")
    return text.replace("summon 1 ", "summon a ")


def _weighted(rng: random.Random, weights: Mapping[Any, int]) -> Any:
    return rng.choices(list(weights), weights=list(weights.values()))[0]


def _name(rng: random.Random, card_type: str) -> str:
    return f"{rng.choice(_ADJECTIVES)} {rng.choice(_NOUNS[card_type])}"


def _token(ids: Sequence[str], tokens: Mapping[str, CardDef], rng: random.Random, card_type: CardType) -> CardDef:
    return tokens[rng.choice([i for i in ids if tokens[i].card_type is card_type])]


class _Builder:
    """Builds one pool's cards from one generator: tokens first, then the collectible cards."""

    def __init__(self, seed: int, classes: Sequence[str]) -> None:
        self.rng = random.Random(f"card-pool-{seed}")
        self.classes = list(classes)
        self.made: dict[str, CardDef] = {}  # tokens, for the summons and weapons that refer to them
        self.token_ids: list[str] = []

    def tokens(self, minions: int, weapons: int) -> list[dict[str, Any]]:
        """Vanilla minion and weapon tokens (not collectible) that abilities summon or equip."""
        data = []
        for index in range(minions + weapons):
            card: dict[str, Any] = {"id": f"{ID_PREFIX}token_{index}", "collectible": False}
            if index < minions:
                card.update(type="minion", name=_name(self.rng, "minion"), attack=self.rng.randint(1, 3),
                            health=self.rng.randint(1, 3))
            else:
                card.update(type="weapon", name=_name(self.rng, "weapon"), attack=self.rng.randint(1, 3),
                            durability=self.rng.randint(2, 3))
            data.append(self._priced(card))
        return data

    def card(self, index: int, card_class: str) -> dict[str, Any]:
        """Collectible card ``index`` of ``card_class``, sized to a cost budget, priced by the cost model."""
        card_type = _weighted(self.rng, TYPE_WEIGHTS)
        budget = 2 * _weighted(self.rng, BUDGET_WEIGHTS) + 1  # stat points of a fair card of the drawn cost
        card: dict[str, Any] = {"id": f"{ID_PREFIX}{index}", "name": _name(self.rng, card_type), "type": card_type}
        if card_class != "neutral":
            card["class"] = card_class
        getattr(self, f"_fill_{card_type}")(card, budget)
        return self._priced(card)

    def _priced(self, card: dict[str, Any]) -> dict[str, Any]:
        """Set the card's cost from the model (and its text), keeping the mapping's order readable."""
        definition = parse_card({**card, "cost": 0}, source="generated", index=0)
        priced = {"id": card["id"], "name": card["name"], "type": card["type"],
                  "cost": model_cost(definition, self.made)}
        priced.update((k, v) for k, v in card.items() if k not in priced)
        if not priced.get("collectible", True):
            self.made[priced["id"]] = parse_card(priced, source="generated", index=0)
            self.token_ids.append(priced["id"])
        return priced

    # --- card types ------------------------------------------------------------------------------

    def _fill_minion(self, card: dict[str, Any], budget: float) -> None:
        keywords = self._keywords()
        if keywords:
            card["keywords"] = keywords
        left = budget
        if self.rng.random() < MINION_ABILITY_CHANCE:
            left -= self._add_ability(card, _weighted(self.rng, MINION_TRIGGERS), budget * self.rng.uniform(0.3, 0.6))
        mask = sum(int(KEYWORD_NAMES[name]) for name in keywords)
        flat, per_attack = keyword_power(mask, 0), keyword_power(mask, 1) - keyword_power(mask, 0)
        left = max(1.0, left - flat)
        attack = min(12, max(1 if left >= 2 + per_attack else 0,
                                 int(left * self.rng.uniform(0.3, 0.6) / (1 + per_attack))))
        card["attack"], card["health"] = attack, max(1, min(12, round(left - attack * (1 + per_attack))))

    def _fill_spell(self, card: dict[str, Any], budget: float) -> None:
        spent = self._add_ability(card, "battlecry", budget * (1.0 if self.rng.random() < 0.7 else 0.6))
        if budget - spent > 3:
            self._add_ability(card, "battlecry", budget - spent, chosen=False)

    def _fill_weapon(self, card: dict[str, Any], budget: float) -> None:
        left = budget
        if self.rng.random() < 0.35:
            left -= self._add_ability(card, "battlecry", budget * 0.35, chosen=False)
        durability = self.rng.randint(2, 3)
        card["attack"], card["durability"] = max(1, min(8, round(max(left, 2) / durability))), durability

    def _fill_secret(self, card: dict[str, Any], budget: float) -> None:
        self._add_ability(card, self.rng.choice(SECRET_TRIGGERS), max(budget - 1, 2))

    # --- abilities -------------------------------------------------------------------------------

    def _keywords(self) -> list[str]:
        if self.rng.random() >= KEYWORD_CHANCE:
            return []
        return sorted(self.rng.sample(MINION_KEYWORDS, 2 if self.rng.random() < 0.1 else 1))

    def _templates(self, card: dict[str, Any], trigger: str, chosen: bool) -> list[Template]:
        card_type = card["type"]
        allowed = []
        for template in TEMPLATES:
            if template.uses == "chosen":
                ok = chosen and trigger == "battlecry" and "target" not in card
            elif template.uses == "secret":
                ok = card_type == "secret" and trigger != "secret_spell_cast"
            elif template.uses in ("minion", "spell"):
                ok = card_type == template.uses and (trigger != "battlecry" or template.uses == "spell")
            else:
                ok = not (template.effect == "equip_weapon" and card_type == "weapon")
            if ok and (trigger, template.effect) not in _LOOPING and (trigger, template.name) not in _LOOPING:
                allowed.append(template)
        return allowed

    def _add_ability(self, card: dict[str, Any], trigger: str, share: float, chosen: bool = True) -> float:
        """Add one ability on ``trigger`` worth about ``share`` points; return what the cost model says it is worth."""
        template = self.rng.choice(self._templates(card, trigger, chosen))
        ability: dict[str, Any] = {"trigger": trigger, "effect": template.effect, "select": template.select}
        if template.mark is not None:
            ability["mark"] = copy.deepcopy(dict(template.mark))  # no value shared between cards (a YAML alias)
        if template.select == "random":
            ability["count"] = template.count
        words = self._size(ability, template, share)
        if template.target is not None:
            card["target"] = copy.deepcopy(dict(template.target))
        card.setdefault("abilities", []).append(ability)
        text = _TRIGGER_TEXT[trigger] if card["type"] != "spell" else ""
        phrase = _plural(template.text.format(**words), words.get("n"))
        text += phrase if text else phrase[0].upper() + phrase[1:]
        card["text"] = (card.get("text", "") + " " + text + ".").strip()
        has_target = "target" in card
        parsed = parse_ability(ability, 0, source="generated", item=card["id"], has_target=has_target,
                               card_type=CardType(card["type"]))
        return ability_power(parsed, self.made)

    def _size(self, ability: dict[str, Any], template: Template, share: float) -> dict[str, Any]:
        """Set the amount (or buff, keyword, token) of ``ability`` for about ``share`` points; return text words."""
        low, high = template.amounts
        effect = ability["effect"]
        if effect in ("summon", "equip_weapon"):
            token = _token(self.token_ids, self.made, self.rng,
                           CardType.MINION if effect == "summon" else CardType.WEAPON)
            ability["card"] = token.id
            stats = f"{token.attack}/{token.health or token.durability}"
            if effect == "summon":
                each = token.attack + token.health
                ability["amount"] = max(low, min(high, round(share / max(each, 1))))
                return {"n": ability["amount"], "token": f"{stats} {token.name}"}
            return {"token": f"{stats} {token.name}"}
        if effect == "buff":
            scale = SELECTOR_SCALE["all_one_side"] if template.select == "all" else 1.0
            points = max(low, min(high, round(share / scale)))
            attack = self.rng.randint(0, points)
            ability["attack"], ability["health"] = attack, points - attack
            return {"buff": f"+{attack}/+{points - attack}"}
        if effect == "give_keyword":
            keyword = self.rng.choice(("taunt", "divine_shield", "windfury", "lifesteal", "stealth", "charge"))
            ability["keyword"] = keyword
            return {"keyword": keyword.replace("_", " ").title()}
        if EffectKind(effect) in PER_AMOUNT:
            sides = template.mark.get("alliance") if template.mark is not None else None
            scale = SELECTOR_SCALE["all_one_side"] if template.select == "all" and sides != "any" else \
                (SELECTOR_SCALE["random_each"] * template.count if template.select == "random" else 1.0)
            ability["amount"] = max(low, min(high, round(share / (PER_AMOUNT[EffectKind(effect)] * scale))))
            return {"n": ability["amount"]}
        return {}


def default_classes() -> list[str]:
    """The hero classes of the packaged heroes (``configs/heroes``) that class cards are dealt to."""
    from .heroes import default_heroes

    return sorted(c.value for c in default_heroes() if c.value != "neutral")


def class_of(index: int, size: int, classes: Sequence[str]) -> str:
    """The class of collectible card ``index`` of a pool of ``size``: the first half (at least ``MIN_NEUTRAL``
    cards) neutral, the rest dealt round ``classes`` in turn."""
    neutral = max((size + 1) // 2, min(size, MIN_NEUTRAL))
    if index < neutral or not classes:
        return "neutral"
    return classes[(index - neutral) % len(classes)]


def generate_card_data(seed: int, size: int, classes: Sequence[str] | None = None) -> list[dict[str, Any]]:
    """The card-file data of the pool ``(seed, size)``: ``size`` collectible cards, then their tokens.

    Tokens come first in the generator's draws (a summon refers to one), but last in the list.
    """
    builder = _Builder(seed, default_classes() if classes is None else classes)
    tokens = builder.tokens(minions=max(2, size // 12), weapons=1)
    cards = [builder.card(index, class_of(index, size, builder.classes)) for index in range(size)]
    return cards + tokens
