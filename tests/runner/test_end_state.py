"""The end state as evidence (issue 45, item 1): a factory exposes its state with
``ctx.expose_state``, the runner diffs the snapshots taken after the factory and after the run
(a conversation: after its last turn), the ``state`` check scores ``expected_state`` and
``state_may_change`` with hard fails naming record and field, and the diff is stored."""

from __future__ import annotations

from typing import Any

import pytest

from arena.golden import GoldenDataset
from arena.records.results import RunResult
from arena.runner import RunOptions, run_suite
from arena.scoring import score_result
from arena.storage import Store
from arena.variants.variant import Variant

pytestmark = pytest.mark.system  # the runner end to end, with storage


def _case(case_id: str, text: str, **fields: Any) -> dict[str, Any]:
    return {"id": case_id, "input": text, "category": "happy_path", "tier": "critical", **fields}


def _run(store: Store, factory: str, *cases: dict[str, Any]) -> dict[str, RunResult]:
    dataset = GoldenDataset.model_validate(
        {"name": "desk", "available_tools": [], "test_cases": list(cases)}
    )
    variant = Variant.model_validate(
        {
            "name": "desk",
            "agent": f"tests.support.stateful:{factory}",
            "model": {"spec": "fake:echo"},
        }
    )
    report = run_suite(store, dataset, [variant], RunOptions(progress=False))
    stored = {r.case_id: r for r in store.results(report.run_id)}
    assert {r.case_id for r in report.results} == set(stored)
    return stored


def _hard(result: RunResult, case: dict[str, Any]) -> list[str]:
    from arena.golden import GoldenCase

    score = score_result(result, GoldenCase.model_validate(case))
    return [r.text for r in score.fail_reasons if r.hard]


CANCEL_W1 = {"orders/#W1": {"status": "cancelled"}}


def test_the_right_change_passes_and_an_extra_one_is_a_hard_fail_naming_it(store: Store) -> None:
    gold = _case("GOLD", "please cancel #W1", expected_state=CANCEL_W1)
    extra = _case("EXTRA", "please cancel #W1 and cancel #W2", expected_state=CANCEL_W1)
    results = _run(store, "order_desk", gold, extra)
    diff = results["GOLD"].end_state  # read back from the store
    assert diff is not None and [c.record for c in diff.changes] == ["orders/#W1"]
    assert diff.changes[0].before == {"status": "pending"}  # the start was copied, not aliased
    assert diff.changes[0].after == {"status": "cancelled"}
    assert _hard(results["GOLD"], gold) == []
    assert _hard(results["EXTRA"], extra) == [
        "orders/#W2 status: pending -> cancelled, not expected"
    ]


def test_an_expected_change_missing_and_a_wrong_value_name_record_and_field(store: Store) -> None:
    missing = _case("MISSING", "nothing today", expected_state=CANCEL_W1)
    zip4 = _case("ZIP4", "zip #W1 60621-1234", expected_state={"orders/#W1": {"zip": "60621"}})
    results = _run(store, "order_desk", missing, zip4)
    assert _hard(results["MISSING"], missing) == [
        'orders/#W1 status: expected "cancelled", is "pending"'
    ]
    assert _hard(results["ZIP4"], zip4) == ['orders/#W1 zip: expected "60621", is "60621-1234"']


def test_records_added_and_removed_and_what_state_may_change_allows(store: Store) -> None:
    removed = _case("GONE", "remove #W2", expected_state={"orders/#W2": None})
    added = _case(
        "ADDED",
        "add #W9 and remove #W3",
        expected_state={"orders/#W9": {"status": "pending"}},
        state_may_change=["orders/#W3"],
    )
    stray = _case("STRAY", "add #W9 and note #W1 hi", expected_state={})
    results = _run(store, "order_desk", removed, added, stray)
    assert _hard(results["GONE"], removed) == []
    assert _hard(results["ADDED"], added) == []
    assert _hard(results["STRAY"], stray) == [
        "orders/#W1 note: (absent) -> hi, not expected",
        "orders/#W9: added, not expected",
    ]


def test_a_conversation_is_checked_on_the_state_after_its_last_turn(store: Store) -> None:
    case = _case(
        "TALK",
        "hello",
        expected_state=CANCEL_W1,
        conversation={"turns": [{"user": "cancel #W1"}, {"user": "cancel #W2"}]},
    )
    results = _run(store, "order_desk", case)
    diff = results["TALK"].end_state
    assert diff is not None
    assert [c.record for c in diff.changes] == ["orders/#W1", "orders/#W2"]  # both turns
    assert _hard(results["TALK"], case) == ["orders/#W2 status: pending -> cancelled, not expected"]


