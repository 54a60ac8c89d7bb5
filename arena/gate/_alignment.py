"""Which cases a baseline and a candidate can be compared on.

A case is its id plus its content hash. Cases both sides ran with the same content are
*compared*; the others are reported apart and never as regressions:

* *changed*: same id, different content (the golden case was edited);
* *added*: the candidate ran it, the baseline does not have it;

(the gate then runs the baseline's code on changed and added cases, and aligns again with
those records in the baseline: :mod:`arena.ci._baseline_side`, :mod:`arena.gate._changed`);
* *removed*: the baseline has it, the candidate's dataset no longer does;
* *not run*: the candidate's dataset still has it (same content), the candidate did not run
  it (another tier or ``--cases``); a critical one that passed is ``critical_missing``;
* *simulator errors*: a side ran it but every repeat's simulated user failed, so that side has
  no evidence about the agent: not compared, never broken, fixed nor missing.

When a side recorded no content hash (baselines of format 1), cases are matched by id.
"""

from __future__ import annotations

from collections.abc import Mapping

from pydantic import BaseModel, ConfigDict, Field

from arena.scoring._baseline import Baseline


class Alignment(BaseModel):
    """The case sets of a comparison (see the module docstring)."""

    model_config = ConfigDict(extra="forbid")

    compared: list[str] = Field(default_factory=list)
    changed: list[str] = Field(default_factory=list)
    added: list[str] = Field(default_factory=list)
    removed: list[str] = Field(default_factory=list)
    not_run: list[str] = Field(default_factory=list)
    simulator_errors: list[str] = Field(default_factory=list)
    datasets_differ: bool = False
    notes: list[str] = Field(default_factory=list)


def _same(a: str, b: str) -> bool:
    return not a or not b or a == b


def align(
    baseline: Baseline, candidate: Baseline, dataset_hashes: Mapping[str, str] | None = None
) -> Alignment:
    """Align two snapshots; ``dataset_hashes`` lists the candidate's dataset (id -> hash)."""
    out = Alignment()
    for case_id, record in baseline.cases.items():
        mine = candidate.cases.get(case_id)
        if mine is not None:
            (out.compared if _same(record.hash, mine.hash) else out.changed).append(case_id)
        elif case_id in candidate.simulator_errors:
            out.simulator_errors.append(case_id)
        elif dataset_hashes is None:
            out.not_run.append(case_id)
        elif case_id not in dataset_hashes:
            out.removed.append(case_id)
        elif _same(record.hash, dataset_hashes[case_id]):
            out.not_run.append(case_id)
        else:
            out.changed.append(case_id)
    for case_id in candidate.cases:
        if case_id in baseline.cases:
            continue
        (out.simulator_errors if case_id in baseline.simulator_errors else out.added).append(
            case_id
        )
    out.datasets_differ = _datasets_differ(baseline, candidate)
    if out.datasets_differ:
        out.notes.append(
            f"the datasets differ: baseline {baseline.dataset_label}, candidate "
            f"{candidate.dataset_label}; a case whose content changed is compared only "
            "against the baseline's code run on it (the baseline side)"
        )
    if any(not r.hash for r in baseline.cases.values()):
        out.notes.append(
            "the baseline records no case content hashes: cases are matched by id "
            "(save it again to record them)"
        )
    return out


def _datasets_differ(baseline: Baseline, candidate: Baseline) -> bool:
    if baseline.dataset_hash and candidate.dataset_hash:
        return baseline.dataset_hash != candidate.dataset_hash
    if baseline.dataset_version and candidate.dataset_version:
        return (baseline.dataset, baseline.dataset_version) != (
            candidate.dataset,
            candidate.dataset_version,
        )
    return baseline.dataset != candidate.dataset
