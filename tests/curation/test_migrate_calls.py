"""``arena golden migrate`` rewrites expected_tools/expected_args as expected_calls where that is
unambiguous, keeping the file's layout (the diff is the change), and ``arena golden lint``
warns where expected_args can pass a wrong id or list (issue 45, item 2)."""

from __future__ import annotations

import difflib
import json
from pathlib import Path
from typing import Any

import pytest

from arena.cli import main
from arena.curation._lint import lint_dataset
from arena.curation._migrate import migrate_case
from arena.golden import load_dataset
from arena.records.results import RunResult, TrajectoryStep
from arena.scoring import score_result

pytestmark = pytest.mark.unit

# Written by hand, compact, as a team writes it (the layout the rewrite must keep).
STORE = """{
  "name": "store",
  "version": "1.0.0",
  "available_tools": ["find_user", "cancel_order", "return_items", "search_faq"],
  "test_cases": [
    {
      "id": "S-1",
      "input": "Cancel my order #W2.",
      "category": "happy_path",
      "tier": "critical",
      "expected_tools": ["find_user", "cancel_order"],
      "expected_order": ["find_user", "cancel_order"],
      "expected_args": {"cancel_order": {"order_id": "#W2", "reason": "no longer needed"}},
      "expected_output_contains": ["cancelled"]
    },
    {
      "id": "S-2",
      "input": "Return the mug and the plate of #W3.",
      "category": "happy_path",
      "expected_tools": ["return_items"],
      "expected_args": {"return_items": {"order_id": "#W3", "item_ids": ["I1", "I2"]}}
    },
    {
      "id": "S-3",
      "input": "Cancel #W4 and #W5.",
      "category": "happy_path",
      "expected_tools": ["cancel_order", "cancel_order"],
      "expected_args": {"cancel_order": {"reason": "ordered by mistake"}}
    },
    {
      "id": "S-4",
      "input": "How do refunds work?",
      "category": "happy_path",
      "expected_tools": ["search_faq"],
      "acceptable_tools": [["search_faq"], []]
    },
    {
      "id": "S-5",
      "input": "Hello!",
      "category": "happy_path",
      "expected_output_contains": ["hello"]
    }
  ]
}
"""


@pytest.fixture
def store_file(tmp_path: Path) -> Path:
    path = tmp_path / "store.json"
    path.write_text(STORE)
    return path


def test_migrate_rewrites_the_unambiguous_cases_and_says_why_not_the_others(
    store_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["golden", "migrate", "--dataset", str(store_file)]) == 0
    out = capsys.readouterr().out
    assert "migrated 2 case(s): S-1, S-2" in out
    assert "left S-3: cancel_order is expected 2 times with one expected_args entry" in out
    assert "left S-4: acceptable_tools lists alternative tool sets" in out
    dataset = load_dataset(store_file)
    s1, s2 = dataset.case("S-1"), dataset.case("S-2")
    assert (s1.expected_tools, s1.expected_order, s1.expected_args) == ([], [], {})
    assert [c.model_dump() for c in s1.expected_calls] == [
        {"tool": "find_user", "args": {}, "other_args": "allow"},
        {
            "tool": "cancel_order",
            "args": {"order_id": "#W2", "reason": {"contains": "no longer needed"}},
            "other_args": "allow",
        },
    ]
    assert s1.calls_match is None  # in_order, from expected_order
    assert s2.calls_match == "unordered" or len(s2.expected_calls) == 1
    assert s2.expected_calls[0].args == {"order_id": "#W3", "item_ids": {"unordered": ["I1", "I2"]}}
    assert dataset.version != "1.0.0"


