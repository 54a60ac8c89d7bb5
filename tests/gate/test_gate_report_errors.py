"""The gate report as a pull-request comment when an agent crashes or the input is bad (issue
25, problem 6): tracebacks fenced and trimmed to the frames in the user's files, one line in
table cells, the whole traceback kept for `arena show`; `gate.md` and `gate.json` written on
bad input too, and no stale report left by a gate that died."""

from __future__ import annotations

import pytest
from langchain_core.messages import BaseMessage

from arena.cli import EXIT_BUG, main
from arena.models import register_fake
from arena.storage import Store
from tests.gate.conftest import Project, answers
from tests.gate.test_gate_cli import gate

pytestmark = pytest.mark.unit

AGENT = "tests.gate.crashing_agent:build"


def _crashing_candidate(project: Project, crash_on: tuple[str, ...] = ("C-1",)) -> None:
    """A variant of the team's own agent whose tool raises on the cases ``crash_on``."""

    def reply(messages: list[BaseMessage]) -> str | dict[str, object]:
        case = str(messages[-1].content).rsplit("#", 1)[-1].strip()
        if case in crash_on and not any(type(m).__name__ == "ToolMessage" for m in messages):
            return {"tool": "lookup_order", "args": {"order_id": "Z-9"}}
        return answers()[case]

    register_fake("gate-crashing", [reply], cycle=True)
    (project.variants / "cand.yaml").write_text(
        f"name: cand\nagent: {AGENT}\nmodel: {{spec: 'fake:gate-crashing'}}\n"
    )


def _fenced_blocks(md: str) -> list[str]:
    """The fenced blocks' text, without the indent of their list item."""
    blocks, inside, current, indent = [], False, [], 0
    for line in md.splitlines():
        if line.strip().startswith("```"):
            if inside:
                blocks.append("\n".join(current))
            inside, current, indent = not inside, [], len(line) - len(line.lstrip())
        elif inside:
            current.append(line[indent:])
    return blocks


def test_a_crash_reads_as_a_fenced_traceback_of_the_users_frames(
    project: Project, db_url: str
) -> None:
    project.variant("base", answers())
    _crashing_candidate(project)
    code, doc, md = gate(project, db_url, "--baseline", "base", "--candidate", "cand")
    assert code == 1 and doc["regression"]["broken_cases"] == ["C-1"]
    [block] = _fenced_blocks(md)
    lines = block.splitlines()
    assert lines[0].startswith("Traceback (most recent call last;") and "hidden" in lines[0]
    frames = [line.strip() for line in lines if line.strip().startswith("File ")]
    assert frames == [
        'File "tests/gate/crashing_agent.py", line 26, in lookup_order',
        'File "tests/gate/crashing_agent.py", line 20, in _check_order_id',
    ]
    assert "ValueError: unknown order id 'Z-9' | not in the orders table" in lines
    for noise in ("site-packages", "langgraph", "arena/runner", "asyncio"):
        assert noise not in block
    # outside the fence: no traceback at all, and "Why it failed" holds one line per reason
    outside = "\n".join(line for line in md.splitlines() if line.strip() not in block)
    assert "Traceback" not in outside and 'File "' not in outside
    why = md.split("**Why it failed:**", 1)[1].split("###", 1)[0]
    items = [line for line in why.strip().splitlines() if line]
    assert all(line.startswith("- ") for line in items)
    assert "- [critical_broken] critical case C-1: 1/1 -> 0/1 passes (error: run error: " in why


def test_table_cells_hold_the_exception_on_one_line_escaped(project: Project, db_url: str) -> None:
    project.variant("base", answers())
    _crashing_candidate(project)
    _, doc, md = gate(project, db_url, "--baseline", "base", "--candidate", "cand")
    row = (
        "| `C-1` | critical_broken | error | run error: ValueError: unknown order id 'Z-9' "
        "\\| not in the orders table | blocks |"
    )
    assert row in md.splitlines()
    crash = doc["crashes"][0]
    assert crash["case_id"] == "C-1" and crash["repeats"] == 1 and crash["of"] == 1
    assert crash["error"] == "ValueError: unknown order id 'Z-9' | not in the orders table"


