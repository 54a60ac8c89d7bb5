"""A stored, scored and judged run of the support desk's two variants (tests/examples/
support_desk: ``desk`` and ``desk-strict``, scripted models) on S-1 (both take router ->
support -> audit) and S-3 (``desk-strict`` declines it and fails, so its state after each
superstep is kept), for the app's drill-down tests."""

from __future__ import annotations

from pathlib import Path

from arena.battles import judge_run
from arena.evaluation.run_scores import score_run
from arena.golden import load_dataset
from arena.models import ModelConfig, register_fake
from arena.models._fake_files import use_fake_scripts
from arena.runner import RunOptions, run_suite
from arena.storage import Store
from arena.variants.variant import load_variant
from judges import JudgeSpec

DESK = Path(__file__).resolve().parents[1] / "examples" / "support_desk"


def desk_run(url: str) -> int:
    """Run, score and judge both desks on S-1 and S-3 in ``url``; the run's id."""
    use_fake_scripts(DESK / "fake_models.yaml")
    store = Store(url)
    variants = [load_variant(DESK / "variants" / f) for f in ("desk.yaml", "desk-strict.yaml")]
    options = RunOptions(progress=False, case_ids=["S-1", "S-3"])
    report = run_suite(store, load_dataset(DESK / "golden" / "support.json"), variants, options)
    score_run(store, report.run_id)
    register_fake("judge", ["Same. [[A=B]]"], cycle=True)
    judge_run(store, report.run_id, JudgeSpec(model=ModelConfig(spec="fake:judge")), progress=False)
    return report.run_id
