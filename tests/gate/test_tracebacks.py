"""Tracebacks trimmed to the frames in the user's files (`arena.gate._tracebacks`), and the
Markdown pieces that keep them readable in a pull-request comment."""

from __future__ import annotations

import sysconfig
from pathlib import Path

import pytest

import arena
from arena.gate._crashes import Crash, crashes_markdown
from arena.gate._tracebacks import error_line, is_user_file, traceback_of, trim_traceback
from arena.reports._markdown import md_fence

pytestmark = pytest.mark.unit

STDLIB = Path(sysconfig.get_paths()["stdlib"]) / "asyncio" / "tasks.py"
LIBRARY = "/opt/venv/lib/python3.11/site-packages/langgraph/pregel/main.py"
ARENA = Path(arena.__file__).parent / "runner" / "_execute.py"


def _frame(path: str | Path, line: int, func: str, source: str) -> str:
    return f'  File "{path}", line {line}, in {func}\n    {source}\n    {"^" * len(source)}\n'


def _traceback(*frames: str, raised: str) -> str:
    return "Traceback (most recent call last):\n" + "".join(frames) + raised


def test_only_the_users_frames_and_the_exception_are_kept(tmp_path: Path) -> None:
    tools = tmp_path / "shopbot" / "tools.py"
    text = _traceback(
        _frame(ARENA, 78, "execute_task", "result = await agent.ainvoke(...)"),
        _frame(STDLIB, 489, "wait_for", "return fut.result()"),
        _frame(LIBRARY, 4202, "ainvoke", "async for chunk in self.astream("),
        _frame(tools, 12, "lookup_order", "raise KeyError(order_id)"),
        raised="KeyError: 'Z-9'\nDuring task with name 'tools'",
    )
    trimmed = trim_traceback(text).splitlines()
    assert trimmed[0] == "Traceback (most recent call last; 3 frames outside your code hidden):"
    assert trimmed[1] == f'  File "{tools}", line 12, in lookup_order'
    assert trimmed[2:] == [
        "    raise KeyError(order_id)",
        "    ^^^^^^^^^^^^^^^^^^^^^^^^",
        "KeyError: 'Z-9'",
        "During task with name 'tools'",
    ]


def test_without_a_user_frame_the_last_frame_and_the_exception_stay() -> None:
    text = _traceback(
        _frame(STDLIB, 489, "wait_for", "return fut.result()"),
        _frame(LIBRARY, 4202, "ainvoke", "raise GraphRecursionError()"),
        raised="GraphRecursionError: Recursion limit of 25 reached",
    )
    trimmed = trim_traceback(text).splitlines()
    assert "1 frame outside your code hidden" in trimmed[0]
    assert trimmed[1] == f'  File "{LIBRARY}", line 4202, in ainvoke'
    assert trimmed[-1] == "GraphRecursionError: Recursion limit of 25 reached"


def test_each_exception_of_a_chain_is_trimmed(tmp_path: Path) -> None:
    agent = tmp_path / "shopbot" / "agent.py"
    first = _traceback(
        _frame(LIBRARY, 10, "run", "return f()"),
        _frame(agent, 5, "parse", "int(text)"),
        raised="ValueError: invalid literal for int() with base 10: 'x'",
    )
    second = _traceback(
        _frame(agent, 9, "route", "raise RuntimeError('no route') from exc"),
        raised="RuntimeError: no route",
    )
    cause = "\n\nThe above exception was the direct cause of the following exception:\n\n"
    trimmed = trim_traceback(first + cause + second)
    assert LIBRARY not in trimmed
    assert trimmed.count(str(agent)) == 2
    assert "ValueError: invalid literal" in trimmed and trimmed.endswith("RuntimeError: no route")
    assert "direct cause of the following exception" in trimmed
    assert trimmed.splitlines()[0].endswith("1 frame outside your code hidden):")


def test_the_factorys_package_counts_as_the_users_even_when_installed() -> None:
    installed = Path("/opt/venv/lib/python3.11/site-packages/shopbot")
    assert not is_user_file(str(installed / "tools.py"))
    assert is_user_file(str(installed / "tools.py"), [installed])
    text = _traceback(
        _frame(LIBRARY, 1, "invoke", "return tool()"),
        _frame(installed / "tools.py", 3, "lookup", "raise KeyError(1)"),
        raised="KeyError: 1",
    )
    assert '  File "shopbot/tools.py", line 3, in lookup' in trim_traceback(text, [installed])


def test_frozen_stdlib_and_arena_frames_are_never_the_users(tmp_path: Path) -> None:
    assert not is_user_file("<frozen importlib._bootstrap>")
    assert not is_user_file(str(STDLIB)) and not is_user_file(str(ARENA))
    assert is_user_file(str(tmp_path / "mine.py"))


def test_the_stored_error_splits_into_its_line_and_its_traceback() -> None:
    stored = "ValueError: bad\nsecond line\n\n" + _traceback(
        _frame(LIBRARY, 1, "f", "g()"), raised="ValueError: bad"
    )
    assert error_line(stored) == "ValueError: bad second line"
    assert traceback_of(stored) is not None and traceback_of(stored).startswith("Traceback")
    assert traceback_of("timeout: no answer within 5 s") is None
    cut = "...\n    ^^^^\n" + _frame(LIBRARY, 1, "f", "g()") + "ValueError: bad"
    assert trim_traceback(cut).splitlines()[0] == "Traceback (most recent call last):"
    assert trim_traceback("not a traceback at all") == "not a traceback at all"


def test_a_fence_outlasts_the_backticks_inside() -> None:
    assert md_fence("a ``` b").startswith("````text\n") and md_fence("a").startswith("```text\n")


def test_errors_without_a_traceback_are_one_line_of_code() -> None:
    crashes = [
        Crash(case_id="C-1", result_id=4, error="timeout: no answer within 5 s"),
        Crash(case_id="C-2", result_id=5, repeats=2, of=3, error="timeout: no answer within 5 s"),
        Crash(case_id="C-3", error="empty answer: the `agent` finished"),
    ]
    md = crashes_markdown(crashes)
    assert md.splitlines()[0] == "### Errors in the candidate's answers: 3 cases"
    assert (
        "- `C-1` (`arena show 4`); `C-2` (2 of 3 repeats; `arena show 5`): "
        "`timeout: no answer within 5 s`"
    ) in md
    assert "- `C-3`: `empty answer: the 'agent' finished`" in md and "```" not in md
