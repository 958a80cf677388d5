"""Exact JSON round-trips of the game state, with clear errors for corrupt or foreign documents."""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any

from .cards import HERO, CardSet
from .errors import DataError, StateError
from .rng import Rng
from .rules import Rules
from .state import Card, GameState, Player, Result
from .vocabulary import Zones

FORMAT = "ccg-env/state"
VERSION = 1
_CARD_FIELDS = ("uid", "id", "owner", "cost", "attack", "health", "max_health", "keywords", "order_of_play",
                "armor", "durability", "attacks_made", "sleeping", "frozen_on_turn")
_ZONE_NAMES = {"hero": Zones.HERO, "weapon": Zones.WEAPON, "deck": Zones.DECK, "hand": Zones.HAND,
               "battlefield": Zones.BATTLEFIELD, "secrets": Zones.SECRETS, "graveyard": Zones.GRAVEYARD}
_PLAYER_INTS = ("mana", "max_mana", "fatigue")


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
        "players": [
            {**{k: getattr(p, k) for k in _PLAYER_INTS},
             "zones": {name: [_card_dict(c) for c in p.zone(zone)] for name, zone in _ZONE_NAMES.items()}}
            for p in state.players
        ],
    }
    return json.dumps(doc, separators=(",", ":"))


def _expect(doc: dict, key: str, kind: type | tuple, where: str) -> Any:
    if key not in doc:
        raise StateError(f"{where}: missing field '{key}'")
    value = doc[key]
    if isinstance(value, bool) and kind is int or not isinstance(value, kind):
        raise StateError(f"{where}: field '{key}' should be {getattr(kind, '__name__', kind)}, got {value!r}")
    return value


def _load_card(doc: Any, zone: Zones, cards: CardSet, where: str) -> Card:
    if not isinstance(doc, dict):
        raise StateError(f"{where}: expected a card object, got {doc!r}")
    card_id = _expect(doc, "id", str, where)
    definition = HERO if card_id == "hero" and zone is Zones.HERO else cards.get(card_id)
    if definition is None:
        raise StateError(f"{where}: unknown card id {card_id!r} (load with the card set the game used)")
    values = {}
    for key in _CARD_FIELDS:
        if key == "id":
            continue
        values[key] = _expect(doc, key, bool if key == "sleeping" else int, where)
    unknown = set(doc) - set(_CARD_FIELDS)
    if unknown:
        raise StateError(f"{where}: unknown fields {sorted(unknown)}")
    return Card(values.pop("uid"), definition, values.pop("owner"), zone, **values)


def _load_player(doc: Any, index: int, cards: CardSet) -> Player:
    where = f"players[{index}]"
    if not isinstance(doc, dict):
        raise StateError(f"{where}: expected an object")
    zones = _expect(doc, "zones", dict, where)
    lists: dict[str, list[Card]] = {}
    for name, zone in _ZONE_NAMES.items():
        raw = _expect(zones, name, list, f"{where}.zones")
        lists[name] = [_load_card(c, zone, cards, f"{where}.zones.{name}[{i}]") for i, c in enumerate(raw)]
    if len(lists["hero"]) != 1:
        raise StateError(f"{where}.zones.hero: expected exactly one hero, got {len(lists['hero'])}")
    player = Player(index, lists["hero"], lists["weapon"], lists["deck"], lists["hand"], lists["battlefield"],
                    lists["secrets"], lists["graveyard"])
    for key in _PLAYER_INTS:
        setattr(player, key, _expect(doc, key, int, where))
    return player


def state_from_json(text: str | bytes, cards: CardSet) -> GameState:
    """Rebuild a state; anything malformed raises :class:`StateError` and no partial state escapes."""
    try:
        doc = json.loads(text)
    except (TypeError, ValueError) as exc:
        raise StateError(f"not a JSON document: {exc}") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise StateError(f"not a ccg-env state (expected \"format\": \"{FORMAT}\")")
    if doc.get("version") != VERSION:
        raise StateError(f"unsupported state version {doc.get('version')!r} (this engine reads {VERSION})")
    try:
        rules = Rules.from_dict(_expect(doc, "rules", dict, "state"), source="state.rules")
    except DataError as exc:
        raise StateError(str(exc)) from None
    players = _expect(doc, "players", list, "state")
    if len(players) != 2:
        raise StateError(f"state: expected 2 players, got {len(players)}")
    result = doc.get("result")
    if result is not None and result not in {r.value for r in Result}:
        raise StateError(f"state: unknown result {result!r}")
    winner = doc.get("winner")
    if winner not in (None, 0, 1):
        raise StateError(f"state: winner must be 0, 1 or null, got {winner!r}")
    state = GameState(
        rules=rules, players=[_load_player(p, i, cards) for i, p in enumerate(players)],
        rng=Rng(_expect(doc, "rng", int, "state")), current=_expect(doc, "current", int, "state"),
        turn=_expect(doc, "turn", int, "state"), next_uid=_expect(doc, "next_uid", int, "state"),
        next_order=_expect(doc, "next_order", int, "state"), result=Result(result) if result else None,
        winner=winner, log=[],
    )
    _check_consistency(state)
    return state


def _check_consistency(state: GameState) -> None:
    if state.current not in (0, 1):
        raise StateError(f"state: current player must be 0 or 1, got {state.current}")
    seen: set[int] = set()
    for player in state.players:
        for zone, cards in player.zones():
            for card in cards:
                if card.uid in seen:
                    raise StateError(f"state: card uid {card.uid} appears twice")
                if card.uid >= state.next_uid:
                    raise StateError(f"state: card uid {card.uid} is not below next_uid {state.next_uid}")
                seen.add(card.uid)
    rules = state.rules
    for player in state.players:
        if len(player.hand) > rules.max_hand or len(player.battlefield) > rules.max_battlefield:
            raise StateError(f"state: player {player.index} holds more cards than the rules allow")
