"""Exact JSON round-trips of the game state, with clear errors for corrupt or foreign documents."""

from __future__ import annotations

import json
import re
from dataclasses import asdict
from typing import Any

from .cards import CardSet
from .definitions import HERO
from .heroes import HeroSet
from .errors import DataError, StateError, shown
from .invariants import STATE_CHECKS, InvariantError
from .rng import Rng
from .rules import Rules
from .state import Card, GamePhase, GameState, Player, Result
from .vocabulary import CardType, Keyword, Zones

FORMAT = "ccg-env/state"
VERSION = 1
_CARD_FIELDS = ("uid", "id", "owner", "cost", "attack", "health", "max_health", "keywords", "order_of_play",
                "armor", "durability", "attacks_made", "sleeping", "frozen_on_turn")
_ZONE_NAMES = {"hero": Zones.HERO, "weapon": Zones.WEAPON, "deck": Zones.DECK, "hand": Zones.HAND,
               "battlefield": Zones.BATTLEFIELD, "secrets": Zones.SECRETS, "graveyard": Zones.GRAVEYARD}
_PLAYER_INTS = ("mana", "max_mana", "fatigue")
#: Player fields added with hero powers; a document without them (written before) loads with no hero power.
_HERO_POWER_ZONE, _HERO_POWER_USES = "hero_power", "hero_power_uses"
_TOP_KEYS = {"format", "version", "rules", "rng", "current", "turn", "next_uid", "next_order", "result", "winner",
             "players", "phase"}
_ALL_KEYWORDS = sum(int(k) for k in Keyword)
_RNG_LIMIT = 1 << 64
#: Largest state document read (characters); a saved state of the packaged game is under 20 KB.
MAX_STATE_CHARS = 4_000_000
#: Largest magnitude of any number in a state but the generator's (stats, counters, ids): a signed 32-bit int.
MAX_NUMBER = 2**31 - 1
#: Most cards a graveyard may hold in a saved state (every other zone is bounded by the rules).
MAX_GRAVEYARD = 10_000
#: Deepest nesting reported by position (a state document nests 5 levels; JSON parsing gives up far deeper).
_REPORTED_NESTING = 100
_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


def _card_dict(card: Card) -> dict[str, Any]:
    return {"uid": card.uid, "id": card.definition.id, "owner": card.owner, "cost": card.cost,
            "attack": card.attack, "health": card.health, "max_health": card.max_health,
            "keywords": card.keywords, "order_of_play": card.order_of_play, "armor": card.armor,
            "durability": card.durability, "attacks_made": card.attacks_made, "sleeping": card.sleeping,
            "frozen_on_turn": card.frozen_on_turn}


def state_to_json(state: GameState) -> str:
    """Serialise every field of the state except the log."""
    doc = {
        "format": FORMAT, "version": VERSION, "rules": asdict(state.rules), "rng": state.rng.state,
        "current": state.current, "turn": state.turn, "next_uid": state.next_uid, "next_order": state.next_order,
        "result": state.result.value if state.result else None, "winner": state.winner,
        "phase": state.phase.value,
        "players": [
            {**{k: getattr(p, k) for k in _PLAYER_INTS}, _HERO_POWER_USES: p.hero_power_uses, "marked": list(p.marked),
             "zones": {**{name: [_card_dict(c) for c in p.zone(zone)] for name, zone in _ZONE_NAMES.items()},
                       _HERO_POWER_ZONE: [_card_dict(c) for c in p.hero_power]}}
            for p in state.players
        ],
    }
    return json.dumps(doc, separators=(",", ":"))


def _expect(doc: dict, key: str, kind: type | tuple, where: str) -> Any:
    if key not in doc:
        raise StateError(f"{where}: missing field '{key}'")
    value = doc[key]
    if isinstance(value, bool) and kind is int or not isinstance(value, kind):
        raise StateError(f"{where}: field '{key}' should be {getattr(kind, '__name__', kind)}, got {shown(value)}")
    if kind is int and not -MAX_NUMBER <= value <= MAX_NUMBER:
        raise StateError(f"{where}: field '{key}' is {shown(value)}, out of range (-{MAX_NUMBER}..{MAX_NUMBER})")
    return value


def _no_unknown_keys(doc: dict, allowed: set[str] | tuple[str, ...], where: str) -> None:
    unknown = set(doc) - set(allowed)
    if unknown:
        raise StateError(f"{where}: unknown fields {sorted(map(str, unknown))}")


