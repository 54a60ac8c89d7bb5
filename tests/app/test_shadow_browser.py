"""The Production shadow tab in a real headless Chromium: two shadow runs of one candidate on
one traces source (scripted models, filled in this process), the win-rate chart over them,
and the traces the selected run lost with both answers side by side, an HTML answer shown as
text and never run.

Needs ``/usr/bin/chromium`` and ``/usr/bin/chromedriver``; without them the test fails.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from arena.cli import main
from arena.storage import Store
from tests.app.test_app_browser import _choose, _shown_code, _waiter
from tests.production.helpers import trace_rows, write_jsonl
from tests.production.scripted import register_models, variant_file
from tests.support.app_fixtures import SCRIPT_PAYLOAD
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
def shadow_db(tmp_path: Path) -> tuple[str, int]:
    """A worse then a better shadow run of ``cand``; the url and the worse run's id."""
    require_chromium()
    register_models()
    url = f"sqlite:///{tmp_path / 'arena.db'}"
    rows = trace_rows(3, answer="GOOD answer")
    rows[0]["answer"] = f"GOOD answer {SCRIPT_PAYLOAD}"
    traces = write_jsonl(tmp_path / "prod.jsonl", rows)
    for model in ("worse", "better"):
        (tmp_path / model).mkdir()
        candidate = variant_file(tmp_path / model, "cand", model)
        argv = ["shadow", "--traces", traces, "--candidate", candidate,
                "--judge", "fake:prefers-good/text", "--db", url, "--json"]  # fmt: skip
        assert main(argv) == 0
    return url, min(r.id for r in Store(url).runs())


@pytest.fixture
def server(shadow_db: tuple[str, int], tmp_path: Path) -> Iterator[str]:
    """``streamlit run app.py`` on a free local port; always stopped afterwards."""
    port = free_port()
    env = {**os.environ, "ARENA_DB_URL": shadow_db[0]}
    command = streamlit_command(ROOT / "app.py", port)
    with served_app(command, port=port, cwd=tmp_path, env=env, log=tmp_path / "log") as url:
        yield url


def _body(driver: Any) -> str:
    from selenium.webdriver.common.by import By

    return str(driver.find_element(By.TAG_NAME, "body").text)


def test_the_shadow_tab_draws_the_trend_and_the_lost_answers_side_by_side(
    server: str, shadow_db: tuple[str, int], tmp_path: Path
) -> None:
    from selenium.webdriver.common.by import By

    _, worse = shadow_db
    with headless_chromium(tmp_path / "chrome") as browser:
        browser.get(server)
        wait = _waiter(browser, PAGE_TIMEOUT_S)
        wait.until(lambda d: "Agent Arena leaderboard" in _body(d))
        _choose(browser, "Run", f"#{worse} ")
        next(
            t
            for t in browser.find_elements(By.CSS_SELECTOR, '[data-testid="stTab"]')
            if t.text == "Production shadow"
        ).click()
        wait.until(lambda d: f"Traces lost in run #{worse} (3)" in _body(d))
        wait.until(
            lambda d: any(
                c.is_displayed()
                for c in d.find_elements(
                    By.CSS_SELECTOR,
                    '[data-testid="stVegaLiteChart"] canvas, [data-testid="stVegaLiteChart"] svg',
                )
            )
        )
        # one lost trace is shown at a time: pick t0, the one whose answer holds the payload
        _choose(browser, "Lost trace", "t0")
        wait.until(lambda d: "What is the capital of country number 0?" in _shown_code(d))
        shown = [c for c in _shown_code(browser) if "GOOD answer" in c]
        assert "I am not sure." in _shown_code(browser)
        assert any(SCRIPT_PAYLOAD in c.replace("\n", "") for c in shown)
        assert browser.title != "pwned"
        ran = browser.execute_script(
            "return Array.from(document.scripts).some(s => s.textContent.includes('pwned'))"
        )
        assert ran is False
        assert not browser.find_elements(By.CSS_SELECTOR, '[data-testid="stException"]')
        body = _body(browser)
        assert "Candidate cand against production" in body and "2 shadow runs" in body
        browser.save_screenshot(str(tmp_path / "shadow.png"))
