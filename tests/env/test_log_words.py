"""The log in words: sentences per action, hidden cards as "a card" from a seat, turns numbered per player."""

from __future__ import annotations

from ccg_env.engine import Choice, ChoiceKind, Game
from ccg_env.engine.choices import END_TURN
from ccg_env.env.log_words import LogWords, player_turn


def _fireball_on_yeti() -> tuple[Game, int]:
    game = Game.from_scenario({"current": 0, "turn": 3, "players": [
        {"mana": 10, "hand": ["fireball"]}, {"mana": 10, "battlefield": ["chillwind_yeti"]}]})
    fireball = game.player(0).hand[0]
    yeti = game.player(1).battlefield[0]
    start = len(game.log)
    game.apply(Choice(ChoiceKind.PLAY, fireball.uid, yeti.uid))
    return game, start


def test_a_spell_on_a_minion_reads_as_sentences_with_the_reaction_tree_depths():
    game, start = _fireball_on_yeti()
    lines = LogWords(game, 0).lines(start)
    assert lines[0] == (0, "You play Fireball on Chillwind Yeti")
    assert (1, "Fireball is cast on Chillwind Yeti") in lines
    assert any(text == "Fireball deals 6 damage to Chillwind Yeti" and depth > 1 for depth, text in lines)
    assert (0, "Chillwind Yeti dies") in lines
    assert [depth for depth, _ in lines] == [entry.depth for entry in game.log[start:]]


def test_the_enemy_sees_the_same_play_from_its_side():
    game, start = _fireball_on_yeti()
    assert LogWords(game, 1).text(start)[0] == "Enemy plays Fireball on Chillwind Yeti"
    spectator = LogWords(game, None, ("Ann", "Bob")).text(start)
    assert spectator[0] == "Ann plays Fireball on Chillwind Yeti"


def test_enemy_draws_stay_hidden_from_a_seat_but_not_from_a_spectator():
    game = Game.new(0)
    enemy_hand = [card.name for card in game.player(1).hand if card.definition.collectible]
    seat_text = "\n".join(LogWords(game, 0).text())
    assert "Enemy draws 4 cards" in seat_text
    assert not any(name in seat_text for name in enemy_hand)
    spectator_text = "\n".join(LogWords(game, None, ("Ann", "Bob")).text())
    assert f"Bob draws 4 cards: {', '.join(enemy_hand[:-1])} and {enemy_hand[-1]}" in spectator_text


def test_turns_are_numbered_per_player():
    game = Game.new(0)
    for _ in range(3):
        game.apply(END_TURN)
    assert game.turn == 4
    text = LogWords(game, 0).text()
    assert [line.strip() for line in text if "turn" in line and "begins" in line] == [
        "Your turn 1 begins", "The enemy's turn 1 begins", "Your turn 2 begins", "The enemy's turn 2 begins"]
    later = LogWords(game, 1).text(len(game.log) - 3)  # numbering continues when reading from the middle
    assert "Your turn 2 begins" in [line.strip() for line in later]
    assert [player_turn(t, 0) for t in (1, 3, 5)] == [1, 2, 3]
    assert [player_turn(t, 1) for t in (2, 4, 6)] == [1, 2, 3]


def test_every_action_kind_of_a_full_game_has_a_sentence():
    import random

    game = Game.new(5)
    rng = random.Random(1)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    for viewer in (0, 1, None):
        for line in LogWords(game, viewer, ("Ann", "Bob")).text():
            assert "(" not in line.split(" ")[0], f"a raw repr in the log: {line!r}"
    assert LogWords(game, game.winner).text()[-1] == "Game over: you win"
