"""One scores snapshot per sequential look: the trace's readers read the snapshot they are
handed, not the database (``arena.compare.sequential._trace``)."""

from __future__ import annotations

import pytest

from arena.compare.sequential._trace import critical_passes, golden_outcomes, stochastic_cases
from arena.scoring import CaseScore
from arena.storage import Store

pytestmark = pytest.mark.unit


def _score(variant: str, case: str, score: float, repeat: int = 0) -> CaseScore:
    return CaseScore(
        variant=variant,
        variant_hash="h",
        case_id=case,
        category="happy_path",
        tier="critical",
        repeat=repeat,
        score=score,
        passed=score == 1.0,
    )


SNAPSHOT = [
    _score("base", "C-1", 1.0),
    _score("cand", "C-1", 0.0),
    _score("base", "C-2", 1.0),
    _score("cand", "C-2", 1.0),
    _score("cand", "C-2", 0.5, repeat=1),
]


def test_a_look_reads_the_snapshot_it_is_handed(store: Store) -> None:
    # the store holds no run at all: every figure comes from the snapshot
    assert golden_outcomes(store, 99, "base", "cand", SNAPSHOT) == {"C-1": 0.0, "C-2": 0.375}
    assert critical_passes(store, 99, "base", "cand", {"C-1", "C-2"}, scores=SNAPSHOT) == {
        "C-1": (1, 1, 0, 1),
        "C-2": (1, 1, 1, 2),
    }
    assert stochastic_cases(store, 99, "base", "cand", None, SNAPSHOT) == {
        "C-2": "the repeats of cand score differently"
    }
