"""The real local model judges battles end to end (logprob verdicts, both orders): the baseline
on the local model against ``small-model``, whose answers are scripted
(tests/support/scripted_small_model.yaml) so no second model runs."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.battles import judge_run
from arena.golden import load_dataset
from arena.leaderboard import build_leaderboard
from arena.ratings import RatingOptions
from arena.runner import RunOptions, run_suite
from arena.storage import Store
from arena.trust import judge_health
from arena.variants.variant import load_variants
from judges import parse_judge

pytestmark = pytest.mark.integration

SCRIPTED = Path(__file__).resolve().parents[1] / "support" / "scripted_small_model.yaml"


@pytest.fixture(autouse=True)
def _small_model_scripted(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARENA_FAKE_SCRIPTS", str(SCRIPTED))


def _contest(store: Store, golden_path: Path, variants_dir: Path) -> int:
    """baseline and small-model on two cases (shared by both tests through the cache)."""
    variants = load_variants([variants_dir / "baseline.yaml", variants_dir / "small-model.yaml"])
    report = run_suite(
        store,
        load_dataset(golden_path),
        variants,
        RunOptions(case_ids=["HP-003", "GF-001"], progress=False, concurrency=1),
    )
    return report.run_id


def test_local_model_judges_battles(
    local_db_url: str, golden_path: Path, variants_dir: Path
) -> None:
    store = Store(local_db_url)
    run_id = _contest(store, golden_path, variants_dir)
    spec = parse_judge("local:qwen2.5-coder-1.5b")
    judged = judge_run(store, run_id, spec, progress=False, concurrency=1)
    assert judged.battles, "no battle was judged"
    assert any("self-preference" in w for w in judged.warnings)
    for battle in judged.battles:
        assert battle.winner in ("model_a", "model_b", "tie")
        if battle.verdict_ab is not None:
            assert battle.verdict_ab.p_first is not None and battle.verdict_ba is not None
            assert 0.0 <= battle.verdict_ab.p_first <= 1.0
            assert battle.p_a is not None and 0.0 <= battle.p_a <= 1.0
            assert battle.verdict_ab.judge.key == spec.key
    health = judge_health(judged.battles)
    assert health.error_rate == 0.0 and health.position_consistency is not None
    assert len(store.battles(run_id, spec.key)) == len(judged.battles)
    board = build_leaderboard(
        store, run_id, judge_key=spec.key, options=RatingOptions(bootstrap_rounds=200)
    )
    rated = [e for e in board.entries if e.rating is not None]
    assert {e.variant for e in rated} == {"baseline", "small-model"}
    assert all(
        e.ci_low is not None and e.rating is not None and e.ci_low <= e.rating <= (e.ci_high or 0)
        for e in rated
    )
    again = judge_run(store, run_id, spec, progress=False)
    assert again.model_calls == 0


def test_local_model_grades_answers(
    local_db_url: str, golden_path: Path, variants_dir: Path
) -> None:
    store = Store(local_db_url)
    run_id = _contest(store, golden_path, variants_dir)
    judged = judge_run(
        store, run_id, parse_judge("local:qwen2.5-coder-1.5b/grades"), progress=False
    )
    graded = [b for b in judged.battles if b.verdict_ab is not None]
    assert graded and all(b.winner != "error" for b in judged.battles)
    assert all(b.verdict_ab and b.verdict_ab.rationale.startswith("P(A good)=") for b in graded)
    assert judge_health(judged.battles).position_consistency == 1.0
