"""Close the loop: the traces a candidate lost (or any of a shadow run) become pending golden
cases (``arena golden add --from-shadow RUN --cases ...``).

Each case keeps the trace's query, production's answer as its ``reference_answer`` (the
judge is shown it), the trace id in its notes (provenance), and the tags ``production`` and
``shadow``. Its category is the one given, or the dataset's only category; its id follows the
dataset's own scheme (``S-5`` -> ``S-6``, ``HP-007`` -> ``HP-008``). A query already in the
dataset is skipped, and said so; the dataset is written once, its version bumped and content
hash recorded, or not at all on bad input.
"""

from __future__ import annotations

import re
from pathlib import Path

from pydantic import BaseModel, Field

from arena.curation._grow import case_query, next_case_id, normalize_query
from arena.errors import InputError
from arena.golden import GoldenDataset, Tier, load_dataset
from arena.golden._versioning import edit_lock, read_raw, save_edit, today
from arena.production._replay import PRODUCTION
from arena.storage import Store

#: ``--cases losses``: every trace the candidate lost.
LOSSES = "losses"
#: ``--cases flagged``: every trace a production check flagged (``--evaluate-only``).
FLAGGED = "flagged"


class ShadowCases(BaseModel):
    """What ``golden add --from-shadow`` did: the cases added (new id -> trace id), the
    traces skipped (trace id -> why), and, when no case was added (the file untouched), why."""

    dataset: GoldenDataset
    added: dict[str, str] = Field(default_factory=dict)
    skipped: dict[str, str] = Field(default_factory=dict)
    none_added: str | None = Field(None, description="Why no case was added (None: some were).")


def shadow_config(store: Store, run_id: int) -> dict[str, object]:
    """The ``shadow`` block of a shadow run's config; InputError for any other run."""
    from arena.production._history import shadow_block

    config = shadow_block(store, run_id)
    if config is None:
        raise InputError(f"run {run_id} is not a shadow run (arena shadow)", field="--from-shadow")
    return config


def lost_cases(store: Store, run_id: int) -> list[str]:
    """The case ids of the shadow run's traces the candidate lost (latest model judge)."""
    from arena.leaderboard import select_battles
    from arena.production._shadow import candidate_score

    candidate = shadow_config(store, run_id).get("candidate")
    if not isinstance(candidate, str):
        raise InputError(
            f"run {run_id} has no candidate (--evaluate-only): use --cases flagged or ids",
            field="--cases",
        )
    battles = select_battles(store, run_id, None)
    return list(dict.fromkeys(b.case_id for b in battles if candidate_score(b, candidate) == 0))


def flagged_cases(store: Store, run_id: int) -> list[str]:
    """The case ids of the shadow run's traces a production check flagged."""
    from arena.production._evaluate import GRADER

    shadow_config(store, run_id)
    _, scores = store.scores(run_id, GRADER)
    return [s.case_id for s in scores if not s.passed]


def add_from_shadow(
    store: Store,
    run_id: int,
    dataset_path: str | Path,
    cases: list[str],
    reason: str,
    category: str | None = None,
) -> ShadowCases:
    """Add the shadow run's ``cases`` (case ids, :data:`LOSSES` or :data:`FLAGGED`) to
    ``dataset_path`` as pending cases of ``category`` (see the module doc).

    Raises:
        InputError: a bad run, case or reason; a category the dataset does not have, or none
            given when the dataset has more than one (the message lists them).
    """
    if not reason.strip():
        raise InputError("give the reason the cases are added", field="reason")
    with edit_lock(dataset_path):  # read, edit and save with no other edit between
        return _add_from_shadow(store, run_id, dataset_path, cases, reason, category)


