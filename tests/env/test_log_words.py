"""The log in words: sentences per action, hidden cards as "a card" from a seat, turns numbered per player."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from ccg_env.engine import Choice, ChoiceKind, Game, Rules, Zones
from ccg_env.engine.actions import Damage, GameAction
from ccg_env.engine.choices import END_TURN
from ccg_env.engine.log_words import LogWords, player_turn
from ccg_env.engine.view import GameView


@dataclass(slots=True, eq=False)
class Note(GameAction):
    """An action kind the log has no sentence for."""

    label: str = ""


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
    lines = GameView(game, 0).log_words().lines(start)
    assert lines[0] == (0, "You play Fireball on Chillwind Yeti")
    assert (1, "Fireball is cast on Chillwind Yeti") in lines
    assert any(text == "Fireball deals 6 damage to Chillwind Yeti" and depth > 1 for depth, text in lines)
    assert (2, "Chillwind Yeti dies") in lines  # issue 21: deaths resolve as the spell's text phase ends, in the cast
    assert [depth for depth, _ in lines] == [entry.depth for entry in game.log[start:]]


def test_the_enemy_sees_the_same_play_from_its_side():
    game, start = _fireball_on_yeti()
    assert GameView(game, 1).log_words().text(start)[0] == "Enemy plays Fireball on Chillwind Yeti"
    spectator = LogWords(game, None, ("Ann", "Bob")).text(start)
    assert spectator[0] == "Ann plays Fireball on Chillwind Yeti"


def test_enemy_draws_stay_hidden_from_a_seat_but_not_from_a_spectator():
    game = Game.new(0)
    enemy_hand = [card.name for card in game.player(1).hand if card.definition.collectible]
    seat_text = "\n".join(GameView(game, 0).log_words().text())
    assert "Enemy draws 4 cards" in seat_text
    assert not any(name in seat_text for name in enemy_hand)
    spectator_text = "\n".join(LogWords(game, None, ("Ann", "Bob")).text())
    assert f"Bob draws 4 cards: {', '.join(enemy_hand[:-1])} and {enemy_hand[-1]}" in spectator_text


def test_turns_are_numbered_per_player():
    game = Game.new(0)
    for _ in range(2 + 3):  # both keep their opening hands, then three turns end
        game.apply(END_TURN)
    assert game.turn == 4
    text = GameView(game, 0).log_words().text()
    assert [line.strip() for line in text if "turn" in line and "begins" in line] == [
        "Your turn 1 begins", "The enemy's turn 1 begins", "Your turn 2 begins", "The enemy's turn 2 begins"]
    later = GameView(game, 1).log_words().text(len(game.log) - 3)  # numbering continues when reading from the middle
    assert "Your turn 2 begins" in [line.strip() for line in later]
    for _ in range(4):
        game.apply(END_TURN)
    latest = [line.strip() for line in GameView(game, 0).log_words().text(len(game.log) - 3)]
    assert latest[:2] == ["End of your turn 4", "The enemy's turn 4 begins"]  # counted from the turns before
    assert [player_turn(t, 0) for t in (1, 3, 5)] == [1, 2, 3]
    assert [player_turn(t, 1) for t in (2, 4, 6)] == [1, 2, 3] and isinstance(player_turn(4, 1), int)
    assert (player_turn(1, 1), player_turn(2, 0)) == (0, 1)  # turns each seat has begun by then
    assert [player_turn(t, 1) for t in (2, 4, 6)] == [1, 2, 3]


def test_the_mulligan_in_words_names_only_what_each_seat_may_know():
    game = Game.new(3, log=True)
    for player in (0, 1):
        game.apply(Choice(ChoiceKind.MULLIGAN, game.player(player).hand[0].uid))
        game.apply(END_TURN)
    entry = next(e for e in game.log if e.kind == "Mulligan" and e.action.player == 1)
    put_back, drawn = entry.action.returned[0].definition.name, entry.action.drawn[0].definition.name
    own = [line.strip() for line in GameView(game, 1).log_words().text()]
    enemy = [line.strip() for line in GameView(game, 0).log_words().text()]
    spectator = [line.strip() for line in LogWords(game, None, ("Ann", "Bob")).text()]
    assert f"You put back {put_back} and draw {drawn}" in own and f"You mark {put_back} to put back" in own
    assert f"Bob puts back {put_back} and draws {drawn}" in spectator and f"Bob marks {put_back} to put back" in spectator
    assert "Enemy puts back 1 card and draws 1 in their place" in enemy and "Enemy marks a card to put back" in enemy
    assert not any(put_back in line or drawn in line for line in enemy if line.startswith("Enemy"))
    opening_draw = next(line for line in own if line.startswith("You draw"))
    assert put_back in opening_draw and "a card" not in opening_draw  # the seat saw the card it later put back
    hand, deck = game.player(1).hand, game.player(1).deck
    card = next(c for c in hand if c.uid == entry.action.drawn[0].uid)
    hand.remove(card)
    card.zone = Zones.DECK
    deck.append(card)  # no card does this yet: a card drawn in the mulligan back into the deck, hidden again
    assert f"You put back {put_back} and draw {drawn}" in [line.strip() for line in GameView(game, 1).log_words().text()]


def test_a_card_the_enemy_put_back_stays_a_card_in_its_mark_once_it_is_public():
    """Seat 1 marks a card and puts it back; seed 3 plays on until seat 1 draws and plays it (it is in the
    battlefield by turn 8). Seat 0 never learns which card was marked."""
    import random

    game = Game.new(3, log=True)
    game.apply(END_TURN)
    marked = game.player(1).hand[0].uid
    game.apply(Choice(ChoiceKind.MULLIGAN, marked))
    game.apply(END_TURN)
    rng = random.Random(3)
    while not game.is_over and game.state.find(marked).zone not in (Zones.BATTLEFIELD, Zones.GRAVEYARD):
        game.apply(rng.choice(game.legal_actions()))
    card = game.state.find(marked)
    assert card.zone is Zones.BATTLEFIELD and GameView(game, 0).log_words().card(marked) == card.name  # public now
    assert "Enemy marks a card to put back" in [line.strip() for line in GameView(game, 0).log_words().text()]


@pytest.mark.parametrize("put_back", [0, 2])
def test_the_mulligan_and_the_first_turn_change_from_each_reader(put_back):
    game = Game.new(3, log=True)
    game.apply(END_TURN)  # seat 0 keeps its opening hand
    for slot in range(put_back):
        game.apply(Choice(ChoiceKind.MULLIGAN, game.player(1).hand[slot].uid))
    game.apply(END_TURN)
    game.apply(END_TURN)  # seat 0 ends its first turn
    readers = [GameView(game, 0).log_words(), GameView(game, 1).log_words(), LogWords(game, None, ("Ann", "Bob"))]
    texts = [[line.strip() for line in words.text()] for words in readers]
    assert [text[0] for text in texts] == ["The game begins"] * 3
    assert [t[t.index("The game begins") + 3] for t in texts] == [
        "You keep your opening hand", "Enemy keeps the opening hand", "Ann keeps the opening hand"]
    ends = [line for text in texts for line in text if line.endswith("the turn")]
    assert ends == ["You end the turn", "Enemy ends the turn", "Ann ends the turn"]
    if put_back:
        assert "Enemy puts back 2 cards and draws 2 in their place" in texts[0]
    else:
        assert "You keep your opening hand" in texts[1] and "Bob keeps the opening hand" in texts[2]


def test_every_action_kind_of_a_full_game_has_a_sentence():
    import random

    game = Game.new(5)
    rng = random.Random(1)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    seats = [GameView(game, seat).log_words() for seat in (0, 1)]
    for words in [*seats, LogWords(game, None, ("Ann", "Bob"))]:
        for line in words.text():
            assert "(" not in line.split(" ")[0], f"a raw repr in the log: {line!r}"
    assert GameView(game, game.winner).log_words().text()[-1] == "Game over: you win"


def _played_in_words(card: str, target: str | None = None, mine: list | None = None, theirs: list | None = None,
                     seat: int = 0) -> list[str]:
    """Seat 0 plays ``card`` (at its hero, or at the first minion of either side); the play's sentences from ``seat``."""
    game = Game.from_scenario({"current": 0, "turn": 3, "players": [
        {"mana": 10, "hand": [card], "battlefield": mine or [], "health": 20}, {"mana": 10, "battlefield": theirs or []}]})
    targets = {None: None, "my hero": game.player(0).hero, "my minion": (game.player(0).battlefield or [None])[0],
               "enemy minion": (game.player(1).battlefield or [None])[0]}
    start = len(game.log)
    game.apply(Choice(ChoiceKind.PLAY, game.player(0).hand[0].uid, targets[target] and targets[target].uid))
    return [line.strip() for line in GameView(game, seat).log_words().text(start)]


