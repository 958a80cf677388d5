"""Replay files' rules (:mod:`ccg_env.viewer.replay`) stated one by one: every field a frame shows, read here from the
engine's own state at every step; each bound of a replay file at its edge; the recorded packaged decks; the hint a
replay that does not replay gives; and what a saved file holds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ccg_env.agents.arena import build_agent
from ccg_env.agents.match import MatchRunner
from ccg_env.engine import Game
from ccg_env.engine.cards import keyword_names
from ccg_env.engine.log_words import player_turn
from ccg_env.viewer.replay import (MAX_NAME_CHARS, MAX_PATH_CHARS, MAX_REPLAY_BYTES, MAX_SOURCE_FILES, Replay,
                                   build_frames, load_replay, parse_replay, recorded_packaged_decks, replay_document,
                                   replay_games, save_replay)

FRAME_KEYS = {"step", "turn", "player_turn", "current", "over", "mulligan", "result", "winner", "headline", "log",
              "sides"}
SIDE_KEYS = {"seat", "name", "hero", "hero_power", "weapon", "mana", "max_mana", "deck_size", "fatigue", "hand_size",
             "hand", "marked", "secret_count", "secrets", "battlefield"}
HERO_KEYS = {"uid", "name", "health", "max_health", "armor", "attack", "frozen", "defeated", "class"}
CARD_KEYS = {"uid", "name", "type", "cost", "attack", "health", "max_health", "durability", "keywords", "sleeping",
             "frozen", "text"}
POWER_KEYS = {"uid", "name", "cost", "text", "uses", "uses_per_turn"}


def play(seed: int, decks: list[str] | None = None, seats=("heuristic", "heuristic")) -> tuple[Game, list]:
    """A whole game between ``seats`` from ``seed`` (with packaged ``decks``), and its choices."""
    runner = MatchRunner()
    agents = [build_agent(name) for name in seats]
    for seat, agent in enumerate(agents):
        agent.reset(seed=seed * 2 + seat)
    game = runner.new_game(seed, log=True, decks=[decks[0], decks[-1]] if decks else None)
    choices = []
    while not game.is_over:
        choices.append(runner.step(game, agents[game.current_player], seed))
    return game, choices


def saved_replay(tmp_path: Path, seed: int, decks: list[str], names=("heuristic", "heuristic")) -> Path:
    """A replay file of a heuristic game (seats recorded as ``names``) that records its packaged ``decks``."""
    game, choices = play(seed, decks)
    return save_replay(tmp_path / f"game{seed}-{len(decks)}.json", seed, names, choices, game, {"decks": decks})


# --- frames -------------------------------------------------------------------------------------------------------

def expected_card(card) -> dict:
    return {"uid": card.uid, "name": card.definition.name, "type": card.definition.card_type.value, "cost": card.cost,
            "attack": card.attack, "health": card.health, "max_health": card.max_health,
            "durability": card.durability, "keywords": keyword_names(card.keywords), "sleeping": card.sleeping,
            "frozen": card.frozen_on_turn > 0, "text": card.definition.text}


def expected_side(game: Game, index: int, name: str, visible: bool) -> dict:
    player = game.state.players[index]
    hero = player.hero
    power = player.hero_power[0] if player.hero_power else None
    return {
        "seat": index, "name": name,
        "hero": {"uid": hero.uid, "name": hero.definition.name, "health": max(hero.health, 0),
                 "max_health": hero.max_health, "armor": hero.armor, "attack": hero.attack,
                 "frozen": hero.frozen_on_turn > 0, "defeated": hero.health <= 0,
                 "class": hero.definition.card_class.value},
        "hero_power": None if power is None else {
            "uid": power.uid, "name": power.definition.name, "cost": power.cost, "text": power.definition.text,
            "uses": player.hero_power_uses, "uses_per_turn": power.definition.uses_per_turn},
        "weapon": expected_card(player.weapon[0]) if player.weapon else None,
        "mana": player.mana, "max_mana": player.max_mana, "deck_size": len(player.deck), "fatigue": player.fatigue,
        "hand_size": len(player.hand),
        "hand": [expected_card(card) for card in player.hand] if visible else None,
        "marked": list(player.marked) if visible else None,
        "secret_count": len(player.secrets),
        "secrets": [card.definition.name for card in player.secrets] if visible else None,
        "battlefield": [expected_card(card) for card in player.battlefield],
    }


def check_frame(shown: dict, game: Game, seat: int | None, names: tuple[str, str], step: int) -> None:
    state = game.state
    assert set(shown) == FRAME_KEYS
    assert {key: shown[key] for key in FRAME_KEYS - {"log", "headline", "sides"}} == {
        "step": step, "turn": state.turn, "player_turn": player_turn(state.turn, state.current),
        "current": state.current, "over": game.is_over, "mulligan": game.in_mulligan,
        "result": state.result.value if state.result else None, "winner": state.winner}
    assert [side["seat"] for side in shown["sides"]] == [0, 1]  # seat order, whoever looks
    for index, side in enumerate(shown["sides"]):
        assert set(side) == SIDE_KEYS and set(side["hero"]) == HERO_KEYS
        assert side == expected_side(game, index, names[index], seat is None or index == seat)
        for card in [*(side["hand"] or []), *side["battlefield"], *([side["weapon"]] if side["weapon"] else [])]:
            assert set(card) == CARD_KEYS
        assert side["hero_power"] is None or set(side["hero_power"]) == POWER_KEYS


@pytest.mark.parametrize("seed, decks", [(3, ["traps", "ramp"]), (8, ["control", "aggro"]), (1, ["spells", "control"]),
                                         (5, ["spells"])])
def test_rule_every_frame_shows_the_engines_state_at_its_step_for_a_spectator_and_each_seat(tmp_path, seed, decks):
    replay = load_replay(saved_replay(tmp_path, seed, decks, names=("alice", "bob")))
    for seat in (None, 0, 1):
        frames = build_frames(replay, seat)
        assert len(frames) == len(replay.choices) + 1
        for (step, game), shown in zip(replay_games(replay), frames):
            check_frame(shown, game, seat, replay.seats, step)


def test_rule_the_games_cover_weapons_secrets_armor_and_frozen_characters(tmp_path):
    """The games above show each kind of field away from its default at some step (else they check little)."""
    seen = set()
    for seed, decks in [(3, ["traps", "ramp"]), (8, ["control", "aggro"]), (1, ["spells", "control"])]:
        replay = load_replay(saved_replay(tmp_path, seed, decks))
        for shown in build_frames(replay, None):
            for side in shown["sides"]:
                seen |= {"weapon"} if side["weapon"] else set()
                seen |= {"secret"} if side["secret_count"] else set()
                seen |= {"armor"} if side["hero"]["armor"] else set()
                seen |= {"frozen"} if any(c["frozen"] for c in side["battlefield"]) else set()
                seen |= {"defeated"} if side["hero"]["defeated"] else set()
    assert seen == {"weapon", "secret", "armor", "frozen", "defeated"}


def test_rule_a_frames_headline_is_its_first_top_level_log_line_or_no_action(tmp_path):
    from ccg_env.viewer.replay import frame

    game = Game.new(1, log=True)
    assert frame(game, None, ("a", "b"), 0, [])["headline"] == "(no action)"
    assert frame(game, None, ("a", "b"), 0, [(1, "inner"), (0, "top"), (0, "second")])["headline"] == "top"
    assert frame(game, None, ("a", "b"), 0, [(1, "inner")])["headline"] == "(no action)"
    assert frame(game, None, ("a", "b"), 0, [(1, "inner"), (0, "top")])["log"] == [
        {"depth": 1, "text": "inner"}, {"depth": 0, "text": "top"}]


def test_rule_each_frame_logs_only_the_lines_of_its_own_step(tmp_path):
    from ccg_env.engine.log_words import LogWords

    replay = load_replay(saved_replay(tmp_path, 3, ["traps", "ramp"]))
    frames = build_frames(replay, None)
    *_, (_, end) = replay_games(replay)
    whole = [{"depth": depth, "text": text} for depth, text in LogWords(end, None, replay.seats).lines(0, len(end.log))]
    assert [line for shown in frames for line in shown["log"]] == whole  # each line once, at the step that logged it
    assert sum(1 for shown in frames if len(shown["log"]) > 1) > 1
    assert frames[-1]["log"][-1]["text"].startswith("Game over")
    assert all(shown["headline"] == next((line["text"] for line in shown["log"] if line["depth"] == 0),
                                         "(no action)") for shown in frames)


def test_rule_build_frames_takes_seat_0_1_or_none():
    replay = Replay("r", 1, ("a", "b"), (), None, None)
    for seat in (2, -1, "0"):
        with pytest.raises(ValueError, match=r"seat must be 0, 1 or None \(spectator\)"):
            build_frames(replay, seat)


# --- the file's bounds and fields -----------------------------------------------------------------------------------

def document(seed: int = 3) -> dict:
    game = Game.new(seed, log=True)
    return replay_document(seed, ("a", "b"), [], game)


def test_rule_a_saved_replay_holds_format_seed_seats_choices_result_winner_mulligan_and_environment(tmp_path):
    from ccg_env.env.versions import env_record

    game, choices = play(4)
    path = save_replay(tmp_path / "g.json", 4, ["x", "y"], choices, game)
    text = path.read_text(encoding="utf-8")
    assert text.endswith("}\n") and text.startswith('{\n "format": "ccg-env-replay/1",\n "seed": 4,')
    written = json.loads(text)
    assert written == {"format": "ccg-env-replay/1", "seed": 4, "seats": ["x", "y"],
                       "choices": [[c.kind.value, c.source, c.target] for c in choices],
                       "result": game.result.value, "winner": game.winner, "mulligan": game.state.rules.mulligan,
                       **env_record()}
    with_data = save_replay(tmp_path / "d.json", 4, ["x", "y"], choices, game, {"decks": ["aggro"]})
    assert json.loads(with_data.read_text())["data"] == {"decks": ["aggro"]}
    assert "data" not in json.loads(save_replay(tmp_path / "e.json", 4, ["x", "y"], choices, game, {}).read_text())
    loaded = load_replay(path)
    assert (loaded.seed, loaded.seats, loaded.result, loaded.winner, loaded.mulligan) == (
        4, ("x", "y"), game.result.value, game.winner, game.state.rules.mulligan)
    assert (loaded.env_version, loaded.spec_hash) == (env_record()["env_version"], env_record()["spec_hash"])
    assert [list(c) for c in loaded.choices] == [list(c) for c in choices]


def test_rule_an_unfinished_game_is_saved_with_no_result():
    written = document()
    assert written["result"] is None and written["winner"] is None


def test_rule_a_replay_file_of_exactly_max_replay_bytes_is_read(tmp_path):
    text = json.dumps(document())
    path = tmp_path / "r.json"
    path.write_text(text + " " * (MAX_REPLAY_BYTES - len(text)))
    assert load_replay(path).seed == 3
    path.write_text(text + " " * (MAX_REPLAY_BYTES + 1 - len(text)))
    with pytest.raises(ValueError, match=f"larger than {MAX_REPLAY_BYTES:,} bytes"):
        load_replay(path)


def test_rule_a_replay_nested_too_deeply_or_not_utf8_is_named(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(ValueError, match=r"cannot read replay '.*deep.json': nested too deeply to be a replay"):
        load_replay(path)
    path.write_bytes(b'{"format": "\xff"}')
    with pytest.raises(ValueError, match=r"cannot read replay '.*deep.json': .*codec can't decode"):
        load_replay(path)


def refused(change, message: str) -> None:
    """The document changed by ``change`` is refused with a message that names it first and matches ``message``."""
    written = document()
    change(written)
    with pytest.raises(ValueError, match=message) as caught:
        parse_replay(written, "w.json")
    assert str(caught.value).startswith(("replay 'w.json': ", "'w.json' is not")), str(caught.value)


def accepted(change) -> Replay:
    written = document()
    change(written)
    return parse_replay(written, "w.json")


def test_rule_seat_names_are_1_to_max_name_chars_strings():
    assert accepted(lambda d: d.update(seats=["x" * MAX_NAME_CHARS, "y"])).seats == ("x" * MAX_NAME_CHARS, "y")
    assert accepted(lambda d: d.update(seats=["a", "b"])).seats == ("a", "b")
    for seats in (["x" * (MAX_NAME_CHARS + 1), "y"], ["", "y"], ["a", ""], ["a", 1], ["a", "b", "c"], ("a", "b")):
        refused(lambda d, seats=seats: d.update(seats=seats), "\"seats\" must be the two seats' names")


def test_rule_the_result_is_a_known_result_or_null():
    from ccg_env.engine import Result

    for result in Result:
        assert accepted(lambda d, r=result: d.update(result=r.value)).result == result.value
    assert accepted(lambda d: d.update(result=None)).result is None
    for result in ("won", 1, ["win"]):
        refused(lambda d, r=result: d.update(result=r), "\"result\" must be one of")


def test_rule_the_winner_is_0_1_or_null_never_a_bool():
    assert [accepted(lambda d, w=w: d.update(winner=w)).winner for w in (0, 1, None)] == [0, 1, None]
    for winner in (True, False, 2, -1, "0", 0.0 + 0.5):
        refused(lambda d, w=winner: d.update(winner=w), "\"winner\" must be 0, 1 or null")


def test_rule_mulligan_is_a_bool_and_false_when_absent():
    assert accepted(lambda d: d.update(mulligan=True)).mulligan is True
    assert accepted(lambda d: d.pop("mulligan")).mulligan is False
    for value in (1, 0, "true", None):
        refused(lambda d, v=value: d.update(mulligan=v), "\"mulligan\" must be true or false")


def test_rule_env_version_and_spec_hash_come_together_as_a_version_and_64_lowercase_hex_digits():
    version = document()["env_version"]
    digest = "0123456789abcdef" * 4
    assert (accepted(lambda d: d.update(spec_hash=digest)).spec_hash) == digest
    assert accepted(lambda d: (d.pop("env_version"), d.pop("spec_hash"))).env_version is None
    for change in ({"spec_hash": digest[:63]}, {"spec_hash": digest + "0"}, {"spec_hash": digest.upper()},
                   {"spec_hash": "g" + digest[1:]}, {"spec_hash": "X" + digest[1:]}, {"spec_hash": None}, {"env_version": None},
                   {"env_version": "version one"}, {"spec_hash": 5}):
        refused(lambda d, c=change: d.update(c), "\"env_version\" and \"spec_hash\" must be an environment version")
    assert accepted(lambda d: d.update(env_version=version)).env_version == version


def test_rule_recorded_data_maps_cards_and_decks_to_1_to_64_paths_and_rules_to_one_path():
    longest = "p" * MAX_PATH_CHARS
    fine = {"cards": [longest], "decks": ["a"] * MAX_SOURCE_FILES, "rules": longest}
    assert accepted(lambda d: d.update(data=fine)).sources == fine
    assert accepted(lambda d: d.update(data={"cards": None, "rules": None})).sources == {"cards": None,
                                                                                         "rules": None}
    assert accepted(lambda d: d.update(data={})).sources == {}
    assert accepted(lambda d: d.pop("data", None)).sources is None
    for data in ({"cards": []}, {"decks": ["a"] * (MAX_SOURCE_FILES + 1)}, {"cards": ["p" * (MAX_PATH_CHARS + 1)]},
                 {"cards": [""]}, {"rules": ["r.yaml"]}, {"rules": ""}, {"rules": "p" * (MAX_PATH_CHARS + 1)},
                 {"cards": "c.yaml"}, {"heroes": ["h.yaml"]}, {"cards": [1]}):
        refused(lambda d, v=data: d.update(data=v), "\"data\" must map cards and decks to lists of paths and rules")
    refused(lambda d: d.update(data=["c.yaml"]), "\"data\" must map cards and decks")


def test_rule_a_choice_is_a_known_kind_and_a_uid_or_null_for_source_and_target():
    assert list(accepted(lambda d: d.update(choices=[["end_turn", None, None]])).choices[0])[1:] == [None, None]
    assert list(accepted(lambda d: d.update(choices=[["attack", 5, 7]])).choices[0])[1:] == [5, 7]
    for entry, message in ((["end_turn", None], "choice 0 must be"), (("end_turn", None, None), "choice 0 must be"),
                           ([None, None, None], "choice 0 has kind None"), (["end_turn", 1.0, None], "choice 0's source must be a card uid or null"),
                           (["end_turn", None, True], "choice 0's target must be a card uid or null"),
                           (["end_turn", None, "1"], "choice 0's target must be a card uid or null")):
        refused(lambda d, e=entry: d.update(choices=[e]), message)


def test_rule_the_seed_is_an_int_not_a_bool():
    assert accepted(lambda d: d.update(seed=-5)).seed == -5
    for seed in (True, 1.0, None):
        refused(lambda d, s=seed: d.update(seed=s), "\"seed\" must be an integer")
    refused(lambda d: d.update(format=None), "is not a ccg-env replay")
    with pytest.raises(ValueError, match="is not a ccg-env replay"):
        parse_replay([document()], "w.json")


# --- the person's seat, packaged decks, and the hint ------------------------------------------------------------------

@pytest.mark.parametrize("seats, seat", [(("you", "bob"), 0), (("bob", "you"), 1), (("you", "you"), None),
                                         (("a", "b"), None)])
def test_rule_the_default_seat_is_the_one_seat_named_you(seats, seat):
    assert Replay("r", 1, seats, (), None, None).default_seat() == seat


@pytest.mark.parametrize("decks, recorded", [(["aggro"], ["aggro"]), (["aggro", "ramp"], ["aggro", "ramp"]),
                                             (["aggro", "ramp", "traps"], None), ([], None),
                                             (["aggro", "my.yaml"], None), ("aggro", None), (None, None)])
def test_rule_recorded_decks_are_used_when_there_are_one_or_two_and_all_are_packaged(decks, recorded):
    replay = Replay("r", 1, ("a", "b"), (), None, None, sources={"decks": decks})
    assert recorded_packaged_decks(replay) == recorded
    assert recorded_packaged_decks(Replay("r", 1, ("a", "b"), (), None, None)) is None


def test_rule_one_recorded_packaged_deck_is_played_by_both_seats_and_two_by_seat_0_then_1(tmp_path):
    for decks in (["traps"], ["traps", "ramp"]):
        replay = load_replay(saved_replay(tmp_path, 6, decks))
        _, first = next(replay_games(replay))
        expected = Game.new(6, decks=[decks[0], decks[-1]], log=True)
        assert sorted(c.definition.id for c in first.player(0).deck + first.player(0).hand) == sorted(
            c.definition.id for c in expected.player(0).deck + expected.player(0).hand)
        assert sorted(c.definition.id for c in first.player(1).deck + first.player(1).hand) == sorted(
            c.definition.id for c in expected.player(1).deck + expected.player(1).hand)
        assert list(replay_games(replay))[-1][1].winner == replay.winner


def test_rule_a_replay_that_does_not_replay_names_the_recorded_data_or_asks_whether_it_was_edited(tmp_path):
    game, choices = play(2, ["traps", "ramp"])
    edited = json.loads(json.dumps(replay_document(2, ("a", "b"), choices, game, {"decks": ["traps", "ramp"]})))
    edited["winner"] = 1 - edited["winner"]
    with pytest.raises(ValueError) as caught:
        list(replay_games(parse_replay(edited, "e.json")))
    assert "(was it played with other cards, decks or rules, or edited?)" in str(caught.value)  # decks as recorded
    edited["data"] = {"decks": ["traps", "ramp"], "cards": ["mine.yaml"], "rules": None}
    with pytest.raises(ValueError) as caught:
        list(replay_games(parse_replay(edited, "e.json")))
    message = str(caught.value)
    assert "the file records that it was played with other data (decks: ['traps', 'ramp']; cards: ['mine.yaml'])" \
        in message
    assert message.endswith("if you have those files and trust them, give them with --decks --cards)")


@pytest.mark.parametrize("seat", [None, 0, 1])
def test_rule_the_first_frame_of_a_game_without_the_mulligan_logs_turn_1(seat):
    replay = Replay("r", 3, ("a", "b"), (), None, None, mulligan=False)
    first = [line["text"] for line in build_frames(replay, seat)[0]["log"]]
    assert first[0] == "The game begins"
    assert ("a's turn 1 begins" if seat is None else "turn 1 begins") in " ".join(first)
    assert "turn 2" not in " ".join(first)


def test_rule_decks_given_to_the_viewer_replace_the_recorded_packaged_decks():
    from ccg_env.cli_data_options import load_game_data

    data = load_game_data(decks=["configs/decks/aggro.yaml", "configs/decks/control.yaml"])
    replay = Replay("r", 6, ("a", "b"), (), None, None, sources={"decks": ["traps", "ramp"]})

    def deck_ids(game: Game, seat: int) -> list[str]:
        cards = game.player(seat).deck + game.player(seat).hand
        return sorted(card.definition.id for card in cards if card.definition.id != "the_coin")

    _, given = next(replay_games(replay, data))
    wanted = Game.new(6, **data.game_kwargs())
    recorded = Game.new(6, decks=["traps", "ramp"])
    assert [deck_ids(given, seat) for seat in (0, 1)] == [deck_ids(wanted, seat) for seat in (0, 1)]
    assert deck_ids(given, 0) != deck_ids(recorded, 0)


def test_rule_rules_given_to_the_viewer_are_played_with_the_recorded_mulligan(tmp_path):
    from ccg_env.cli_data_options import load_game_data

    rules = tmp_path / "rules.yaml"
    packaged = Path(__file__).resolve().parents[2] / "configs" / "rules" / "default.yaml"
    rules.write_text(packaged.read_text().replace("hero_health: 30", "hero_health: 20"))
    assert "hero_health: 20" in rules.read_text()
    data = load_game_data(rules=str(rules))
    for mulligan in (False, True):
        _, game = next(replay_games(Replay("r", 6, ("a", "b"), (), None, None, mulligan=mulligan), data))
        assert game.player(0).hero.health == game.player(1).hero.health == 20
        assert game.state.rules.mulligan is mulligan


def _edited(decks: list[str], sources: dict) -> dict:
    """A won game's replay document (recording ``sources``) whose winner was edited: it does not replay."""
    game, choices = play(2, decks)
    edited = json.loads(json.dumps(replay_document(2, ("a", "b"), choices, game, sources)))
    edited["winner"] = 1 - edited["winner"]
    return edited


