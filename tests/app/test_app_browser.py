"""The app served by ``streamlit run`` and opened in a real headless Chromium.

Needs ``/usr/bin/chromium`` and ``/usr/bin/chromedriver`` (Debian: ``apt-get install -y
chromium chromium-driver``); without them the test fails, it does not skip. The screenshot is
saved under the test's tmp folder (the docs' screenshots come from test_board_browser.py's
1440x900 run).
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from arena import display
from arena.leaderboard import build_leaderboard
from arena.storage import Store
from tests.support.app_fixtures import SCRIPT_PAYLOAD, VARIANT_NAMES, fill_demo_db
from tests.support.browser import (
    free_port,
    headless_chromium,
    require_chromium,
    served_app,
    streamlit_command,
)

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
PAGE_TIMEOUT_S = 60.0


@pytest.fixture
def db_filled(tmp_path: Path) -> str:
    """The demo database, filled in this process (the fake models live here)."""
    require_chromium()
    url = f"sqlite:///{tmp_path / 'arena.db'}"
    fill_demo_db(url)
    return url


@pytest.fixture
def server(db_filled: str, tmp_path: Path) -> Iterator[str]:
    """``streamlit run app.py`` on a free local port; always stopped afterwards."""
    port = free_port()
    log = tmp_path / "streamlit.log"
    env = {**os.environ, "ARENA_DB_URL": db_filled}
    command = streamlit_command(ROOT / "app.py", port, "--client.toolbarMode", "viewer")
    with served_app(command, port=port, cwd=tmp_path, env=env, log=log) as url:
        yield url


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[Any]:
    """Headless Chromium through chromedriver, 1400x2400."""
    with headless_chromium(tmp_path / "chrome") as driver:
        yield driver


def _settled(driver: Any) -> bool:
    """The script run has finished (no running indicator) and the charts are drawn."""
    from selenium.webdriver.common.by import By

    running = driver.find_elements(By.CSS_SELECTOR, '[data-testid="stStatusWidget"]')
    charts = driver.find_elements(
        By.CSS_SELECTOR,
        '[data-testid="stVegaLiteChart"] canvas, [data-testid="stVegaLiteChart"] svg',
    )
    return not running and len(charts) >= 2


def _waiter(driver: Any, timeout: float) -> Any:
    """A WebDriverWait that looks again when Streamlit re-renders an element it found."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout, ignored_exceptions=(StaleElementReferenceException,))


def _first_table_text(driver: Any) -> str:
    """The text of the page's first data frame ("" while there is none)."""
    from selenium.webdriver.common.by import By

    frames = driver.find_elements(By.CSS_SELECTOR, '[data-testid="stDataFrame"]')
    return str(frames[0].get_attribute("textContent")) if frames else ""


def _choose(driver: Any, label: str, prefix: str) -> None:
    """Pick the option starting with ``prefix`` in the selectbox labelled ``label``."""
    from selenium.webdriver.common.by import By

    selector = f'input[role="combobox"][aria-label="{label}"]'
    box = _waiter(driver, 60).until(
        lambda d: next(iter(d.find_elements(By.CSS_SELECTOR, selector)), None)
    )
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", box)
    box.click()
    option = _waiter(driver, 20).until(
        lambda d: next(
            (
                o
                for o in d.find_elements(By.CSS_SELECTOR, '[role="option"]')
                if o.text.startswith(prefix)
            ),
            None,
        )
    )
    option.click()


def _save_screenshot(driver: Any, tmp_path: Path) -> Path:
    shot = tmp_path / "leaderboard.png"
    assert driver.save_screenshot(str(shot)), "the screenshot could not be written"
    return shot


