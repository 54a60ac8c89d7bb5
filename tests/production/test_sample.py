"""Deterministic sampling: the same seed picks the same traces, a larger fraction a superset,
one trace per query, ``--max`` and ``--stratify``."""

from __future__ import annotations

import pytest

from arena.production import ProductionTrace, SampleSpec, sample_key, sample_traces

pytestmark = pytest.mark.unit


def _traces(n: int, intents: int = 2) -> list[ProductionTrace]:
    return [
        ProductionTrace(
            trace_id=f"t{i}",
            query=f"question {i}",
            answer="a",
            metadata={"intent": f"i{i % intents}"},
        )
        for i in range(n)
    ]


def _ids(spec: SampleSpec, traces: list[ProductionTrace]) -> set[str]:
    return {t.trace_id for t in sample_traces(traces, spec).traces}


def test_the_same_seed_picks_the_same_traces_whatever_their_order() -> None:
    traces = _traces(400)
    half = _ids(SampleSpec(fraction=0.5, seed=1), traces)
    assert half == _ids(SampleSpec(fraction=0.5, seed=1), list(reversed(traces)))
    assert 150 < len(half) < 250  # about half
    assert half != _ids(SampleSpec(fraction=0.5, seed=2), traces)  # the seed matters


def test_a_larger_fraction_is_a_superset() -> None:
    traces = _traces(300)
    small, large = (_ids(SampleSpec(fraction=f, seed=7), traces) for f in (0.1, 0.4))
    assert small < large
    assert all(sample_key(t, 7) < 0.1 for t in small)


def test_duplicates_of_one_query_count_once() -> None:
    traces = _traces(50)
    copies = [
        ProductionTrace(trace_id=f"dup{i}", query="  QUESTION 3?  ", answer="b") for i in range(5)
    ]
    sample = sample_traces(traces + copies, SampleSpec(fraction=1.0))
    assert sample.read == 55 and len(sample.traces) == 50 and sample.duplicates == 5
    kept = [t for t in sample.traces if t.query.strip(" ?").casefold() == "question 3"]
    everyone = [t.trace_id for t in (*copies, traces[3])]
    assert len(kept) == 1
    assert kept[0].trace_id == min(everyone, key=lambda i: sample_key(i, 0))  # the smallest key


def test_max_keeps_the_smallest_keys_in_bounded_memory() -> None:
    traces = _traces(1000)
    picked = sample_traces(traces, SampleSpec(max=10, seed=3)).traces
    smallest = sorted(traces, key=lambda t: sample_key(t.trace_id, 3))[:10]
    assert [t.trace_id for t in picked] == [t.trace_id for t in smallest]


def test_stratified_max_deals_across_the_strata() -> None:
    rare = ProductionTrace(trace_id="rare", query="rare one", answer="a", metadata={"intent": "x"})
    traces = [*_traces(90, intents=1), rare]
    plain = _ids(SampleSpec(max=4, seed=0), traces)
    stratified = sample_traces(traces, SampleSpec(max=4, seed=0, stratify="intent"))
    assert "rare" in {t.trace_id for t in stratified.traces}
    assert stratified.strata == {"i0": 3, "x": 1} and len(plain) == 4


def test_stratified_fraction_keeps_at_least_one_trace_of_each_value() -> None:
    traces = _traces(40, intents=1) + [
        ProductionTrace(trace_id=f"r{i}", query=f"rare {i}", answer="a", metadata={"intent": "x"})
        for i in range(2)
    ]
    tiny = SampleSpec(fraction=0.01, seed=5, stratify="intent")
    assert {t.stratum("intent") for t in sample_traces(traces, tiny).traces} == {"i0", "x"}
