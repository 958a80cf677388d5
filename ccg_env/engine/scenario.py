"""Building a game from a board described as data, for tests, notebooks and puzzles.

Format (every key optional unless said)::

    {
      "current": 0,                    # whose turn it is
      "turn": 5,                       # turn counter (default 1)
      "mulligan": false,               # true: the hands are opening hands and ``current`` decides its mulligan
                                       # (then seat 1 if ``current`` is 0; then the coin and turn 1)
      "players": [                     # exactly two
        {
          "hero": "mage",              # the hero's class (default neutral: the plain hero, no power)
          "health": 30, "armor": 0,    # the hero
          "hero_power_uses": 0,        # times the hero power was used this turn
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

Values are checked like a saved state's: ``current`` 0 or 1, ``turn`` at least 1, mana and crystals within
``0..rules.max_mana``, no negative armor, fatigue or minion attack, minions above 0 health and not above their
maximum, zones within the rules' limits, secrets distinct. A hero's ``health`` may be anything (a hero at 0
or less loses when the next action resolves), which lets tests build finished or clipped boards.
Anything else raises :class:`DataError` naming the player and field; no game is returned.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .cards import KEYWORD_NAMES, CardSet
from .datafiles import check_keys
from .errors import DataError, shown
from .definitions import HeroDef
from .factory import new_card, new_player
from .heroes import HeroSet, check_hero_cards
from .invariants import (InvariantError, check_hero_power, check_match, check_zone_kinds, check_zone_limits,
                         check_zones)
from .rng import Rng
from .rules import Rules
from .serialize import MAX_GRAVEYARD, MAX_NUMBER
from .state import Card, GamePhase, GameState
from .vocabulary import CardClass, CardType, Zones

if TYPE_CHECKING:
    from .game import Game

_PLAYER_KEYS = {"hero", "health", "armor", "mana", "max_mana", "fatigue", "hand", "deck", "battlefield", "weapon",
                "secrets", "graveyard", "hero_power_uses"}
_MINION_KEYS = {"card", "attack", "health", "max_health", "keywords", "sleeping", "order_of_play", "attacks_made"}


def build_scenario(game_cls: type[Game], scenario: Any, seed: int, *, rules: Rules, cards: CardSet,
                   heroes: HeroSet, log: bool) -> Game:
    """Create the described game without dealing or starting a turn."""
    source = "scenario"
    check_keys(scenario, {"current", "turn", "players", "mulligan"}, {"players"}, source=source, item=None)
    raw_players = scenario["players"]
    if not isinstance(raw_players, list) or len(raw_players) != 2:
        raise DataError("expected a list of exactly two players", source=source, field="players")
    state = GameState(rules=rules, players=[], rng=Rng(seed), log=[] if log else None)
    hero_defs = [_hero(raw, i, heroes) for i, raw in enumerate(raw_players)]
    check_hero_cards(hero_defs, cards, ", ".join(heroes.sources))
    state.players = [new_player(state, i, hero) for i, hero in enumerate(hero_defs)]
    state.current = _int(scenario, "current", 0, None, low=0, high=1)
    state.turn = _int(scenario, "turn", 1, None, low=1)
    for index, raw in enumerate(raw_players):
        _fill_player(state, index, raw, cards)
    mulligan = scenario.get("mulligan", False)
    if not isinstance(mulligan, bool):
        raise DataError(f"expected true or false, got {shown(mulligan)}", source=source, field="mulligan")
    if mulligan:
        state.phase = GamePhase.MULLIGAN
    _check_board(state)
    return game_cls(state, cards)


def _hero(raw: Any, index: int, heroes: HeroSet) -> HeroDef:
    """The hero a scenario player names by class (the plain hero by default)."""
    item = f"players[{index}]"
    name = raw.get("hero", "neutral") if isinstance(raw, dict) else "neutral"
    try:
        hero_class = CardClass(name)
    except ValueError:
        allowed = ", ".join(c.value for c in CardClass)
        raise DataError(f"unknown hero class {shown(name)} (allowed: {allowed})", source="scenario", item=item,
                        field="hero") from None
    try:
        return heroes.for_class(hero_class)
    except DataError as exc:
        raise DataError(exc.reason, source="scenario", item=item, field="hero") from None


def _int(data: dict, key: str, default: int, item: str | None, *, low: int = -MAX_NUMBER,
         high: int = MAX_NUMBER) -> int:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise DataError(f"expected an integer, got {shown(value)}", source="scenario", item=item, field=key)
    if not low <= value <= high:
        raise DataError(f"must be in {low}..{high}, got {value}", source="scenario", item=item, field=key)
    return value


def _list(data: dict, key: str, item: str, limit: int = MAX_GRAVEYARD) -> list:
    value = data.get(key, [])
    if not isinstance(value, list):
        raise DataError(f"expected a list, got {shown(value)}", source="scenario", item=item, field=key)
    if len(value) > limit:
        raise DataError(f"{len(value):,} cards, at most {limit:,} allowed", source="scenario", item=item, field=key)
    return value


def _check_board(state: GameState) -> None:
    """Zone contents must fit the rules (sizes, card kinds, distinct secrets) like any reachable state."""
    for check in (check_match, check_zones, check_zone_kinds, check_zone_limits, check_hero_power):
        try:
            check(state)
        except InvariantError as exc:
            raise DataError(exc.detail, source="scenario", item=f"rule '{exc.invariant}'") from None


def _fill_player(state: GameState, index: int, raw: Any, cards: CardSet) -> None:
    item = f"players[{index}]"
    check_keys(raw, _PLAYER_KEYS, set(), source="scenario", item=item)
    player = state.players[index]
    hero = player.hero
    hero.health = _int(raw, "health", state.rules.hero_health, item)
    hero.max_health = max(hero.max_health, hero.health)
    hero.armor = _int(raw, "armor", 0, item, low=0)
    top = state.rules.max_mana
    mana = _int(raw, "mana", 0, item, low=0, high=top)
    player.max_mana = _int(raw, "max_mana", mana, item, low=0, high=top)  # as much as the mana given, by default
    player.mana = mana if "mana" in raw else player.max_mana  # a full pool unless told otherwise
    player.fatigue = _int(raw, "fatigue", 0, item, low=0)
    limit = player.hero_power[0].definition.uses_per_turn if player.hero_power else 0
    player.hero_power_uses = _int(raw, "hero_power_uses", 0, item, low=0, high=limit)

    def make(card_id: Any, zone: Zones, field: str) -> Card:
        if not isinstance(card_id, str):
            raise DataError(f"expected a card id, got {shown(card_id)}", source="scenario", item=item, field=field)
        try:
            definition = cards.get_card(card_id)
        except DataError as exc:
            raise DataError(exc.reason, source="scenario", item=item, field=field) from None
        return new_card(state, definition, index, zone)

    rules = state.rules
    for key, zone, limit in (("deck", Zones.DECK, rules.deck_size), ("hand", Zones.HAND, rules.max_hand),
                             ("graveyard", Zones.GRAVEYARD, MAX_GRAVEYARD),
                             ("secrets", Zones.SECRETS, rules.max_secrets)):
        player.zone(zone).extend(make(c, zone, f"{key}[{i}]") for i, c in enumerate(_list(raw, key, item, limit)))
    if raw.get("weapon"):
        weapon = make(raw["weapon"], Zones.WEAPON, "weapon")
        weapon.order_of_play = state.new_order()
        player.weapon.append(weapon)
        hero.attack = weapon.attack
    for i, spec in enumerate(_list(raw, "battlefield", item, state.rules.max_battlefield)):
        player.battlefield.append(_minion(state, spec, make, item, f"battlefield[{i}]"))


def _minion(state: GameState, spec: Any, make, item: str, field: str) -> Card:
    if isinstance(spec, str):
        spec = {"card": spec}
    check_keys(spec, _MINION_KEYS, {"card"}, source="scenario", item=f"{item}, {field}")
    card = make(spec["card"], Zones.BATTLEFIELD, field)
    if card.definition.card_type is not CardType.MINION:
        raise DataError(f"{shown(spec['card'])} is not a minion", source="scenario", item=item, field=field)
    where = f"{item}, {field}"
    card.attack = _int(spec, "attack", card.attack, where, low=0)
    card.health = _int(spec, "health", card.health, where, low=1)
    card.max_health = _int(spec, "max_health", max(card.max_health, card.health), where, low=card.health)
    card.attacks_made = _int(spec, "attacks_made", 0, where, low=0)
    sleeping = spec.get("sleeping", False)
    if not isinstance(sleeping, bool):
        raise DataError(f"expected true or false, got {shown(sleeping)}", source="scenario", item=where,
                        field="sleeping")
    card.sleeping = sleeping
    for name in _list(spec, "keywords", where):
        if name not in KEYWORD_NAMES:
            raise DataError(f"unknown keyword {shown(name)}", source="scenario", item=item, field=f"{field}.keywords")
        card.keywords |= int(KEYWORD_NAMES[name])
    card.order_of_play = _int(spec, "order_of_play", 0, where, low=0) or state.new_order()
    state.next_order = max(state.next_order, card.order_of_play + 1)
    return card
