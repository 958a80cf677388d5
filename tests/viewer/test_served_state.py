"""Rule: the state ``ccg-env serve`` sends the page shows the person's own hand and secrets but the enemy's only as
counts: no enemy hand or deck card is named or identified anywhere in the JSON (board, log or moves), from either
seat and at every step of a game. No browser: the session's state and the app's ``/api/state`` answer are read."""

from __future__ import annotations

import json
import random
from typing import Any, Iterator

import pytest

pytest.importorskip("flask", reason="ccg-env serve needs Flask")

from ccg_env.engine import Game  # noqa: E402
from ccg_env.viewer.server import PlaySession, create_app  # noqa: E402

SEED = 11
STEPS = 40


def random_opponent(seed: int):
    """An opponent that picks a uniformly random legal choice (seeded); the session's core applies it."""
    rng = random.Random(seed)

    def move(game: Game, seat: int):
        assert seat == game.current_player
        return rng.choice(game.legal_actions())

    return move


def uids_in(value: Any) -> Iterator[int]:
    """Every card uid the JSON names: ``uid`` fields and the moves' ``source`` and ``target``."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key in ("uid", "source", "target") and isinstance(item, int):
                yield item
            else:
                yield from uids_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from uids_in(item)


def hidden_cards(game: Game, person: int) -> tuple[set[int], set[str]]:
    """The uids of the enemy's hand and deck, and the names of its hand cards that no card the person may see has."""
    enemy = game.player(1 - person)
    secret = [*enemy.hand, *enemy.deck]
    public = {card.name for player in game.state.players for zone in ("hand", "deck", "battlefield", "graveyard",
                                                                        "weapon", "secrets", "hero_zone")
              for card in getattr(player, zone) if card not in secret}
    return {card.uid for card in secret}, {card.name for card in enemy.hand} - public


def check_served(answer: dict, game: Game, person: int) -> None:
    sides = answer["frame"]["sides"]
    own, enemy = sides[person], sides[1 - person]
    assert (own["seat"], enemy["seat"]) == (person, 1 - person)
    assert enemy["hand"] is None and enemy["secrets"] is None and enemy["marked"] is None
    assert enemy["hand_size"] == len(game.player(1 - person).hand)
    assert enemy["secret_count"] == len(game.player(1 - person).secrets)
    assert [card["uid"] for card in own["hand"]] == [card.uid for card in game.player(person).hand]
    hidden_uids, hidden_names = hidden_cards(game, person)
    assert not hidden_uids & set(uids_in(answer))
    log = " ".join(line["text"] for line in answer["frame"]["log"])
    assert not [name for name in hidden_names if name in log]


@pytest.mark.parametrize("person", [0, 1])
def test_the_served_state_shows_the_enemy_hand_only_as_a_count_at_every_step(tmp_path, person):
    names = ("you", "random") if person == 0 else ("random", "you")
    session = PlaySession(SEED, person, names, random_opponent(SEED), tmp_path / "saved")
    client = create_app(session).test_client()
    rng = random.Random(person)
    first = client.get("/api/state?log=all").get_json()
    check_served(first, session.game, person)
    assert first["frame"]["log"] and first["moves"]  # the whole log so far and the person's moves
    assert any(hidden_cards(session.game, person)[1])  # names that a leak would show
    for _ in range(STEPS):
        if session.game.is_over:
            break
        session.act(rng.choice(session.legal_ids()), session.version)
        answer = client.get("/api/state").get_json()
        check_served(answer, session.game, person)
        whole = json.loads(json.dumps(session.state(whole_log=True)))
        check_served(whole, session.game, person)
