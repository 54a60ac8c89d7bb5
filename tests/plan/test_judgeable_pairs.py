"""`arena plan` counts exactly the pairs `arena judge` judges: both take their pairs and
each pair's fate from one rule (:func:`arena.battles._pairing.judgeable_pairs`), and render
and key each request alike, so a rule changed on one side alone fails here.

A stored run of three variants on four cases holds every kind of pair: ordinary, identical
answers, a crash, a simulated user that failed, an answer missing (a stopped run), and
requests whose verdicts a first, partial judging pass left in the cache. The dataset has a
``judge:`` block, which is part of every request the judge renders.
"""

from __future__ import annotations

from collections import Counter

import pytest
from langchain_core.messages import BaseMessage

from arena.battles import judge_run
from arena.battles._pairing import BATTLE_FATES, PairFate
from arena.battles._runner import stored_pairs
from arena.golden import GoldenCase, GoldenDataset
from arena.models import ModelConfig, register_fake
from arena.plan import plan_stored_judge
from arena.records.dialogue import Dialogue
from arena.records.results import RunResult
from arena.runner._user_model import task_case_hash
from arena.storage import Store
from arena.variants.variant import Variant
from judges import JudgeSpec

pytestmark = pytest.mark.unit

NAMES = ("alpha", "beta", "gamma")
#: Per case, each variant's answer: text, ("crash", why), ("simulator", why), or None
#: (never stored: the run stopped before it).
ANSWERS: dict[str, dict[str, str | tuple[str, str] | None]] = {
    # alpha-beta asked; alpha-gamma identical (a tie); beta-gamma the same two answers as
    # alpha-beta, so the same two ordered requests (sent once).
    "C-0": {"alpha": "It is 300.", "beta": "It is 250.", "gamma": "It is 300."},
    # alpha crashed: two crash battles; beta-gamma asked.
    "C-1": {"alpha": ("crash", "agent blew up"), "beta": "Maybe 12.", "gamma": "It is 15."},
    # gamma's simulated user failed: two pairs not judged; alpha-beta identical.
    "C-2": {"alpha": "Yes.", "beta": "Yes.", "gamma": ("simulator", "leak: told the goal")},
    # gamma never answered: two pairs skipped; alpha-beta asked.
    "C-3": {"alpha": "Paris.", "beta": "Lyon.", "gamma": None},
}
FATES = {
    PairFate.JUDGE: 4,
    PairFate.SAME: 2,
    PairFate.CRASH: 2,
    PairFate.SIMULATOR: 2,
    PairFate.UNANSWERED: 2,
}


def _dataset() -> GoldenDataset:
    return GoldenDataset.model_validate(
        {
            "name": "fates",
            "available_tools": ["calculate"],
            "judge": {"rubric": "Correctness first, then brevity."},
            "test_cases": [
                {
                    "id": cid,
                    "input": f"Question {cid}?",
                    "category": "happy_path",
                    "tier": "critical",
                }
                for cid in ANSWERS
            ],
        }
    )


def _result(
    run_id: int, variant: Variant, case: GoldenCase, answer: str | tuple[str, str]
) -> RunResult:
    output, error, dialogue = "Hello?", None, None
    if isinstance(answer, str):
        output = answer
    elif answer[0] == "crash":
        error = answer[1]
    else:
        dialogue = Dialogue(ended_by="simulator_error", simulator_error=answer[1])
    return RunResult(
        run_id=run_id,
        variant=variant.name,
        variant_hash=variant.version_hash,
        case_id=case.id,
        case_hash=task_case_hash(case, None),  # as the runner keys it
        output=output,
        error=error,
        dialogue=dialogue,
    )


def _stored_run(store: Store) -> int:
    """The run above, stored as ``arena run`` stores one (stopped: an answer is missing)."""
    variants = {
        n: Variant.model_validate({"name": n, "model": {"spec": f"fake:{n}"}}) for n in NAMES
    }
    dataset = _dataset()
    dataset_id = store.ensure_dataset(dataset)
    for variant in variants.values():
        store.ensure_variant(variant)
    config = {"variants": {n: v.version_hash for n, v in variants.items()}, "cases": list(ANSWERS)}
    run_id, _ = store.open_run("fates", dataset_id, config)
    for case in dataset.test_cases:
        for name, answer in ANSWERS[case.id].items():
            if answer is not None:
                store.save_result(_result(run_id, variants[name], case, answer))
    store.finish_run(run_id, "stopped")
    return run_id


def _prefers_the_longer(messages: list[BaseMessage]) -> str:
    text = str(messages[-1].content)
    a = text.split("Answer A:\n", 1)[1].split("\n\n", 1)[0]
    b = text.split("Answer B:\n", 1)[1].split("\n\n", 1)[0]
    return "[[A>B]]" if len(a) >= len(b) else "[[B>A]]"


def test_the_plan_counts_exactly_the_pairs_the_judge_runner_judges(store: Store) -> None:
    run_id = _stored_run(store)
    script = register_fake("fate-judge", [_prefers_the_longer], cycle=True)
    spec = JudgeSpec(model=ModelConfig(spec="fake:fate-judge"))
    first = judge_run(store, run_id, spec, pairs="anchor:alpha", progress=False)  # fills the cache
    assert first.model_calls == len(script.calls) == 4  # alpha-beta on C-0 and C-3, both orders
    script.calls.clear()

    found = stored_pairs(store, run_id)
    assert Counter(p.fate for p in found) == FATES
    plan = plan_stored_judge(store, run_id, spec)
    report = judge_run(store, run_id, spec, progress=False)

    battled = {
        (p.case.id, p.a.variant, p.b.variant)
        for p in found
        if p.fate in BATTLE_FATES and p.a is not None and p.b is not None
    }
    assert {(b.case_id, b.variant_a, b.variant_b) for b in report.battles} == battled
    assert plan.pairs + plan.skipped == len(report.battles) == len(battled)
    assert plan.skipped == report.crashes == FATES[PairFate.CRASH]
    assert plan.ties == sum(b.verdict_ab is None and not b.is_crash for b in report.battles)
    assert plan.simulator_errors == report.simulator_errors == FATES[PairFate.SIMULATOR]
    assert plan.unanswered == report.skipped == FATES[PairFate.UNANSWERED]
    assert plan.estimated_pairs == 0  # nothing of a stored run is still to be answered
    # Asked: 4 pairs x 2 orders; cached: C-0's two requests (shared by alpha-beta and
    # beta-gamma) and C-3's two; sent: C-1's beta-gamma, both orders, once each.
    assert (plan.calls, plan.cached, plan.to_send) == (8, 6, 2)
    assert plan.to_send == report.model_calls == len(script.calls)
