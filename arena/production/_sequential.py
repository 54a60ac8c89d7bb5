"""``arena shadow --sequential``: compare on the sampled traces a look at a time, and stop as
soon as the answer is settled.

The sampled traces are taken in their sampling order (by key: a random order), ``every`` more
at each look. Each look is an ordinary shadow comparison of the traces so far
(:func:`arena.production.shadow_sample`): the candidate's replies and the judge's verdicts of
the earlier traces are cached, so a look only calls the models for its new traces. After each
look the candidate's per-trace scores (win 1, tie 0.5, loss 0, in sampling order) get a
betting confidence sequence (:func:`arena.sequential.betting_cs`: valid however often one
looks), and :func:`arena.sequential.decide` asks the non-inferiority question at the margin:
stop at worse or non-inferior, or at the end of the sample. The report's interval is the
sequence's, and ``non_inferior`` is its low end at or above ``0.5 - margin``.
"""

from __future__ import annotations

from arena.production._sample import Sample
from arena.production._shadow import (
    ShadowOptions,
    ShadowReport,
    candidate_score,
    shadow_sample,
)
from arena.sequential import NON_INFERIORITY, betting_cs, decide
from arena.storage import Store
from arena.variants.variant import Variant
from judges import JudgeSpec

#: Traces added at each look, by default.
EVERY = 10


def _scores(store: Store, report: ShadowReport, order: list[str]) -> list[float]:
    """The candidate's score per trace of the look's run, in sampling order."""
    by_case: dict[str, float] = {}
    for battle in store.battles(report.run_id, report.judge):
        score = candidate_score(battle, report.candidate)
        if score is not None:
            by_case[battle.case_id] = score
    return [by_case[case] for case in order if case in by_case]


def shadow_sequential(
    store: Store,
    sample: Sample,
    candidate: Variant,
    judge: JudgeSpec,
    options: ShadowOptions,
    *,
    source: str,
    redactions: dict[str, int] | None = None,
    every: int = EVERY,
) -> ShadowReport:
    """The shadow comparison, stopped at the first look that settles it (module doc)."""
    from arena.errors import InputError

    if every < 1:
        raise InputError(f"must be at least 1, got {every}", field="--look-every")
    budget = len(sample.traces)
    seen, calls = 0, 0
    while True:
        seen = min(budget, seen + every)
        part = sample.model_copy(update={"traces": sample.traces[:seen]})
        report = shadow_sample(
            store, part, candidate, judge, options, source=source, redactions=redactions
        )
        calls += report.model_calls
        if report.judge_failure() is not None:  # no later look makes the judge work
            return report.model_copy(update={"model_calls": calls, "stopped": "the judge failed"})
        scores = _scores(store, report, [t.case_id for t in part.traces])
        if not scores:
            if seen < budget:
                continue
            return report.model_copy(update={"model_calls": calls, "stopped": "no verdicts"})
        lower, upper = betting_cs(scores)
        low, high = float(lower[-1]), float(upper[-1])
        stop = decide(
            low, high, margin=options.margin, seen=seen, budget=budget, question=NON_INFERIORITY
        )
        if stop.settled or seen >= budget:
            return report.model_copy(
                update={
                    "model_calls": calls,
                    "interval": (low, high),
                    "non_inferior": low >= 0.5 - options.margin,
                    "stopped": f"{stop.decision} after {seen} of {budget} traces: {stop.reason}",
                }
            )
