"""The drill-down shows what a run changed in the state its agent exposes (issue 45, item 1):
one row per changed field, a record added or removed on a row of its own, and why the state
is not known (AppTest on the render function)."""

from __future__ import annotations

import pytest

from arena.app.state_view import state_view
from arena.records.end_state import RecordChange, StateDiff
from arena.records.results import RunResult

pytestmark = pytest.mark.system


def _page(view):  # type: ignore[no-untyped-def]  # its source runs as the page
    from arena.app.state_view import render_state

    render_state(view, "desk")


def _result(diff: StateDiff | None) -> RunResult:
    return RunResult(variant="desk", variant_hash="h", case_id="C", case_hash="c", end_state=diff)


DIFF = StateDiff(
    changes=[
        RecordChange(
            record="orders/#W2",
            change="changed",
            before={"status": "pending"},
            after={"status": "cancelled", "note": "*bold*"},
        ),
        RecordChange(record="carts/#C1", change="added", after={"items": ["lamp"]}),
    ],
    dropped=2,
)


def test_each_changed_field_is_a_row_and_values_are_never_markdown() -> None:
    from streamlit.testing.v1 import AppTest

    view = state_view(_result(DIFF))
    assert view is not None
    at = AppTest.from_function(_page, args=(view,), default_timeout=30)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    (expander,) = at.expander
    assert expander.label == "End state of desk: 4 record(s) changed"
    table = at.dataframe[0].value
    assert table.to_dict("records") == [
        {"Record": "orders/#W2", "Field": "status", "Before": "pending", "After": "cancelled"},
        {"Record": "orders/#W2", "Field": "note", "Before": "(absent)", "After": "*bold*"},
        {
            "Record": "carts/#C1",
            "Field": "(record added)",
            "Before": "",
            "After": '{"items": ["lamp"]}',
        },
    ]
    assert [c.value for c in at.caption] == ["2 more changed record(s) not stored"]


def test_an_unknown_state_says_why_and_no_state_shows_nothing() -> None:
    from streamlit.testing.v1 import AppTest

    view = state_view(_result(StateDiff(error="the start snapshot failed: RuntimeError: down")))
    at = AppTest.from_function(_page, args=(view,), default_timeout=30)
    at.run()
    assert [c.value for c in at.code] == ["the start snapshot failed: RuntimeError: down"]
    assert state_view(_result(None)) is None
