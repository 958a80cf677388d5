"""The HTML viewer in a real headless browser: every step's board as shown matches the engine; keys, slider, errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ccg_env.engine import Game
from ccg_env.viewer import error_html, load_replay, write_html

from .browser import READ_BOARD, browser_or_skip
from .games import play_and_save


@pytest.fixture(scope="module")
def browser():
    driver = browser_or_skip()
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def saved(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("viewer") / "game.json"
    play_and_save(path, seed=3)
    return path


def _expected_side(game: Game, seat: int, hand_visible: bool) -> dict:
    player = game.player(seat)
    return {
        "health": str(max(player.hero.health, 0)), "armor": str(player.hero.armor),
        "mana": f"{player.mana}/{player.max_mana}", "hand_size": str(len(player.hand)),
        "deck_size": str(len(player.deck)), "secrets": str(len(player.secrets)),
        "defeated": player.hero.health <= 0,
        "hand": [card.name for card in player.hand] if hand_visible else [],
        "hidden_cards": 0 if hand_visible else len(player.hand),
        "minions": [[card.name, str(card.attack), str(card.health)] for card in player.battlefield],
    }


def _check_every_step(browser, page: Path, saved: Path, seat: int | None) -> dict:
    """Step from the first to the last frame with the next button, comparing the shown board with the engine."""
    from selenium.webdriver.common.by import By

    replay = load_replay(saved)
    browser.get(page.as_uri())
    game = Game.new(replay.seed)
    total = len(replay.choices)
    for step in range(total + 1):
        if step:
            browser.find_element(By.ID, "next").click()
            game.apply(replay.choices[step - 1])
        shown = browser.execute_script(READ_BOARD)
        assert shown["step"] == f"step {step} / {total}"
        for index in (0, 1):
            expected = _expected_side(game, index, hand_visible=seat is None or seat == index)
            assert shown["sides"][str(index)] == expected, f"step {step}, seat {index}"
    assert browser.find_element(By.ID, "next").get_attribute("disabled") is not None
    return shown


def test_every_step_shows_the_engine_state_to_a_spectator(browser, saved, tmp_path):
    page = write_html(saved, tmp_path / "game.html", seat=None)
    last = _check_every_step(browser, page, saved, seat=None)
    replay = load_replay(saved)
    winner = replay.winner
    assert last["sides"][str(1 - winner)]["defeated"] and not last["sides"][str(winner)]["defeated"]
    assert last["status"] == f"Game over: {replay.seats[winner]} (seat {winner}) wins"
    assert last["log"][-1][1] == f"Game over: {replay.seats[winner]} wins"
    png = tmp_path / "viewer.png"
    assert browser.save_screenshot(str(png))
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10_000


def test_a_seat_view_shows_the_enemy_hand_only_as_card_backs(browser, saved, tmp_path):
    page = write_html(saved, tmp_path / "seat1.html", seat=1)
    _check_every_step(browser, page, saved, seat=1)


def test_arrow_keys_home_end_and_the_slider_move_between_steps(browser, saved, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    total = len(load_replay(saved).choices)
    browser.get(write_html(saved, tmp_path / "keys.html").as_uri())
    label = lambda: browser.find_element(By.ID, "step-label").text  # noqa: E731
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.ARROW_RIGHT, Keys.ARROW_RIGHT)
    assert label() == f"step 2 / {total}"
    body.send_keys(Keys.ARROW_LEFT)
    assert label() == f"step 1 / {total}"
    body.send_keys(Keys.END)
    assert label() == f"step {total} / {total}"
    body.send_keys(Keys.HOME)
    assert label() == f"step 0 / {total}"
    assert browser.find_element(By.ID, "prev").get_attribute("disabled") is not None
    browser.execute_script("const s = document.getElementById('slider'); s.value = arguments[0];"
                           "s.dispatchEvent(new Event('input'));", 7)
    assert label() == f"step 7 / {total}"
    assert browser.execute_script(READ_BOARD)["log"], "every step lists its actions"
    assert browser.current_url.endswith("#step=7")  # a link to the step shown
    browser.get((tmp_path / "keys.html").as_uri() + "#step=5")
    browser.refresh()
    assert label() == f"step 5 / {total}"


def test_names_from_a_hostile_file_are_shown_as_text(browser, saved, tmp_path):
    from selenium.webdriver.common.by import By

    document = json.loads(saved.read_text())
    document["seats"] = ["<img src=x onerror=alert(1)>", "</script><b>x</b>"]
    hostile = tmp_path / "hostile.json"
    hostile.write_text(json.dumps(document))
    browser.get(write_html(hostile, tmp_path / "hostile.html").as_uri())
    names = [n.text for n in browser.find_elements(By.CSS_SELECTOR, ".hero-name")]
    assert "<img src=x onerror=alert(1)> (seat 0)" in names and "</script><b>x</b> (seat 1)" in names
    assert not browser.find_elements(By.CSS_SELECTOR, "main img, main b")


def test_a_malformed_game_file_gives_a_clear_error_page(browser, tmp_path):
    from selenium.webdriver.common.by import By

    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "ccg-env-replay/1", "seed": "x"}')
    with pytest.raises(ValueError) as error:
        write_html(broken, tmp_path / "never.html")
    assert not (tmp_path / "never.html").exists()
    page = tmp_path / "error.html"
    page.write_text(error_html(str(error.value)))
    browser.get(page.as_uri())
    assert browser.find_element(By.TAG_NAME, "h1").text == "Cannot show this game"
    assert browser.find_element(By.ID, "error-message").text == str(error.value)
    assert "\"seed\" must be an integer game seed" in str(error.value)
