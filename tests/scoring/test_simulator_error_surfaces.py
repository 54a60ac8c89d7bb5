"""Simulator errors where a run is read: the leaderboard, run health, golden marks."""

from __future__ import annotations

import pytest

from arena.evaluation.run_scores import score_run
from arena.golden import GoldenDataset
from arena.leaderboard import build_leaderboard
from arena.records.results import RunResult
from arena.storage import Store
from arena.trust import golden_marks, run_health
from tests.scoring.dialogues import GOOD, REFUND, dialogue_result

pytestmark = pytest.mark.unit

SINGLE = {"id": "HP-1", "input": "q", "category": "happy_path", "tier": "critical"}


def fill(store: Store) -> int:
    """A run of variant ``v``: HP-1 passes, REFUND-01's simulated user leaked its goal, and
    variant ``w`` passes both."""
    dataset = GoldenDataset.model_validate(
        {
            "name": "d",
            "available_tools": ["lookup_order", "issue_refund"],
            "test_cases": [
                REFUND,
                SINGLE,
            ],
        }
    )
    config = {"variants": {"v": "h1", "w": "h2"}, "cases": ["REFUND-01", "HP-1"]}
    run_id, _ = store.open_run("k", store.ensure_dataset(dataset), config)
    leak = dialogue_result(
        GOOD[:1], ended_by="simulator_error", simulator_error="leak: said its goal", run_id=run_id
    )
    results = [
        leak,
        dialogue_result(GOOD, variant="w", vh="h2", run_id=run_id),
        *[
            RunResult(
                run_id=run_id,
                variant=v,
                variant_hash=h,
                case_id="HP-1",
                case_hash="hp",
                output="an answer",
            )
            for v, h in (("v", "h1"), ("w", "h2"))
        ],
    ]
    for result in results:
        store.save_result(result)
    return run_id


def test_the_leaderboard_counts_simulator_errors_apart(store: Store) -> None:
    run_id = fill(store)
    score_run(store, run_id)
    board = {e.variant: e for e in build_leaderboard(store, run_id).entries}
    assert board["v"].simulator_errors == 1 and board["v"].pass_rate == 1.0
    assert board["v"].error_rate == 0.0
    assert board["w"].simulator_errors == 0


def test_run_health_counts_simulator_errors(store: Store) -> None:
    run_id = fill(store)
    assert run_health(store, run_id).simulator_errors == 1


def test_a_simulator_error_is_no_golden_mark(store: Store) -> None:
    run_id = fill(store)
    scores = score_run(store, run_id).cases
    marked = golden_marks(scores)
    leaked = [s.result_id for s in scores if s.simulator_error is not None]
    assert len(leaked) == 1 and leaked[0] not in marked
    assert len(marked) == 3


def test_arena_health_prints_the_simulator_errors(
    store: Store, capsys: pytest.CaptureFixture[str]
) -> None:
    from arena.cli.health import print_agreements

    print_agreements(run_health(store, fill(store)))
    assert "1 simulator error (not agent failures)" in capsys.readouterr().out


def test_sequential_decisions_leave_simulator_errors_out(store: Store) -> None:
    from arena.compare.sequential._trace import critical_passes, golden_outcomes

    run_id = fill(store)
    score_run(store, run_id)
    both = {"REFUND-01", "HP-1"}
    assert critical_passes(store, run_id, "w", "v", both) == {"HP-1": (1, 1, 1, 1)}
    assert set(golden_outcomes(store, run_id, "w", "v")) == {"HP-1"}
