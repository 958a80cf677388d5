"""Rule: a frozen character loses its next attack, whichever player's turn it was frozen on.

Frozen during its owner's own turn after it attacked (it attacked a freezing minion), it stays frozen through the
enemy's turn and the owner's next turn, and thaws at the end of that turn. Frozen during its owner's own turn before
it attacked (a Frost Elemental's battlecry on it), it has lost that turn's attack and thaws at the end of that turn,
as in Hearthstone (issue 21). Frozen during the enemy's turn, it stays frozen through the owner's next turn and
thaws at its end. Either way the owner's turn after that finds it free to attack.
Checked for a minion and for a hero with a weapon, through the public Game API only.
"""

from __future__ import annotations

import pytest

from ccg_env.engine import Choice, ChoiceKind, Game, IllegalActionError, Keyword
from ccg_env.engine.actions import GiveKeyword

OWNER, ENEMY = 0, 1
END_TURN = Choice(ChoiceKind.END_TURN)


def new_board(hand: tuple[str, ...] = (), mana: int = 0) -> Game:
    """Player 0 has an awake yeti and an axe; player 1 an awake water elemental (freezes what it damages)."""
    deck = ["wisp"] * 6  # no fatigue during the test
    return Game.from_scenario({"current": OWNER, "turn": 3, "players": [
        {"mana": mana, "max_mana": mana, "hand": list(hand), "deck": deck, "weapon": "fiery_war_axe",
         "battlefield": [{"card": "chillwind_yeti", "sleeping": False}]},
        {"mana": 0, "deck": deck, "battlefield": [{"card": "water_elemental", "sleeping": False}]},
    ]}, seed=0)


def character(game: Game, who: str):
    owner = game.player(OWNER)
    return owner.hero if who == "hero" else owner.battlefield[0]


def water_elemental(game: Game):
    return game.player(ENEMY).battlefield[0]


def may_attack(game: Game, card) -> bool:
    """Whether the player on turn is offered any attack with ``card``."""
    return any(c.kind is ChoiceKind.ATTACK and c.source == card.uid for c in game.legal_actions())


def end_turn(game: Game) -> None:
    game.apply(END_TURN)


@pytest.mark.parametrize("who", ["minion", "hero"])
def test_frozen_on_its_own_turn_it_misses_its_owners_next_turn(who):
    game = new_board()
    me = character(game, who)
    game.apply(Choice(ChoiceKind.ATTACK, me.uid, water_elemental(game).uid))  # hits back and freezes
    me = character(game, who)
    assert me.is_frozen, "damaged by the water elemental on its own turn"
    end_turn(game)
    assert game.current_player == ENEMY and character(game, who).is_frozen, "still frozen on the enemy's turn"
    end_turn(game)
    me = character(game, who)
    assert game.current_player == OWNER and me.is_frozen, "still frozen on its owner's next turn"
    assert not may_attack(game, me)
    with pytest.raises(IllegalActionError):
        game.apply(Choice(ChoiceKind.ATTACK, me.uid, game.player(ENEMY).hero.uid))
    end_turn(game)
    assert not character(game, who).is_frozen, "thawed at the end of the turn it lost"
    end_turn(game)
    me = character(game, who)
    assert game.current_player == OWNER and may_attack(game, me)
    game.apply(Choice(ChoiceKind.ATTACK, me.uid, game.player(ENEMY).hero.uid))


@pytest.mark.parametrize("who", ["minion", "hero"])
def test_frozen_on_the_enemys_turn_it_misses_its_owners_next_turn(who):
    game = new_board()
    end_turn(game)
    target = character(game, who)
    game.apply(Choice(ChoiceKind.ATTACK, water_elemental(game).uid, target.uid))
    assert character(game, who).is_frozen, "damaged by the water elemental on the enemy's turn"
    end_turn(game)
    me = character(game, who)
    assert game.current_player == OWNER and me.is_frozen, "still frozen on its owner's next turn"
    assert not may_attack(game, me)
    end_turn(game)
    assert not character(game, who).is_frozen, "thawed at the end of the turn it lost"
    end_turn(game)
    me = character(game, who)
    assert game.current_player == OWNER and may_attack(game, me)


def test_the_enemys_turn_end_does_not_thaw_the_owners_characters():
    """Only the end of the owner's own turn thaws: the enemy ending its turn right after freezing changes nothing."""
    game = new_board()
    end_turn(game)
    yeti = character(game, "minion")
    game.apply(Choice(ChoiceKind.ATTACK, water_elemental(game).uid, yeti.uid))
    end_turn(game)
    assert character(game, "minion").is_frozen


def test_a_frozen_characters_freeze_survives_a_json_round_trip_and_a_clone():
    """The freeze's timing is part of the state: a restored or cloned game thaws on the same turn."""
    game = new_board()
    me = character(game, "minion")
    game.apply(Choice(ChoiceKind.ATTACK, me.uid, water_elemental(game).uid))
    for copy in (Game.from_json(game.to_json()), game.clone()):
        end_turn(copy)
        end_turn(copy)
        assert character(copy, "minion").is_frozen and not may_attack(copy, character(copy, "minion"))
        end_turn(copy)
        end_turn(copy)
        assert may_attack(copy, character(copy, "minion"))


def freeze_own(game: Game, target) -> None:
    """Play the Frost Elemental in hand with its battlecry freezing ``target``."""
    elemental = next(c for c in game.player(OWNER).hand if c.definition.id == "frost_elemental")
    game.apply(Choice(ChoiceKind.PLAY, elemental.uid, target.uid))


@pytest.mark.parametrize("who", ["minion", "hero"])
def test_frozen_on_its_own_turn_before_attacking_it_thaws_at_that_turns_end(who):
    """Frozen before it attacked on its own turn, it loses only that turn's attack (issue 21: it used to stay
    frozen through its owner's next turn too)."""
    game = new_board(("frost_elemental",), mana=6)
    freeze_own(game, character(game, who))
    me = character(game, who)
    assert me.is_frozen and not may_attack(game, me), "frozen by the battlecry on its own turn, before attacking"
    end_turn(game)
    assert game.current_player == ENEMY and not character(game, who).is_frozen, "thawed at the end of that turn"
    end_turn(game)
    me = character(game, who)
    assert game.current_player == OWNER and may_attack(game, me)
    game.apply(Choice(ChoiceKind.ATTACK, me.uid, game.player(ENEMY).hero.uid))


def test_frozen_on_its_own_turn_after_one_of_two_attacks_it_stays_frozen():
    """A windfury minion that attacked once and is then frozen still had an attack left, but it had attacked that
    turn: it stays frozen through its owner's next turn."""
    game = new_board(("frost_elemental",), mana=6)
    yeti = character(game, "minion")
    game.perform(GiveKeyword(OWNER, None, [yeti], int(Keyword.WINDFURY)))
    game.apply(Choice(ChoiceKind.ATTACK, yeti.uid, game.player(ENEMY).hero.uid))
    assert may_attack(game, yeti), "windfury: a second attack left"
    freeze_own(game, yeti)
    end_turn(game)
    end_turn(game)
    yeti = character(game, "minion")
    assert game.current_player == OWNER and yeti.is_frozen and not may_attack(game, yeti)
    end_turn(game)
    assert not character(game, "minion").is_frozen
