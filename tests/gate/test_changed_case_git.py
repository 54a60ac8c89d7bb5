"""A critical case edited since the baseline is judged against the baseline's *code*: a team's
own helpdesk agent in its own git repository, on scripted models (``--fake-scripts``), every
step the ``arena`` CLI in a subprocess from the repository's folder.

Commit 1 knows users u-7 and u-9; the baseline is saved there. Commit 2 drops u-9 from the
agent's code and edits critical case HD-1 to ask about u-9. The candidate (commit 2) fails the
edited case; the baseline's side of it comes from commit 1's code (checked out in a temporary
``git worktree``), which passes it, so the case is *broken* and the gate fails.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from arena.storage import Store

pytestmark = pytest.mark.system

REPO = Path(__file__).resolve().parents[2]

AGENT = '''"""The helpdesk agent: the model picks a tool; its observation is the answer."""

from typing import Any

from langchain_core.messages import AIMessage, SystemMessage, ToolMessage
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode

from arena.agents import AgentContext, agent_factory
from helpdesk.tools import reset_password


@agent_factory(tools=[reset_password])
def build(ctx: AgentContext) -> Any:
    bound = ctx.model.bind_tools(ctx.tools)

    async def agent(state: MessagesState) -> dict[str, Any]:
        last = state["messages"][-1]
        print("helpdesk: a step")  # an agent may print: the gate still reads its rerun
        if isinstance(last, ToolMessage):
            return {"messages": [AIMessage(f"Done: {last.content}")]}
        system = SystemMessage(ctx.system_prompt)
        return {"messages": [await bound.ainvoke([system, *state["messages"]])]}

    def route(state: MessagesState) -> str:
        last = state["messages"][-1]
        return "tools" if isinstance(last, AIMessage) and last.tool_calls else END

    graph = StateGraph(MessagesState)
    graph.add_node("agent", agent)
    graph.add_node("tools", ToolNode(ctx.tools, handle_tool_errors=True))
    graph.add_edge(START, "agent")
    graph.add_conditional_edges("agent", route, ["tools", END])
    graph.add_edge("tools", "agent")
    return graph.compile()
'''
TOOLS = '''"""The helpdesk's tools."""

from langchain_core.tools import tool

USERS = {USERS}


@tool
def reset_password(user_id: str) -> str:
    """Reset a user's password."""
    if user_id not in USERS:
        raise KeyError(f"unknown user {{user_id}}")
    return f"password of {{user_id}} reset"
