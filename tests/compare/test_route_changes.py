"""The path in comparisons: the gate names each case whose route through the agent's graph
changed since the baseline (gate.md, gate.json, the terminal), and `arena compare` counts how
often each variant took each branch."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from arena.cli import main
from arena.compare._routes import branch_counts, route_changes, usual_route
from arena.gate._report import GateReport, gate_markdown, gate_text
from arena.records.graph_path import NodePath, NodeStep
from arena.records.results import RunResult
from arena.scoring._baseline import Baseline, CaseRecord

pytestmark = pytest.mark.unit

DESK = Path(__file__).resolve().parents[1] / "examples" / "support_desk"


def _snapshot(routes: dict[str, list[str]]) -> Baseline:
    cases = {
        case: CaseRecord(category="happy_path", tier="critical", n=len(r), passes=0, routes=r)
        for case, r in routes.items()
    }
    return Baseline(
        name="b",
        variant="v",
        variant_hash="h",
        dataset="d",
        suite_score=0,
        pass_rate=0,
        cases=cases,
    )


def test_a_changed_usual_route_is_named_per_case() -> None:
    old = _snapshot({"S-1": ["router -> support -> audit"] * 2, "S-2": ["router -> decline"]})
    new = _snapshot(
        {
            "S-1": ["router -> decline", "router -> decline", "router -> support -> audit"],
            "S-2": ["router -> decline"],
        }
    )
    assert route_changes(old, new) == [
        "S-1: route changed: router -> support -> audit became router -> decline"
    ]
    assert route_changes(None, new) == [] and route_changes(new, new) == []
    assert usual_route(["a", "b", "b", "a"]) == "a"  # a tie: the first taken


def test_the_report_shows_route_changes_in_markdown_text_and_json() -> None:
    change = "S-1: route changed: router -> support -> audit became router -> decline"
    report = GateReport(passed=False, baseline="b", candidate="c", route_changes=[change])
    assert f"### Route changes since the baseline\n\n- {change}" in gate_markdown(report)
    assert f"route changes since the baseline:\n  - {change}" in gate_text(report)
    assert json.loads(report.to_json())["route_changes"] == [change]
    quiet = GateReport(passed=True, baseline="b", candidate="c")
    assert "route" not in gate_markdown(quiet) and "route_changes" not in quiet.to_json()


def _result(variant: str, case: str, *routes: list[str]) -> RunResult:
    steps = [
        NodeStep(index=i, node=n, superstep=i + 1, turn=t)
        for t, route in enumerate(routes, start=1)
        for i, n in enumerate(route)
    ]
    path = NodePath(steps=steps, turn_supersteps=[len(r) for r in routes])
    return RunResult(variant=variant, variant_hash="h", case_id=case, case_hash="c", nodes=path)


def test_branch_counts_per_variant() -> None:
    results = [
        _result("base", "S-1", ["router", "support"]),
        _result("cand", "S-1", ["router", "decline"]),
        _result("cand", "S-2", ["router", "decline"]),
        _result("base", "D-1", ["router", "support"], ["router", "decline"]),
        RunResult(variant="base", variant_hash="h", case_id="S-3", case_hash="c"),  # no graph
    ]
    counts = [(b.route, b.counts) for b in branch_counts(results, ["base", "cand"])]
    assert counts == [
        ("router -> decline", {"base": 0, "cand": 2}),
        ("router -> support", {"base": 1, "cand": 0}),
        ("router -> support | router -> decline", {"base": 1, "cand": 0}),
    ]


@pytest.mark.system
def test_the_gate_and_compare_name_the_route_a_candidate_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "desk"
    shutil.copytree(DESK, folder)
    (folder / "arena.yaml").write_text(
        "baseline: baselines/desk.json\ncandidate: desk-strict\n"
        "run: {dataset: golden/support.json, variants_dir: variants, tier: critical}\n"
        "compare: {judge: none}\nreport_dir: reports\n",
        encoding="utf-8",
    )
    monkeypatch.chdir(folder)
    db = ["--db", f"sqlite:///{folder / 'arena.db'}"]
    arena: list[str] = ["--fake-scripts", "fake_models.yaml"]
    variants = ["variants/desk.yaml", "variants/desk-strict.yaml"]
    run = [*arena, "run", "--variants", *variants, "--dataset", "golden/support.json"]
    assert main([*run, "--tier", "critical", *db]) == 0
    assert main([*arena, "baseline", "save", "desk", "--export", "baselines/desk.json", *db]) == 0
    assert main([*arena, "gate", *db]) == 1
    change = "S-3: route changed: router -> support -> audit became router -> decline"
    assert f"- {change}" in (folder / "reports" / "gate.md").read_text(encoding="utf-8")
    gate: dict[str, Any] = json.loads((folder / "reports" / "gate.json").read_text("utf-8"))
    assert gate["route_changes"] == [change]
    capsys.readouterr()
    compare = ["compare", "--baseline", "desk", "--candidate", "desk-strict", "--run", "1"]
    assert main([*arena, *compare, *db]) == 1  # worse: S-3 broke
    shown = capsys.readouterr().out
    assert "routes taken (results per route):" in shown
    rows = {
        line.rsplit(None, 2)[0].strip(): line.split()[-2:]
        for line in shown.splitlines()
        if line.startswith("router ->")
    }
    assert rows == {"router -> support -> audit": ["2", "1"], "router -> decline": ["1", "2"]}