@pytest.mark.parametrize("card, target, mine, theirs, sentence", [
    ("holy_light", "my hero", [], [], "Holy Light restores 6 health to your hero"),
    ("hand_of_protection", "my minion", ["chillwind_yeti"], [], "Hand of Protection gives Chillwind Yeti divine_shield"),
    ("frostbolt", "enemy minion", [], ["chillwind_yeti"], "Frostbolt freezes Chillwind Yeti"),
    ("execute", "enemy minion", [], [{"card": "chillwind_yeti", "health": 2}], "Execute destroys Chillwind Yeti"),
    ("shield_block", None, [], [], "Your hero gains 5 armor"),
])
def test_each_effect_has_its_own_sentence(card, target, mine, theirs, sentence):
    assert sentence in _played_in_words(card, target, mine, theirs)


def _play_seen_by_all(card: str, target: str | None = None, mine: list | None = None, theirs: list | None = None,
                      hand: tuple = (), deck: list | None = None) -> list[list[str]]:
    """Seat 0 plays ``card``; the play's sentences seen by seat 0, seat 1 and a spectator (Ann and Bob)."""
    me = {"mana": 10, "hand": [card, *hand], "battlefield": mine or [], **({"deck": deck} if deck else {})}
    game = Game.from_scenario({"current": 0, "turn": 3, "players": [me, {"mana": 10, "battlefield": theirs or []}]})
    targets = {None: None, "my minion": (game.player(0).battlefield or [None])[0],
               "enemy minion": (game.player(1).battlefield or [None])[0]}
    start = len(game.log)
    game.apply(Choice(ChoiceKind.PLAY, game.player(0).hand[0].uid, targets[target] and targets[target].uid))
    readers = [GameView(game, 0).log_words(), GameView(game, 1).log_words(), LogWords(game, None, ("Ann", "Bob"))]
    return [[line.strip() for line in words.text(start)] for words in readers]


