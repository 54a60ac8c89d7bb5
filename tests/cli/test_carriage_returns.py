"""A bare carriage return is shown the same way wherever the CLI prints stored text: escaped
as ``\\u000d`` in its line (`arena show`, the gate's stdout, gate.md, an error on stderr),
never a line break nor a space; ``\\r\\n`` stays a line break (user trial after issue 36:
`show` started a new indented line at it, gate.md printed a space, stderr ``\\u000d``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.cli import main
from arena.gate._report import md_line
from arena.models import register_fake
from arena.reports._format import one_line, terminal_safe
from arena.reports._markdown import md_cell, md_code
from tests.gate.conftest import Project, answers

pytestmark = pytest.mark.unit

FORGED = "Done.\rpassed: all checks OK"
SHOWN = "Done.\\u000dpassed: all checks OK"


def test_every_path_escapes_a_bare_cr_and_keeps_crlf_a_line_break() -> None:
    assert terminal_safe("a\rb\r\nc") == "a\\u000db\nc"
    assert one_line("a\rb\r\nc") == "a\\u000db c"
    assert md_cell("a\rb|c") == "a\\u000db\\|c"
    assert md_code("a\rb\r\nc") == "`a\\u000db c`"
    assert md_line("a\rb <i>") == "a\\u000db &lt;i>"


@pytest.mark.system  # a run, then show: over 0.5 s of CPU
def test_show_keeps_a_bare_cr_in_its_line(
    tmp_path: Path, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    project = Project(tmp_path)
    project.variant("cr", answers(C_1=FORGED))
    argv = ["run", "--variants", str(project.variants / "cr.yaml"), "--dataset"]
    assert main([*argv, str(project.dataset), "--cases", "C-1", "--db", db_url]) == 0
    capsys.readouterr()
    assert main(["show", "1", "--db", db_url]) == 0
    out = capsys.readouterr().out
    assert f"    {SHOWN}\n" in out, out


@pytest.mark.system  # a whole gate
def test_the_gate_shows_a_bare_cr_as_stderr_does(
    tmp_path: Path, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    project = Project(tmp_path)
    project.variant("base", answers())
    register_fake("gate-cr", [RuntimeError(FORGED)], cycle=True)
    (project.variants / "cr.yaml").write_text(
        "name: cr\nmodel: {spec: 'fake:gate-cr'}\ntools: []\n"
    )
    config, reports = project.config(), project.root / "reports"
    argv = ["gate", "--config", str(config), "--report-dir", str(reports), "--db", db_url]
    assert main([*argv, "--baseline", "base", "--candidate", "cr"]) == 1
    out = capsys.readouterr().out
    md = (reports / "gate.md").read_text(encoding="utf-8")
    assert SHOWN in md and "Done. passed" not in md, md
    assert SHOWN in out and "Done. passed" not in out, out
    bad = project.variants / "bad.yaml"
    bad.write_text(f"name: {json.dumps(FORGED)}\nmodel: {{spec: 'fake:x'}}\n")
    assert main([*argv, "--baseline", "base", "--candidate", str(bad)]) == 2
    assert "\\u000d" in capsys.readouterr().err
