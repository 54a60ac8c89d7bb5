"""`ARENA_RETRIES=0` makes one attempt and records that attempt's real error (user trial
after issue 36: the result's error was "AssertionError: unreachable: the last attempt
re-raises", hiding the connection error), against the fault server and a refused port."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.faults.scenario import API_KEY, KEY_ENV, cli_json, write_files
from tests.support.fault_server import FaultServer

pytestmark = pytest.mark.system


@pytest.fixture(autouse=True)
def no_retries(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv(KEY_ENV, API_KEY)
    monkeypatch.setenv("ARENA_RETRIES", "0")
    monkeypatch.setenv("ARENA_RETRY_DELAY", "0")
    yield


def _errors(root: Path, base_url: str) -> list[str]:
    files = write_files(root, base_url, f"sqlite:///{root / 'arena.db'}", cases=1, models=("m",))
    report, _ = cli_json(files.run_args())
    return [str(r["error"]) for r in report["results"]]


def test_zero_retries_records_the_servers_error_after_one_request(tmp_path: Path) -> None:
    with FaultServer(rate=1.0, kinds=("500",)) as server:
        (error,) = _errors(tmp_path, server.base_url)
        assert server.stats()["requests"] == 1
    assert error.startswith("OpenAIAPIError: Error code: 500"), error
    assert "unreachable" not in error and "AssertionError" not in error


def test_zero_retries_records_the_connection_error_of_a_refused_port(tmp_path: Path) -> None:
    with socket.socket() as probe:  # a port nothing listens on once it is closed
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    (error,) = _errors(tmp_path, f"http://127.0.0.1:{port}/v1")
    assert error.startswith("OpenAIConnectionError: Connection error"), error
    assert "unreachable" not in error and "AssertionError" not in error