def test_an_agent_that_exposes_no_state_fails_a_case_expecting_one(store: Store) -> None:
    case = _case("NOSTATE", "cancel #W1", expected_state=CANCEL_W1)
    plain = _case("PLAIN", "cancel #W1")
    results = _run(store, "stateless_desk", case, plain)
    assert results["NOSTATE"].end_state is None
    (reason,) = _hard(results["NOSTATE"], case)
    assert reason.startswith("the agent exposes no state") and "ctx.expose_state" in reason
    assert _hard(results["PLAIN"], plain) == []  # a case without the fields is not checked


def test_a_failing_snapshot_leaves_the_state_unknown_and_the_case_failed(store: Store) -> None:
    case = _case("DOWN", "cancel #W1", expected_state=CANCEL_W1)
    results = _run(store, "broken_desk", case)
    result = results["DOWN"]
    assert result.error is None  # the run stands
    assert result.end_state is not None and "the store is down" in str(result.end_state.error)
    (reason,) = _hard(result, case)
    assert reason.startswith("the state is not known: the start snapshot failed: RuntimeError")


def test_the_stored_diff_is_bounded_and_redacted(monkeypatch: pytest.MonkeyPatch) -> None:
    from arena.golden import GoldenCase
    from arena.records.end_state import RECORD_LIMIT, VALUE_LIMIT, diff_snapshots

    secret = "sk-test-" + "7" * 30
    monkeypatch.setenv("OPENAI_API_KEY", secret)
    start = {"orders": {f"#{i}": {"n": 0} for i in range(RECORD_LIMIT + 5)}}
    end = {"orders": {f"#{i}": {"n": 1} for i in range(RECORD_LIMIT + 5)}}
    end["orders"]["#0"] = {"n": 1, "token": f"key={secret}", "long": "x" * 5000}
    diff = diff_snapshots(start, end)
    assert len(diff.changes) == RECORD_LIMIT and diff.dropped == 5
    first = diff.changes[0].after
    assert secret not in str(diff.model_dump()) and "[OPENAI_API_KEY redacted]" in first["token"]
    assert len(first["long"]) == VALUE_LIMIT and first["long"].endswith("...")
    case = GoldenCase.model_validate(
        _case("MANY", "x", expected_state={}, state_may_change=["orders/*"])
    )
    result = RunResult(variant="v", variant_hash="h", case_id="MANY", case_hash="c", output="ok")
    result.end_state = diff
    reasons = [r.text for r in score_result(result, case).fail_reasons if r.hard]
    assert reasons == [
        "5 more changed record(s) were not stored (over the limit): they cannot be checked"
    ]


def test_values_match_exactly_by_default_or_by_a_matcher() -> None:
    from arena.golden import GoldenCase
    from arena.records.end_state import diff_snapshots

    start = {"orders": {"#W1": {"zip": "60621", "items": ["a", "b"], "n": 1}}}
    end = {"orders": {"#W1": {"zip": "60621-1234", "items": ["b", "a"], "n": 1.0}}}

    def misses(fields: dict[str, Any]) -> list[str]:
        case = GoldenCase.model_validate(_case("M", "x", expected_state={"orders/#W1": fields}))
        diff = diff_snapshots(start, end, case.expected_state)
        result = RunResult(variant="v", variant_hash="h", case_id="M", case_hash="c", output="ok")
        result.end_state = diff
        return [r.text for r in score_result(result, case).fail_reasons if r.hard]

    exact = {"zip": "60621", "items": ["a", "b"], "n": 1}
    assert misses(exact) == [
        'orders/#W1 zip: expected "60621", is "60621-1234"',
        'orders/#W1 items: expected ["a", "b"], is ["b", "a"]',
    ]
    assert misses({"zip": {"regex": "^60621"}, "items": {"unordered": ["a", "b"]}, "n": 1}) == []
    assert misses({"zip": {"any": True}, "items": {"unordered": ["a"]}, "n": True}) == [
        'orders/#W1 items: expected ["a"] in any order, got ["b", "a"]',
        "orders/#W1 n: expected true, is 1.0",
    ]


def test_arena_show_prints_the_state_changes_in_text_and_json(
    store: Store, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    from arena.cli import main

    extra = _case("EXTRA", "cancel #W1 and cancel #W2 and note #W1 x", expected_state=CANCEL_W1)
    result = _run(store, "order_desk", extra)["EXTRA"]
    capsys.readouterr()
    assert main(["show", str(result.id), "--db", db_url]) == 0
    text = capsys.readouterr().out
    assert (
        "end state: 2 record(s) changed\n"
        "    orders/#W1 status: pending -> cancelled\n"
        "    orders/#W1 note: (absent) -> x\n"
        "    orders/#W2 status: pending -> cancelled\n"
    ) in text
    assert main(["show", str(result.id), "--db", db_url, "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert [c["record"] for c in shown["end_state"]["changes"]] == ["orders/#W1", "orders/#W2"]
    assert shown["end_state"]["named"] == {"orders/#W1": {"status": "cancelled"}}