def _add_from_shadow(
    store: Store,
    run_id: int,
    dataset_path: str | Path,
    cases: list[str],
    reason: str,
    category: str | None,
) -> ShadowCases:
    target = load_dataset(dataset_path)
    category = shadow_category(target, category, file=str(dataset_path))
    trace_ids = shadow_config(store, run_id).get("trace_ids") or {}
    assert isinstance(trace_ids, dict)
    pick = {LOSSES: lost_cases, FLAGGED: flagged_cases}.get(cases[0] if len(cases) == 1 else "")
    wanted = pick(store, run_id) if pick is not None else list(cases)
    run_cases = {c.id: c for c in store.run_dataset(run_id).test_cases}
    unknown = [c for c in wanted if c not in run_cases]
    if unknown:
        raise InputError(
            f"not a case of shadow run {run_id}: {', '.join(unknown)}", field="--cases"
        )
    answers = {r.case_id: r.output for r in store.results(run_id) if r.variant == PRODUCTION}
    raw = read_raw(dataset_path)
    have = {normalize_query(case_query(c)): str(c.get("id")) for c in raw["test_cases"]}
    report = ShadowCases(dataset=target)
    for case_id in wanted:
        trace_id = str(trace_ids.get(case_id, case_id))
        query = run_cases[case_id].input
        if normalize_query(query) in have:
            report.skipped[trace_id] = f"same query as case {have[normalize_query(query)]}"
            continue
        new_id = scheme_id(raw["test_cases"], category, target)
        raw["test_cases"].append(
            {
                "id": new_id,
                "input": query,
                "category": category,
                "tier": Tier.PENDING.value,
                "reference_answer": answers.get(case_id, ""),
                "notes": f"From production trace {trace_id} (shadow run {run_id}); the "
                "reference answer is what production answered. Review it and add "
                "expectations before promoting.",
                "tags": ["production", "shadow"],
                "added": today().isoformat(),
                "reason": reason.strip(),
            }
        )
        have[normalize_query(query)] = new_id
        report.added[new_id] = trace_id
    if report.added:
        change = f"add {len(report.added)} pending case(s) from shadow run {run_id}"
        report.dataset = save_edit(dataset_path, raw, change)
    elif not wanted:
        report.none_added = _NOTHING.get(cases[0], "no case named").format(run=run_id)
    else:
        report.none_added = "every trace's query is already a case of the dataset"
    return report


_NOTHING = {
    LOSSES: "the candidate lost no trace of shadow run {run}",
    FLAGGED: "no check flagged a trace of shadow run {run}",
}


def shadow_category(dataset: GoldenDataset, category: str | None, *, file: str) -> str:
    """The category new cases get: ``category`` if the dataset has it, else the dataset's
    only category; InputError (listing the dataset's categories) otherwise."""
    allowed = dataset.category_names
    listed = ", ".join(allowed)
    if category is None and len(allowed) == 1:
        return allowed[0]
    if category is None:
        raise InputError(
            f"give the new cases' category with --category; this dataset's categories are {listed}",
            file=file,
            field="--category",
        )
    if category not in allowed:
        raise InputError(
            f"unknown category {category!r}; this dataset's categories are {listed}",
            file=file,
            field="--category",
        )
    return category


_NUMBERED = re.compile(r"(.*?)(\d+)")


def scheme_id(raw_cases: list[dict[str, object]], category: str, dataset: GoldenDataset) -> str:
    """The next free id in the dataset's own scheme: the prefix its ``category``'s cases share
    (else the one every case shares) and the next number, as wide as theirs (``S-1`` ...
    ``S-5`` -> ``S-6``); else the category's prefix (:func:`~arena.curation._grow.next_case_id`)."""
    ids = [str(c.get("id")) for c in raw_cases]
    own = [str(c.get("id")) for c in raw_cases if c.get("category") == category]
    for group in (own, ids):
        found = [m for i in group if (m := _NUMBERED.fullmatch(i))]
        prefixes = {m.group(1) for m in found}
        if group and len(found) == len(group) and len(prefixes) == 1:
            prefix = prefixes.pop()
            width = min(len(m.group(2)) for m in found)
            break
    else:
        prefix, _, number = next_case_id(dataset, category).rpartition("-")
        prefix, width = prefix + "-", len(number)
    numbers = [
        int(m.group(2)) for i in ids if (m := _NUMBERED.fullmatch(i)) and m.group(1) == prefix
    ]
    n = max(numbers, default=0) + 1
    taken = set(ids)
    while f"{prefix}{n:0{width}d}" in taken:
        n += 1
    return f"{prefix}{n:0{width}d}"
