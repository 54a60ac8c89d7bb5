"""`arena gate`, `arena check`, `arena history`, `arena baseline propose` and `arena runs`
through the CLI, on scripted models (exit 0 pass, 1 fail, 2 bad input)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from arena.cli import main
from tests.gate.conftest import Project, answers
from tests.support.cli_args import run_argv

pytestmark = pytest.mark.unit


def gate(project: Project, db: str, *args: str) -> tuple[int, dict[str, Any], str]:
    """Run `arena gate` with the project's arena.yaml; the exit code, gate.json, gate.md."""
    config = project.root / "arena.yaml"
    if not config.exists():
        project.config()
    reports = project.root / "reports"
    code = main(["gate", "--config", str(config), "--report-dir", str(reports), "--db", db, *args])
    if not (reports / "gate.json").exists():
        return code, {}, ""
    doc = json.loads((reports / "gate.json").read_text())
    md = (reports / "gate.md").read_text()
    for name in ("gate.json", "gate.md"):
        (reports / name).unlink()
    return code, doc, md


def test_a_degraded_candidate_fails_naming_the_broken_cases_and_why(
    project: Project, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    project.variant("base", answers())
    project.variant("cand", answers(C_1="I will not look it up", S_2="no"))
    code, doc, md = gate(project, db_url, "--baseline", "base", "--candidate", "cand")
    assert code == 1 and not doc["passed"]
    regression = doc["regression"]
    assert regression["broken_cases"] == ["C-1", "S-2"]
    why = {(r["rule"], r["case_id"]): r for r in regression["reasons"]}
    assert why[("critical_broken", "C-1")]["kind"] == "output"
    assert why[("critical_broken", "C-1")]["check"] == "output missing: 'alpha'"
    assert why[("pass_to_fail", "S-2")]["severity"] == "warn"
    assert doc["compare"]["verdict"] == "worse"
    assert "## ❌ arena gate FAILED" in md and "| `C-1` | critical_broken | output |" in md
    assert "**Why it failed:**" in md and "[critical_broken] critical case C-1" in md
    out = capsys.readouterr().out
    assert "arena gate FAILED" in out and "gate.md" in out


def test_an_unchanged_candidate_passes_without_judging(project: Project, db_url: str) -> None:
    project.variant("base", answers())
    code, doc, md = gate(project, db_url, "--baseline", "base", "--candidate", "base")
    assert code == 0 and doc["passed"] and doc["failures"] == []
    assert doc["regression"]["reasons"] == [] and doc["compare"] is None
    assert "nothing to judge" in " ".join(doc["notes"])
    assert "## ✅ arena gate passed" in md


def test_a_better_candidate_passes_with_the_judge_agreeing(project: Project, db_url: str) -> None:
    project.variant("base", answers(C_1="hmm", S_1="hmm", S_2="hmm", S_3="hmm", C_2="hmm"))
    project.variant("cand", answers())
    code, doc, _ = gate(project, db_url, "--baseline", "base", "--candidate", "cand")
    assert code == 0
    assert doc["regression"]["fixed_cases"] == ["C-1", "C-2", "S-1", "S-2", "S-3"]
    # five wins and one tie (P-1: identical answers) out of six cases
    assert doc["compare"]["verdict"] in ("better", "non-inferior")
    assert doc["settings"] == {"tier": "all", "repeats": 1, "judge": "fake:gate-judge/text"}


def test_an_inconclusive_comparison_says_what_would_decide_it(
    project: Project, db_url: str
) -> None:
    project.variant("base", answers(S_1="hmm"))
    project.variant("cand", answers(S_2="hmm"))  # one case better, one worse: a coin toss
    code, doc, md = gate(
        project,
        db_url,
        "--baseline",
        "base",
        "--candidate",
        "cand",
        "--block",
        "critical_broken",
        "--fail-on",
        "worse,inconclusive",
    )
    assert doc["compare"]["verdict"] == "inconclusive" and code == 1
    power = doc["compare"]["power"]
    assert power is not None and "would decide the win rate" in power["message"]
    assert power["message"] in md


def test_the_gate_against_a_baseline_file_judges_the_recorded_version(
    project: Project, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    project.variant("agent", answers())
    code, _, _ = gate(project, db_url, "--baseline", "agent", "--candidate", "agent")
    assert code == 0
    exported = project.root / "baselines" / "agent.json"
    assert main(["baseline", "save", "agent", "--export", str(exported), "--db", db_url]) == 0
    saved = json.loads(exported.read_text())
    assert saved["dataset_version"] == "1.0.0" and saved["variant_config"]["name"] == "agent"
    assert set(saved["cases"]["C-1"]) >= {"hash", "scores", "latency_s", "tokens"}
    capsys.readouterr()
    # the prompt changes: same name, new version; the recorded one runs again to be judged
    project.variant(
        "agent", answers(C_2="Sure, done."), model="gate-agent-v2", extra="system_prompt: be bold\n"
    )
    code, doc, _ = gate(project, db_url, "--baseline", str(exported), "--candidate", "agent")
    assert code == 1
    assert doc["regression"]["broken_cases"] == ["C-2"]
    assert doc["compare"]["baseline"] == "agent-baseline"
    assert doc["compare"]["verdict"] == "worse"


@pytest.mark.system  # three gates end to end: over a unit test's CPU budget
def test_an_edited_critical_case_the_candidate_fails_blocks_without_a_baseline_commit(
    project: Project, db_url: str
) -> None:
    """Outside a git repository the baseline's code cannot run on the edited case: a critical
    changed case the candidate fails blocks on its own (critical_failing), a standard new one
    shows that it fails, and the report says which path was taken."""
    project.variant("agent", answers())
    gate(project, db_url, "--baseline", "agent", "--candidate", "agent")
    exported = project.root / "base.json"
    assert main(["baseline", "save", "agent", "--export", str(exported), "--db", db_url]) == 0
    from tests.gate.conftest import CASES

    edited = [dict(c) for c in CASES if c["id"] != "S-3"]
    edited[0] = edited[0] | {"expected_output_contains": ["zeta"]}  # C-1 now expects zeta
    edited.append(
        {
            "id": "N-1",
            "input": "New #N-1",
            "category": "ambiguous",
            "expected_output_contains": ["x"],
        }
    )
    project.write_dataset(edited, version="1.1.0")
    code, doc, md = gate(
        project, db_url, "--baseline", str(exported), "--candidate", "agent", "--judge", "none"
    )
    regression = doc["regression"]
    assert regression["changed_cases"] == ["C-1"] and regression["new_cases"] == ["N-1"]
    assert regression["removed_cases"] == ["S-3"] and regression["datasets_differ"]
    assert regression["rerun_cases"] == []
    assert regression["changed_outcomes"] == {"C-1": "fails 0/1", "N-1": "fails 0/1"}
    assert regression["baseline_side"].startswith("baseline commit unavailable: ")
    assert "is not in a git repository" in regression["baseline_side"]
    assert code == 1 and not doc["passed"]
    [why] = [r for r in regression["reasons"] if r["rule"] == "critical_failing"]
    assert why["case_id"] == "C-1" and why["severity"] == "block"
    assert why["check"] == "output missing: 'zeta'"
    assert doc["failures"] == [f"[critical_failing] {why['message']}"]
    assert (
        "Changed since the baseline (not compared: no baseline side, see below): `C-1` "
        "(fails 0/1)" in md
    )
    assert "`N-1` (fails 0/1)" in md and "| `C-1` | critical_failing | output |" in md
    assert "- Baseline side of changed and new cases: baseline commit unavailable: " in md
    # the rule is configurable like the others: not blocking, it warns
    code, doc, _ = gate(
        project,
        db_url,
        "--baseline",
        str(exported),
        "--candidate",
        "agent",
        "--judge",
        "none",
        "--block",
        "critical_broken",
    )
    assert code == 0
    assert [r["severity"] for r in doc["regression"]["reasons"]] == ["warn"]


def test_check_with_absolute_and_budget_limits(
    project: Project, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    base = project.variant("base", answers())
    cand = project.variant("cand", answers(S_1="beta " + "and more words " * 20, C_2="no"))
    assert main(run_argv([base, cand], project.dataset, db_url)) == 0
    capsys.readouterr()
    # no baseline at all: absolute limits only
    assert main(["check", "--candidate", "cand", "--min-pass-rate", "0.7", "--db", db_url]) == 0
    assert "arena check passed" in capsys.readouterr().out
    code = main(
        [
            "check",
            "--candidate",
            "cand",
            "--min-critical-pass-rate",
            "0.9",
            "--json",
            "--db",
            db_url,
        ]
    )
    doc = json.loads(capsys.readouterr().out)
    assert code == 1 and doc["regression"] is None
    assert doc["failures"] == ["[min_critical_pass_rate] tier critical pass rate 50.0% < 90%"]
    # nothing to check against
    assert main(["check", "--candidate", "cand", "--db", db_url]) == 2
    assert "no baseline named 'baseline'" in capsys.readouterr().err
    # budget against a stored baseline
    assert main(["baseline", "save", "base", "--db", db_url]) == 0
    md = project.root / "check.md"
    code = main(
        [
            "check",
            "--candidate",
            "cand",
            "--baseline",
            "base",
            "--block",
            "happy_path_fail",
            "--max-tokens-increase",
            "0.2",
            "--markdown",
            str(md),
            "--db",
            db_url,
        ]
    )
    out = capsys.readouterr().out
    assert code == 1 and "[max_tokens_increase]" in out
    assert "| max_tokens_increase | vs baseline |" in md.read_text()
    assert "cost per query is 0" in md.read_text()  # fake models have no price: said so


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--baseline", "base", "--candidate", "ghost"], "no variant 'ghost'"),
        (["--baseline", "nothing", "--candidate", "base"], "'nothing' is no variant"),
        (["--baseline", "missing.json", "--candidate", "base"], "no such file"),
        (["--candidate", "base"], "field --baseline"),
        (["--baseline", "base", "--candidate", "base", "--max-drop", "7"], "field --max-drop"),
    ],
)
def test_bad_gate_input_exits_2(
    project: Project, db_url: str, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    project.variant("base", answers())
    code, _, _ = gate(project, db_url, *args)
    err = capsys.readouterr().err
    assert code == 2 and message in err and "Traceback" not in err


def test_a_bad_arena_yaml_exits_2(
    project: Project, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    project.config("budget:\n  max_p90_latency_s: soon\n")
    code, _, _ = gate(project, db_url, "--baseline", "a", "--candidate", "b")
    err = capsys.readouterr().err
    assert code == 2 and "arena.yaml" in err and "field budget.max_p90_latency_s" in err


@pytest.mark.system  # end to end (runs, judging, storage): too slow for a unit test
def test_history_says_when_a_case_started_failing(
    project: Project,
    db_url: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    for commit, table in (
        ("c0ffee1", answers()),
        ("c0ffee2", answers()),
        ("badbad3", answers(C_1="no")),
        ("badbad4", answers(C_1="no")),
    ):
        monkeypatch.setenv("ARENA_COMMIT", commit)
        path = project.variant(
            "agent",
            table,
            model=f"gate-{commit}",
            extra=f"description: {commit}\nsystem_prompt: {commit}\n",
        )
        assert main(run_argv(path, project.dataset, db_url)) == 0
    capsys.readouterr()
    assert main(["runs", "--db", db_url]) == 0
    assert "badbad4" in capsys.readouterr().out
    assert main(["history", "C-1", "--json", "--db", db_url]) == 0
    [entry] = json.loads(capsys.readouterr().out)["variants"]
    assert entry["failing"] and [p["passed"] for p in entry["points"]] == [1, 1, 0, 0]
    assert entry["last_pass"]["provenance"]["commit"] == "c0ffee2"
    assert entry["first_fail"]["provenance"]["commit"] == "badbad3"
    assert main(["history", "C-1", "--db", db_url]) == 0
    out = capsys.readouterr().out
    assert "last passed in run 2" in out and "first failed in run 3" in out
    assert "output missing: 'alpha'" in out
    assert main(["history", "NOPE", "--db", db_url]) == 2


def test_propose_raises_the_baseline_only_on_a_sustained_gain(
    project: Project, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    weak = answers(S_1="x", S_2="x", S_3="x", C_2="x")
    cases = [dict(c) for c in __import__("tests.gate.conftest", fromlist=["CASES"]).CASES]
    project.write_dataset(cases)
    old = project.variant("agent", weak, model="gate-weak")
    assert main(run_argv(old, project.dataset, db_url, "--repeats", "2")) == 0
    exported = project.root / "baselines" / "baseline.json"
    assert main(["baseline", "save", "agent", "--export", str(exported), "--db", db_url]) == 0
    before = exported.read_text()
    capsys.readouterr()
    # the same version again: no gain, nothing proposed, nothing written
    assert (
        main(
            [
                "baseline",
                "propose",
                "--candidate",
                "agent",
                "--baseline",
                str(exported),
                "--markdown",
                str(project.root / "propose.md"),
                "--db",
                db_url,
            ]
        )
        == 0
    )
    assert "no sustained improvement" in capsys.readouterr().out
    assert exported.read_text() == before and not (project.root / "propose.md").exists()
    better = project.variant(
        "agent", answers(), model="gate-better", extra="system_prompt: better\n"
    )
    assert main(run_argv(better, project.dataset, db_url, "--repeats", "2")) == 0
    config = project.config(f"baseline: {exported.name}\ncandidate: agent\n")
    exported.rename(project.root / exported.name)
    assert (
        main(
            [
                "baseline",
                "propose",
                "--config",
                str(config),
                "--markdown",
                str(project.root / "propose.md"),
                "--db",
                db_url,
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "baseline update proposed" in out, out
    raised = json.loads((project.root / exported.name).read_text())
    assert raised["suite_score"] > json.loads(before)["suite_score"]
    assert "Raise the golden baseline" in (project.root / "propose.md").read_text()


def test_init_ci_writes_the_workflows_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["init-ci", "--dir", str(tmp_path), "--install", "agent-arena[local]==0.1.0"]) == 0
    written = capsys.readouterr().out
    assert "written: .github/workflows/arena-gate.yml" in written
    gate_yml = (tmp_path / ".github" / "workflows" / "arena-gate.yml").read_text()
    assert 'ARENA_INSTALL: "agent-arena[local]==0.1.0"' in gate_yml
    assert (tmp_path / "arena.yaml").exists()
    (tmp_path / "arena.yaml").write_text("# mine\n")
    assert main(["init-ci", "--dir", str(tmp_path)]) == 0
    assert "kept (exists" in capsys.readouterr().out
    assert (tmp_path / "arena.yaml").read_text() == "# mine\n"
    assert main(["init-ci", "--print", "--paths", "prompts/**"]) == 0
    printed = capsys.readouterr().out
    assert '      - "prompts/**"' in printed and "# ---- arena.yaml" in printed


def test_compare_fails_a_candidate_over_budget(
    project: Project, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    project.variant("base", answers(C_1="hmm", S_1="hmm", S_2="hmm", S_3="hmm", C_2="hmm"))
    project.variant("cand", answers())
    code, _, _ = gate(project, db_url, "--baseline", "base", "--candidate", "cand")
    assert code == 0
    capsys.readouterr()
    assert main(["compare", "--baseline", "base", "--candidate", "cand", "--db", db_url]) == 0
    capsys.readouterr()
    argv = ["compare", "--baseline", "base", "--candidate", "cand", "--json", "--db", db_url]
    assert main([*argv, "--max-tokens-per-query", "1"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["verdict"] == "worse" and not report["budget"][0]["passed"]
    assert any(r.startswith("over budget: tokens per query") for r in report["reasons"])
    assert main([*argv, "--max-cost-increase", "-1"]) == 2
    assert "field --max-cost-increase" in capsys.readouterr().err


@pytest.mark.system
def test_sequential_against_a_baseline_file_runs_case_by_case_or_says_why_not(
    project: Project, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--sequential --judge none` against a saved baseline file reruns the recorded version
    beside the candidate case by case; where nothing can run beside it, the report says so
    instead of silently running the full design."""
    project.variant("agent", answers())
    gate(project, db_url, "--baseline", "agent", "--candidate", "agent", "--judge", "none")
    exported = project.root / "baselines" / "agent.json"
    assert main(["baseline", "save", "agent", "--export", str(exported), "--db", db_url]) == 0
    capsys.readouterr()
    sequential = ("--baseline", str(exported), "--judge", "none", "--sequential")
    # the unchanged agent: nothing to run beside it, and the note says why
    code, doc, md = gate(project, db_url, *sequential, "--candidate", "agent")
    assert code == 0 and doc["compare"] is None
    assert any("--sequential did not run case by case" in n for n in doc["notes"]), doc["notes"]
    assert "--sequential did not run case by case" in md
    # a new version: the recorded one runs again, and the comparison is sequential
    project.variant(
        "agent", answers(C_2="Sure, done."), model="gate-agent-v2", extra="system_prompt: be bold\n"
    )
    code, doc, md = gate(project, db_url, *sequential, "--candidate", "agent")
    assert doc["compare"] is not None and doc["compare"]["plan"]["boundary"] == "spending"
    assert doc["compare"]["baseline"] == "agent-baseline"
    assert "plan: spending boundary" in md
    assert "### Golden scores, case by case:" in md and "Pairwise judge" not in md
    assert not any("did not run case by case" in n for n in doc["notes"])


def test_a_bad_variant_file_is_named_as_a_variant_never_a_case(
    project: Project, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    project.variant("base", answers())
    bad = project.variants / "bad-tool.yaml"
    bad.write_text("name: bad-tool\nmodel: {spec: 'fake:gate-base'}\ntools: [teleport]\n")
    code, doc, md = gate(project, db_url, "--baseline", "base", "--candidate", str(bad))
    err = capsys.readouterr().err
    assert code == 2
    assert f"file {bad}, variant bad-tool, field tools: unknown tool(s) teleport" in err
    where = doc["bad_input"]
    assert (where["variant"], where["case"], where["field"]) == ("bad-tool", None, "tools")
    assert "- Variant: `bad-tool`" in md and "- Field: `tools`" in md and "Case" not in md


def test_check_runs_no_baseline_side_and_blocks_a_failing_edited_critical_case(
    project: Project, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    agent = project.variant("agent", answers())
    assert main(run_argv(agent, project.dataset, db_url, "--tier", "all")) == 0
    exported = project.root / "base.json"
    assert main(["baseline", "save", "agent", "--export", str(exported), "--db", db_url]) == 0
    from tests.gate.conftest import CASES

    project.write_dataset([CASES[0] | {"expected_output_contains": ["zeta"]}, *CASES[1:]])
    assert main(run_argv(agent, project.dataset, db_url, "--tier", "all")) == 0
    capsys.readouterr()
    argv = ["check", "--candidate", "agent", "--baseline", str(exported), "--json"]
    assert main([*argv, "--db", db_url]) == 1
    regression = json.loads(capsys.readouterr().out)["regression"]
    assert regression["changed_cases"] == ["C-1"] and regression["rerun_cases"] == []
    assert regression["changed_outcomes"] == {"C-1": "fails 0/1"}
    assert regression["baseline_side"].startswith("baseline side not run: `arena check` runs")
    [why] = [r for r in regression["reasons"] if r["rule"] == "critical_failing"]
    assert why["case_id"] == "C-1" and why["severity"] == "block"
