"""A served Streamlit app and a headless Chromium to open it, for the browser tests.

Needs ``/usr/bin/chromium`` and ``/usr/bin/chromedriver`` (Debian: ``apt-get install -y
chromium chromium-driver``); without them a test fails, it does not skip.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
START_TIMEOUT_S = 90.0


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def require_chromium() -> None:
    """Fail (not skip) with the install command when Chromium or its driver is missing."""
    missing = [str(p) for p in (CHROMIUM, CHROMEDRIVER) if not p.exists()]
    if missing:
        pytest.fail(
            f"Chromium is required for the browser test but {', '.join(missing)} "
            "is missing: install it with `apt-get update && apt-get install -y "
            "chromium chromium-driver`",
            pytrace=False,
        )


@contextmanager
def served_app(
    command: Sequence[str], *, port: int, cwd: Path, env: Mapping[str, str], log: Path
) -> Iterator[str]:
    """Start ``command`` (a Streamlit server on ``port``), yield its URL once its health
    check answers, and always stop it afterwards."""
    with log.open("wb") as out:
        proc = subprocess.Popen(
            list(command), cwd=cwd, env=dict(env), stdout=out, stderr=subprocess.STDOUT
        )
        try:
            url = f"http://127.0.0.1:{port}"
            _wait_until_serving(url, proc, log)
            yield url
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=15)


def streamlit_command(app: Path, port: int, *extra: str) -> list[str]:
    """``streamlit run APP`` headless on 127.0.0.1:PORT with usage statistics off, plus
    ``extra`` settings."""
    return [
        sys.executable,
        "-m",
        "streamlit",
        "run",
        str(app),
        "--server.headless",
        "true",
        "--server.port",
        str(port),
        "--server.address",
        "127.0.0.1",
        "--browser.gatherUsageStats",
        "false",
        *extra,
    ]


def _wait_until_serving(url: str, proc: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"the app exited with {proc.returncode}:\n{log.read_text()}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as reply:
                if reply.status == 200:
                    return
        except OSError:
            time.sleep(0.3)
    pytest.fail(f"the app did not answer within {START_TIMEOUT_S:.0f} s:\n{log.read_text()}")


@contextmanager
def headless_chromium(profile: Path, *, size: str = "1400,2400") -> Iterator[Any]:
    """Headless Chromium through chromedriver, with its own profile folder."""
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    require_chromium()
    options = Options()
    options.binary_location = str(CHROMIUM)
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        f"--user-data-dir={profile}",
        f"--window-size={size}",
    ):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    try:
        yield driver
    finally:
        driver.quit()
