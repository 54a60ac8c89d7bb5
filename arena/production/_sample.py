"""Deterministic sampling of production traces in one streaming pass.

Each trace gets a key in [0, 1): a hash of the seed and its trace id. ``--sample F`` keeps
the traces whose key is below ``F``, so a rerun picks the same traces and a larger fraction
picks a superset. ``--max N`` keeps the ``N`` smallest keys (with ``--sample``: of those
below ``F``). Duplicates of one query (compared case-folded, whitespace collapsed) count once:
the trace with the smallest key stands for them. ``--stratify FIELD`` (a metadata field)
samples each value of it apart: with ``--sample``, every value keeps at least its smallest
key; with ``--max``, the ``N`` are dealt out round-robin across the values, smallest keys
first. Memory is bounded by what is kept (``N``, or the sampled share), never the file.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field

from pydantic import BaseModel, Field, model_validator

from arena.curation._grow import normalize_query
from arena.errors import InputError
from arena.production._trace import ProductionTrace


class SampleSpec(BaseModel):
    """How traces are sampled: a fraction, a cap, a seed and an optional stratum field."""

    fraction: float | None = Field(None, gt=0, le=1)
    max: int | None = Field(None, ge=1)
    seed: int = 0
    stratify: str | None = None

    @model_validator(mode="after")
    def _some_limit(self) -> SampleSpec:
        if self.fraction is None and self.max is None:
            self.fraction = 1.0
        return self


class Sample(BaseModel):
    """The sampled traces (smallest key first), with what the pass saw."""

    traces: list[ProductionTrace]
    read: int = Field(description="Traces read from the source.")
    duplicates: int = Field(0, description="Sampled traces whose query was already sampled.")
    strata: dict[str, int] = Field(default_factory=dict, description="Sampled per stratum.")


def sample_key(trace_id: str, seed: int) -> float:
    """The trace's sampling key in [0, 1): the same id and seed, the same key."""
    digest = hashlib.sha256(f"{seed}\x00{trace_id}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2.0**64


@dataclass
class _Stratum:
    """The kept traces of one stratum: normalised query -> (key, trace)."""

    cap: int | None
    kept: dict[str, tuple[float, ProductionTrace]] = field(default_factory=dict)
    threshold: float = 1.0  # keys at or above it can no longer be kept (after a prune)
    duplicates: int = 0
    best: tuple[float, ProductionTrace] | None = None  # smallest key seen, sampled or not

    def offer(self, key: float, trace: ProductionTrace, fraction: float) -> None:
        if self.best is None or key < self.best[0]:
            self.best = (key, trace)
        if key >= fraction or key >= self.threshold:
            return
        query = normalize_query(trace.query)
        held = self.kept.get(query)
        if held is not None:
            self.duplicates += 1
            if key >= held[0]:
                return
        self.kept[query] = (key, trace)
        if self.cap is not None and len(self.kept) > 2 * self.cap:
            self._prune()

    def _prune(self) -> None:
        assert self.cap is not None
        ordered = sorted(self.kept.items(), key=lambda item: item[1][0])
        self.kept = dict(ordered[: self.cap])
        self.threshold = ordered[self.cap][1][0]

    def ordered(self, at_least_one: bool) -> list[tuple[float, ProductionTrace]]:
        found = sorted(self.kept.values(), key=lambda item: item[0])
        if at_least_one and not found and self.best is not None:
            found = [self.best]
        return found[: self.cap] if self.cap is not None else found


def sample_traces(traces: Iterable[ProductionTrace], spec: SampleSpec) -> Sample:
    """One pass over ``traces``: the sample ``spec`` describes (see the module doc)."""
    fraction = spec.fraction if spec.fraction is not None else 1.0
    strata: dict[str, _Stratum] = {}
    read = 0
    for trace in traces:
        read += 1
        name = trace.stratum(spec.stratify) if spec.stratify else ""
        stratum = strata.setdefault(name, _Stratum(spec.max))
        stratum.offer(sample_key(trace.trace_id, spec.seed), trace, fraction)
    if read == 0:
        raise InputError("no traces to sample", field="traces")
    if spec.stratify and set(strata) == {""}:
        raise InputError(
            f"no trace of the {read} read has the metadata field {spec.stratify!r} to stratify by",
            field="--stratify",
        )
    picked = _deal(
        {n: s.ordered(spec.stratify is not None) for n, s in sorted(strata.items())}, spec.max
    )
    counts: dict[str, int] = {}
    for _, trace in picked:
        name = trace.stratum(spec.stratify) if spec.stratify else ""
        counts[name] = counts.get(name, 0) + 1
    return Sample(
        traces=[trace for _, trace in sorted(picked, key=lambda item: item[0])],
        read=read,
        duplicates=sum(s.duplicates for s in strata.values()),
        strata=counts if spec.stratify else {},
    )


def _deal(
    strata: dict[str, list[tuple[float, ProductionTrace]]], cap: int | None
) -> list[tuple[float, ProductionTrace]]:
    """Every stratum's traces, or ``cap`` of them dealt round-robin (smallest keys first);
    one trace per query across strata."""
    picked: list[tuple[float, ProductionTrace]] = []
    seen: set[str] = set()
    depth = 0
    while any(depth < len(items) for items in strata.values()):
        for items in strata.values():
            if depth < len(items) and (cap is None or len(picked) < cap):
                query = normalize_query(items[depth][1].query)
                if query not in seen:
                    seen.add(query)
                    picked.append(items[depth])
        depth += 1
    return picked
