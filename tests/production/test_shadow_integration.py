"""``arena shadow`` on the real local model: a few production records replayed with the
demo's variants (the cheaper model as the candidate), judged by the local judge, and a rerun
that makes no model call."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.gate import resolve_variants
from arena.production import SHADOW_KEYS, SampleSpec, ShadowOptions, shadow
from arena.runner import RunOptions
from arena.storage import Store
from judges import parse_judge
from tests.production.helpers import write_jsonl

pytestmark = pytest.mark.integration

RECORDS = [
    {
        "trace_id": "prod-pct-1",
        "query": "What's 25% of 1200?",
        "answer": "25% of 1200 is 300.",
        "latency_s": 2.1,
        "metadata": {"intent": "math"},
    },
    {
        "trace_id": "prod-paper-1",
        "query": "Who wrote the paper 'Attention Is All You Need', and in which year?",
        "answer": "Ashish Vaswani et al. wrote it in 2017. Write to me at ops@example.com.",
        "latency_s": 3.4,
        "metadata": {"intent": "papers"},
    },
]


def test_the_cheaper_model_replays_production_records_on_the_local_model(
    tmp_path: Path, local_db_url: str
) -> None:
    traces = write_jsonl(tmp_path / "prod.jsonl", RECORDS)
    (candidate,) = resolve_variants(["small-model"], None, "--candidate")
    options = ShadowOptions(
        sample=SampleSpec(fraction=1.0, seed=1),
        redact=True,
        run=RunOptions(progress=False, case_timeout_s=900, concurrency=1),
        judge_concurrency=1,
    )
    store = Store(local_db_url)
    judge = parse_judge("local:qwen2.5-coder-1.5b")
    report = shadow(store, traces, candidate, judge, options)
    assert list(report.summary()) == list(SHADOW_KEYS)
    assert report.sampled == 2 and report.redactions == {"email": 1}
    assert 1 <= report.battles <= 2  # a verdict the judge could not give is left out
    assert report.win_rate is not None and report.interval is not None
    assert report.interval[0] <= report.win_rate <= report.interval[1]
    results = store.results(report.run_id)  # the candidate ran; production was never called
    assert sorted(r.variant for r in results) == ["production"] * 2 + ["small-model"] * 2
    stored = {r.variant: r.output for r in store.results(report.run_id)}
    assert "ops@example.com" not in str(stored)
    again = shadow(store, traces, candidate, judge, options)
    assert again.model_calls == 0 and again.win_rate == report.win_rate
