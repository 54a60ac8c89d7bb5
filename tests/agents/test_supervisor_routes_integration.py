"""The supervisor's hand-offs as route expectations (issue 40), on the Research Agent's cases
in tests/agents/supervisor_routes.json: every node they name is a node of the supervisor's
compiled graph (offline), and on the real local model each case's route holds (integration:
the expectations are hypotheses until the lead has measured them)."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.curation._lint_routes import check_route_nodes
from arena.golden import load_dataset
from arena.runner import RunOptions, run_suite, variant_node_names
from arena.scoring import score_result
from arena.storage import Store
from arena.variants.variant import load_variant

ROUTES = Path(__file__).parent / "supervisor_routes.json"


@pytest.mark.unit
def test_every_routed_node_is_a_node_of_the_supervisors_graph(variants_dir: Path) -> None:
    names = variant_node_names(load_variant(variants_dir / "supervisor.yaml"))
    assert names is not None and {"researcher:tools", "analyst:tools", "finish"} <= names
    check_route_nodes(load_dataset(ROUTES).test_cases, names, file=str(ROUTES), graph="supervisor")


@pytest.mark.integration
def test_the_supervisors_path_is_recorded_and_checked_on_the_local_model(
    local_db_url: str, variants_dir: Path
) -> None:
    # one case proves the point: the real graph's path is recorded and the route check reads
    # it (the measured routes of all four cases are in docs/golden.md). HP-001 is the case
    # test_integration_agents runs on the same variant and database: its query is the same,
    # so whichever test runs second replays the model's replies from the cache.
    dataset = load_dataset(ROUTES)
    options = RunOptions(progress=False, case_timeout_s=900, case_ids=["HP-001"])
    variant = load_variant(variants_dir / "supervisor.yaml")
    [result] = run_suite(Store(local_db_url), dataset, [variant], options).results
    assert result.error is None, result.error
    assert result.nodes is not None and result.nodes.steps
    route = result.nodes.route()
    assert route[0] == "decompose" and route[-1] == "finish"
    score = score_result(result, dataset.case("HP-001"))
    reasons = [r.text for r in score.fail_reasons if r.check == "route"]
    steps = iter(route)
    in_order = all(node in steps for node in dataset.case("HP-001").expected_route or [])
    assert any(r.startswith("route ") for r in reasons) == (not in_order), (route, reasons)
    too_long = result.nodes.supersteps > 12
    assert any("supersteps" in r for r in reasons) == too_long, (result.nodes.supersteps, reasons)