'''
SCRIPTS = """models: {}
scripts:
  helpdesk:
    - when: [u-7]
      replies: [{tool: reset_password, args: {user_id: u-7}}]
    - when: [u-9]
      replies: [{tool: reset_password, args: {user_id: u-9}}]
    - when: [opening hours]
      replies: ["We are open 9 to 5."]
"""
VARIANT = """name: helpdesk
agent: helpdesk.agent:build
model: {spec: fake:helpdesk}
system_prompt: You are the IT helpdesk.
"""
CONFIG = """baseline: baselines/baseline.json
candidate: helpdesk
run: {dataset: golden.json, variants_dir: variants, tier: all}
compare: {judge: none}
report_dir: reports
"""


def _dataset(user: str) -> str:
    cases = [
        {
            "id": "HD-1",
            "input": f"Please reset the password of {user}.",
            "category": "happy_path",
            "tier": "critical",
            "expected_tools": ["reset_password"],
            "expected_output_contains": ["reset"],
        },
        {
            "id": "HD-2",
            "input": "What are your opening hours?",
            "category": "happy_path",
            "tier": "critical",
            "expected_output_contains": ["9 to 5"],
        },
    ]
    return json.dumps(
        {"name": "helpdesk", "available_tools": ["reset_password"], "test_cases": cases}
    )


class Team:
    """The team's repository, and `arena` run from it as its people would."""

    def __init__(self, folder: Path, *, init: bool = True) -> None:
        self.folder = folder
        self.home = folder.parent  # the repository, its database and its sandboxes
        ci = ("ARENA_", "GIT_", "GITHUB_", "CI_", "BUILDKITE_", "CIRCLE_")  # where a run came from
        self.env = {k: v for k, v in os.environ.items() if not k.startswith(ci)}
        self.env |= {
            "PYTHONPATH": str(REPO),  # agent-arena itself, not the team's package
            "ARENA_SANDBOX_DIR": str(self.home / "sandboxes"),
            "ARENA_DB_URL": f"sqlite:///{self.home / 'arena.db'}",
            "GIT_AUTHOR_NAME": "team",
            "GIT_AUTHOR_EMAIL": "team@example.com",
            "GIT_COMMITTER_NAME": "team",
            "GIT_COMMITTER_EMAIL": "team@example.com",
        }
        if init:
            folder.mkdir()
            self.git("init", "-q", "-b", "main")

    def copy(self, home: Path) -> Team:
        """This team copied into ``home``: the repository with its commits and branches, the
        database and the sandboxes, nothing shared with this one (its env names the copies)."""
        shutil.copytree(self.home, home, symlinks=True, dirs_exist_ok=True)
        twin = Team(home / self.folder.relative_to(self.home), init=False)
        twin.home = home  # the folder may be a project inside the repository
        twin.env["ARENA_SANDBOX_DIR"] = str(home / "sandboxes")
        twin.env["ARENA_DB_URL"] = f"sqlite:///{home / 'arena.db'}"
        return twin

    def write(self, relative: str, text: str) -> None:
        path = self.folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)

    def git(self, *argv: str) -> str:
        done = subprocess.run(
            ["git", *argv], cwd=self.folder, env=self.env, capture_output=True, text=True
        )
        assert done.returncode == 0, (argv, done.stderr)
        return done.stdout.strip()

    def commit(self, message: str) -> str:
        self.git("add", "-A")
        self.git("commit", "-q", "-m", message)
        return self.git("rev-parse", "HEAD")

    def call(self, *argv: str) -> subprocess.CompletedProcess[str]:
        """``arena --fake-scripts fake_models.yaml ARGV`` from the repository's folder."""
        return subprocess.run(
            [sys.executable, "-m", "arena.cli", "--fake-scripts", "fake_models.yaml", *argv],
            cwd=self.folder,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=300,
        )

    def arena(self, *argv: str, code: int = 0) -> str:
        done = self.call(*argv)
        assert done.returncode == code, (argv, done.stdout[-3000:], done.stderr[-3000:])
        return done.stdout

    def gate(self, code: int) -> tuple[dict[str, Any], str]:
        self.arena("gate", "--json", code=code)
        reports = self.folder / "reports"
        return json.loads((reports / "gate.json").read_text()), (reports / "gate.md").read_text()

    def counts(self) -> tuple[int, int]:
        """Stored results and cached model replies."""
        with sqlite3.connect(self.home / "arena.db") as db:
            results = db.execute("select count(*) from results").fetchone()[0]
            replies = db.execute("select count(*) from response_cache").fetchone()[0]
        return results, replies


def _baselined(tmp_path: Path, users: str) -> tuple[Team, str]:
    """Commit 1 (the agent knowing ``users``, HD-1 about u-7) and its baseline saved."""
    team = Team(tmp_path / "helpdesk-repo")
    team.write("helpdesk/__init__.py", "")
    team.write("helpdesk/agent.py", AGENT)
    team.write("helpdesk/tools.py", TOOLS.format(USERS=users))
    team.write("fake_models.yaml", SCRIPTS)
    team.write("variants/helpdesk.yaml", VARIANT)
    team.write("golden.json", _dataset("u-7"))
    team.write("arena.yaml", CONFIG)
    team.write(".gitignore", "reports/\n")
    first = team.commit("helpdesk agent")
    team.arena("run", "--variants", "variants/helpdesk.yaml", "--dataset", "golden.json")
    team.arena("baseline", "save", "helpdesk", "--export", "baselines/baseline.json")
    return team, first


_BUILT: dict[str, tuple[Team, str]] = {}


def built_once(
    key: str, factory: pytest.TempPathFactory, build: Callable[[Path], tuple[Team, str]]
) -> tuple[Team, str]:
    """``build(folder)``'s team and commit, built the first time this test process asks for
    ``key`` (a name for exactly that build) and kept unchanged after: a test works on its
    own :meth:`Team.copy`. Each pytest-xdist worker builds its own."""
    if key not in _BUILT:
        _BUILT[key] = build(factory.mktemp("built"))
    return _BUILT[key]


def baselined_copy(factory: pytest.TempPathFactory, tmp_path: Path) -> tuple[Team, str]:
    """A test's own copy (in ``tmp_path``) of ``_baselined(..., '{"u-7", "u-9"}')``, which
    the test process builds once: commit 1 and its baseline saved, on branch main."""
    team, first = built_once(
        "baselined u-7 u-9", factory, lambda folder: _baselined(folder, '{"u-7", "u-9"}')
    )
    return team.copy(tmp_path), first


@pytest.fixture
def team(tmp_path_factory: pytest.TempPathFactory, tmp_path: Path) -> tuple[Team, str]:
    """Commit 1 with its baseline saved; commit 2: u-9 dropped from the code, HD-1 edited."""
    team, first = baselined_copy(tmp_path_factory, tmp_path)
    saved = json.loads((team.folder / "baselines" / "baseline.json").read_text())
    assert saved["provenance"]["commit"] == first
    team.git("checkout", "-q", "-b", "feature")  # the pull request's branch
    team.write("helpdesk/tools.py", TOOLS.format(USERS='{"u-7"}'))  # u-9 left the company
    team.write("golden.json", _dataset("u-9"))  # the critical case now asks about u-9
    team.commit("u-9 left; HD-1 asks about u-9")
    return team, first


def test_an_edited_critical_case_is_judged_against_the_baseline_commits_code(
    team: tuple[Team, str],
) -> None:
    repo, first = team
    doc, md = repo.gate(code=1)
    regression = doc["regression"]
    assert regression["changed_cases"] == ["HD-1"] and regression["rerun_cases"] == ["HD-1"]
    assert regression["baseline_side"] == f"baseline side run from commit {first[:7]}"
    assert regression["broken_cases"] == ["HD-1"]
    [why] = [r for r in regression["reasons"] if r["rule"] == "critical_broken"]
    assert why["case_id"] == "HD-1" and why["severity"] == "block"
    assert why["message"].startswith(
        "critical case HD-1: 1/1 -> 0/1 passes (trajectory: reset_password was called but "
        "raised KeyError"
    )
    assert "output missing: 'reset'" in why["check"]
    assert "| `HD-1` | critical_broken | trajectory |" in md
    assert f"baseline side run from commit {first[:7]}" in md
    assert "compared against the baseline's code run on them: `HD-1` (fails 0/1)" in md
    # the baseline's side is commit 1's code: it still knows u-9, and its code fingerprint is
    # the baseline file's, not the checked-out one's
    store = Store(repo.env["ARENA_DB_URL"])
    [side] = store.results(regression["baseline_side_run"])
    assert side.case_id == "HD-1" and side.variant == "helpdesk-baseline"
    assert side.output == "Done: password of u-9 reset"
    versions = {v.name: v.version for v in store.variants()}
    saved = json.loads((repo.folder / "baselines" / "baseline.json").read_text())
    assert versions["helpdesk-baseline"].code == saved["variant_version"]["code"]
    assert versions["helpdesk"].code != saved["variant_version"]["code"]
    # the temporary checkout is gone
    assert repo.git("worktree", "list").count("\n") == 0
    # a rerun runs nothing and calls no model
    before = repo.counts()
    again, _ = repo.gate(code=1)
    assert repo.counts() == before
    assert again["regression"]["broken_cases"] == ["HD-1"]


def test_a_baseline_commit_not_in_the_repository_falls_back_to_critical_failing(
    team: tuple[Team, str],
) -> None:
    repo, _ = team
    file = repo.folder / "baselines" / "baseline.json"
    saved = json.loads(file.read_text())
    saved["provenance"]["commit"] = "0123456789abcdef0123456789abcdef01234567"
    file.write_text(json.dumps(saved))
    doc, md = repo.gate(code=1)
    regression = doc["regression"]
    assert regression["rerun_cases"] == [] and regression["broken_cases"] == []
    assert regression["baseline_side"].startswith(
        "baseline commit unavailable: commit 0123456789ab is not in the repository"
    )
    assert regression["changed_outcomes"] == {"HD-1": "fails 0/1"}
    [why] = [r for r in regression["reasons"] if r["rule"] == "critical_failing"]
    assert why["case_id"] == "HD-1" and why["severity"] == "block"
    assert why["message"].startswith(
        "critical case HD-1 changed since the baseline and the candidate fails 0/1"
    )
    assert "| `HD-1` | critical_failing |" in md
    assert "`HD-1` (fails 0/1)" in md and "baseline commit unavailable: commit 0123456789ab" in md


def test_in_ci_a_squashed_baseline_commit_falls_back_to_the_merge_base(
    team: tuple[Team, str],
) -> None:
    repo, first = team
    file = repo.folder / "baselines" / "baseline.json"
    saved = json.loads(file.read_text())
    saved["provenance"]["commit"] = "0123456789abcdef0123456789abcdef01234567"
    file.write_text(json.dumps(saved))
    repo.env["ARENA_BASE_REF"] = "main"  # GITHUB_BASE_REF on a pull request
    doc, _ = repo.gate(code=1)
    regression = doc["regression"]
    assert regression["baseline_side"].startswith(
        f"baseline side run from commit {first[:7]} (the merge base with main: commit "
        "0123456789ab is not in the repository"
    )
    assert regression["rerun_cases"] == ["HD-1"] and regression["broken_cases"] == ["HD-1"]


def test_a_tool_the_pull_request_adds_still_gets_a_baseline_side(
    tmp_path_factory: pytest.TempPathFactory, tmp_path: Path
) -> None:
    """Commit 2 adds a tool and a case that needs it: the baseline's code (commit 1) lacks the
    tool, yet its side runs (and fails the new case) instead of being refused as bad input."""
    team, first = baselined_copy(tmp_path_factory, tmp_path)
    team.git("checkout", "-q", "-b", "feature")
    unlock = '''