def test_rule_the_hint_compares_the_recorded_data_with_the_data_given_to_the_viewer():
    from ccg_env.cli_data_options import load_game_data

    from ccg_env.engine.decks import default_deck_paths

    paths = [str(default_deck_paths()[name]) for name in ("traps", "ramp")]
    edited = parse_replay(_edited(["traps", "ramp"], {"decks": paths}), "e.json")
    with pytest.raises(ValueError, match=r"\(was it played with other cards, decks or rules, or edited\?\)$"):
        list(replay_games(edited, load_game_data(decks=paths)))  # the recorded files given: edited, then
    with pytest.raises(ValueError, match=r"played with other data \(decks: \['[^']*traps.yaml'"):
        list(replay_games(edited, load_game_data(decks=paths[::-1])))  # other files given
    packaged = parse_replay(_edited(["traps", "ramp"], {"decks": ["traps", "ramp"]}), "p.json")
    with pytest.raises(ValueError, match=r"played with other data \(decks: \['traps', 'ramp'\]\)"):
        list(replay_games(packaged, load_game_data(decks=paths)))  # decks given replace the recorded packaged ones


def test_rule_a_replay_is_read_only_up_to_one_byte_past_its_bound(tmp_path, monkeypatch):
    import builtins

    import ccg_env.viewer.replay as replay_module

    asked = []

    class Recorded:
        def __init__(self, stream):
            self.stream = stream

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.stream.close()

        def read(self, size=-1):
            asked.append(size)
            return self.stream.read(size)

    monkeypatch.setattr(replay_module, "open", lambda *a, **k: Recorded(builtins.open(*a, **k)), raising=False)
    path = tmp_path / "big.json"
    path.write_text(" " * (MAX_REPLAY_BYTES + 100))
    with pytest.raises(ValueError, match=f"larger than {MAX_REPLAY_BYTES:,} bytes"):
        load_replay(path)
    assert asked == [MAX_REPLAY_BYTES + 1]  # a file of any size, even an endless one, is read this far only


