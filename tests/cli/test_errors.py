"""A bug is told from bad input: bad input and stored-thing misses are one line and exit 2; an
unexpected exception shows its traceback and asks for a bug report (exit 70)."""

from __future__ import annotations

import argparse
import importlib.metadata
from importlib.metadata import EntryPoint

import pytest

from arena.cli import EXIT_BAD_INPUT, EXIT_BUG, main
from arena.errors import ArenaError, NotFound
from arena.evaluation.run_scores import RunScores
from arena.extend import REPORT_FORMATS

pytestmark = pytest.mark.unit


def test_a_key_error_inside_a_command_is_a_bug_with_its_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], db_url: str
) -> None:
    def broken(args: argparse.Namespace) -> int:
        row: dict[str, str] = {}
        return int(row["variant_hash"])  # a programming error, not bad input

    monkeypatch.setattr("arena.cli.score.cmd_score", broken)
    assert main(["score", "--db", db_url]) == EXIT_BUG
    err = capsys.readouterr().err
    assert "Traceback (most recent call last)" in err and "KeyError: 'variant_hash'" in err
    assert "arena: error" not in err
    last = err.strip().splitlines()[-1]
    assert last.startswith("arena: internal error (a bug): please report it")
    assert "agent-arena" in last


def test_a_run_that_is_not_stored_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], db_url: str
) -> None:
    assert main(["score", "999", "--db", db_url]) == EXIT_BAD_INPUT
    assert capsys.readouterr().err == "arena: error: no run with id 999\n"
    assert main(["score", "--db", db_url]) == EXIT_BAD_INPUT
    assert capsys.readouterr().err.startswith("arena: error: no runs stored yet")


def test_stored_thing_misses_are_not_found_not_key_errors() -> None:
    scores = RunScores(run_id=3, grader="keywords", cases=[], variants=[])
    with pytest.raises(NotFound, match=r"variant 'v' is not in run 3") as caught:
        scores.variant("v")
    assert isinstance(caught.value, ArenaError) and not isinstance(caught.value, KeyError)


def test_a_plugin_taking_a_builtin_name_is_one_line_and_exit_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    clash = EntryPoint("json", "my_pkg.report:as_json", "agent_arena.report_formats")
    monkeypatch.setattr(
        importlib.metadata,
        "entry_points",
        lambda group: [clash] if group == clash.group else [],
    )
    monkeypatch.setattr(REPORT_FORMATS, "_scanned", False)  # as in a fresh process
    assert main(["schema", "golden"]) == EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert err.startswith("arena: error: report format 'json' is registered already")
    assert "entry point my_pkg.report:as_json" in err and "Traceback" not in err