def test_the_rewrite_keeps_the_file_layout(store_file: Path) -> None:
    before = STORE.splitlines()
    assert main(["golden", "migrate", "--dataset", str(store_file)]) == 0
    after = store_file.read_text().splitlines()
    changed = [
        line
        for line in difflib.unified_diff(before, after, lineterm="", n=0)
        if line.startswith(("+", "-")) and not line.startswith(("+++", "---"))
    ]
    removed = [line for line in changed if line.startswith("-")]
    assert removed == [
        '-  "version": "1.0.0",',
        '-      "expected_tools": ["find_user", "cancel_order"],',
        '-      "expected_order": ["find_user", "cancel_order"],',
        '-      "expected_args": {"cancel_order": {"order_id": "#W2", "reason": '
        '"no longer needed"}},',
        '-      "expected_tools": ["return_items"],',
        '-      "expected_args": {"return_items": {"order_id": "#W3", "item_ids": ["I1", "I2"]}}',
    ]
    # the untouched cases keep their text byte for byte
    for case_id in ("S-3", "S-4", "S-5"):
        start = STORE.index(f'"id": "{case_id}"')
        block = STORE[start : STORE.index("}", start)]
        assert block in store_file.read_text()


def test_a_dry_run_writes_nothing(store_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["golden", "migrate", "--dataset", str(store_file), "--dry-run"]) == 0
    assert "would migrate 2 case(s)" in capsys.readouterr().out
    assert store_file.read_text() == STORE


def test_a_migrated_case_fails_the_wrong_id_its_old_form_passed(store_file: Path) -> None:
    old = load_dataset(store_file).case("S-1")
    main(["golden", "migrate", "--dataset", str(store_file)])
    new = load_dataset(store_file).case("S-1")
    steps = [
        TrajectoryStep(index=0, tool="find_user", args={"email": "a@b.c"}),
        TrajectoryStep(
            index=1, tool="cancel_order", args={"order_id": "#W2-OLD", "reason": "No longer needed"}
        ),
    ]
    wrong = RunResult(
        variant="v", variant_hash="h", case_id="S-1", case_hash="c", output="cancelled", steps=steps
    )
    assert score_result(wrong, old).passed  # "#W2" is a substring of "#W2-OLD"
    assert not score_result(wrong, new).passed
    right = wrong.model_copy(
        update={
            "steps": [
                steps[0],
                steps[1].model_copy(
                    update={"args": {"order_id": "#W2", "reason": "No longer needed"}}
                ),
            ]
        }
    )
    assert score_result(right, new).passed  # free text keeps its approximate meaning


@pytest.mark.parametrize(
    ("case", "why"),
    [
        (
            {"expected_tools": ["a"], "expected_order": ["b"]},
            "expected_order names other calls than expected_tools",
        ),
        ({"expected_args": {"a": {"x": {"k": 1}}}}, "expected_args.a.x is a mapping"),
        (
            {"expected_order": ["a"], "expected_args": {"b": {"x": 1}}},
            "expected_args names b, which expected_order leaves out",
        ),
        ({"expected_calls": [{"tool": "a"}], "expected_tools": ["a"]}, "already has"),
    ],
)
def test_ambiguous_cases_are_left(case: dict[str, Any], why: str) -> None:
    from arena.curation._migrate import Ambiguous

    with pytest.raises(Ambiguous, match=why):
        migrate_case(case)


def test_lint_warns_where_expected_args_can_pass_a_wrong_id_or_list(store_file: Path) -> None:
    report = lint_dataset(load_dataset(store_file))
    found = [f for f in report.findings if f.rule == "approximate_args"]
    assert [f.cases for f in found] == [["S-1"], ["S-2"]]
    assert all(f.severity == "warning" for f in found)
    assert 'cancel_order.order_id "#W2" matches as a substring: "#W2-X" passes' in found[0].message
    assert "another call of cancel_order (another id) passes" in found[0].message
    assert 'return_items.order_id "#W3"' in found[1].message
    assert 'item_ids ["I1", "I2"] matches as a subset' in found[1].message
    main(["golden", "migrate", "--dataset", str(store_file)])
    after = lint_dataset(load_dataset(store_file))
    assert not [f for f in after.findings if f.rule == "approximate_args"]


def test_the_shipped_golden_set_has_no_approximate_id() -> None:
    """Its expected_args are search words and expression numbers: no warning there."""
    shipped = Path(__file__).resolve().parents[2] / "data" / "golden" / "research_agent.json"
    report = lint_dataset(load_dataset(shipped))
    assert not [f for f in report.findings if f.rule == "approximate_args"]
    assert json.loads(shipped.read_text())["test_cases"]
