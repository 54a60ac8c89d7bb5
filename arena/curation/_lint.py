"""Lint a golden dataset, alone and against stored runs.

=================== ======== ================================================================
rule                severity what
=================== ======== ================================================================
duplicate_query     error    two cases ask the same query (case, spaces, end punctuation aside)
near_duplicate      warning  two queries nearly the same (word overlap or character similarity)
small_category      warning  a category with fewer than 4 counted (non-pending) cases
missing_reference   warning  a task case (no expected behaviour) without ``reference_answer``
content_hash        warning  the cases changed since the recorded ``content_hash``
nested_quantifier   warning  ``expected_output_regex`` repeats a group holding a repeat, e.g.
                             ``(\\w+\\s?)+``: exponential on a backtracking engine (it runs
                             on RE2 here, in linear time, but the pattern is loose)
approximate_args    warning  ``expected_args`` holds an id or a list: matched approximately, a
                             wrong id containing it (``#W2-X`` for ``#W2``) or a longer list
                             passes (``arena golden migrate`` rewrites it as ``expected_calls``)
always_fails        error    with runs: every variant fails every repeat (possibly broken);
                             a warning for pending cases
saturated           warning  with runs: every variant passes every repeat
no_separation       warning  with runs: 2+ variants, same pass rate and scores within 0.05
stale_results       info     with runs: results of an older version of a case were ignored
simulator_errors    info     with runs: repeats whose simulated user failed were left out of
                             the run rules (not a pass, not a failure of the case)
=================== ======== ================================================================

The rules about a check's fields are that check's own
(:meth:`arena.scoring.checks.GoldenCheck.lint`): ``nested_quantifier`` the regex check's,
``approximate_args`` the trajectory check's, the conversation rules the turns check's
(:mod:`arena.scoring.checks._turns_lint`); the linter asks every registered check. A
conversation's "query" for duplicates is its input with its scripted turns or its simulated
user's goal.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import TYPE_CHECKING

from pydantic import BaseModel, Field

from arena.curation._grow import case_query, normalize_query
from arena.curation._lint_types import LintFinding, Severity
from arena.golden._models import GoldenCase, GoldenDataset, Tier
from arena.golden._versioning import content_hash
from arena.scoring.checks import golden_checks

if TYPE_CHECKING:
    from arena.scoring import CaseScore
    from arena.storage import Store

MIN_CATEGORY_CASES = 4
NEAR_JACCARD = 0.8
NEAR_RATIO = 0.9
SEPARATION_SPREAD = 0.05


class LintReport(BaseModel):
    """Every finding on a dataset; ``errors`` > 0 makes ``arena golden lint`` exit 1."""

    dataset: str
    version: str
    n_cases: int
    runs: list[int] = Field(default_factory=list)
    findings: list[LintFinding] = Field(default_factory=list)

    @property
    def errors(self) -> int:
        """How many findings are errors."""
        return sum(f.severity == "error" for f in self.findings)


_ASKED = {"input", "conversation"}


def _words(text: str) -> set[str]:
    return set(re.findall(r"[\w%$.,']+", normalize_query(text)))


def _near(a: str, b: str) -> bool:
    wa, wb = _words(a), _words(b)
    if min(len(wa), len(wb)) >= 3 and len(wa & wb) / len(wa | wb) >= NEAR_JACCARD:
        return True
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    return (
        matcher.real_quick_ratio() >= NEAR_RATIO
        and matcher.quick_ratio() >= NEAR_RATIO
        and matcher.ratio() >= NEAR_RATIO
    )


def duplicate_findings(dataset: GoldenDataset) -> list[LintFinding]:
    """Exact (normalized) duplicates are errors, near-duplicates warnings."""
    findings: list[LintFinding] = []
    queries = [
        (c.id, normalize_query(case_query(c.model_dump(mode="json", include=_ASKED))))
        for c in dataset.test_cases
        if c.input.strip()
    ]
    for (id_a, a), (id_b, b) in combinations(queries, 2):
        if a == b:
            findings.append(
                LintFinding(
                    rule="duplicate_query",
                    severity="error",
                    cases=[id_a, id_b],
                    message=f"{id_a} and {id_b} ask the same query",
                )
            )
        elif _near(a, b):
            findings.append(
                LintFinding(
                    rule="near_duplicate",
                    severity="warning",
                    cases=[id_a, id_b],
                    message=f"{id_a} and {id_b} ask nearly the same query",
                )
            )
    return findings


def check_findings(dataset: GoldenDataset) -> list[LintFinding]:
    """What each registered golden check says of each case (:meth:`GoldenCheck.lint`)."""
    return [
        LintFinding(
            rule=note.rule,
            severity=note.severity,
            cases=[case.id],
            message=f"{case.id}: {note.message}",
        )
        for check in golden_checks()
        for case in dataset.test_cases
        for note in check.lint(case)
    ]


def static_findings(dataset: GoldenDataset) -> list[LintFinding]:
    """Findings that need no run: duplicates, small categories, references, content hash,
    nested quantifiers, approximate arguments, conversation rules, the checks' own rules."""
    findings = duplicate_findings(dataset) + check_findings(dataset)
    counted: dict[str, list[str]] = {}
    pending: dict[str, int] = {}
    for case in dataset.test_cases:
        if case.tier == Tier.PENDING:
            pending[case.category] = pending.get(case.category, 0) + 1
        else:
            counted.setdefault(case.category, []).append(case.id)
    for category in sorted(set(counted) | set(pending)):
        ids = counted.get(category, [])
        if len(ids) < MIN_CATEGORY_CASES:
            findings.append(
                LintFinding(
                    rule="small_category",
                    severity="warning",
                    cases=ids,
                    message=f"category {category} has {len(ids)} counted case(s) "
                    f"({pending.get(category, 0)} pending): fewer than "
                    f"{MIN_CATEGORY_CASES} makes its pass rate noise",
                )
            )
    missing = [
        c.id
        for c in dataset.test_cases
        if c.expected_behavior is None and not (c.reference_answer or "").strip()
    ]
    if missing:
        findings.append(
            LintFinding(
                rule="missing_reference",
                severity="warning",
                cases=missing,
                message=f"{len(missing)} task case(s) have no reference_answer: the pairwise judge "
                "has no golden answer to compare with",
            )
        )
    if dataset.content_hash and dataset.content_hash != content_hash(dataset):
        findings.append(
            LintFinding(
                rule="content_hash",
                severity="warning",
                message=f"the cases changed since version {dataset.version} was recorded "
                f"(hash {dataset.content_hash}, now {content_hash(dataset)}): edits made "
                "by hand are not versioned",
            )
        )
    return findings