@pytest.mark.parametrize("play, seen", [
    (("blessing_of_might", "my minion", ["chillwind_yeti"]),
     ["Blessing of Might is cast on Chillwind Yeti", "Blessing of Might gives Chillwind Yeti +3/+0"] * 3),
    (("fiery_war_axe",), ["You equip Fiery War Axe", "Enemy equips Fiery War Axe", "Ann equips Fiery War Axe"]),
    (("innervate",), ["Innervate is cast", "You gain 2 mana", "Innervate is cast", "Enemy gains 2 mana",
                      "Innervate is cast", "Ann gains 2 mana"]),
    (("arcane_explosion", None, [], ["wisp", "wisp"]),
     ["Arcane Explosion deals 1 damage to Wisp; Arcane Explosion deals 1 damage to Wisp", "Wisp and Wisp die"] * 3),
    (("arcane_intellect", None, [], [], ("wisp",) * 9, ["chillwind_yeti", "river_crocolisk"]),
     ["You draw River Crocolisk", "Your hand is full: Chillwind Yeti burns",
      "Enemy draws a card", "The enemy's hand is full: Chillwind Yeti burns",
      "Ann draws River Crocolisk", "Ann's hand is full: Chillwind Yeti burns"]),
    # new rows go last: a row inserted earlier would take an old row's id, which the mutation run maps by name
    (("power_word_shield", "my minion", ["wisp"]), ["Power Word: Shield gives Wisp +0/+2"] * 3),
    (("shield_block",), ["Shield Block triggers (battlecry: gain armor)"] * 3),
])
def test_sentences_from_each_seat_and_a_spectator(play, seen):
    """``seen`` lists, in order, the sentences each reader (seat 0, seat 1, the spectator) must read among its lines."""
    readers = _play_seen_by_all(*play)
    per_reader = len(seen) // 3
    for lines, expected in zip(readers, [seen[i * per_reader:(i + 1) * per_reader] for i in range(3)]):
        assert [line for line in lines if line in expected] == expected