def _load_card(doc: Any, zone: Zones, cards: CardSet, where: str, heroes: HeroSet, *, power: bool = False) -> Card:
    if not isinstance(doc, dict):
        raise StateError(f"{where}: expected a card object, got {shown(doc)}")
    card_id = _expect(doc, "id", str, where)
    if power:
        definition = heroes.definitions.get(card_id)
        if definition is not None and definition.card_type is not CardType.HERO_POWER:
            definition = None
    elif zone is Zones.HERO:
        definition = HERO if card_id == HERO.id else heroes.definitions.get(card_id)
        if definition is not None and definition.card_type is not CardType.HERO:
            definition = None
    else:
        definition = cards.get(card_id)
    if definition is None:
        kind = "hero power" if power else "hero" if zone is Zones.HERO else "card"
        raise StateError(f"{where}: unknown {kind} id {shown(card_id)} (load with the card and hero sets the game "
                         f"used)")
    values = {}
    for key in _CARD_FIELDS:
        if key == "id":
            continue
        values[key] = _expect(doc, key, bool if key == "sleeping" else int, where)
    _no_unknown_keys(doc, _CARD_FIELDS, where)
    if not 0 <= values["keywords"] <= _ALL_KEYWORDS or values["keywords"] & ~_ALL_KEYWORDS:
        raise StateError(f"{where}: field 'keywords' {values['keywords']} is not a set of known keywords")
    return Card(values.pop("uid"), definition, values.pop("owner"), zone, **values)


def _zone_limits(rules: Rules) -> dict[str, int]:
    """Most cards each zone may hold under ``rules``: the rules' sizes (the deck never grows past its start)."""
    return {"hero": 1, "weapon": 1, "deck": rules.deck_size, "hand": rules.max_hand,
            "battlefield": rules.max_battlefield, "secrets": rules.max_secrets, "graveyard": MAX_GRAVEYARD}


def _load_player(doc: Any, index: int, cards: CardSet, rules: Rules, heroes: HeroSet) -> Player:
    where = f"players[{index}]"
    if not isinstance(doc, dict):
        raise StateError(f"{where}: expected an object")
    _no_unknown_keys(doc, {"zones", "marked", _HERO_POWER_USES, *_PLAYER_INTS}, where)
    zones = _expect(doc, "zones", dict, where)
    _no_unknown_keys(zones, {*_ZONE_NAMES, _HERO_POWER_ZONE}, f"{where}.zones")
    lists: dict[str, list[Card]] = {}
    limits = _zone_limits(rules)
    for name, zone in _ZONE_NAMES.items():
        raw = _expect(zones, name, list, f"{where}.zones")
        if len(raw) > limits[name]:
            raise StateError(f"{where}.zones.{name}: {len(raw):,} cards, at most {limits[name]:,} allowed")
        lists[name] = [_load_card(c, zone, cards, f"{where}.zones.{name}[{i}]", heroes) for i, c in enumerate(raw)]
    if len(lists["hero"]) != 1:
        raise StateError(f"{where}.zones.hero: expected exactly one hero, got {len(lists['hero'])}")
    player = Player(index, lists["hero"], lists["weapon"], lists["deck"], lists["hand"], lists["battlefield"],
                    lists["secrets"], lists["graveyard"])
    for key in _PLAYER_INTS:
        setattr(player, key, _expect(doc, key, int, where))
    raw_power = _expect(zones, _HERO_POWER_ZONE, list, f"{where}.zones") if _HERO_POWER_ZONE in zones else []
    if len(raw_power) > 1:
        raise StateError(f"{where}.zones.{_HERO_POWER_ZONE}: {len(raw_power):,} cards, at most 1 allowed")
    player.hero_power = [_load_card(c, Zones.NONE, cards, f"{where}.zones.{_HERO_POWER_ZONE}[{i}]", heroes, power=True)
                         for i, c in enumerate(raw_power)]
    player.hero_power_uses = _expect(doc, _HERO_POWER_USES, int, where) if _HERO_POWER_USES in doc else 0
    marked = doc.get("marked", [])  # absent in states saved before the mulligan existed
    if not isinstance(marked, list) or len(marked) > rules.max_hand or any(
            type(uid) is not int or not 0 < uid <= MAX_NUMBER for uid in marked):
        raise StateError(f"{where}: field 'marked' should be a list of at most {rules.max_hand} card ids, "
                         f"got {shown(marked)}")
    player.marked = list(marked)
    return player


