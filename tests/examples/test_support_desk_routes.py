"""A team's own LangGraph graph (tests/examples/support_desk: a router, a compiled sub-graph
with a ToolNode, a decline branch and an audit node) run through the real runner on scripted
models: the path of every run is recorded and stored, the route fields of its golden cases
pass when the route holds and fail naming what broke, `arena show --json` lists the
sub-graph's nodes under their parent, and lint refuses a node the graph does not have."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.cli import main
from arena.cli.run import run_json
from arena.golden import load_dataset
from arena.golden._models import GoldenCase
from arena.golden._route import ROUTE_FIELDS
from arena.models._fake_files import use_fake_scripts
from arena.records.results import RunResult
from arena.runner import RunOptions, RunReport, run_suite
from arena.scoring import CaseScore, score_result
from arena.storage import Store
from arena.variants.variant import load_variant

pytestmark = pytest.mark.unit

DESK = Path(__file__).parent / "support_desk"
DATASET = DESK / "golden" / "support.json"
SCRIPTS = DESK / "fake_models.yaml"


def _report(db_url: str, variant: str, cases: list[str]) -> RunReport:
    use_fake_scripts(SCRIPTS)
    options = RunOptions(progress=False, case_ids=cases)
    variants = [load_variant(DESK / "variants" / variant)]
    return run_suite(Store(db_url), load_dataset(DATASET), variants, options)


def _run(db_url: str, variant: str, cases: list[str]) -> dict[str, tuple[RunResult, CaseScore]]:
    dataset = load_dataset(DATASET)
    results = _report(db_url, variant, cases).results
    return {r.case_id: (r, score_result(r, dataset.case(r.case_id))) for r in results}


def _route_reasons(score: CaseScore) -> list[str]:
    return [r.text for r in score.fail_reasons if r.check == "route"]


def test_routes_that_hold_pass_and_the_path_is_recorded(db_url: str) -> None:
    runs = _run(db_url, "desk.yaml", ["S-1", "S-2", "S-6", "D-1"])
    for case_id, (result, score) in runs.items():
        assert result.error is None and score.passed, (case_id, score.fail_reasons)
        assert score.components["route"] == 1.0, case_id
    support, _ = runs["S-1"]
    assert support.nodes is not None
    assert support.nodes.names() == [
        "router",
        "support",
        "support:agent",
        "support:tools",
        "support:agent",
        "audit",
    ]
    assert [s.superstep for s in support.nodes.steps if s.parent is None] == [1, 2, 3]
    assert support.nodes.supersteps == 3 and not support.nodes.recursion_limit_hit
    assert support.model_calls == 3  # the router's and the sub-graph's two: none for the path
    decline, _ = runs["S-2"]
    assert decline.nodes is not None and decline.nodes.route() == ["router", "decline"]
    dialogue, _ = runs["D-1"]
    assert dialogue.nodes is not None and dialogue.nodes.turn_supersteps == [3, 3]
    assert "support:tools" not in dialogue.nodes.route(1, within={"support"})
    assert "support:tools" in dialogue.nodes.route(2, within={"support"})


def test_run_json_carries_the_path_as_nodes(db_url: str) -> None:
    (shown,) = run_json(_report(db_url, "desk.yaml", ["S-2"]))["results"]
    assert [s["node"] for s in shown["nodes"]["steps"]] == ["router", "decline"]
    (plain,) = run_json(_report(db_url, "desk-plain.yaml", ["S-2"]))["results"]
    assert "nodes" not in plain


def test_a_different_route_fails_the_case_naming_the_route(db_url: str) -> None:
    ((result, score),) = _run(db_url, "desk-strict.yaml", ["S-3"]).values()
    assert result.nodes is not None and result.nodes.route() == ["router", "decline"]
    assert not score.passed
    assert _route_reasons(score) == ["route router -> decline, expected router -> support -> audit"]
    (reason,) = [r for r in score.fail_reasons if r.check == "route"]
    assert reason.hard and reason.kind == "trajectory"
    assert score.components["route.route"] == pytest.approx(1 / 3)  # partial credit: router


def test_a_forbidden_node_and_too_many_supersteps_fail(db_url: str) -> None:
    runs = _run(db_url, "desk.yaml", ["S-4", "S-5"])
    forbidden, supersteps = runs["S-4"][1], runs["S-5"][1]
    assert not forbidden.passed and _route_reasons(forbidden) == [
        "forbidden node ran: support:tools"
    ]
    assert not supersteps.passed and _route_reasons(supersteps) == [
        "3 supersteps, at most 2 expected"
    ]
    # the rest of each case holds: the route check alone fails them
    for score in (forbidden, supersteps):
        assert {r.check for r in score.fail_reasons if r.hard} == {"route"}


def test_a_plain_runnable_records_no_path_and_is_not_route_checked(db_url: str) -> None:
    ((result, score),) = _run(db_url, "desk-plain.yaml", ["S-2"]).values()
    assert result.error is None and result.nodes is None
    assert "route" not in score.components and _route_reasons(score) == []


@pytest.mark.system  # arena show loads the version story and judge views: over a unit's CPU
def test_the_path_is_stored_and_show_json_lists_subgraph_nodes_under_their_parent(
    db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    result, _ = _run(db_url, "desk.yaml", ["S-1"])["S-1"]
    assert Store(db_url).result(result.id or 0).nodes == result.nodes
    capsys.readouterr()
    assert main(["show", str(result.id), "--json", "--db", db_url]) == 0
    nodes = json.loads(capsys.readouterr().out)["nodes"]
    placed = [(s["parent"], s["node"]) for s in nodes["steps"]]
    assert placed == [
        (None, "router"),
        (None, "support"),
        ("support", "agent"),
        ("support", "tools"),
        ("support", "agent"),
        (None, "audit"),
    ]
    assert nodes["turn_supersteps"] == [3] and nodes["recursion_limit_hit"] is False
    assert main(["show", str(result.id), "--db", db_url]) == 0
    text = capsys.readouterr().out
    assert "graph path: 6 node(s), 3 superstep(s)" in text
    assert "\n        step 2  support:tools  " in text  # indented under its parent


def test_lint_refuses_a_node_the_graph_does_not_have(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = json.loads(DATASET.read_text(encoding="utf-8"))
    doc["test_cases"][0]["expected_route"] = ["router", "support:tool", "audit"]
    bad = tmp_path / "support.json"
    bad.write_text(json.dumps(doc), encoding="utf-8")
    variant = str(DESK / "variants" / "desk.yaml")
    lint = ["--fake-scripts", str(SCRIPTS), "golden", "lint", "--variants", variant]
    assert main([*lint, "--dataset", str(DATASET)]) == 0
    capsys.readouterr()
    assert main([*lint, "--dataset", str(bad)]) == 2
    err = capsys.readouterr().err
    assert f"file {bad}, case S-1, field expected_route: unknown node(s) support:tool" in err
    assert "support:tools" in err  # the nodes it does have


def test_cases_without_route_fields_keep_their_dump_and_hash() -> None:
    plain = {"id": "P-1", "input": "Where is 4471?", "category": "happy_path"}
    dumped = GoldenCase.model_validate(plain).model_dump(mode="json")
    assert not set(ROUTE_FIELDS) & set(dumped)
    dialogue = {
        **plain,
        "conversation": {
            "turns": [{"user": "and?"}],
            "expect": [{"turn": 1, "contains": ["4471"]}],
        },
    }
    expect = GoldenCase.model_validate(dialogue).model_dump(mode="json")["conversation"]
    assert not set(ROUTE_FIELDS) & set(expect["expect"][0])


def test_langsmith_outputs_carry_the_path_and_its_evaluator_checks_routes(db_url: str) -> None:
    from arena.langsmith import outputs_from_result, result_from_outputs

    ((result, _),) = _run(db_url, "desk-strict.yaml", ["S-3"]).values()
    outputs = json.loads(json.dumps(outputs_from_result(result)))  # as uploaded
    back = result_from_outputs(outputs, "S-3")
    assert back.nodes == result.nodes
    case = load_dataset(DATASET).case("S-3")
    assert _route_reasons(score_result(back, case)) == [
        "route router -> decline, expected router -> support -> audit"
    ]


def test_lint_refuses_to_check_nodes_against_no_graph(capsys: pytest.CaptureFixture[str]) -> None:
    plain = str(DESK / "variants" / "desk-plain.yaml")
    argv = ["--fake-scripts", str(SCRIPTS), "golden", "lint", "--dataset", str(DATASET)]
    assert main([*argv, "--variants", plain]) == 2
    err = capsys.readouterr().err
    assert "field --variants: no variant's agent is a compiled LangGraph graph" in err