def _by_case(scores: Iterable[CaseScore]) -> dict[str, dict[str, list[CaseScore]]]:
    table: dict[str, dict[str, list[CaseScore]]] = {}
    for score in scores:
        key = f"{score.variant} ({score.variant_hash})"
        table.setdefault(score.case_id, {}).setdefault(key, []).append(score)
    return table


def run_findings(dataset: GoldenDataset, scores: Sequence[CaseScore]) -> list[LintFinding]:
    """Saturated, always failing and non-separating cases, from stored scores. A repeat whose
    simulated user failed (``CaseScore.simulator_error``) is neither a pass nor a failure of
    the case: it is left out of these rules and listed under ``simulator_errors``."""
    tiers = {c.id: c.tier for c in dataset.test_cases}
    failed_users = sorted({s.case_id for s in scores if s.simulator_error is not None})
    scores = [s for s in scores if s.simulator_error is None]
    findings: list[LintFinding] = []
    groups: dict[str, list[str]] = {
        "saturated": [],
        "always_fails": [],
        "always_fails_pending": [],
        "no_separation": [],
    }
    for case_id, variants in _by_case(s for s in scores if s.case_id in tiers).items():
        rates = [sum(s.passed for s in v) / len(v) for v in variants.values()]
        means = [sum(s.score for s in v) / len(v) for v in variants.values()]
        if all(rate == 1.0 for rate in rates):
            groups["saturated"].append(case_id)
        elif all(rate == 0.0 for rate in rates):
            pending = tiers[case_id] == Tier.PENDING
            groups["always_fails_pending" if pending else "always_fails"].append(case_id)
        elif (
            len(rates) > 1 and len(set(rates)) == 1 and max(means) - min(means) < SEPARATION_SPREAD
        ):
            groups["no_separation"].append(case_id)
    n_variants = len({(s.variant, s.variant_hash) for s in scores})
    texts: dict[str, tuple[Severity, str]] = {
        "saturated": (
            "warning",
            f"every variant ({n_variants}) passes every repeat: the case "
            "no longer tells variants apart (make it harder or retire it)",
        ),
        "always_fails": (
            "error",
            f"every variant ({n_variants}) fails every repeat: possibly "
            "broken (check its expectations)",
        ),
        "always_fails_pending": (
            "warning",
            "pending case(s) every variant fails: expected while pending, check before promoting",
        ),
        "no_separation": (
            "warning",
            "variants get the same pass rate and scores within "
            f"{SEPARATION_SPREAD}: the case never separates them",
        ),
    }
    for rule, ids in groups.items():
        if ids:
            severity, text = texts[rule]
            name = "always_fails" if rule == "always_fails_pending" else rule
            findings.append(
                LintFinding(rule=name, severity=severity, cases=sorted(ids), message=text)
            )
    if failed_users:
        findings.append(
            LintFinding(
                rule="simulator_errors",
                severity="info",
                cases=failed_users,
                message="repeats whose simulated user failed were left out of the run rules "
                "(not failures of the case; rerun them, e.g. with a stronger --user-model)",
            )
        )
    return findings


