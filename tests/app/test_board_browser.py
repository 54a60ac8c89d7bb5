"""The leaderboard a stakeholder reads on a 1440x900 laptop, in a real headless Chromium on a
fresh demo-like database: the first screen answers the three questions with counts, no table
scrolls sideways, an all-$0 run has no cost axis, and the page's text passes AA contrast.

Needs ``/usr/bin/chromium`` and ``/usr/bin/chromedriver``; without them the tests fail, they
do not skip. With ARENA_UPDATE_SCREENSHOT=1 the first screen of the priced run is saved as the
docs' screenshot of the browser test (docs/leaderboard.png; docs/leaderboard-demo.png is
taken by ``benchmarks/docs_figures.py`` after a real ``arena demo``).
"""

from __future__ import annotations

import os
import re
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

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
SCREENSHOTS = [ROOT / "docs" / "leaderboard.png"]
WIDTH, HEIGHT = 1440, 900
TIMEOUT_S = 90.0
QUESTIONS = (
    "Which variant is best?",
    "Is the cheaper model good enough?",
    "Can the judge be trusted?",
)
COUNTS = re.compile(r"\b\d+(?:\.\d)?/\d+\b|\b\d+ of \d+\b")
"""A count: ``4/6`` or ``18 of 18``."""

# The text colour and the first opaque background behind it, for every visible element that
# holds text of its own; WCAG contrast computed in the page (alpha blended over white).
CONTRAST_JS = """
function rgba(s) {
  const m = s.match(/rgba?\\(([^)]+)\\)/); if (!m) return [0, 0, 0, 1];
  const p = m[1].split(',').map(x => parseFloat(x));
  return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
}
function lum(c) {
  const f = v => {
    v /= 255;
    return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
  };
  return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
}
function background(el) {
  let layers = [];
  for (let e = el; e; e = e.parentElement) {
    const c = rgba(getComputedStyle(e).backgroundColor);
    if (c[3] > 0) { layers.push(c); if (c[3] >= 1) break; }
  }
  let out = [255, 255, 255];
  for (const c of layers.reverse()) out = out.map((v, i) => c[i] * c[3] + v * (1 - c[3]));
  return out;
}
const found = [];
for (const el of document.querySelectorAll('body *')) {
  const own = Array.from(el.childNodes).some(n => n.nodeType === 3 && n.textContent.trim());
  if (!own) continue;
  const r = el.getBoundingClientRect();
  const style = getComputedStyle(el);
  if (r.width === 0 || r.height === 0 || style.visibility === 'hidden') continue;
  const skipped = '[aria-hidden="true"], [data-testid="stTooltipContent"], button[disabled]';
  if (el.closest(skipped)) continue;
  let opacity = 1;
  for (let e = el; e; e = e.parentElement) opacity *= parseFloat(getComputedStyle(e).opacity);
  if (opacity < 0.05) continue;
  const bg = background(el);
  const fg0 = rgba(style.color);
  const alpha = fg0[3] * opacity;
  const fg = [0, 1, 2].map(i => fg0[i] * alpha + bg[i] * (1 - alpha));
  const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
  found.push([el.textContent.trim().slice(0, 60), (a + 0.05) / (b + 0.05), style.color]);
}
return found;
"""

# Every data frame's scrolling area: how wide its content is against how wide it is shown.
TABLE_WIDTHS_JS = """
return Array.from(document.querySelectorAll('[data-testid="stDataFrame"]'))
  .filter(f => f.getBoundingClientRect().width > 0 && f.getBoundingClientRect().height > 0
    && f.offsetParent !== null && f.textContent.trim())
  .map(f => {
    const s = f.querySelector('.dvn-scroller') || f;
    return [f.textContent.slice(0, 60), s.scrollWidth, s.clientWidth];
  });
"""


def _fill(url: str, free: bool) -> None:
    fill_demo_db(url, free=free)


@pytest.fixture(params=[False, True], ids=["priced", "all-free"])
def served(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, bool]]:
    """A fresh demo-like database (priced models, or every model at $0) served by
    ``streamlit run app.py``."""
    require_chromium()
    free = bool(request.param)
    db = f"sqlite:///{tmp_path / 'arena.db'}"
    _fill(db, free)
    port = free_port()
    env = {**os.environ, "ARENA_DB_URL": db}
    command = streamlit_command(ROOT / "app.py", port, "--client.toolbarMode", "viewer")
    with served_app(command, port=port, cwd=tmp_path, env=env, log=tmp_path / "app.log") as url:
        yield url, free


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[Any]:
    """Headless Chromium with a 1440x900 viewport."""
    with headless_chromium(tmp_path / "chrome", size=f"{WIDTH},{HEIGHT}") as driver:
        driver.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride",
            {"width": WIDTH, "height": HEIGHT, "deviceScaleFactor": 1, "mobile": False},
        )
        yield driver