def test_the_whole_traceback_stays_in_the_stored_result_and_arena_show(
    project: Project, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    project.variant("base", answers())
    _crashing_candidate(project)
    _, doc, md = gate(project, db_url, "--baseline", "base", "--candidate", "cand")
    result_id = doc["crashes"][0]["result_id"]
    assert f"`arena show {result_id}`" in md
    stored = next(r for r in Store(db_url).results(doc["run_id"]) if r.id == result_id)
    assert stored.error is not None and "site-packages" in stored.error
    capsys.readouterr()
    assert main(["show", str(result_id), "--db", db_url]) == 0
    shown = capsys.readouterr().out
    assert "langgraph" in shown and "crashing_agent.py" in shown


def test_the_same_crash_on_several_cases_shows_its_traceback_once(
    project: Project, db_url: str
) -> None:
    project.variant("base", answers())
    _crashing_candidate(project, crash_on=("C-1", "S-1", "S-2"))
    _, doc, md = gate(project, db_url, "--baseline", "base", "--candidate", "cand")
    assert [c["case_id"] for c in doc["crashes"]] == ["C-1", "S-1", "S-2"]
    assert len(_fenced_blocks(md)) == 1
    assert "### Errors in the candidate's answers: 3 cases" in md
    assert "- `C-1` (the whole traceback: `arena show" in md and "; `S-2` (" in md


def test_bad_input_writes_both_reports_saying_what_was_wrong_and_nothing_else(
    project: Project, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    project.variant("base", answers())
    code, doc, md = gate(project, db_url, "--baseline", "base", "--candidate", "nope")
    wrong = f"no variant 'nope' in {project.variants} (variants there: base)"
    assert code == 2
    assert doc == {
        "passed": False,
        "command": "gate",
        "baseline": "base",
        "candidate": "nope",
        "bad_input": {
            "message": wrong,
            "file": None,
            "case": None,
            "field": "candidate",
        },
    }
    assert md == (
        "## ⛔ arena gate: bad input (exit 2)\n\n"
        f"The gate refused its input: {wrong}\n\n"
        "- Field: `candidate`\n"
    )
    assert "field candidate" in capsys.readouterr().err


def test_a_bad_arena_yaml_still_writes_the_reports_naming_the_file_and_field(
    project: Project, db_url: str
) -> None:
    project.variant("base", answers())
    project.config("  max_dro: 0.1\n")  # a misspelt key under rules:
    code, doc, md = gate(project, db_url, "--baseline", "base", "--candidate", "base")
    assert code == 2 and doc["bad_input"]["field"] == "rules.max_dro"
    assert doc["bad_input"]["file"].endswith("arena.yaml")
    assert "- File: `" in md and "- Field: `rules.max_dro`" in md
    assert "Regression" not in md and "regression" not in doc


def test_a_gate_that_dies_leaves_no_report_behind(
    project: Project,
    db_url: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    project.variant("base", answers())
    project.config()
    reports = project.root / "reports"
    reports.mkdir()
    for name in ("gate.md", "gate.json"):
        (reports / name).write_text("an earlier gate's verdict")

    def dies(*_args: object, **_kwargs: object) -> None:
        raise RuntimeError("the machine went away")

    monkeypatch.setattr("arena.gate._pipeline.run_gate", dies)
    argv = ["gate", "--config", str(project.root / "arena.yaml"), "--report-dir", str(reports)]
    code = main([*argv, "--db", db_url, "--baseline", "base", "--candidate", "base"])
    assert code == EXIT_BUG  # a crash, told from a failed gate (1) and bad input (2)
    assert "RuntimeError: the machine went away" in capsys.readouterr().err
    assert sorted(p.name for p in reports.iterdir()) == []