@tool
def unlock_account(user_id: str) -> str:
    """Unlock a user's account."""
    return f"account of {user_id} unlocked"
'''
    team.write("helpdesk/tools.py", TOOLS.format(USERS='{"u-7", "u-9"}') + unlock)
    team.write(
        "helpdesk/agent.py",
        AGENT.replace("import reset_password", "import reset_password, unlock_account").replace(
            "tools=[reset_password]", "tools=[reset_password, unlock_account]"
        ),
    )
    team.write(
        "fake_models.yaml",
        SCRIPTS
        + "    - when: [unlock]\n      replies: [{tool: unlock_account, args: {user_id: u-8}}]\n",
    )
    dataset = json.loads(_dataset("u-7"))
    dataset["available_tools"].append("unlock_account")
    dataset["test_cases"].append(
        {
            "id": "HD-3",
            "input": "Please unlock the account of u-8.",
            "category": "edge_case",
            "tier": "standard",
            "expected_tools": ["unlock_account"],
            "expected_output_contains": ["unlocked"],
        }
    )
    team.write("golden.json", json.dumps(dataset))
    team.commit("unlock_account, and a case for it")
    doc, md = team.gate(code=0)
    regression = doc["regression"]
    assert regression["baseline_side"] == f"baseline side run from commit {first[:7]}"
    assert regression["new_cases"] == ["HD-3"]
    assert regression["fixed_cases"] == ["HD-3"]  # the baseline lacks the tool: it fails it
    assert "unavailable" not in md.split("baseline side run from commit", 1)[0][-200:]
