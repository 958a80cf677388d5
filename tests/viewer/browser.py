"""A real headless browser for the viewer's tests: Debian's chromium driven through chromedriver by selenium.

``browser_or_skip()`` returns a fresh WebDriver, or skips the test with a one-line reason when selenium,
chromium or chromedriver is missing (CI installs all three in .ci/run and sets CCG_ENV_REQUIRE_BROWSER=1, which
turns the skip into a failure, so there the tests always run).
The browser gets a throw-away profile and the flags that stop it from reaching the network on its own.
Override the programs' paths with CCG_ENV_CHROMIUM and CCG_ENV_CHROMEDRIVER.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from typing import Any

import pytest

CHROMIUM = os.environ.get("CCG_ENV_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CCG_ENV_CHROMEDRIVER", "/usr/bin/chromedriver")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--window-size=1280,900")


def missing(reason: str, module: bool = False) -> None:
    """Skip (locally; ``module``: the whole test module), or fail when CCG_ENV_REQUIRE_BROWSER=1 (CI installs
    the browser and its drivers, so there a missing piece is an error)."""
    if os.environ.get("CCG_ENV_REQUIRE_BROWSER") == "1":
        pytest.fail(f"CCG_ENV_REQUIRE_BROWSER=1 but {reason}", pytrace=False)
    pytest.skip(reason, allow_module_level=module)


def browser_or_skip() -> Any:
    """A headless chromium WebDriver with a fresh profile (quit it when done), or a pytest skip."""
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        missing("browser tests need selenium: pip install -e '.[dev]'")
    for program, package in ((CHROMIUM, "chromium"), (CHROMEDRIVER, "chromium-driver")):
        if not (os.path.isfile(program) and os.access(program, os.X_OK)):
            missing(f"browser tests need {program} (apt-get install {package})")
    profile = tempfile.mkdtemp(prefix="ccg-env-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(60)
    original_quit = driver.quit

    def quit_and_clean() -> None:
        try:
            original_quit()
        finally:
            shutil.rmtree(profile, ignore_errors=True)

    driver.quit = quit_and_clean
    return driver


#: Reads the board as the page shows it (DOM text only), one dictionary per side, keyed by seat.
READ_BOARD = """
const text = (root, selector) => { const node = root.querySelector(selector); return node ? node.textContent : null; };
const sides = {};
for (const side of document.querySelectorAll('.side')) {
  sides[side.dataset.seat] = {
    health: text(side, '.hero-health'), armor: text(side, '.hero-armor'), mana: text(side, '.mana'),
    hand_size: text(side, '.hand-size'), deck_size: text(side, '.deck-size'), secrets: text(side, '.secret-count'),
    defeated: side.querySelector('.defeated-tag') !== null,
    hand: Array.from(side.querySelectorAll('.hand .card .name'), n => n.textContent),
    hidden_cards: side.querySelectorAll('.hand .hidden-card').length,
    minions: Array.from(side.querySelectorAll('.battlefield .minion'), m =>
      [text(m, '.name'), text(m, '.attack'), text(m, '.health')]),
  };
}
return {step: text(document, '#step-label'), status: text(document, '#status'), sides: sides,
        log: Array.from(document.querySelectorAll('#log li'), li => [Number(li.dataset.depth), li.textContent])};
"""