def test_one_minion_dying_reads_in_the_singular():
    assert "Wisp dies" in _play_seen_by_all("arcane_explosion", theirs=["wisp", "chillwind_yeti"])[0]


def test_a_hero_attacking_with_a_weapon_on_its_last_use_reads_as_sentences_that_begin_with_a_capital():
    game = Game.from_scenario({"current": 0, "turn": 3, "players": [{"mana": 10, "weapon": "fiery_war_axe"}, {}]})
    game.player(0).weapon[0].durability = 1
    start = len(game.log)
    game.apply(Choice(ChoiceKind.ATTACK, game.player(0).hero.uid, game.player(1).hero.uid))
    assert GameView(game, 0).log_words().text(start) == [
        "Your hero attacks the enemy hero", "  Your hero deals 3 damage to the enemy hero",
        "  An effect destroys Fiery War Axe"]  # the weapon breaks by no card's doing
    assert LogWords(game, None, ("Ann", "Bob")).text(start)[0] == "Ann's hero attacks Bob's hero"


def test_fatigue_and_a_hero_power_in_words_from_each_reader():
    game = Game.from_scenario({"current": 0, "turn": 3, "players": [
        {"mana": 10, "hero": "mage", "hand": ["shield_block"]}, {"mana": 10, "battlefield": ["river_crocolisk"]}]})
    start = len(game.log)
    game.apply(Choice(ChoiceKind.PLAY, game.player(0).hand[0].uid))
    game.apply(Choice(ChoiceKind.HERO_POWER, game.player(0).hero_power[0].uid, game.player(1).battlefield[0].uid))
    readers = [GameView(game, 0).log_words(), GameView(game, 1).log_words(), LogWords(game, None, ("Ann", "Bob"))]
    texts = [[line.strip() for line in words.text(start)] for words in readers]
    for text, (subject, has, hero, uses) in zip(texts, [("You", "have", "your hero", "use"),
                                                        ("Enemy", "has", "the enemy hero", "uses"),
                                                        ("Ann", "has", "Ann's hero", "uses")]):
        expected = [f"{subject} {has} no cards left: fatigue", f"Fatigue deals 1 damage to {hero}",
                    f"{subject} {uses} the hero power Fireblast on River Crocolisk",
                    "Fireblast deals 1 damage to River Crocolisk"]
        assert [line for line in text if line in expected] == expected


def test_the_coin_is_named_to_its_owner_and_a_spectator_only():
    game = Game.new(0)
    for _ in range(2):
        game.apply(END_TURN)  # both keep their opening hands; the battle begins with the coin for seat 1
    readers = [GameView(game, 0).log_words(), GameView(game, 1).log_words(), LogWords(game, None, ("Ann", "Bob"))]
    gets = [[line.strip() for line in words.text() if " get" in line] for words in readers]
    assert gets == [["Enemy gets a card"], ["You get The Coin"], ["Bob gets The Coin"]]


