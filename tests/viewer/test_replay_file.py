"""Replay files: hostile input is refused with the file and field named; frames follow the engine step by step."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ccg_env.engine import Game
from ccg_env.viewer import build_frames, load_replay, render_html, write_html
from ccg_env.viewer.replay import parse_replay

from .games import play_and_save


@pytest.fixture(scope="module")
def saved(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("viewer") / "game.json"
    play_and_save(path, seed=3)
    return path


def _document(saved: Path) -> dict:
    return json.loads(saved.read_text())


@pytest.mark.parametrize("change, message", [
    (lambda d: d.update(format="other/1"), "is not a ccg-env replay"),
    (lambda d: d.update(seed="3"), "\"seed\" must be an integer"),
    (lambda d: d.update(seed=True), "\"seed\" must be an integer"),
    (lambda d: d.update(seats=["a"]), "\"seats\" must be the two seats' names"),
    (lambda d: d.update(choices={}), "\"choices\" must be a list"),
    (lambda d: d["choices"].__setitem__(2, ["play", 1]), "choice 2 must be [kind, source, target]"),
    (lambda d: d["choices"].__setitem__(1, ["cheat", None, None]), "choice 1 has kind 'cheat'"),
    (lambda d: d["choices"].__setitem__(0, ["play", True, None]), "choice 0's source must be a card uid"),
    (lambda d: d.update(winner=2), "\"winner\" must be 0, 1 or null"),
])
def test_malformed_fields_are_named(saved, change, message):
    document = _document(saved)
    change(document)
    with pytest.raises(ValueError) as error:
        parse_replay(document, "bad.json")
    assert message in str(error.value) and "bad.json" in str(error.value)


def test_unreadable_files_are_named(tmp_path):
    (tmp_path / "broken.json").write_text("{not json")
    for name in ("broken.json", "missing.json"):
        with pytest.raises(ValueError, match=f"cannot read replay .*{name}"):
            load_replay(tmp_path / name)


def test_an_illegal_choice_is_reported_by_number_not_acted_out(saved, tmp_path):
    document = _document(saved)
    document["choices"][4] = ["attack", 999, 1]
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(document))
    with pytest.raises(ValueError, match="choice 4 .* cannot be replayed"):
        build_frames(load_replay(path))


def test_a_result_that_the_choices_do_not_give_is_refused(saved, tmp_path):
    document = _document(saved)
    document["winner"] = 1 - document["winner"]
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(document))
    with pytest.raises(ValueError, match="replaying its choices gives result 'win', winner"):
        build_frames(load_replay(path))


def test_frames_follow_the_engine_step_by_step(saved):
    replay = load_replay(saved)
    frames = build_frames(replay, None)
    assert len(frames) == len(replay.choices) + 1
    game = Game.new(replay.seed)
    for step, frame in enumerate(frames):
        if step:
            game.apply(replay.choices[step - 1])
        assert (frame["step"], frame["turn"], frame["current"], frame["over"]) == (
            step, game.turn, game.current_player, game.is_over)
        for seat, side in enumerate(frame["sides"]):
            player = game.player(seat)
            assert side["hero"]["health"] == max(player.hero.health, 0)
            assert side["hero"]["max_health"] == player.hero.max_health
            assert side["hero"]["defeated"] == (player.hero.health <= 0)
            assert [c["name"] for c in side["hand"]] == [c.name for c in player.hand]
            assert [(c["name"], c["attack"], c["health"]) for c in side["battlefield"]] == [
                (c.name, c.attack, c.health) for c in player.battlefield]
            assert (side["mana"], side["max_mana"], side["deck_size"], side["secret_count"]) == (
                player.mana, player.max_mana, len(player.deck), len(player.secrets))
    assert frames[-1]["winner"] == replay.winner and frames[-1]["log"][-1]["text"].startswith("Game over")


def test_a_seat_sees_the_enemy_hand_and_secrets_only_as_counts(saved):
    replay = load_replay(saved)
    spectator = build_frames(replay, None)
    for frame, seen in zip(build_frames(replay, 0), spectator):
        enemy, own = frame["sides"][1], frame["sides"][0]
        assert enemy["hand"] is None and enemy["secrets"] is None
        assert enemy["hand_size"] == len(seen["sides"][1]["hand"])
        assert own["hand"] == seen["sides"][0]["hand"]
    own_names = {c["name"] for c in spectator[0]["sides"][0]["hand"]}
    hidden_names = {c["name"] for c in spectator[0]["sides"][1]["hand"]} - own_names
    assert hidden_names
    first_log = " ".join(line["text"] for line in build_frames(replay, 0)[0]["log"])
    assert "Enemy draws 4 cards" in first_log and not any(name in first_log for name in hidden_names)


def test_names_from_the_file_cannot_escape_the_page(saved, tmp_path):
    document = _document(saved)
    document["seats"] = ["</script><script>alert(1)</script>", "<b>bold</b>"]
    replay = parse_replay(document, "hostile.json")
    page = render_html(replay)
    assert "</script><script>alert(1)" not in page and "<b>bold</b>" not in page
    assert page.count("</script>") == 2  # the data element's and the code's own


def test_write_html_replaces_a_page_only_with_a_complete_one(saved, tmp_path):
    out = tmp_path / "game.html"
    out.write_text("old page")
    bad = tmp_path / "bad.json"
    bad.write_text("[]")
    with pytest.raises(ValueError, match="is not a ccg-env replay"):
        write_html(bad, out)
    assert out.read_text() == "old page" and [p.name for p in tmp_path.iterdir()].count("game.html") == 1
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".partial")]
    write_html(saved, out)
    assert out.read_text().startswith("<!DOCTYPE html>")
    with pytest.raises(ValueError, match="is the game file itself"):
        write_html(saved, saved)
    with pytest.raises(ValueError, match="no folder"):
        write_html(saved, tmp_path / "nowhere" / "game.html")


def test_frames_show_hero_classes_and_hero_powers(tmp_path):
    from ccg_env.cli_data_options import load_game_data
    from ccg_env.engine import Choice, ChoiceKind
    from ccg_env.viewer.replay import frame, replay_games, save_replay

    deck = tmp_path / "mage.yaml"
    deck.write_text("name: Mage\nhero: mage\ncards: {wisp: 2, river_crocolisk: 2, bloodfen_raptor: 2, "
                    "magma_rager: 2, chillwind_yeti: 2, boulderfist_ogre: 2, core_hound: 2, goldshire_footman: 2, "
                    "senjin_shieldmasta: 2, bluegill_warrior: 2, wolfrider: 2, consecration: 2, arcane_intellect: 2, "
                    "fireball: 2, fiery_war_axe: 2}\n")
    data = load_game_data(decks=[str(deck)])
    game = Game.new(5, log=True, **data.game_kwargs())
    choices = []
    while not any(c.kind is ChoiceKind.HERO_POWER for c in game.legal_actions()):
        choices.append(Choice(ChoiceKind.END_TURN))
        game.apply(choices[-1])
    power = game.player(game.current_player).hero_power[0]
    choices.append(Choice(ChoiceKind.HERO_POWER, power.uid, game.player(1 - game.current_player).hero.uid))
    game.apply(choices[-1])
    shown = frame(game, None, ("a", "b"), len(choices), [])
    side = shown["sides"][game.current_player]
    assert side["hero"]["class"] == "mage" and side["hero"]["name"] == "Jaina Proudmoore"
    assert side["hero_power"] == {"uid": power.uid, "name": "Fireblast", "cost": 2, "text": "Deal 1 damage.",
                                  "uses": 1, "uses_per_turn": 1}
    path = save_replay(tmp_path / "game.json", 5, ("a", "b"), choices, game, data.sources)
    replayed = list(replay_games(load_replay(path), data))
    assert replayed[-1][1].to_json() == game.to_json()
    html = render_html(load_replay(path), None, data=data)
    assert "Fireblast" in html and "You use the hero power" not in html and "uses the hero power Fireblast" in html
