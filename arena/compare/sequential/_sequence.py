"""The plan of a sequential comparison, stored so that a continued run continues the same test.

A sequence is one test: one order of the cases, one set of bets (tuned to one ``horizon``), one
error level and margin, and the evidence gathered so far. Rerunning with a larger
``--max-cases``, on a grown dataset, or after an interruption must continue *that* sequence:
the outcomes already seen are replayed from the stored evidence (never re-bet with other bets),
the new cases follow in the stored order, and a knob that would change the test (alpha, margin,
an explicit seed, repeats, ``--finite``, the boundary, a seen case edited or removed) is
refused with an :class:`~arena.errors.InputError` naming what differs.

The boundary (:mod:`arena.sequential._boundary`) is stored too: ``spending`` (the
known-horizon boundary with futility stops, the default of a new sequence) is valid up to
the budget it was planned with, so a continuation may keep or lower that budget and a larger
one is refused; ``anytime`` (the betting sequence; ``--finite`` always) may grow it. Plans
stored before the field existed were made with the anytime boundary and load as such.

The plan is keyed by what is compared (dataset name, the two variant versions, the judge, the
question), not by the run, so a grown dataset (a new run) still finds it. It is stored in the
database's key-value table beside the run (:func:`save_plan`) and printed in every report.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, Field

from arena.errors import InputError
from arena.sequential._boundary import (
    ANYTIME,
    FUTILITY,
    SPENDING,
    BoundaryKind,
    BoundaryPlan,
    continuation_valid,
    make_sequence,
)

if TYPE_CHECKING:
    from arena.golden import GoldenDataset
    from arena.sequential._rule import Sequence
    from arena.storage import Store

#: The flag that chooses the boundary of a new sequence.
BOUNDARY_FLAG = "--boundary"

#: The model column of a stored plan in the key-value table.
PLAN_MODEL = "arena.sequential.plan"


class Evidence(BaseModel):
    """One case whose outcome entered the sequence, in the order it entered."""

    case_id: str
    case_hash: str
    outcome: float


class SequencePlan(BaseModel):
    """Seed, order, horizon, alpha, margin and budget of a sequence, and its evidence so far."""

    key: str = Field(description="What is compared: dataset name, variants, judge, question.")
    seed: int
    seed_source: Literal["derived", "explicit"] = Field(
        description="derived from the run (dataset and variant versions) or given (--seed)."
    )
    order: list[str] = Field(description="The cases in the order they enter the sequence.")
    horizon: int = Field(description="The bets are sharpest around this many outcomes.")
    alpha: float
    margin: float
    budget: int = Field(description="Cases of the order the latest run may use.")
    first_budget: int = Field(description="The budget the sequence started with.")
    question: str
    finite: bool
    population: int | None = Field(None, description="--finite: the number of cases.")
    repeats: int
    boundary: BoundaryKind = Field(
        ANYTIME,
        description="spending: valid up to the planned budget (first_budget), futility stops; "
        "anytime: the betting sequence, valid at every number of cases. Plans stored without "
        "it were made with anytime.",
    )
    futility: float = Field(
        FUTILITY, description="Stop once the chance of a decision by the budget is under this."
    )
    evidence: list[Evidence] = Field(default_factory=list)
    critical_tested: list[str] = Field(
        default_factory=list, description="Critical cases already tested (each once)."
    )
    critical_spent: float = Field(0.0, description="Alpha spent on critical cases so far.")
    critical_blocks: list[str] = Field(default_factory=list)
    runs: list[int] = Field(default_factory=list, description="Runs that added to it.")
    continued: int = Field(0, description="How many later runs continued the sequence.")

    def boundary_plan(self) -> BoundaryPlan:
        """The boundary of this sequence, from stored fields only: the spending boundary is
        planned for the first budget (a continuation never raises it), the anytime one keeps
        the first horizon."""
        budget = self.first_budget if self.boundary == SPENDING else self.budget
        return BoundaryPlan(
            budget=budget,
            alpha=self.alpha,
            margin=self.margin,
            boundary=self.boundary,
            futility=self.futility,
            horizon=self.horizon,
        )

    def sequence(self, sequences: int = 1) -> Sequence:
        """A fresh interval with this plan's boundary (replay the evidence into it)."""
        return make_sequence(self.boundary_plan(), sequences=sequences, population=self.population)

    def describe_boundary(self) -> str:
        """Which boundary, its budget and alpha: what the report's interval is valid for."""
        if self.finite:
            return (
                f"anytime boundary without replacement (betting sequence over these "
                f"{self.population} cases, alpha {self.alpha:g})"
            )
        if self.boundary == SPENDING:
            stop = f"; futility stop under {self.futility:.0%}" if self.futility else ""
            return (
                f"spending boundary (Lan-DeMets O'Brien-Fleming, valid up to the planned budget "
                f"of {self.first_budget} cases, alpha {self.alpha:g}{stop})"
            )
        return (
            f"anytime boundary (betting sequence, valid at every number of cases, budget "
            f"{self.budget}, alpha {self.alpha:g})"
        )

    def interval_name(self) -> str:
        """The interval's name in a summary: "95% anytime-valid" or "95% known-horizon"."""
        kind = "known-horizon" if self.boundary == SPENDING and not self.finite else "anytime-valid"
        return f"{level(self.alpha)} {kind}"

    def describe(self) -> str:
        """One line: everything that fixes the test, for every report."""
        seed = "derived from the run" if self.seed_source == "derived" else "explicit --seed"
        extra = f"; continued {self.continued} time(s)" if self.continued else ""
        horizon = "" if self.boundary == SPENDING else f", horizon {self.horizon}"
        return (
            f"plan: {self.describe_boundary()}, seed {self.seed} ({seed}), {len(self.order)} "
            f"cases in order{horizon}, alpha {self.alpha:g} ({level(self.alpha)} intervals), "
            f"margin {self.margin:g}, budget {self.budget} cases (started at "
            f"{self.first_budget}), {len(self.evidence)} outcome(s) carried{extra}"
        )


