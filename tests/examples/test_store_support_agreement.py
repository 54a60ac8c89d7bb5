"""Issue 45's proof: the store-support agent (tests/examples/store_support) plays scripted
trajectories on its golden cases through the real runner, and arena's pass/fail of every
(case, trajectory) pair equals the state-based reference reward (tau-bench's way: replay the
expected calls on a fresh store, compare every record, require each string in some reply),
except on the pairs listed in STRICTER_ON_PURPOSE, where the case asks more than the end state
shows (the customer looked up before any write)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from arena.golden import load_dataset
from arena.golden._models import GoldenDataset
from arena.models import register_fake
from arena.records.results import RunResult
from arena.runner import RunOptions, run_suite
from arena.scoring import CaseScore, score_result
from arena.storage import Store
from arena.variants.variant import Variant
from tests.examples.store_support.reference import reference_reward, replay
from tests.examples.store_support.store import SEED
from tests.examples.store_support.trajectories import (
    STRICTER_ON_PURPOSE,
    TRAJECTORIES,
    pairs,
    replies,
    scripted_agent,
    steps,
    system_prompt,
    tool_calls,
)

pytestmark = pytest.mark.system

STORE_SUPPORT = Path(__file__).parent / "store_support"
GOLDEN = STORE_SUPPORT / "golden" / "store.json"
RAW: dict[str, Any] = json.loads(GOLDEN.read_text(encoding="utf-8"))
CASES: dict[str, dict[str, Any]] = {c["id"]: c for c in RAW["test_cases"]}

#: The reference reward of each pair that passes it (every other pair fails it), by hand.
REFERENCE_PASSES = {
    *((case, "gold") for case in CASES),
    ("ST-4", "list_reordered"),
    ("ST-7", "independent_writes_reordered"),
    ("ST-5", "output_in_earlier_reply"),
    ("ST-3", "extra_reads"),
    ("ST-1", "no_lookup_first"),
}


#: What some failures must say (each text within a hard fail reason), in the contract's words.
NAMED = {
    ("ST-1", "extra_write_same_tool"): [
        'cancel_order(order_id="#W102", reason="ordered by mistake") was called: not expected '
        "(side-effecting)",
        "orders/#W102 status: pending -> cancelled, not expected",
    ],
    ("ST-3", "wrong_arg_second_call"): [
        'orders/#W104 status: expected "cancelled", is "pending"',
        "orders/#W102 status: pending -> cancelled, not expected",
    ],
    ("ST-2", "zip_plus_four"): ['orders/#W201 zip: expected "60621", is "60621-1234"'],
    ("ST-4", "list_extra_item"): ['"mug-blue"'],
    ("ST-5", "output_missing_one_of_several"): ["'label'"],
    ("ST-1", "no_lookup_first"): ['find_user(email="ava@example.com") was not called'],
}


def variant_config(kind: str) -> dict[str, Any]:
    """The store-support agent on the scripted model, playing trajectory ``kind``."""
    return {
        "name": f"store-{kind.replace('_', '-')}",
        "agent": "tests.examples.store_support.agent:build",
        "model": {"spec": "fake:store", "temperature": 0},
        "system_prompt": system_prompt(kind),
        "max_steps": 8,
    }


def store_variant(kind: str) -> Variant:
    """:func:`variant_config` as a variant."""
    return Variant.model_validate(variant_config(kind))


def register_store_script() -> None:
    """``fake:store``: each case's steps of the kind its variant's system prompt names."""
    inputs = {c["input"]: c["id"] for c in CASES.values()}
    register_fake("store", [scripted_agent(inputs)], cycle=True)


def changed(records: dict[str, Any]) -> dict[str, Any]:
    """``collection/record_id`` -> the record, for every record that differs from the seed."""
    return {
        f"{collection}/{rid}": record
        for collection, by_id in records.items()
        for rid, record in by_id.items()
        if SEED[collection].get(rid) != record
    }


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], RunResult]:
    """Every trajectory kind run on every case, by (case, kind)."""
    register_store_script()
    url = f"sqlite:///{tmp_path_factory.mktemp('store') / 'arena.db'}"
    store, dataset = Store(url), load_dataset(GOLDEN)
    runs: dict[tuple[str, str], RunResult] = {}
    for kind, by_case in TRAJECTORIES.items():  # each kind on the cases it names
        options = RunOptions(progress=False, case_ids=list(by_case))
        for result in run_suite(store, dataset, [store_variant(kind)], options).results:
            runs[(result.case_id, kind)] = result
    return runs


@pytest.fixture(scope="module")
def dataset() -> GoldenDataset:
    return load_dataset(GOLDEN)


def changed_fields(records: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """``collection/record_id`` -> its fields that differ from the seed (their end values)."""
    fields = {}
    for path, record in changed(records).items():
        collection, rid = path.split("/", 1)
        seed = SEED[collection].get(rid, {})
        fields[path] = {k: v for k, v in record.items() if k not in seed or seed[k] != v}
    return fields


def reference(case: str, kind: str) -> bool:
    script = steps(kind, case)
    return reference_reward(CASES[case], tool_calls(script), replies(script))


def check_the_golden_set() -> None:
    """Each case's expected_state is exactly what its expected calls leave changed, and the
    reference reward passes the pairs REFERENCE_PASSES says (and fails the others)."""
    for case_id, case in CASES.items():
        expected = [(c["tool"], c["args"]) for c in case["expected_calls"]]
        end = changed(replay(expected))
        written = case["expected_state"]
        assert set(end) == set(written), case_id
        for path, fields in written.items():
            seed = SEED[path.split("/")[0]][path.split("/")[1]]
            assert end[path] == {**seed, **fields}, (case_id, path)
    passes = {pair for pair in pairs() if reference(*pair)}
    assert passes == REFERENCE_PASSES
    assert len(pairs()) >= 26


def test_arena_agrees_with_the_reference_on_every_pair(
    runs: dict[tuple[str, str], RunResult], dataset: GoldenDataset
) -> None:
    check_the_golden_set()
    verdicts: dict[tuple[str, str], tuple[bool, CaseScore]] = {}
    for case, kind in pairs():
        result = runs[(case, kind)]
        script = steps(kind, case)
        assert result.error is None, (case, kind, result.error)
        # the agent did what the trajectory says (the reference replays the same calls)
        assert [(s.tool, s.args) for s in result.steps] == tool_calls(script), (case, kind)
        assert result.output == replies(script)[-1]
        # the end state arena stored is the one the reference replays
        assert result.end_state is not None, (case, kind)
        stored = {c.record: c.after for c in result.end_state.changes}
        assert stored == changed_fields(replay(tool_calls(script))), (case, kind)
        verdicts[(case, kind)] = (reference(case, kind), score_result(result, dataset.case(case)))
    disagree = {
        pair: [r.text for r in score.fail_reasons if r.hard]
        for pair, (ref, score) in verdicts.items()
        if score.passed != ref
    }
    assert set(disagree) == STRICTER_ON_PURPOSE, disagree
    for pair in STRICTER_ON_PURPOSE:  # the reference passes them; arena fails them
        assert verdicts[pair][0] and not verdicts[pair][1].passed
    for pair, texts in NAMED.items():
        hard = [r.text for r in verdicts[pair][1].fail_reasons if r.hard]
        assert all(any(t in h for h in hard) for t in texts), (pair, hard)
