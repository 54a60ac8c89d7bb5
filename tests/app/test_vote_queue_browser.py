"""The Vote tab's queue in a real headless Chromium: a database whose judge abstained on three
pairs, the Vote tab shows them first (the gate's pairs first) with why and how many remain, a
click votes, and the leaderboard's ratings change accordingly.

Needs ``/usr/bin/chromium`` and ``/usr/bin/chromedriver``; without them the test fails.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from arena import display
from arena.leaderboard import build_leaderboard
from arena.storage import Store
from judges import human_judge
from tests.app.test_app_browser import _click, _first_table_text, _settled, _shown_code, _waiter
from tests.support.abstained import BECAUSE, GATE_PAIR, RUN, abstain_demo_battles
from tests.support.app_fixtures import fill_demo_db
from tests.support.browser import (
    free_port,
    headless_chromium,
    require_chromium,
    served_app,
    streamlit_command,
)

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
PAGE_TIMEOUT_S = 90.0


@pytest.fixture
def db_abstained(tmp_path: Path) -> str:
    """The demo database with three battles the judge abstained on."""
    require_chromium()
    url = f"sqlite:///{tmp_path / 'arena.db'}"
    fill_demo_db(url)
    abstain_demo_battles(url)
    return url


@pytest.fixture
def server(db_abstained: str, tmp_path: Path) -> Iterator[str]:
    """``streamlit run app.py`` for the voter ann on a free local port."""
    port = free_port()
    env = {**os.environ, "ARENA_DB_URL": db_abstained, "ARENA_USER": "ann"}
    command = streamlit_command(ROOT / "app.py", port)
    log = tmp_path / "streamlit.log"
    with served_app(command, port=port, cwd=tmp_path, env=env, log=log) as url:
        yield url


def _body(driver: Any) -> str:
    from selenium.webdriver.common.by import By

    return str(driver.find_element(By.TAG_NAME, "body").text)


def _tab(driver: Any, name: str) -> None:
    from selenium.webdriver.common.by import By

    next(
        t for t in driver.find_elements(By.CSS_SELECTOR, '[data-testid="stTab"]') if t.text == name
    ).click()


def _queue_shows(driver: Any, line: str) -> bool:
    """The queue line says ``line`` and the pair under it is drawn (question, A, B)."""
    return line in _body(driver) and len(_shown_code(driver)) >= 3 and _idle(driver)


def _idle(driver: Any) -> bool:
    from selenium.webdriver.common.by import By

    return not driver.find_elements(By.CSS_SELECTOR, '[data-testid="stStatusWidget"]')


def _ratings(url: str) -> dict[str, str]:
    board = build_leaderboard(Store(url), RUN)  # the fit the page makes
    return {e.variant: display.rating(e.rating) for e in board.entries if e.rating is not None}


def test_abstained_pairs_are_voted_first_and_move_the_ratings_in_the_browser(
    server: str, db_abstained: str, tmp_path: Path
) -> None:
    from selenium.webdriver.common.by import By

    before = _ratings(db_abstained)
    with headless_chromium(tmp_path / "chrome") as browser:
        browser.get(server)
        wait = _waiter(browser, PAGE_TIMEOUT_S)
        wait.until(lambda d: all(r in _first_table_text(d) for r in before.values()))
        wait.until(_settled)
        _tab(browser, "Vote")
        for line in ("3 pairs wait for a person", "2 pairs wait for a person"):
            wait.until(partial(_queue_shows, line=line))
            body = _body(browser)
            assert "Why this pair:" in body and "could move the gate" in body
            # Vote for the baseline: the answer that is not prompt-v2's.
            button = "B is better" if BECAUSE in _shown_code(browser)[1] else "A is better"
            wait.until(lambda d, b=button: _click(d, b))
            wait.until(lambda d: "Vote stored" in _body(d) and _idle(d))
            assert "baseline" in _body(browser) and "prompt-v2" in _body(browser)  # revealed
        wait.until(partial(_queue_shows, line="1 pair waits for a person"))
        wait.until(lambda d: _click(d, "Tie"))
        wait.until(lambda d: "Votes on run #2: 3 by you" in _body(d) and _idle(d))
        assert "waits for a person" not in _body(browser)
        assert not browser.find_elements(By.CSS_SELECTOR, '[data-testid="stException"]')

        votes = Store(db_abstained).battles(RUN, human_judge("ann").key)
        gate = [v for v in votes if frozenset((v.variant_a, v.variant_b)) == GATE_PAIR]
        assert len(votes) == 3 and len(gate) == 2
        for vote in gate:
            assert vote.winner == ("model_a" if vote.variant_a == "baseline" else "model_b")
        after = _ratings(db_abstained)
        assert int(after["baseline"].replace(",", "")) > int(before["baseline"].replace(",", ""))
        assert int(after["prompt-v2"].replace(",", "")) < int(before["prompt-v2"].replace(",", ""))
        _tab(browser, "Leaderboard")
        wait.until(lambda d: all(r in _first_table_text(d) for r in after.values()))
        assert not browser.find_elements(By.CSS_SELECTOR, '[data-testid="stException"]')
        browser.save_screenshot(str(tmp_path / "vote-queue.png"))
