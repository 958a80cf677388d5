"""Rule: when one play sets off several enemy secrets, they all spring, one after the other in the order they were
played (the packaged pool has one secret per 'after your opponent plays / casts' trigger, so these cards are
custom: the rule holds for any card set)."""

from __future__ import annotations

import pytest

from ccg_env.engine import Choice, ChoiceKind, Game, load_cards
from tests.card_files import packaged_card_files

SECOND_SECRETS = """
set: second_secrets
cards:
  - id: tripwire
    name: Tripwire
    type: secret
    cost: 1
    text: "Secret: After your opponent plays a minion, deal 1 damage to it."
    abilities:
      - {trigger: secret_minion_played, effect: damage, amount: 1, select: trigger_card}
  - id: wisp_trick
    name: Wisp Trick
    type: secret
    cost: 1
    text: "Secret: After your opponent casts a spell, summon a Wisp."
    abilities:
      - {trigger: secret_spell_cast, effect: summon, card: wisp}
"""


@pytest.fixture(scope="module")
def cards(tmp_path_factory):
    path = tmp_path_factory.mktemp("cards") / "second_secrets.yaml"
    path.write_text(SECOND_SECRETS)
    return load_cards(packaged_card_files() + [path])


def play_first_card(cards, hand: str, secrets: list[str]) -> Game:
    """Player 0 plays ``hand`` (no target) against player 1's ``secrets``, placed in that order."""
    game = Game.from_scenario({"current": 0, "turn": 3, "players": [
        {"mana": 10, "hand": [hand]}, {"mana": 10, "secrets": secrets}]}, cards=cards)
    game.apply(Choice(ChoiceKind.PLAY, game.player(0).hand[0].uid, None))
    return game


def sprung(game: Game) -> list[str]:
    """The ids of player 1's cards whose abilities resolved, in the order they did."""
    return [e.action.card.definition.id for e in game.log
            if e.kind == "TriggerAbility" and e.cancelled is None and e.action.card.owner == 1]


@pytest.mark.parametrize("secrets", [["snipe", "tripwire"], ["tripwire", "snipe"]])
def test_after_a_minion_is_played_each_enemy_secret_springs_in_the_order_played(cards, secrets):
    """Snipe (4 damage) and Tripwire (1 damage) both hit the played Chillwind Yeti (4/5): it dies either way."""
    game = play_first_card(cards, "chillwind_yeti", secrets)
    assert sprung(game) == secrets
    assert game.player(0).battlefield == [] and [c.definition.id for c in game.player(0).graveyard] == ["chillwind_yeti"]
    assert game.player(1).secrets == []


@pytest.mark.parametrize("secrets, board", [
    (["cat_trick", "wisp_trick"], ["jungle_panther", "wisp"]),
    (["wisp_trick", "cat_trick"], ["wisp", "jungle_panther"]),
])
def test_after_a_spell_is_cast_each_enemy_secret_springs_in_the_order_played(cards, secrets, board):
    """Cat Trick and Wisp Trick both answer the Arcane Intellect: their minions enter in the secrets' order."""
    game = play_first_card(cards, "arcane_intellect", secrets)
    assert sprung(game) == secrets
    assert [c.definition.id for c in game.player(1).battlefield] == board
