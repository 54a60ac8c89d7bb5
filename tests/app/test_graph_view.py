"""The drill-down shows a LangGraph result's path: a timeline of its nodes (turn, superstep,
node, sub-graph, duration) and, for a failed case, the state each superstep changed
(AppTest on the render function, and on the stored support desk's page)."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.app.graph_view import graph_view
from arena.records.graph_state import GraphStates, StateStep
from arena.records.results import RunResult
from tests.scoring.test_route_check import _path
from tests.support.desk_run import desk_run

pytestmark = pytest.mark.system

APP = Path(__file__).resolve().parents[2] / "app.py"


def _page(view):  # type: ignore[no-untyped-def]  # its source runs as the page
    from arena.app.graph_view import render_graph

    render_graph(view, "desk")


def _result() -> RunResult:
    states = GraphStates(
        steps=[
            StateStep(step=0, nodes=["__start__"], keys=["messages"], values={"messages": "q"}),
            StateStep(
                step=1,
                nodes=["router"],
                keys=["messages", "route"],
                values={"messages": "q", "route": "decline"},
            ),
        ]
    )
    return RunResult(
        variant="desk",
        variant_hash="h",
        case_id="S-3",
        case_hash="c",
        nodes=_path(["router", "support", "support:tools", "audit"]),
        states=states,
    )


def test_the_timeline_lists_each_node_under_its_sub_graph_and_each_steps_state_change() -> None:
    from streamlit.testing.v1 import AppTest

    view = graph_view(_result())
    assert view is not None
    at = AppTest.from_function(_page, args=(view,), default_timeout=30)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    (expander,) = at.expander
    assert expander.label == "Graph path of desk: 4 node(s), 3 superstep(s)"
    table = at.dataframe[0].value
    assert list(table.columns) == [
        "Turn",
        "Superstep",
        "Node",
        "Sub-graph",
        "Duration (s)",
        "Error",
    ]
    assert table["Node"].tolist() == ["router", "support", "support:tools", "audit"]
    assert table["Sub-graph"].tolist() == ["", "", "support", ""]
    captions = [c.value for c in at.caption]
    assert captions == ["superstep 0 · after \\_\\_start\\_\\_", "superstep 1 · after router"]
    assert [c.value for c in at.code] == [
        "messages:\n- (unset)\n+ q",
        "route:\n- (unset)\n+ decline",
    ]


def test_a_plain_runnables_result_has_no_graph_view() -> None:
    assert graph_view(_result().model_copy(update={"nodes": None})) is None


def test_the_stored_desks_drill_down_shows_both_paths_and_the_failed_ones_state(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from streamlit.testing.v1 import AppTest

    from arena.app import data

    desk_run(db_url)
    monkeypatch.setenv("ARENA_DB_URL", db_url)
    try:
        at = AppTest.from_file(str(APP), default_timeout=60)
        at.run(timeout=60)
        assert not at.exception, [e.value for e in at.exception]
        labels = at.selectbox(key="cmp_case").options
        cancel = next(i for i, label in enumerate(labels) if label.startswith("S-3"))
        at.selectbox(key="cmp_case").set_value(cancel).run()
        assert not at.exception, [e.value for e in at.exception]
        paths = sorted(e.label for e in at.expander if e.label.startswith("Graph path of"))
        assert paths == [
            "Graph path of desk: 6 node(s), 3 superstep(s)",
            "Graph path of desk\\-strict: 2 node(s), 2 superstep(s)",  # md-escaped
        ]
        routes = sorted(tuple(f.value["Node"]) for f in at.dataframe if "Node" in f.value)
        assert routes == [
            ("router", "decline"),
            ("router", "support", "support:agent", "support:tools", "support:agent", "audit"),
        ]
        changes = [c.value for c in at.code if c.value.startswith("route:")]
        assert changes == ["route:\n- (unset)\n+ decline"]  # only the failed desk's state
    finally:
        data.get_store.clear()
