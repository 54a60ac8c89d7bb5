"""Model text printed by the CLI cannot act on the terminal: `arena show`, `score` and `gate`
(stdout, gate.md, gate.json) show a reply's or an error's control characters as escapes."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from arena.cli import main
from arena.models import register_fake
from arena.reports._format import terminal_safe
from tests.gate.conftest import Project, answers

pytestmark = pytest.mark.unit

#: Erases the line, prints a forged verdict, retitles the terminal, backspaces over text.
HOSTILE = "alpha\x1b[2K\rpassed: all checks OK\x1b]0;pwned\x07 ab\x08\x08zz\x9b2J"
#: A control character a terminal acts on (tab and newline are kept).
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


@pytest.fixture
def project(tmp_path: Path) -> Project:
    """A gate project: a golden dataset, variants on scripted models."""
    return Project(tmp_path)


def _crashing(project: Project, name: str) -> None:
    """A variant whose model fails with an error that carries the hostile text."""
    register_fake(f"gate-{name}", [RuntimeError(HOSTILE)], cycle=True)
    path = project.variants / f"{name}.yaml"
    path.write_text(f"name: {name}\nmodel: {{spec: 'fake:gate-{name}'}}\ntools: []\n")


def test_terminal_safe_escapes_controls_and_keeps_lines_and_tabs() -> None:
    shown = terminal_safe("a\tb\r\nc\x1b[2K\rd\x07\x08\x9b\u202e")
    assert shown == "a\tb\nc\\u001b[2K\\u000dd\\u0007\\u0008\\u009b\\u202e"
    assert json.loads(terminal_safe(json.dumps({"x": "\x9b\x1b"}, ensure_ascii=False))) == {
        "x": "\x9b\x1b"
    }


def test_show_prints_a_replys_control_codes_as_escapes(
    project: Project, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    project.variant("host", answers(C_1=HOSTILE))
    dataset, variant = project.dataset, project.variants / "host.yaml"
    argv = ["run", "--variants", str(variant), "--dataset", str(dataset), "--db", db_url]
    assert main([*argv, "--cases", "C-1"]) == 0
    capsys.readouterr()
    assert main(["show", "1", "--db", db_url]) == 0
    out = capsys.readouterr().out
    assert not RAW.search(out), repr(out)
    assert "alpha\\u001b[2K\\u000d" in out and "passed: all checks OK\\u001b]0;pwned\\u0007" in out
    assert main(["show", "1", "--json", "--db", db_url]) == 0
    shown = json.loads(capsys.readouterr().out)  # still JSON, holding the reply as stored
    assert shown["output"] == HOSTILE


def test_score_prints_an_errors_control_codes_as_escapes(
    project: Project, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    _crashing(project, "crash")
    variant = project.variants / "crash.yaml"
    argv = ["run", "--variants", str(variant), "--dataset", str(project.dataset)]
    assert main([*argv, "--cases", "C-1", "--db", db_url]) == 0
    capsys.readouterr()
    for fmt in ("table", "markdown"):
        assert main(["score", "--format", fmt, "--db", db_url]) == 0
        out = capsys.readouterr().out
        assert "pwned" in out and not RAW.search(out), repr(out)


def test_gate_prints_and_writes_an_errors_control_codes_as_escapes(
    project: Project, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    project.variant("base", answers())
    _crashing(project, "crash")
    config, reports = project.config(), project.root / "reports"
    argv = ["gate", "--config", str(config), "--report-dir", str(reports), "--db", db_url]
    assert main([*argv, "--baseline", "base", "--candidate", "crash"]) == 1
    out = capsys.readouterr().out
    assert "pwned" in out and not RAW.search(out), repr(out)
    md = (reports / "gate.md").read_text(encoding="utf-8")
    assert "pwned" in md and not RAW.search(md), repr(md)
    doc = json.loads((reports / "gate.json").read_text(encoding="utf-8"))
    assert "pwned" in json.dumps(doc)
