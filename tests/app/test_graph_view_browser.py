"""The drill-down's graph path in a real headless Chromium: the stored support desk's page,
its Compare tab opened on S-3, shows each desk's node timeline and the failed desk's state
change after the router (needs /usr/bin/chromium and chromedriver, like
tests/app/test_app_browser.py; without them the test fails, it does not skip)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.app.test_app_browser import PAGE_TIMEOUT_S, _choose, _shown_code, _waiter
from tests.support.browser import (
    free_port,
    headless_chromium,
    require_chromium,
    served_app,
    streamlit_command,
)
from tests.support.desk_run import desk_run

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def desk_server(tmp_path: Path) -> Iterator[str]:
    """``streamlit run app.py`` on the stored desk run (filled in this process)."""
    require_chromium()
    url = f"sqlite:///{tmp_path / 'desk.db'}"
    desk_run(url)
    port = free_port()
    env = {**os.environ, "ARENA_DB_URL": url}
    command = streamlit_command(ROOT / "app.py", port, "--client.toolbarMode", "viewer")
    with served_app(command, port=port, cwd=tmp_path, env=env, log=tmp_path / "st.log") as page:
        yield page


def _open_expanders(driver: Any, prefix: str) -> int:
    """Click every closed expander whose label starts with ``prefix``; how many there are
    (open or closed). Called inside a wait: a click refused mid-rerun is tried again there.

    The summary's text starts with its arrow icon's ligature name (``keyboard_arrow_right``),
    so the label is read from the summary's markdown container."""
    from selenium.common.exceptions import ElementClickInterceptedException
    from selenium.webdriver.common.by import By

    found = [
        s
        for s in driver.find_elements(By.CSS_SELECTOR, '[data-testid="stExpander"] summary')
        if s.find_element(By.CSS_SELECTOR, '[data-testid="stMarkdownContainer"]').text.startswith(
            prefix
        )
    ]
    for summary in found:
        if driver.execute_script("return arguments[0].closest('details').open === true", summary):
            continue
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", summary)
        try:
            summary.click()
        except ElementClickInterceptedException:  # mid-rerun; the caller's wait looks again
            continue
    return len(found)


def test_the_drill_down_shows_the_node_timeline_and_state_diff(
    desk_server: str, tmp_path: Path
) -> None:
    from selenium.webdriver.common.by import By

    with headless_chromium(tmp_path / "chrome") as browser:
        browser.get(desk_server)
        wait = _waiter(browser, PAGE_TIMEOUT_S)
        body = lambda d: d.find_element(By.TAG_NAME, "body").text  # noqa: E731
        wait.until(lambda d: "desk-strict" in body(d))
        next(
            t
            for t in browser.find_elements(By.CSS_SELECTOR, '[data-testid="stTab"]')
            if "Compare" in t.text
        ).click()
        _choose(browser, "Case", "S-3")
        # Until the Case choice's rerun lands, S-1's paths (no state kept) are on the page,
        # and S-3's expanders (other labels) then arrive closed: open them while waiting.
        wait.until(
            lambda d: (
                _open_expanders(d, "Graph path of") == 2 and "State after each superstep" in body(d)
            )
        )

        def tables(d: Any) -> str:
            return " ".join(
                str(f.get_attribute("textContent"))
                for f in d.find_elements(By.CSS_SELECTOR, '[data-testid="stDataFrame"]')
            )

        # The two expanders' tables render one after the other: wait for both paths.
        try:
            # A rerun can redraw an expander closed: open it again while waiting.
            wait.until(
                lambda d: (
                    _open_expanders(d, "Graph path of") == 2
                    and "support:tools" in tables(d)
                    and "decline" in tables(d)
                )
            )
        except Exception as error:  # the timeout names what was shown instead
            raise AssertionError(
                f"both paths not shown; the tables read: {tables(browser)}"
            ) from error
        codes = wait.until(lambda d: [c for c in _shown_code(d) if c.startswith("route:")])
        assert codes == ["route:\n- (unset)\n+ decline"]
        assert "superstep 1 · after router" in body(browser)
        assert not browser.find_elements(By.CSS_SELECTOR, '[data-testid="stException"]')
        browser.save_screenshot(str(tmp_path / "graph-path.png"))
