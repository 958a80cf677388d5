"""Building a game from a board described as data, for tests, notebooks and puzzles.

Format (every key optional unless said)::

    {
      "current": 0,                    # whose turn it is
      "turn": 5,                       # turn counter (default 1)
      "players": [                     # exactly two
        {
          "health": 30, "armor": 0,    # the hero
          "mana": 3, "max_mana": 3, "fatigue": 0,
          "hand": ["arcane_explosion"],               # card ids, left to right
          "deck": ["chillwind_yeti", ...],            # card ids; the LAST one is drawn first
          "battlefield": ["knife_juggler", {"card": "acolyte_of_pain", "health": 2, "attack": 1,
                          "keywords": ["taunt"], "sleeping": false, "order_of_play": 3}],
          "weapon": "fiery_war_axe", "secrets": ["explosive_trap"], "graveyard": []
        },
        {...}
      ]
    }

Minions without ``order_of_play`` are numbered in listing order, player 0's first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .cards import KEYWORD_NAMES, CardSet
from .datafiles import check_keys
from .errors import DataError
from .factory import new_card, new_player
from .rng import Rng
from .rules import Rules
from .state import Card, GameState
from .vocabulary import CardType, Zones

if TYPE_CHECKING:
    from .game import Game

_PLAYER_KEYS = {"health", "armor", "mana", "max_mana", "fatigue", "hand", "deck", "battlefield", "weapon", "secrets",
                "graveyard"}
_MINION_KEYS = {"card", "attack", "health", "max_health", "keywords", "sleeping", "order_of_play", "attacks_made"}


def build_scenario(game_cls: type[Game], scenario: dict[str, Any], seed: int, *, rules: Rules, cards: CardSet,
                   log: bool) -> Game:
    """Create the described game without dealing or starting a turn."""
    source = "scenario"
    check_keys(scenario, {"current", "turn", "players"}, {"players"}, source=source, item=None)
    raw_players = scenario["players"]
    if not isinstance(raw_players, list) or len(raw_players) != 2:
        raise DataError("expected a list of exactly two players", source=source, field="players")
    state = GameState(rules=rules, players=[], rng=Rng(seed), log=[] if log else None)
    state.players = [new_player(state, 0), new_player(state, 1)]
    state.current = _int(scenario, "current", 0, source)
    state.turn = _int(scenario, "turn", 1, source)
    for index, raw in enumerate(raw_players):
        _fill_player(state, index, raw, cards)
    return game_cls(state, cards)


def _int(data: dict, key: str, default: int, item: str) -> int:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise DataError(f"expected an integer, got {value!r}", source="scenario", item=item, field=key)
    return value


def _fill_player(state: GameState, index: int, raw: Any, cards: CardSet) -> None:
    item = f"players[{index}]"
    check_keys(raw, _PLAYER_KEYS, set(), source="scenario", item=item)
    player = state.players[index]
    hero = player.hero
    hero.health = _int(raw, "health", state.rules.hero_health, item)
    hero.max_health = max(hero.max_health, hero.health)
    hero.armor = _int(raw, "armor", 0, item)
    player.max_mana = _int(raw, "max_mana", _int(raw, "mana", 0, item), item)
    player.mana = _int(raw, "mana", player.max_mana, item)
    player.fatigue = _int(raw, "fatigue", 0, item)

    def make(card_id: Any, zone: Zones, field: str) -> Card:
        if not isinstance(card_id, str):
            raise DataError(f"expected a card id, got {card_id!r}", source="scenario", item=item, field=field)
        try:
            definition = cards.get_card(card_id)
        except DataError as exc:
            raise DataError(exc.reason, source="scenario", item=item, field=field) from None
        return new_card(state, definition, index, zone)

    for key, zone in (("deck", Zones.DECK), ("hand", Zones.HAND), ("graveyard", Zones.GRAVEYARD),
                      ("secrets", Zones.SECRETS)):
        player.zone(zone).extend(make(c, zone, f"{key}[{i}]") for i, c in enumerate(raw.get(key, [])))
    if raw.get("weapon"):
        weapon = make(raw["weapon"], Zones.WEAPON, "weapon")
        weapon.order_of_play = state.new_order()
        player.weapon.append(weapon)
        hero.attack = weapon.attack
    for i, spec in enumerate(raw.get("battlefield", [])):
        player.battlefield.append(_minion(state, spec, make, item, f"battlefield[{i}]"))


def _minion(state: GameState, spec: Any, make, item: str, field: str) -> Card:
    if isinstance(spec, str):
        spec = {"card": spec}
    check_keys(spec, _MINION_KEYS, {"card"}, source="scenario", item=f"{item}, {field}")
    card = make(spec["card"], Zones.BATTLEFIELD, field)
    if card.definition.card_type is not CardType.MINION:
        raise DataError(f"{spec['card']!r} is not a minion", source="scenario", item=item, field=field)
    card.attack = _int(spec, "attack", card.attack, item)
    card.max_health = _int(spec, "max_health", max(card.max_health, _int(spec, "health", card.health, item)), item)
    card.health = _int(spec, "health", card.health, item)
    card.attacks_made = _int(spec, "attacks_made", 0, item)
    card.sleeping = bool(spec.get("sleeping", False))
    for name in spec.get("keywords", []):
        if name not in KEYWORD_NAMES:
            raise DataError(f"unknown keyword {name!r}", source="scenario", item=item, field=f"{field}.keywords")
        card.keywords |= int(KEYWORD_NAMES[name])
    card.order_of_play = _int(spec, "order_of_play", 0, item) or state.new_order()
    state.next_order = max(state.next_order, card.order_of_play + 1)
    return card