class PlanRequest(BaseModel):
    """What this run asks for (from the options and the selected cases)."""

    key: str
    seed: int | None
    derived_seed: int
    case_ids: list[str]
    case_hashes: dict[str, str]
    alpha: float
    margin: float
    max_cases: int | None
    question: str
    finite: bool
    repeats: int
    boundary: BoundaryKind | None = Field(
        None,
        description="None: spending for a new sequence (anytime with --finite); a "
        "stored sequence keeps its own.",
    )
    futility: float = FUTILITY


def level(alpha: float) -> str:
    """The confidence level of an interval at ``alpha``: 0.05 -> "95%", 0.025 -> "97.5%"."""
    return f"{round(100 * (1 - alpha), 6):g}%"


def default_horizon(budget: int) -> int:
    """Bets sharpest around half the first budget: early stops pay, the guarantee holds."""
    return max(budget // 2, 1)


def _digest(parts: Mapping[str, object]) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()


def sequence_key(
    dataset_name: str, baseline_hash: str, candidate_hash: str, judge: str | None, question: str
) -> str:
    """What a sequence compares; a later run with the same key continues it."""
    parts = {
        "dataset": dataset_name,
        "baseline": baseline_hash,
        "candidate": candidate_hash,
        "judge": judge,
        "question": question,
    }
    return _digest(parts)[:24]


def derive_seed(dataset: GoldenDataset, variant_hashes: list[str]) -> int:
    """The order's seed from the run: the dataset (name, version, content) and the variants."""
    from arena.golden import dataset_hash

    parts = {
        "dataset": [dataset.name, dataset.version, dataset_hash(dataset)],
        "variants": sorted(variant_hashes),
    }
    return int(_digest(parts)[:8], 16)


def start_plan(asked: PlanRequest) -> SequencePlan:
    """A new sequence: the seeded order of the selected cases, the horizon of its budget."""
    from arena.compare.sequential._trace import case_order

    explicit = asked.seed is not None
    seed = asked.seed if asked.seed is not None else asked.derived_seed
    order = case_order(asked.case_ids, seed)
    budget = min(asked.max_cases or len(order), len(order))
    if asked.finite and asked.boundary == SPENDING:
        raise InputError(
            "--finite samples these cases without replacement, which only the anytime betting "
            f"sequence handles: drop {BOUNDARY_FLAG} {SPENDING} (or --finite)",
            field=BOUNDARY_FLAG,
        )
    boundary = asked.boundary or (ANYTIME if asked.finite else SPENDING)
    return SequencePlan(
        key=asked.key,
        seed=seed,
        seed_source="explicit" if explicit else "derived",
        order=order,
        horizon=default_horizon(budget),
        alpha=asked.alpha,
        margin=asked.margin,
        budget=budget,
        first_budget=budget,
        question=asked.question,
        finite=asked.finite,
        population=len(order) if asked.finite else None,
        repeats=asked.repeats,
        boundary=boundary,
        futility=asked.futility,
    )


def _refuse(what: str, stored: object, asked: object, field: str) -> InputError:
    return InputError(
        f"this comparison continues a stored sequence started with {what} {stored}, and this "
        f"run asks for {asked}: a continued sequence keeps its plan (changing it would test "
        "again on the cases already seen). Rerun with the stored value, or start a new "
        "sequence on a new database (--db); docs/sequential.md#what-is-guaranteed-on-each-path",
        field=field,
    )


def _check_same(stored: SequencePlan, asked: PlanRequest) -> None:
    if asked.alpha != stored.alpha:
        raise _refuse("alpha", stored.alpha, asked.alpha, "--alpha")
    if asked.margin != stored.margin:
        raise _refuse("margin", stored.margin, asked.margin, "--margin")
    if asked.seed is not None and asked.seed != stored.seed:
        raise _refuse(f"{stored.seed_source} seed", stored.seed, f"seed {asked.seed}", "--seed")
    if asked.repeats != stored.repeats:
        raise _refuse("repeats", stored.repeats, asked.repeats, "--repeats")
    if asked.finite != stored.finite:
        raise _refuse("--finite", stored.finite, f"--finite {asked.finite}", "--finite")
    if asked.boundary is not None and asked.boundary != stored.boundary:
        raise _refuse("boundary", stored.boundary, f"boundary {asked.boundary}", BOUNDARY_FLAG)
    if asked.futility != stored.futility:
        raise _refuse("futility threshold", stored.futility, asked.futility, "--futility")
    for seen in stored.evidence:
        now = asked.case_hashes.get(seen.case_id)
        if now != seen.case_hash:
            change = "is no longer selected" if now is None else "was edited"
            raise InputError(
                f"case {seen.case_id} {change} since its outcome entered the stored sequence: "
                "its evidence cannot be carried over. Restore it, or start a new sequence on "
                "a new database (--db)",
                case=seen.case_id,
                field="cases",
            )


def _refuse_budget(stored: SequencePlan, budget: int, reason: str) -> InputError:
    planned = stored.first_budget
    return InputError(
        f"this comparison continues a stored sequence planned with the spending boundary for "
        f"a budget of {planned} cases, and this run asks for {budget}: {reason}. Rerun on at "
        f"most {planned} cases (arena compare: --max-cases {planned}) to continue it; to use "
        "more cases, plan the larger budget from the start (a new sequence on a new database, "
        f"--db, with that --max-cases), or start with {BOUNDARY_FLAG} {ANYTIME} to be able to "
        "grow the budget later",
        field="--max-cases",
    )


def continue_plan(stored: SequencePlan, asked: PlanRequest) -> SequencePlan:
    """The stored sequence continued by this run, or InputError naming what differs.

    Same order (unseen cases no longer selected drop out; new cases follow, in an order
    seeded by the plan's seed), same boundary, horizon and bets, the evidence carried over.
    The budget never falls below the outcomes already seen; it may grow under the anytime
    boundary (valid at every number of cases) but not past the planned budget under the
    spending one (:func:`arena.sequential.continuation_valid`), which is refused.
    """
    from arena.compare.sequential._trace import case_order

    _check_same(stored, asked)
    selected = set(asked.case_ids)
    if stored.finite and selected != set(stored.order):
        raise InputError(
            "--finite decides about a fixed set of cases, and the selected cases differ from "
            f"the {len(stored.order)} the sequence started with: keep the same cases, or drop "
            "--finite on a new database (--db)",
            field="--finite",
        )
    kept = [c for c in stored.order if c in selected]
    order = kept + case_order(selected - set(kept), stored.seed)
    budget = min(asked.max_cases or len(order), len(order))
    budget = max(budget, len(stored.evidence))
    valid, reason = continuation_valid(stored.boundary_plan(), budget)
    if not valid:
        raise _refuse_budget(stored, budget, reason)
    return stored.model_copy(
        update={"order": order, "budget": budget, "continued": stored.continued + 1}
    )


def open_plan(store: Store, asked: PlanRequest) -> SequencePlan:
    """The stored plan continued by this run, or a new one (see :func:`continue_plan`)."""
    stored = load_plan(store, asked.key)
    return start_plan(asked) if stored is None else continue_plan(stored, asked)


def _store_key(key: str) -> str:
    return f"{PLAN_MODEL}/{key}"


def load_plan(store: Store, key: str) -> SequencePlan | None:
    """The stored plan of the sequence ``key`` (None: no run has started it)."""
    value = store.get(_store_key(key))
    return SequencePlan.model_validate(value) if value else None


def save_plan(store: Store, plan: SequencePlan) -> None:
    """Store (replace) the plan with its evidence so far."""
    store.put(_store_key(plan.key), PLAN_MODEL, plan.model_dump(mode="json"))
