"""ccg-env serve in a real headless browser: a whole game against the random agent played by clicking."""

from __future__ import annotations

import json
import re
import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from .browser import missing  # noqa: E402

try:
    import flask  # noqa: F401
except ImportError:
    missing("ccg-env serve needs Flask: pip install -e '.[dev]'", module=True)

from ccg_env.agents.match import MatchRunner  # noqa: E402
from ccg_env.agents.random_agent import RandomAgent  # noqa: E402
from ccg_env.viewer.server import PlaySession, create_app  # noqa: E402

from .browser import READ_BOARD, browser_or_skip  # noqa: E402
from .test_viewer_browser import _expected_side  # noqa: E402

SEED = 11
TOKEN = "test-session-token"


@pytest.fixture(scope="module")
def browser():
    driver = browser_or_skip()
    yield driver
    driver.quit()


@pytest.fixture
def served(tmp_path):
    from werkzeug.serving import make_server

    runner = MatchRunner()
    agent = RandomAgent()
    agent.reset(seed=SEED)
    session = PlaySession(SEED, 0, ("you", "random"), lambda game, seat: runner.decide(game, agent, SEED),
                          tmp_path / "saved")
    server = make_server("127.0.0.1", 0, create_app(session, token=TOKEN), threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}", session
    server.shutdown()
    thread.join(timeout=10)


def _wait_for_version_change(browser, before: str | None) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(browser, 30).until(
        lambda b: b.find_element("tag name", "body").get_attribute("data-version") not in (None, before))


def _check_board(browser, session: PlaySession) -> None:
    shown = browser.execute_script(READ_BOARD)
    for seat in (0, 1):
        assert shown["sides"][str(seat)] == _expected_side(session.game, seat, hand_visible=seat == 0), seat


def test_a_whole_game_against_the_random_agent_by_clicking(browser, served, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    url, session = served
    browser.get(url + "/")
    _wait_for_version_change(browser, None)
    clicks = 0
    while not session.game.is_over:
        assert clicks < 1000, "the game should have ended"
        _check_board(browser, session)
        version = browser.find_element(By.TAG_NAME, "body").get_attribute("data-version")
        playable = browser.find_elements(By.CSS_SELECTOR, "#board .playable")
        if playable:
            playable[0].click()
            targets = browser.find_elements(By.CSS_SELECTOR, "#board .targetable")
            if targets:
                targets[0].click()
        else:
            browser.find_element(By.ID, "end-turn").click()
        clicks += 1
        _wait_for_version_change(browser, version)
    _check_board(browser, session)
    assert browser.find_element(By.ID, "status").text.startswith("Game over")
    assert browser.find_element(By.ID, "end-turn").get_attribute("disabled") is not None
    assert browser.save_screenshot(str(tmp_path / "served.png"))
    # the finished game was saved, and its replay shows the same end as the engine
    saved = session.save_dir / session.saved
    document = json.loads(saved.read_text())
    assert document["seats"] == ["you", "random"] and len(document["choices"]) == len(session.choices)
    assert document["winner"] == session.game.winner
    browser.find_element(By.ID, "saved-link").click()
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.END)
    total = len(session.choices)
    assert browser.find_element(By.ID, "step-label").text == f"step {total} / {total}"
    _check_board(browser, session)


def test_the_server_refuses_moves_the_mask_forbids(served):
    url, session = served
    legal = session.legal_ids()
    masked_out = next(i for i in range(session.core.size) if i not in legal)
    for action, said in ((max(legal) + 10_000, "out of the action space"), (masked_out, "illegal now|empty slot")):
        body = {"action": action, "version": session.version}
        request = urllib.request.Request(url + "/api/act", data=json.dumps(body).encode(), method="POST",
                                         headers={"Content-Type": "application/json", "X-CCG-Token": TOKEN})
        with pytest.raises(urllib.error.HTTPError) as error:
            urllib.request.urlopen(request, timeout=30)
        assert error.value.code == 400 and re.search(said, json.loads(error.value.read())["error"]), action
        assert session.choices == [] and session.legal_ids() == legal and not session.match.is_over


def test_a_malformed_saved_game_gets_a_clear_error_page(browser, served):
    from selenium.webdriver.common.by import By

    url, session = served
    session.save_dir.mkdir(parents=True, exist_ok=True)
    (session.save_dir / "broken.json").write_text('{"format": "ccg-env-replay/1", "seed": 1, "seats": "x"}')
    with pytest.raises(urllib.error.HTTPError) as error:
        urllib.request.urlopen(url + "/games/broken.json", timeout=30)
    assert error.value.code == 422
    browser.get(url + "/games/broken.json")
    assert browser.find_element(By.TAG_NAME, "h1").text == "Cannot show this game"
    assert "\"seats\" must be the two seats' names" in browser.find_element(By.ID, "error-message").text
    browser.get(url + "/games/missing.json")
    assert "no saved game 'missing.json'" in browser.find_element(By.ID, "error-message").text


def test_a_reloaded_page_shows_the_whole_game_log(browser, served):
    from selenium.webdriver.common.by import By

    url, session = served
    browser.get(url + "/")
    _wait_for_version_change(browser, None)
    version = browser.find_element(By.TAG_NAME, "body").get_attribute("data-version")
    browser.find_element(By.ID, "end-turn").click()
    _wait_for_version_change(browser, version)
    browser.refresh()
    _wait_for_version_change(browser, None)
    lines = [item.text for item in browser.find_elements(By.CSS_SELECTOR, "#log li")]
    assert lines[0] == "The game begins" and "You keep your opening hand" in lines  # the button ends the mulligan
    assert lines.count("The game begins") == 1


def test_a_click_on_a_board_that_has_moved_on_is_refused_and_the_page_catches_up(browser, served):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    url, session = served
    browser.get(url + "/")
    _wait_for_version_change(browser, None)
    shown = browser.find_element(By.TAG_NAME, "body").get_attribute("data-version")
    with session.lock:  # another tab ends the mulligan: the page still shows the state before
        session.act(next(i for i in session.legal_ids() if session.codec.decode(session.game, i).kind.value
                         == "end_turn"), session.version)
    moved_on, choices = session.version, len(session.choices)
    browser.find_element(By.ID, "end-turn").click()  # chosen on the old state: refused, not applied to this one
    WebDriverWait(browser, 30).until(
        lambda b: "the game has moved on" in b.find_element(By.ID, "message").text)
    assert browser.find_element(By.TAG_NAME, "body").get_attribute("data-version") == str(moved_on) != shown
    assert len(session.choices) == choices and session.version == moved_on
    _check_board(browser, session)
