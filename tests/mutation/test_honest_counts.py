"""The mutation score counts each mutant once and only for what its fault did: an operator
named twice is one operator, a mutant whose wrapper could not call its tool (an
``InjectedToolCallId`` argument) is ``errored``, never killed, and no mutant at all is bad
input (exit 2), never a score of 100% on nothing."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.examples.test_own_agent_example import User
from tests.mutation.conftest import DESK

pytestmark = pytest.mark.system

MUTATE = ("mutate", "--variant", "variants/baseline.yaml", "--dataset", "golden/desk.json")

# The desk's open_ticket, written as langgraph's docs show a tool that needs its call's id.
INJECTED = '''
from typing import Annotated
from langchain_core.tools import InjectedToolCallId


def open_ticket(user_id: str, summary: str, call: Annotated[str, InjectedToolCallId]) -> str:
    """Open a support ticket for a user (such as u-42) and return its number."""
    return f"ticket T-1001 opened for {user_id}: {summary}"
'''


@pytest.fixture
def team(tmp_path: Path) -> User:
    folder = tmp_path / "desk"
    shutil.copytree(DESK, folder)
    return User(folder)


def test_an_operator_named_twice_counts_its_mutants_once(team: User) -> None:
    once = team.json(*MUTATE, "--operators", "tool_raises,tool_empty")
    twice = team.json(*MUTATE, "--operators", "tool_raises,tool_empty,tool_raises")
    ids = [m["id"] for m in twice["mutants"]]
    assert len(ids) == len(set(ids)) == 6
    assert twice["score"] == once["score"] and ids == [m["id"] for m in once["mutants"]]
    table = (team.folder / "reports" / "mutate.md").read_text().splitlines()
    assert len([line for line in table if line.startswith("| `tool_raises:open_ticket` ")]) == 1


@pytest.mark.parametrize("names", ["", ",", " , "])
def test_operators_naming_none_are_refused_and_nothing_is_written(team: User, names: str) -> None:
    done = team.arena(*MUTATE, "--operators", names, code=2)
    assert done == ""
    assert not (team.folder / "arena.db").exists()
    assert not (team.folder / "reports").exists()


def test_operators_that_make_no_mutant_are_refused_before_anything_runs(team: User) -> None:
    same = ("--operators", "model_weaker", "--weaker-model", "local:qwen2.5-coder-1.5b")
    team.arena(*MUTATE, *same, code=2)  # the variant's own model: no mutant
    assert not (team.folder / "arena.db").exists()


def test_a_wrapper_that_cannot_call_its_tool_is_errored_never_killed(team: User) -> None:
    agent = team.folder / "deskbot" / "agent.py"
    source = agent.read_text()
    start = source.index("def open_ticket")
    end = source.index("def check_status")
    agent.write_text(source[:start] + INJECTED.strip() + "\n\n\n" + source[end:])

    report = team.json(*MUTATE, "--operators", "tool_stale,tool_raises")
    by_id = {m["id"]: m for m in report["mutants"]}
    stale = by_id["tool_stale:open_ticket"]
    assert stale["errored"] and not stale["killed"] and stale["killed_by"] == []
    assert stale["error"].startswith(
        "its fault was never injected: the mutant's wrapper cannot call open_ticket: its "
        "argument call is an InjectedToolCallId"
    )
    assert report["errored"] == ["tool_stale:open_ticket"]
    # the faults that need no call of the tool are injected as ever
    assert by_id["tool_raises:open_ticket"]["killed_by"] == ["D-1"]
    assert report["counted"] == 5  # 6 mutants, the one not injected left out
