"""``streamlit run app.py`` in the checkout and ``arena app`` start the same page with the same
settings: this machine only (127.0.0.1), no usage statistics, headless. The checkout's settings
come from ``.streamlit/config.toml``; a wheel has none, so ``arena app`` passes them as flags."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import tomllib
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from arena.cli.app import STREAMLIT_SETTINGS, app_command
from tests.packaging.conftest import REPO
from tests.support.browser import free_port

pytestmark = pytest.mark.system

CONFIG = REPO / ".streamlit" / "config.toml"


def _flat(table: dict[str, object], prefix: str = "") -> dict[str, str]:
    flat: dict[str, str] = {}
    for key, value in table.items():
        if isinstance(value, dict):
            flat |= _flat(value, f"{prefix}{key}.")
        else:
            flat[f"{prefix}{key}"] = str(value).lower() if isinstance(value, bool) else str(value)
    return flat


@pytest.mark.unit
def test_the_config_file_holds_exactly_what_arena_app_passes() -> None:
    assert _flat(tomllib.loads(CONFIG.read_text(encoding="utf-8"))) == STREAMLIT_SETTINGS
    assert STREAMLIT_SETTINGS["server.address"] == "127.0.0.1"
    assert STREAMLIT_SETTINGS["browser.gatherUsageStats"] == "false"


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("STREAMLIT_")}
    return {**env, "PYTHONPATH": str(REPO)}


def _shown(cwd: Path, *flags: str) -> str:
    """``streamlit config show``: the settings Streamlit resolves in ``cwd`` with ``flags``."""
    done = subprocess.run(
        [sys.executable, "-m", "streamlit", "config", "show", *flags],
        cwd=cwd, env=_env(), capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    return done.stdout


def test_both_ways_resolve_no_usage_statistics_and_the_loopback_address(tmp_path: Path) -> None:
    checkout = _shown(REPO)
    command = app_command(8501)
    flags = command[command.index("run") + 2 :]  # what `arena app` passes after the page
    assert "\n# gatherUsageStats = true\n" in _shown(tmp_path)  # no config: the default, on
    from_flags = _shown(tmp_path, *flags)
    for shown in (checkout, from_flags):
        assert "\ngatherUsageStats = false\n" in shown
        assert '\naddress = "127.0.0.1"\n' in shown
        assert "\nheadless = true\n" in shown


def _listening(port: int) -> set[str]:
    """The addresses a TCP socket listens on at ``port`` (read from /proc/net)."""
    found: set[str] = set()
    for table, family in (("tcp", socket.AF_INET), ("tcp6", socket.AF_INET6)):
        path = Path("/proc/net") / table
        for line in path.read_text().splitlines()[1:] if path.exists() else []:
            local, state = line.split()[1], line.split()[3]
            address, _, hex_port = local.partition(":")
            if state != "0A" or int(hex_port, 16) != port:  # 0A: LISTEN
                continue
            raw = bytes.fromhex(address)
            # /proc prints each 32-bit word in host (little-endian) order
            raw = b"".join(raw[i : i + 4][::-1] for i in range(0, len(raw), 4))
            found.add(socket.inet_ntop(family, raw))
    return found


@contextmanager
def _serve(argv: list[str], cwd: Path, port: int, log: Path) -> Iterator[set[str]]:
    with log.open("wb") as out:
        proc = subprocess.Popen(argv, cwd=cwd, env=_env(), stdout=out, stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + 60
            while True:
                assert proc.poll() is None, log.read_text()
                try:
                    with urllib.request.urlopen(
                        f"http://127.0.0.1:{port}/_stcore/health", timeout=2
                    ) as reply:
                        if reply.status == 200:
                            break
                except OSError:
                    assert time.monotonic() < deadline, log.read_text()
                    time.sleep(0.3)
            yield _listening(port)
        finally:
            proc.terminate()
            proc.wait(timeout=15)


@pytest.mark.parametrize("way", ["streamlit run app.py", "arena app"])
def test_a_started_server_listens_on_the_loopback_address_only(tmp_path: Path, way: str) -> None:
    port = free_port()
    if way == "arena app":  # from an empty folder: no config file to lean on
        argv = [sys.executable, "-P", "-m", "arena.cli", "app", "--port", str(port)]
        cwd = tmp_path
    else:  # what docs/app.md tells a user of the checkout to type, port aside
        argv = [sys.executable, "-m", "streamlit", "run", "app.py", "--server.port", str(port)]
        cwd = REPO
    with _serve(argv, cwd, port, tmp_path / "server.log") as addresses:
        assert addresses == {"127.0.0.1"}
    log = (tmp_path / "server.log").read_text()
    assert "Collecting usage statistics" not in log