def state_from_json(text: object, cards: CardSet, heroes: HeroSet | None = None) -> GameState:
    """Rebuild a state; anything malformed raises :class:`StateError` and no partial state escapes.

    Hostile documents are bounded: at most ``MAX_STATE_CHARS`` characters, numbers within ``MAX_NUMBER``,
    zones within the rules' sizes; a document nested too deeply to parse is refused naming where. Heroes and
    hero powers are looked up in ``heroes`` (the packaged heroes by default).
    """
    if heroes is None:
        from .heroes import default_heroes

        heroes = default_heroes()
    if not isinstance(text, (str, bytes, bytearray)):
        raise StateError(f"not a JSON document: expected str, bytes or bytearray, got {type(text).__name__}")
    if len(text) > MAX_STATE_CHARS:
        raise StateError(f"document of {len(text):,} characters, at most {MAX_STATE_CHARS:,} allowed")
    try:
        doc = json.loads(text)
    except RecursionError:
        raise StateError(f"not a JSON document: {_too_deep(text)}") from None
    except ValueError as exc:  # json's messages have fixed formats of a line or so, with positions: never long
        raise StateError(f"not a JSON document: {exc}") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise StateError(f"not a ccg-env state (expected \"format\": \"{FORMAT}\")")
    if doc.get("version") != VERSION:
        raise StateError(f"unsupported state version {shown(doc.get('version'))} (this engine reads {VERSION})")
    _no_unknown_keys(doc, _TOP_KEYS, "state")
    try:
        rules = Rules.from_dict(_expect(doc, "rules", dict, "state"), source="state.rules")
    except DataError as exc:
        raise StateError(str(exc)) from None
    players = _expect(doc, "players", list, "state")
    if len(players) != 2:
        raise StateError(f"state: expected 2 players, got {len(players)}")
    result = doc.get("result")
    if result is not None and (not isinstance(result, str) or result not in {r.value for r in Result}):
        raise StateError(f"state: unknown result {shown(result)}")
    winner = doc.get("winner")
    if winner is not None and (type(winner) is not int or winner not in (0, 1)):
        raise StateError(f"state: winner must be 0, 1 or null, got {shown(winner)}")
    phase = doc.get("phase", GamePhase.BATTLE.value)  # absent in states saved before the mulligan existed
    saved = [p.value for p in GamePhase if p is not GamePhase.DRAFT]  # a game in its draft is never saved
    if not isinstance(phase, str) or phase not in saved:
        raise StateError(f"state: unknown phase {shown(phase)} (expected one of {saved})")
    rng = doc.get("rng")
    if type(rng) is not int or not 0 <= rng < _RNG_LIMIT:
        raise StateError(f"state: field 'rng' must be a 64-bit unsigned integer, got {shown(rng)}")
    state = GameState(
        rules=rules, players=[_load_player(p, i, cards, rules, heroes) for i, p in enumerate(players)],
        rng=Rng(rng), current=_expect(doc, "current", int, "state"),
        turn=_expect(doc, "turn", int, "state"), next_uid=_expect(doc, "next_uid", int, "state"),
        next_order=_expect(doc, "next_order", int, "state"), result=Result(result) if result else None,
        winner=winner, log=[], phase=GamePhase(phase),
    )
    _check_consistency(state)
    return state


def _too_deep(text: str | bytes | bytearray) -> str:
    """Say where a document too deeply nested for the JSON parser first nests past ``_REPORTED_NESTING``."""
    if not isinstance(text, str):  # decoded as json.loads decoded it (UTF-8, 16 or 32), so positions are characters
        raw = bytes(text)
        text = raw.decode(json.detect_encoding(raw), errors="surrogatepass")  # json's own decoding, exactly
    depth = 0
    for token in _TOKENS.finditer(text):
        bracket = token.group()
        if bracket in "[{":
            depth += 1
            if depth > _REPORTED_NESTING:
                line = text.count("\n", 0, token.start()) + 1
                return f"nested more than {_REPORTED_NESTING} levels deep at character {token.start()} (line {line})"
        elif bracket in "]}":
            depth -= 1
    return "nested too deeply to parse"


def _check_consistency(state: GameState) -> None:
    """A saved state is one between root actions: every invariant must hold (ids, zones, limits, stats...)."""
    for check in STATE_CHECKS:
        try:
            check(state)
        except InvariantError as exc:
            raise StateError(f"state: inconsistent: {exc}") from None
