"""`arena app` listens on 127.0.0.1 unless told otherwise (`--address`), and prints no
network URL by default."""

from __future__ import annotations

import argparse
from typing import Any

import pytest

from arena.cli import app as cli_app
from arena.cli import main

pytestmark = pytest.mark.unit


def _serve(monkeypatch: pytest.MonkeyPatch, *flags: str) -> list[str]:
    parser = argparse.ArgumentParser(prog="arena")
    cli_app.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["app", *flags])
    seen: dict[str, Any] = {}

    def fake_exec(file: str, argv: list[str], env: dict[str, str]) -> None:
        seen.update(argv=argv)

    monkeypatch.setattr(cli_app.os, "execvpe", fake_exec)
    assert args.handler(args) == 0
    argv: list[str] = seen["argv"]
    return argv


def test_the_app_binds_the_loopback_address_by_default(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = _serve(monkeypatch)
    assert argv[argv.index("--server.address") + 1] == "127.0.0.1"
    out = capsys.readouterr().out
    assert "http://127.0.0.1:8501" in out and "localhost" not in out
    assert "network" not in out.lower()


def test_address_serves_elsewhere_and_warns_on_all_interfaces(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = _serve(monkeypatch, "--address", "0.0.0.0", "--port", "8600")
    assert argv[argv.index("--server.address") + 1] == "0.0.0.0"
    out = capsys.readouterr().out
    assert "all network interfaces" in out and "http://0.0.0.0:8600" in out
    argv = _serve(monkeypatch, "--address", "::1")
    assert argv[argv.index("--server.address") + 1] == "::1"
    assert "http://[::1]:8501" in capsys.readouterr().out


def test_a_blank_address_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["app", "--address", " "]) == 2
    assert "field --address" in capsys.readouterr().err