@pytest.mark.parametrize("caster, caster_health, endings", [
    (0, 30, ["Game over: you win", "Game over: Enemy wins", "Game over: Ann wins"]),
    (1, 30, ["Game over: Enemy wins", "Game over: you win", "Game over: Bob wins"]),
    (0, 3, ["Game over: a draw"] * 3),  # Hellfire kills both heroes at once
])
def test_the_game_over_line_from_each_reader(caster, caster_health, endings):
    players = [{"mana": 10, "hand": ["hellfire"], "health": caster_health}, {"health": 3}]
    game = Game.from_scenario({"current": caster, "turn": 3, "players": players[::1 - 2 * caster]})
    game.apply(Choice(ChoiceKind.PLAY, game.player(caster).hand[0].uid))
    readers = [GameView(game, 0).log_words(), GameView(game, 1).log_words(), LogWords(game, None, ("Ann", "Bob"))]
    assert [words.text()[-1].strip() for words in readers] == endings


def test_an_attack_names_attacker_and_defender():
    game = Game.from_scenario({"current": 0, "turn": 3, "players": [
        {"mana": 10, "battlefield": [{"card": "chillwind_yeti", "sleeping": False}]},
        {"mana": 10, "battlefield": ["river_crocolisk"]}]})
    start = len(game.log)
    game.apply(Choice(ChoiceKind.ATTACK, game.player(0).battlefield[0].uid, game.player(1).hero.uid))
    assert GameView(game, 0).log_words().text(start)[0] == "Chillwind Yeti attacks the enemy hero"
    assert GameView(game, 1).log_words().text(start)[0] == "Chillwind Yeti attacks your hero"


def test_a_trigger_names_its_card_ability_and_target_and_says_when_it_fizzles():
    game = Game.from_scenario({"current": 0, "turn": 3, "players": [
        {"mana": 10, "hand": ["frostbolt", "arcane_explosion"]}, {"battlefield": ["river_crocolisk"]}]})
    start = len(game.log)
    game.apply(Choice(ChoiceKind.PLAY, game.player(0).hand[0].uid, game.player(1).battlefield[0].uid))
    game.apply(Choice(ChoiceKind.PLAY, game.player(0).hand[0].uid))
    triggers = [line.strip() for line in GameView(game, 0).log_words().text(start) if " triggers " in line]
    assert triggers == [
        "Frostbolt triggers (battlecry: damage) on River Crocolisk",
        "Frostbolt triggers (battlecry: freeze) on River Crocolisk but fizzles (its target is gone)",  # it died
        "Arcane Explosion triggers (battlecry: damage)"]  # no target: no 'on'
    assert GameView(game, 0).log_in_words(start + 2)[0] == "    Frostbolt triggers (battlecry: damage) on River Crocolisk"


@pytest.mark.parametrize("deck, seen", [
    ([], ["You draw nothing", "Enemy draws nothing", "Ann draws nothing"]),
    (["wisp"], ["You draw Wisp", "Enemy draws a card", "Ann draws Wisp"]),
    (["wisp", "river_crocolisk"], ["You draw 2 cards: River Crocolisk and Wisp", "Enemy draws 2 cards",
                                   "Ann draws 2 cards: River Crocolisk and Wisp"]),
])
def test_a_draw_from_each_reader(deck, seen):
    """Arcane Intellect draws two: none, one or both from the deck (the deck's last card is drawn first)."""
    readers = _play_seen_by_all("arcane_intellect", deck=deck or None)  # no deck given: an empty one
    assert [lines[3] for lines in readers] == seen
    assert [lines[0] for lines in readers] == ["You play Arcane Intellect", "Enemy plays Arcane Intellect",
                                               "Ann plays Arcane Intellect"]


def test_a_card_the_enemy_drew_stays_a_card_in_its_draw_after_it_is_played():
    game = Game.from_scenario({"current": 0, "turn": 3, "players": [
        {"mana": 10, "hand": ["arcane_intellect"], "deck": ["wisp"]}, {}]})
    start = len(game.log)
    game.apply(Choice(ChoiceKind.PLAY, game.player(0).hand[0].uid))
    game.apply(Choice(ChoiceKind.PLAY, game.player(0).hand[0].uid))  # the Wisp it drew, now public
    enemy_view = [line.strip() for line in GameView(game, 1).log_words().text(start)]
    assert "Enemy draws a card" in enemy_view and "Enemy plays Wisp" in enemy_view