def test_rule_load_replays_errors_name_the_file_once(tmp_path):
    path = tmp_path / "big.json"
    path.write_text(" " * (MAX_REPLAY_BYTES + 1))
    with pytest.raises(ValueError) as caught:
        load_replay(path)
    assert str(caught.value) == f"cannot read replay {str(path)!r}: larger than {MAX_REPLAY_BYTES:,} bytes"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**document(), "seed": "3"}))
    with pytest.raises(ValueError, match=rf"^replay {str(bad)!r}: \"seed\" must be an integer"):
        load_replay(bad)
    good = tmp_path / "good.json"
    good.write_text(json.dumps(document()))
    assert load_replay(good).path == str(good)


@pytest.mark.parametrize("health, shown, defeated", [(1, 1, False), (0, 0, True), (-3, 0, True), (30, 30, False)])
def test_rule_a_hero_is_shown_defeated_at_0_health_or_less_and_never_below_0(health, shown, defeated):
    from ccg_env.viewer.replay import frame

    game = Game.new(1, log=True)
    game.state.players[1].hero.health = health
    hero = frame(game, None, ("a", "b"), 0, [])["sides"][1]["hero"]
    assert (hero["health"], hero["defeated"]) == (shown, defeated)


def test_rule_a_replay_document_parsed_without_a_name_is_called_replay_in_errors():
    with pytest.raises(ValueError, match=r"^replay '<replay>': \"seed\" must be an integer"):
        parse_replay({**document(), "seed": None})
    assert parse_replay(document()).path == "<replay>"
