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
def test_the_supervisors_routes_hold_on_the_local_model(
    local_db_url: str, variants_dir: Path
) -> None:
    dataset = load_dataset(ROUTES)
    options = RunOptions(progress=False, case_timeout_s=900)
    variant = load_variant(variants_dir / "supervisor.yaml")
    report = run_suite(Store(local_db_url), dataset, [variant], options)
    broken = {}
    for result in report.results:
        assert result.error is None, (result.case_id, result.error)
        assert result.nodes is not None and result.nodes.steps, result.case_id
        score = score_result(result, dataset.case(result.case_id))
        reasons = [r.text for r in score.fail_reasons if r.check == "route"]
        if reasons:
            broken[result.case_id] = (reasons, result.nodes.names())
    assert broken == {}