def test_a_secret_is_named_to_its_owner_only():
    assert _played_in_words("ice_barrier")[1] == "You place a secret (Ice Barrier)"
    assert _played_in_words("ice_barrier", seat=1)[1] == "Enemy places a secret"


@dataclass(slots=True, eq=False)
class Mark(GameAction):
    """An action kind the log has no sentence for, with two fields."""

    label: str = ""
    count: int = 0


@dataclass(slots=True, eq=False)
class Bare(GameAction):
    """An action kind the log has no sentence for, with no field but its player."""


def test_an_action_without_a_sentence_reads_as_its_kind_and_fields():
    game = Game.from_scenario({"current": 0, "turn": 3, "players": [{"mana": 10}, {"mana": 10}]})
    start = len(game.log)
    game.perform(Note(1, "hello"))
    game.perform(Mark(0, "a", 2))
    game.perform(Bare(0))
    assert GameView(game, 0).log_words().text(start) == ["Note(Enemy, label=hello)", "Mark(You, label=a, count=2)",
                                                         "Bare(You)"]


def test_naming_helpers_and_a_slice_of_the_log():
    game, start = _fireball_on_yeti()
    words = LogWords(game, None, ("Ann", "Bob"))
    fireball = game.player(0).graveyard[0].uid
    assert (words.card(None), words.card("x"), words.card(fireball)) == ("nothing", "x", "Fireball")
    assert words.card(fireball, hidden=True) == "a card"
    assert (words.cards([]), words.cards(fireball), words.cards([fireball])) == ("nothing", "Fireball", "Fireball")
    assert words.lines() == words.lines(0, len(game.log)) and len(words.lines()) == len(game.log)
    enemy_hand = [card.uid for card in Game.new(0).player(1).hand]
    seat = GameView(Game.new(0), 0).log_words()
    assert seat.cards(enemy_hand[:2]) == "a card and a card" and seat.card(enemy_hand[0]) == "a card"
    assert words.lines(start, start + 2) == [(0, "Ann plays Fireball on Chillwind Yeti"),
                                             (1, "Fireball is cast on Chillwind Yeti")]
    assert words.text(start, start + 2) == ["Ann plays Fireball on Chillwind Yeti",
                                            "  Fireball is cast on Chillwind Yeti"]
    assert len(words.lines(start)) == len(game.log) - start


def test_a_seat_needs_the_views_visibility_rule():
    game = Game.new(0)
    with pytest.raises(ValueError, match="needs can_see"):
        LogWords(game, 0)
    with pytest.raises(ValueError, match="viewer must be 0, 1 or None"):
        LogWords(game, 2, can_see=lambda card: True)


@pytest.mark.parametrize("seat", [0, 1])
def test_a_game_cut_at_the_turn_limit_ends_its_log_with_a_draw_for_both_seats(seat):
    game = Game.from_scenario({"current": seat, "turn": 3, "players": [{}, {}]}, rules=Rules(turn_limit=3))
    start = len(game.log)
    game.apply(END_TURN)
    assert game.state.result is not None and game.state.result.value == "turn_limit"
    for viewer in (0, 1):
        assert GameView(game, viewer).log_words().lines(start)[-1][1] == "Game over: the turn limit is reached, a draw"


def test_a_hero_power_without_a_target_reads_without_one():
    game = Game.from_scenario({"current": 0, "turn": 3, "players": [{"mana": 10, "hero": "warrior"}, {}]})
    start = len(game.log)
    game.apply(Choice(ChoiceKind.HERO_POWER, game.player(0).hero_power[0].uid))
    assert GameView(game, 1).log_words().text(start)[0] == "Enemy uses the hero power Armor Up!"


def test_a_damage_action_without_hits_reads_as_no_damage():
    game = Game.from_scenario({"current": 0, "turn": 3, "players": [{}, {}]})
    start = len(game.log)
    game.perform(Damage(0, []))
    assert GameView(game, 0).log_words().text(start) == ["No damage"]
