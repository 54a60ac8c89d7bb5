"""Baselines: what a variant scored, case by case, kept to gate later changes against.

A :class:`Baseline` (also used, unnamed, as the candidate's snapshot) records the dataset's
name, version and content hash, and per case its content hash, category, tier, the pass and
score of each repeat, the mean of each scoring component, the failure reasons, and each
repeat's latency, tokens and cost. Two snapshots are compared case by case on the cases both
hold with the same content (``arena.gate._rules``). A case *passes* when a strict majority of
its repeats pass (``arena.scoring._repeats``); it is *flaky* when 0 < pass rate < 1.

Baselines written before per-case details were recorded (``case_pass`` / ``case_category`` /
``case_tier`` only) still load: their cases have one repeat, no score and no content hash, so
they are compared by id and their suite score is compared only when the candidate ran the
same counted cases. Repeats whose simulated user failed are left out of a case's record and
counted in :attr:`Baseline.simulator_errors`; a case with nothing else has no record (the gate
treats it as missing evidence, ``arena.gate._alignment``). ``should_update_baseline`` only
lets a baseline move up (new suite score >= old) unless forced.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from arena.errors import check_format
from arena.golden._models import GoldenDataset, Tier
from arena.records.graph_path import route_parents
from arena.records.results import RunResult, known_mean, utcnow
from arena.scoring._aggregate import VariantScores, percentile
from arena.scoring._combined import CaseScore
from arena.scoring._repeats import majority_pass
from arena.scoring._rules import RULES_VERSION
from arena.scoring._types import mean
from arena.scoring.checks._reasons import FailReason

FORMAT = 3
"""Version of the baseline file format (1: per-case pass flags only; 2: a record per case;
3: the scoring rules' version, ``rules_version``). A newer one is refused
(:class:`~arena.errors.NewerFormat`)."""


class CaseRecord(BaseModel):
    """One case of one variant across its repeats."""

    model_config = ConfigDict(extra="forbid")

    hash: str = Field("", description="Content hash of the golden case ('' when unknown).")
    category: str
    tier: str
    n: int = Field(1, ge=1, description="Repeats run.")
    passes: int = Field(ge=0)
    scores: list[float] = Field(default_factory=list, description="Score of each repeat.")
    components: dict[str, float] = Field(
        default_factory=dict, description="Mean of each top-level scoring component."
    )
    fail_reasons: list[FailReason] = Field(default_factory=list)
    errors: int = 0
    error: str | None = Field(None, description="The first run error, if any.")
    latency_s: list[float] = Field(default_factory=list)
    tokens: list[int] = Field(default_factory=list)
    cost_usd: list[float | None] = Field(default_factory=list)
    routes: list[str] = Field(
        default_factory=list,
        exclude_if=lambda v: not v,
        description="Each repeat's route through a LangGraph agent's top-level graph "
        "('router -> support -> audit'); empty for an agent that is not a graph.",
    )

    @property
    def passed(self) -> bool:
        """A strict majority of the repeats passed."""
        return majority_pass(self.passes, self.n)

    @property
    def pass_rate(self) -> float:
        """Passes over repeats."""
        return self.passes / self.n

    @property
    def flaky(self) -> bool:
        """Some repeats passed and some failed."""
        return 0 < self.passes < self.n

    @property
    def counted(self) -> bool:
        """Pending-tier cases are shown, never counted."""
        return self.tier != Tier.PENDING

    @property
    def score_mean(self) -> float | None:
        """Mean score over the repeats (None when scores were not recorded)."""
        return mean(self.scores) if self.scores else None


class Baseline(BaseModel):
    """A variant's scores case by case: the reference a candidate is gated against."""

    model_config = ConfigDict(extra="forbid")

    format: int = FORMAT
    name: str
    variant: str
    variant_hash: str
    dataset: str
    dataset_version: str = ""
    dataset_hash: str = ""
    suite_score: float
    pass_rate: float
    n_repeats: int = 1
    cases: dict[str, CaseRecord]
    cost_per_query: float | None = None
    tokens_per_query: float | None = None
    latency_p90_s: float | None = None
    variant_config: dict[str, Any] | None = Field(
        None, description="The variant's resolved configuration, so it can be run again."
    )
    variant_version: dict[str, Any] | None = Field(
        None,
        description="The parts of the variant's version (config, agent code file by file, "
        "tools, models: arena.variants.version.VariantVersion), so a gate can say what changed.",
    )
    provenance: dict[str, str] = Field(
        default_factory=dict, description="Git commit, branch and CI run of the source run."
    )
    created_at: datetime = Field(default_factory=utcnow)
    source_run_id: int | None = None
    simulator_errors: dict[str, int] = Field(
        default_factory=dict,
        exclude_if=lambda v: not v,
        description="Case id -> repeats whose simulated user failed (not agent failures; "
        "left out of the case's record).",
    )
    graph_nodes: list[str] = Field(
        default_factory=list,
        exclude_if=lambda v: not v,
        description="Every node of a LangGraph agent's graph its runs went through, by full "
        "name (``billing:tools``), so a gate knows a node the candidate renamed or dropped "
        "(empty for an agent that is not a graph, and in baselines saved before it).",
    )
    rules_version: int = Field(
        RULES_VERSION,
        description="The scoring rules that graded the cases (arena.scoring.RULES_VERSION; 0 "
        "in files of formats 1 and 2: graded before rules were versioned). A gate re-grades "
        "a baseline graded by older rules from its stored results before comparing.",
    )

    @model_validator(mode="before")
    @classmethod
    def _unversioned_rules(cls, data: Any) -> Any:
        """A file of format 1 or 2 was graded by the rules of its day (version 0)."""
        if not isinstance(data, dict) or "rules_version" in data:
            return data
        if "case_pass" in data or data.get("format", FORMAT) < 3:
            return {**data, "rules_version": 0}
        return data

    @property
    def older_rules(self) -> bool:
        """Graded by older scoring rules than this code's."""
        return self.rules_version < RULES_VERSION

    @model_validator(mode="before")
    @classmethod
    def _upgrade_format_1(cls, data: Any) -> Any:
        if not isinstance(data, dict) or "case_pass" not in data:
            return data
        data = dict(data)
        passed = data.pop("case_pass") or {}
        category = data.pop("case_category", None) or {}
        tier = data.pop("case_tier", None) or {}
        data.setdefault(
            "cases",
            {
                case: {
                    "category": category.get(case, ""),
                    "tier": tier.get(case, Tier.STANDARD),
                    "n": 1,
                    "passes": int(bool(ok)),
                }
                for case, ok in passed.items()
            },
        )
        data["format"] = 1
        return data

    @property
    def case_pass(self) -> dict[str, bool]:
        """Case id -> majority pass."""
        return {case: record.passed for case, record in self.cases.items()}

    @property
    def case_category(self) -> dict[str, str]:
        """Case id -> category."""
        return {case: record.category for case, record in self.cases.items()}

    @property
    def case_tier(self) -> dict[str, str]:
        """Case id -> tier."""
        return {case: record.tier for case, record in self.cases.items()}

    @property
    def has_scores(self) -> bool:
        """Per-repeat scores were recorded for every case."""
        return all(record.scores for record in self.cases.values())

    @property
    def label(self) -> str:
        """``variant@hash``."""
        return f"{self.variant}@{self.variant_hash}"

    @property
    def dataset_label(self) -> str:
        """Dataset name, version and content hash as far as known."""
        version = f" {self.dataset_version}" if self.dataset_version else ""
        digest = f" ({self.dataset_hash})" if self.dataset_hash else ""
        return f"{self.dataset}{version}{digest}"


def _case_record(
    scores: Sequence[CaseScore], results: Sequence[RunResult], digest: str
) -> CaseRecord:
    first = scores[0]
    names = sorted({name for s in scores for name in s.components if "." not in name})
    components = {
        name: mean([s.components[name] for s in scores if name in s.components]) for name in names
    }
    reasons: list[str] = []
    for s in scores:
        reasons.extend(r for r in s.fail_reasons if r not in reasons)
    errors = [s.error for s in scores if s.error is not None]
    return CaseRecord(
        hash=digest,
        category=first.category,
        tier=first.tier,
        n=len(scores),
        passes=sum(s.passed for s in scores),
        scores=[s.score for s in scores],
        components=components,
        fail_reasons=reasons,
        errors=len(errors),
        error=errors[0] if errors else None,
        latency_s=[r.latency_s for r in results],
        tokens=[r.input_tokens + r.output_tokens for r in results],
        cost_usd=[r.cost_usd for r in results],
        routes=[r.nodes.route_summary() for r in results if r.nodes is not None],
    )


def _dataset_fields(dataset: str | GoldenDataset) -> tuple[dict[str, Any], dict[str, str]]:
    if isinstance(dataset, str):
        return {"dataset": dataset}, {}
    from arena.golden import case_hash, dataset_hash

    return (
        {
            "dataset": dataset.name,
            "dataset_version": dataset.version,
            "dataset_hash": dataset_hash(dataset),
        },
        {case.id: case_hash(case) for case in dataset.test_cases},
    )


def make_baseline(
    scores: VariantScores,
    case_scores: list[CaseScore],
    *,
    name: str,
    dataset: str | GoldenDataset,
    results: Sequence[RunResult] = (),
    source_run_id: int | None = None,
    created_at: datetime | None = None,
    variant_config: dict[str, Any] | None = None,
    variant_version: dict[str, Any] | None = None,
    provenance: dict[str, str] | None = None,
    rules_version: int = RULES_VERSION,
) -> Baseline:
    """A snapshot of one variant's case scores (and run records, for budgets and hashes).

    ``dataset`` is the dataset (its version, content hash and per-case hashes are recorded)
    or only its name. Case content hashes come from the dataset, else from ``results``;
    ``rules_version`` is the scoring rules' version of ``case_scores``.
    """
    ours = [
        s
        for s in case_scores
        if s.variant == scores.variant and s.variant_hash == scores.variant_hash
    ]
    mine = [s for s in ours if s.simulator_error is None]
    simulated: dict[str, int] = {}
    for s in ours:
        if s.simulator_error is not None:
            simulated[s.case_id] = simulated.get(s.case_id, 0) + 1
    runs = [
        r for r in results if r.variant == scores.variant and r.variant_hash == scores.variant_hash
    ]
    header, hashes = _dataset_fields(dataset)
    groups: dict[str, list[CaseScore]] = {}
    for score in mine:
        groups.setdefault(score.case_id, []).append(score)
    order = {case_id: i for i, case_id in enumerate(hashes)}
    cases = {}
    for case_id, group in sorted(groups.items(), key=lambda g: order.get(g[0], len(order))):
        own = [r for r in runs if r.case_id == case_id and r.simulator_error is None]
        digest = hashes.get(case_id) or (own[0].case_hash if own else "")
        cases[case_id] = _case_record(group, own, digest)
    tokens = [r.input_tokens + r.output_tokens for r in runs]
    return Baseline(
        **header,
        name=name,
        variant=scores.variant,
        variant_hash=scores.variant_hash,
        suite_score=scores.mean_score,
        pass_rate=scores.pass_rate,
        n_repeats=scores.n_repeats,
        cases=cases,
        cost_per_query=known_mean([r.cost_usd for r in runs]) if runs else None,
        tokens_per_query=mean([float(t) for t in tokens]) if runs else None,
        latency_p90_s=percentile([r.latency_s for r in runs], 90) if runs else None,
        variant_config=variant_config,
        variant_version=variant_version,
        provenance=provenance or {},
        created_at=created_at or utcnow(),
        source_run_id=source_run_id,
        simulator_errors=simulated,
        graph_nodes=_graph_nodes(runs),
        rules_version=rules_version,
    )


def _graph_nodes(runs: Sequence[RunResult]) -> list[str]:
    """Every node the runs went through (full names), with the sub-graphs they are in."""
    names = {step.name for r in runs if r.nodes is not None for step in r.nodes.steps}
    return sorted(names | route_parents(names))


def baseline_to_json(baseline: Baseline) -> str:
    """The baseline as indented JSON text."""
    return baseline.model_dump_json(indent=2)


def baseline_from_json(text: str, file: str | None = None) -> Baseline:
    """A baseline read back from :func:`baseline_to_json` text (formats 1 and 2 too).

    Raises:
        NewerFormat: a format or scoring rules newer than this code's (an InputError naming
            ``file`` and the field).
    """
    data = json.loads(text)
    check_format("baseline", data, FORMAT, file=file)
    check_format("baseline scoring rules", data, RULES_VERSION, file=file, key="rules_version")
    return Baseline.model_validate(data)


def should_update_baseline(old: Baseline | None, new: Baseline, force: bool = False) -> bool:
    """True when ``new`` may replace ``old``: no old one, forced, or not a lower score."""
    if old is None or force:
        return True
    return new.suite_score >= old.suite_score
