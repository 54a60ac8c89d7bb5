"""Sampled traces as a run: a golden case per query, and production's answers stored as an
answers-from-files contestant (``answers:production``, never called) beside the candidate.

The run is the ordinary runner's (:func:`arena.runner.run_suite`): it is opened under the key
the runner gives those cases and variants, production's answers are stored in it first, and
the runner then runs only the candidate (cached, resumable, on any executor). The same
sampled traces and candidate give the same run: a rerun makes no model call.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from arena.errors import InputError
from arena.golden import GoldenCase, GoldenDataset, case_hash
from arena.outputs import PROVIDER
from arena.production._trace import ProductionTrace
from arena.records.provenance import provenance
from arena.records.results import RunResult, TrajectoryStep
from arena.runner import RunOptions, RunReport, run_key, run_suite, select_cases
from arena.storage import Store
from arena.variants.variant import Variant
from arena.variants.version import content_version

#: The name of the production contestant in a shadow run.
PRODUCTION = "production"
#: The tag every case made from a trace carries.
TRACE_TAG = "production-trace"


def trace_case(trace: ProductionTrace) -> GoldenCase:
    """The golden case a trace's query becomes (pending: it asserts nothing yet)."""
    return GoldenCase.model_validate(
        {
            "id": trace.case_id,
            "input": trace.query,
            "category": "happy_path",
            "tier": "pending",
            "max_steps": 50,
            "tags": [TRACE_TAG],
            "notes": f"production trace {trace.trace_id}",
        }
    )


def shadow_dataset(traces: list[ProductionTrace], source: str) -> GoldenDataset:
    """A dataset of one case per sampled trace (InputError on two traces with one case id)."""
    seen: dict[str, str] = {}
    for trace in traces:
        if trace.case_id in seen:
            raise InputError(
                f"trace id {trace.trace_id!r} is given twice", file=source, field="trace_id"
            )
        seen[trace.case_id] = trace.trace_id
    return GoldenDataset.model_validate(
        {
            "name": "production",
            "description": f"production traces sampled from {source}",
            "available_tools": [],
            "test_cases": [trace_case(t).model_dump(mode="json") for t in traces],
        }
    )


def production_variant(traces: list[ProductionTrace], source: str) -> Variant:
    """The production contestant: its version covers everything read of each trace (answer,
    tool calls, error, latency, tokens, cost, metadata), so a trace changed in the file is a
    new contestant and its pairs are judged again (unchanged pairs keep their verdicts)."""
    content = {t.case_id: t.model_dump(mode="json") for t in traces}
    digest = hashlib.sha256(json.dumps(content, sort_keys=True).encode()).hexdigest()[:12]
    variant = Variant.model_validate(
        {
            "name": PRODUCTION,
            "description": f"production answers read from {source} ({digest})",
            "model": {"spec": f"{PROVIDER}:{PRODUCTION}"},
            "tools": [],
        }
    )
    return variant.with_version(content_version(variant, content))


def production_result(trace: ProductionTrace, variant: Variant, case: GoldenCase) -> RunResult:
    """What production did on a trace, as the result of the production contestant."""
    return RunResult(
        variant=variant.name,
        variant_hash=variant.version_hash,
        case_id=case.id,
        case_hash=case_hash(case),
        output=trace.answer,
        steps=[
            TrajectoryStep(
                index=i,
                tool=tool.name,
                args=tool.arguments,
                observation="" if tool.result is None else _text(tool.result),
                error=tool.error,
            )
            for i, tool in enumerate(trace.tools)
        ],
        latency_s=trace.latency_s or 0.0,
        input_tokens=trace.input_tokens or 0,
        output_tokens=trace.output_tokens or 0,
        cost_usd=trace.cost,  # None: unknown, never $0
        error=trace.error,
    )


def _text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def replay(
    store: Store,
    traces: list[ProductionTrace],
    candidate: Variant | None,
    *,
    source: str,
    options: RunOptions | None = None,
    extra_config: dict[str, Any] | None = None,
) -> RunReport:
    """Run ``candidate`` on the traces' queries in a run that also holds production's
    answers (without a candidate: a run of production's answers alone); the runner's report
    (its ``model_calls`` are the candidate's)."""
    if candidate is not None and candidate.name == PRODUCTION:
        raise InputError(
            f"the candidate may not be named {PRODUCTION!r} (production's answers are)",
            field="candidate",
        )
    dataset = shadow_dataset(traces, source)
    production = production_variant(traces, source)
    candidate = None if candidate is None else store.covering(candidate)  # as run_suite does
    variants = [production] if candidate is None else [candidate, production]
    label = f"shadow:{source}"
    opts = options or RunOptions()
    opts.tier, opts.dataset_path, opts.case_ids = "all", label, None
    cases = select_cases(dataset, "all")
    from arena.runner import check_run

    check_run(variants, opts)  # bad options fail before anything is stored
    dataset_id = store.ensure_dataset(dataset, label)
    store.ensure_variant(production)
    config = {
        "variants": {v.name: v.version_hash for v in variants},
        "tier": "all",
        "cases": [c.id for c in cases],
        "repeats": opts.repeats,
        "shadow": {
            "traces": source,
            "candidate": None if candidate is None else candidate.name,
            "trace_ids": {t.case_id: t.trace_id for t in traces},
            **(extra_config or {}),
        },
        "provenance": provenance(),
    }
    run_id, _ = store.open_run(run_key(dataset, variants, cases, opts.repeats), dataset_id, config)
    by_case = {c.id: c for c in cases}
    for trace in traces:
        for repeat in range(opts.repeats):
            result = production_result(trace, production, by_case[trace.case_id])
            store.save_result(result.model_copy(update={"run_id": run_id, "repeat": repeat}))
    return run_suite(store, dataset, variants, opts)
