"""Killed or survived: a mutant's results against the original's, by the gate's own rules.

A mutant is *killed* when a case the original passes fails on it (a strict majority of its
repeats), or when the gate's regression rules (:func:`arena.gate.check_candidate`, the
default blocking rules unless others are given) would block it on the cases it ran (a rule
about the whole suite only once it ran them all). It is
*equivalent* when it behaved exactly as the original on every case it ran (same answer, same
tool calls, arguments, results and errors) although its fault was reached: no golden case
could kill it there. A tool mutant whose tool no run called is not equivalent but a survivor
(the golden set never exercises that tool). A case whose mutant run failed in the model
(:func:`arena.models.model_failure`: it could not be started or reached, timed out or
refused the key) says nothing about the golden set: it never kills; a mutant with such runs
and no other kill is *errored* (left out of the score).
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from arena.gate import RuleConfig, check_candidate
from arena.golden import GoldenCase, GoldenDataset
from arena.records.results import RunResult
from arena.scoring import (
    Baseline,
    CaseScore,
    KeywordBehaviorGrader,
    aggregate,
    make_baseline,
    score_results,
)

NOT_RUN_RULES = ("critical_missing",)
"""Rules about cases a side did not run: a mutant stopped at its first kill runs few cases."""


@dataclass
class Scored:
    """One side's results, their scores, and which cases pass (a strict majority of repeats)."""

    results: list[RunResult]
    scores: list[CaseScore]
    passed: dict[str, bool] = field(default_factory=dict)


def score(results: Sequence[RunResult], dataset: GoldenDataset) -> Scored:
    """Score ``results`` against the original cases of ``dataset`` (the keyword grader)."""
    cases = {c.id: c for c in dataset.test_cases}
    pairs = [(r, cases[r.case_id]) for r in results if r.case_id in cases]
    tools = set(dataset.available_tools)
    scores = asyncio.run(score_results(pairs, KeywordBehaviorGrader(), available_tools=tools))
    votes: dict[str, list[bool]] = {}
    for s in scores:
        votes.setdefault(s.case_id, []).append(s.passed)
    passed = {cid: sum(v) * 2 > len(v) for cid, v in votes.items()}
    return Scored(list(results), scores, passed)


def baseline_of(original: Scored, dataset: GoldenDataset) -> Baseline:
    """The original's snapshot, the baseline every mutant is gated against."""
    (scores,) = aggregate(original.scores, original.results)
    return make_baseline(
        scores, original.scores, name=scores.variant, dataset=dataset, results=original.results
    )


def kills(
    baseline: Baseline,
    original: Scored,
    mutant: Scored,
    dataset: GoldenDataset,
    rules: RuleConfig | None = None,
    *,
    complete: bool = True,
) -> tuple[list[str], list[str]]:
    """The cases that kill the mutant (passed by the original, failed by it) and the gate's
    blocking findings on the cases it ran (``rule case``), each in run order.

    A finding about the whole suite (``suite_drop``, ``category_broken``) counts only when
    the mutant ran every case it would run (``complete``): on the few cases run before a
    stop, a drop would look larger than the gate would see it."""
    ran = list(dict.fromkeys(r.case_id for r in mutant.results))
    broken = [c for c in ran if original.passed.get(c) and not mutant.passed.get(c, False)]
    if not mutant.scores:
        return broken, []
    (scores,) = aggregate(mutant.scores, mutant.results)
    report = check_candidate(
        baseline, scores, mutant.scores, results=mutant.results, dataset=dataset, rules=rules
    )
    blocks = [
        f"{r.rule} {r.case_id}" if r.case_id else r.rule
        for r in report.blocking
        if r.rule not in NOT_RUN_RULES and (r.case_id in ran or (r.case_id is None and complete))
    ]
    return broken, blocks


def model_failures(results: Sequence[RunResult]) -> dict[str, str]:
    """Each case whose results hold a model failure, with the first one's error."""
    from arena.models import model_failure

    failed: dict[str, str] = {}
    for r in results:
        if r.error is not None and model_failure(r.error):
            failed.setdefault(r.case_id, r.error)
    return failed


def wrapper_failures(results: Sequence[RunResult]) -> dict[str, str]:
    """Each case whose runs hold a call the mutant's wrapper could not make
    (:class:`arena.mutation._tools.MutantWrapperError`), with the first one's error: its fault
    was never injected there, so what the case did says nothing about the golden set."""
    from arena.mutation._tools import MutantWrapperError

    marker = MutantWrapperError.__name__
    failed: dict[str, str] = {}
    for r in results:
        for error in [r.error, *(s.error for s in r.steps)]:
            if error is not None and marker in error:
                failed.setdefault(r.case_id, error)
    return failed


def without_failed(
    broken: list[str], blocks: list[str], failed: Mapping[str, str]
) -> tuple[list[str], list[str]]:
    """The kills that stand: no case whose run failed in the model, no finding naming one,
    and no finding about the whole suite once any case failed so."""
    cases = [c for c in broken if c not in failed]
    named = [b for b in blocks if (" " in b and b.split(" ", 1)[1] not in failed)]
    suite = [b for b in blocks if " " not in b and not failed]
    return cases, [b for b in blocks if b in named or b in suite]


def same_run(a: RunResult, b: RunResult) -> bool:
    """The two runs behaved alike: answer, error, and every tool call with its result."""

    def calls(r: RunResult) -> list[tuple[str, object, str, str | None]]:
        return [(s.tool, s.args, s.observation, s.error) for s in r.steps]

    return a.output == b.output and a.error == b.error and calls(a) == calls(b)


def equivalent(original: Mapping[tuple[str, int], RunResult], mutant: Sequence[RunResult]) -> bool:
    """Every mutant run behaved as the original's run of its case and repeat."""
    return bool(mutant) and all(
        (r.case_id, r.repeat) in original and same_run(original[(r.case_id, r.repeat)], r)
        for r in mutant
    )


def with_case_hashes(results: Sequence[RunResult], cases: Sequence[GoldenCase]) -> list[RunResult]:
    """``results`` labelled with their original cases' hashes (a conversation mutant runs a
    shortened case, and is still gated as the case the golden set holds)."""
    from arena.golden import case_hash

    hashes = {c.id: case_hash(c) for c in cases}
    return [
        r.model_copy(update={"case_hash": hashes[r.case_id]}) if r.case_id in hashes else r
        for r in results
    ]