def test_leaderboard_renders_and_outputs_stay_inert(
    server: str, browser: Any, db_filled: str, tmp_path: Path
) -> None:
    from selenium.webdriver.common.by import By

    board = build_leaderboard(Store(db_filled), None)  # the same fit the page makes
    ratings = {e.variant: display.rating(e.rating) for e in board.entries if e.rating is not None}
    assert set(ratings) == set(VARIANT_NAMES)

    browser.get(server)
    wait = _waiter(browser, PAGE_TIMEOUT_S)
    wait.until(lambda d: "prompt-v2" in d.find_element(By.TAG_NAME, "body").text)
    wait.until(lambda d: all(name in _first_table_text(d) for name in VARIANT_NAMES))
    wait.until(_settled)
    time.sleep(1.5)  # let the canvas grid and the charts finish painting
    cells = _first_table_text(browser)  # looked up again: Streamlit may have re-rendered it
    for name, rating in ratings.items():
        assert name in cells and rating in cells, (name, rating)
    body = browser.find_element(By.TAG_NAME, "body").text
    assert "Agent Arena leaderboard" in body and "How to read the ratings" in body
    assert not browser.find_elements(By.CSS_SELECTOR, '[data-testid="stException"]')
    assert "Could not show" not in body
    shot = _save_screenshot(browser, tmp_path)
    assert shot.stat().st_size > 10_000

    # The compare view shows the scripted HTML answer as text; it never runs.
    next(
        t
        for t in browser.find_elements(By.CSS_SELECTOR, '[data-testid="stTab"]')
        if "Compare" in t.text
    ).click()
    _choose(browser, "Candidate", "broken-no-tools")
    wait.until(lambda d: "WORSE" in d.find_element(By.TAG_NAME, "body").text)
    _choose(browser, "Case", "GF-001")
    shown = wait.until(
        lambda d: next(
            (
                c.text
                for c in d.find_elements(By.CSS_SELECTOR, '[data-testid="stCode"]')
                if "pwned" in c.text
            ),
            None,
        )
    )
    assert "<script>document.title='pwned'</script><b>bold</b>" in shown.replace("\n", "")
    assert SCRIPT_PAYLOAD.startswith("<script>")
    assert browser.title != "pwned"
    injected = browser.execute_script(
        "return [Array.from(document.scripts).some(s => s.textContent.includes('pwned')),"
        " Array.from(document.querySelectorAll('b')).some(b => b.textContent === 'bold')]"
    )
    assert injected == [False, False]
    assert not browser.find_elements(By.CSS_SELECTOR, '[data-testid="stException"]')
    browser.save_screenshot(str(tmp_path / "compare.png"))


def _click(driver: Any, label: str) -> bool:
    """Click the visible button whose text is ``label``; False until it is drawn (or while
    the page redraws it), so it can be waited for."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By

    try:
        button = next(
            (
                b
                for b in driver.find_elements(By.CSS_SELECTOR, "button")
                if b.text.strip() == label and b.is_displayed()
            ),
            None,
        )
        if button is None:
            return False
        button.click()
    except StaleElementReferenceException:
        return False
    return True


def _shows(driver: Any, text: str) -> bool:
    """The page's text holds ``text``."""
    from selenium.webdriver.common.by import By

    return text in driver.find_element(By.TAG_NAME, "body").text


def _shown_code(driver: Any) -> list[str]:
    """The texts of the visible code blocks (empty while the page redraws)."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By

    try:
        return [
            c.text
            for c in driver.find_elements(By.CSS_SELECTOR, '[data-testid="stCode"]')
            if c.is_displayed()
        ]
    except StaleElementReferenceException:
        return []


def test_votes_are_counted_and_rated_in_the_browser(
    server: str, browser: Any, db_filled: str, tmp_path: Path
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    from judges import human_judge

    browser.get(server)
    wait = _waiter(browser, PAGE_TIMEOUT_S)
    wait.until(lambda d: "prompt-v2" in d.find_element(By.TAG_NAME, "body").text)
    wait.until(_settled)
    name = browser.find_element(By.CSS_SELECTOR, 'input[aria-label="Your name (for voting)"]')
    name.send_keys("ann", Keys.ENTER)
    next(
        t
        for t in browser.find_elements(By.CSS_SELECTOR, '[data-testid="stTab"]')
        if t.text.strip() == "Vote"
    ).click()
    for count in (1, 2, 3):
        # The question and both answers are drawn, as text (code blocks).
        wait.until(lambda d: len(_shown_code(d)) >= 3)
        wait.until(lambda d: _click(d, "A is better"))
        wait.until(partial(_shows, text=f"Votes on run #2: {count} by you"))
        body = browser.find_element(By.TAG_NAME, "body").text
        assert "Vote stored (A is better)" in body and "A was " in body and "B was " in body
    assert browser.title != "pwned"
    assert not browser.find_elements(By.CSS_SELECTOR, '[data-testid="stException"]')

    key = human_judge("ann").key
    votes = Store(db_filled).battles(2, key)
    assert len(votes) == 3 and {b.winner for b in votes} == {"model_a"}
    board = build_leaderboard(Store(db_filled), 2, judge_key=key)  # the fit the page makes
    ratings = {e.variant: display.rating(e.rating) for e in board.entries if e.rating is not None}
    assert len(ratings) >= 2
    _choose(browser, "Judge", "human:ann")
    next(
        t
        for t in browser.find_elements(By.CSS_SELECTOR, '[data-testid="stTab"]')
        if t.text.strip() == "Leaderboard"
    ).click()
    wait.until(
        lambda d: (
            "judge **human:ann**" in d.find_element(By.TAG_NAME, "body").text
            or "judge human:ann" in d.find_element(By.TAG_NAME, "body").text
        )
    )
    table = wait.until(
        lambda d: [
            t
            for t in d.find_elements(By.CSS_SELECTOR, '[data-testid="stDataFrame"]')
            if t.is_displayed()
        ]
    )
    wait.until(lambda d: all(r in table[0].get_attribute("textContent") for r in ratings.values()))
    assert not browser.find_elements(By.CSS_SELECTOR, '[data-testid="stException"]')
    browser.save_screenshot(str(tmp_path / "vote.png"))