def _waiter(driver: Any) -> Any:
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, TIMEOUT_S, ignored_exceptions=(StaleElementReferenceException,))


def _settled(driver: Any) -> bool:
    from selenium.webdriver.common.by import By

    running = driver.find_elements(By.CSS_SELECTOR, '[data-testid="stStatusWidget"]')
    charts = driver.find_elements(
        By.CSS_SELECTOR,
        '[data-testid="stVegaLiteChart"] canvas, [data-testid="stVegaLiteChart"] svg',
    )
    return not running and len(charts) >= 2


def _open_tab(driver: Any, name: str) -> None:
    from selenium.webdriver.common.by import By

    tab = next(
        t for t in driver.find_elements(By.CSS_SELECTOR, '[data-testid="stTab"]') if name in t.text
    )
    tab.click()
    time.sleep(1.5)  # the grid and the charts of the tab paint


def _answer_boxes(driver: Any) -> list[tuple[str, float]]:
    """(text, bottom edge in px) of each of the three answer boxes."""
    from selenium.webdriver.common.by import By

    boxes = []
    for box in driver.find_elements(By.CSS_SELECTOR, '[data-testid="stColumn"]'):
        text = box.text
        if any(text.startswith(q) for q in QUESTIONS) and box.is_displayed():
            bottom = driver.execute_script(
                "return arguments[0].getBoundingClientRect().bottom", box
            )
            boxes.append((text, float(bottom)))
    return boxes


def _no_table_scrolls_sideways(driver: Any, where: str) -> None:
    widths = driver.execute_script(TABLE_WIDTHS_JS)
    assert widths, f"no table on {where}"
    wide = [(text, full, shown) for text, full, shown in widths if full > shown + 1]
    assert not wide, f"tables scrolling sideways on {where}: {wide}"


def _low_contrast(driver: Any) -> list[tuple[str, float, str]]:
    return [(t, round(r, 2), c) for t, r, c in driver.execute_script(CONTRAST_JS) if r < 4.5]


def test_the_first_screen_answers_the_three_questions_and_everything_fits(
    served: tuple[str, bool], browser: Any, tmp_path: Path
) -> None:
    from selenium.webdriver.common.by import By

    url, free = served
    browser.get(url)
    wait = _waiter(browser)
    wait.until(lambda d: len(_answer_boxes(d)) == 3)
    wait.until(_settled)
    time.sleep(2.0)
    assert browser.execute_script("return window.innerWidth") == WIDTH
    assert browser.execute_script("return window.scrollY") == 0
    viewport = float(browser.execute_script("return window.innerHeight"))
    boxes = _answer_boxes(browser)
    for text, bottom in boxes:
        assert bottom <= viewport, f"below the fold ({bottom:.0f} > {viewport:.0f}): {text}"
        assert COUNTS.search(text), f"no count in the answer: {text}"
    answers = {text.split("\n", 1)[0]: text for text, _ in boxes}
    assert set(answers) == set(QUESTIONS)
    assert "prompt-v2 is best" in answers[QUESTIONS[0]]
    assert "No: small-model vs baseline is WORSE" in answers[QUESTIONS[1]]
    assert "right on 18 of 18 clear-cut pairs" in answers[QUESTIONS[2]]
    shot = tmp_path / "first-screen.png"
    assert browser.save_screenshot(str(shot))
    if not free and os.environ.get("ARENA_UPDATE_SCREENSHOT") == "1":
        for target in SCREENSHOTS:
            shutil.copyfile(shot, target)

    body = browser.find_element(By.TAG_NAME, "body").text
    assert "None" not in body and "nan" not in body.split()
    _no_table_scrolls_sideways(browser, "the leaderboard")
    low = _low_contrast(browser)
    assert not low, f"text below AA contrast on the leaderboard: {low[:10]}"
    if free:
        # Every model costs $0: the spend axis is tokens, no cost axis is drawn.
        assert "Every cost is $0 (local models)" in body
        assert "Cost / query" not in _first_table(browser)
    for tab in ("Compare two variants", "Judge health"):
        _open_tab(browser, tab)
        _no_table_scrolls_sideways(browser, tab)
        low = _low_contrast(browser)
        assert not low, f"text below AA contrast on {tab}: {low[:10]}"
    assert not browser.find_elements(By.CSS_SELECTOR, '[data-testid="stException"]')


def _first_table(driver: Any) -> str:
    from selenium.webdriver.common.by import By

    frames = driver.find_elements(By.CSS_SELECTOR, '[data-testid="stDataFrame"]')
    return str(frames[0].get_attribute("textContent")) if frames else ""