def lint_dataset(
    dataset: GoldenDataset,
    scores: Sequence[CaseScore] = (),
    run_ids: Sequence[int] = (),
    stale: Sequence[str] = (),
) -> LintReport:
    """Every finding on ``dataset``; run rules apply when ``scores`` are given."""
    findings = static_findings(dataset)
    if scores:
        findings += run_findings(dataset, scores)
    if stale:
        findings.append(
            LintFinding(
                rule="stale_results",
                severity="info",
                cases=sorted(set(stale)),
                message="results of an older version of these cases were ignored",
            )
        )
    order = {"error": 0, "warning": 1, "info": 2}
    findings.sort(key=lambda f: (order[f.severity], f.rule))
    return LintReport(
        dataset=dataset.name,
        version=dataset.version,
        n_cases=len(dataset.test_cases),
        runs=list(run_ids),
        findings=findings,
    )


# Fields that change neither what the agent is asked nor how the answer is scored.
_NOT_SCORED = {"tier", "tags", "added", "reason", "notes", "difficulty"}


def _scored_content(case: GoldenCase) -> str:
    return json.dumps(case.model_dump(mode="json", exclude=_NOT_SCORED), sort_keys=True)


def scores_for_lint(
    store: Store, run_ids: Sequence[int], dataset: GoldenDataset
) -> tuple[list[CaseScore], list[str]]:
    """Stored scores of these runs for cases still asked and scored as they are now.

    A promoted or re-tagged case keeps its results; a case whose query or expectations
    changed since the run does not (its id is returned as stale). Never calls a model:
    stored scores, else the keyword scores.
    """
    from arena.evaluation.run_scores import load_run_scores

    current = {c.id: _scored_content(c) for c in dataset.test_cases}
    kept: list[CaseScore] = []
    stale: list[str] = []
    for run_id in run_ids:
        then = {c.id: _scored_content(c) for c in store.run_dataset(run_id).test_cases}
        for score in load_run_scores(store, run_id).cases:
            if score.case_id not in current:
                continue
            if then.get(score.case_id) == current[score.case_id]:
                kept.append(score)
            else:
                stale.append(score.case_id)
    return kept, stale
