"""Push a stored arena run to LangSmith: experiments, golden feedback, judge comparisons.

For run R on dataset D:

* D is uploaded (or brought up to date) as a LangSmith dataset, one example per case;
* each variant becomes an **experiment** (a LangSmith project with D as reference dataset and
  the arena run id, variant and version hash as metadata) holding one run per result (inputs:
  the query; outputs: answer, tool calls, files, error; each tool call a child ``tool`` run);
* every result gets its golden scores as **feedback**: ``golden_score``, ``golden_pass`` and
  one ``golden_<component>`` per component that applies (the grader in the comment);
* the pairwise judge's battles become a **comparative experiment** per judge and pair of
  variants, one ``preference`` feedback per run of a battle (1 winner, 0 loser, 0.5 tie);
  battles whose verdict could not be read are left out, never sent as ties.

Ids are derived from the run, so pushing again finds what is there: an experiment that
exists is left as it is (its runs and feedback are not sent twice).
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, Field

from arena.langsmith._client import DatasetSync, upload_dataset
from arena.langsmith._evaluators import outputs_from_result
from arena.vocabulary import MODEL_A, MODEL_B, is_tie, winner_words

if TYPE_CHECKING:
    from langsmith import Client

    from arena.records.results import RunInfo, RunResult
    from arena.scoring import CaseScore
    from arena.storage import Store

_NAMESPACE = uuid.UUID("6f1b2e54-3a0c-4d8e-9b7a-2f5c1e0d4a11")
FEEDBACK_KEYS = ("output", "trajectory", "behavior", "functional", "rubric")


class Experiment(BaseModel):
    """One variant's experiment in LangSmith."""

    variant: str
    variant_hash: str
    name: str
    id: uuid.UUID
    created: bool
    runs: int = 0
    feedback: int = 0
    url: str | None = None


class Comparison(BaseModel):
    """One comparative experiment: a judge on a pair of variants."""

    name: str
    id: uuid.UUID
    created: bool
    battles: int = 0


class PushReport(BaseModel):
    """What :func:`push_run` sent."""

    run_id: int
    dataset: DatasetSync
    experiments: list[Experiment] = Field(default_factory=list)
    comparisons: list[Comparison] = Field(default_factory=list)


def run_uuid(when: datetime, key: str) -> uuid.UUID:
    """A deterministic UUID v7 (the run ids LangSmith expects): ``when`` in its time field,
    a hash of ``key`` in its random bits, so a run pushed again keeps its id."""
    ms = int(when.timestamp() * 1000) & (2**48 - 1)
    rand = int.from_bytes(hashlib.sha256(key.encode()).digest()[:10], "big")
    value = ms << 80 | 0x7 << 76 | (rand >> 62 & 0xFFF) << 64 | 0b10 << 62 | rand & (2**62 - 1)
    return uuid.UUID(int=value)


def experiment_name(run: RunInfo, variant: str, variant_hash: str) -> str:
    """``variant (hash) · arena run N (key)``: one experiment per variant version and run."""
    return f"{variant} ({variant_hash}) · arena run {run.id} ({run.key[:8]})"


def _times(result: RunResult) -> tuple[datetime, datetime]:
    end = result.created_at if result.created_at.tzinfo else result.created_at.replace(tzinfo=UTC)
    return end - timedelta(seconds=max(result.latency_s, 0.001)), end


def _result_run_id(run: RunInfo, example_id: uuid.UUID, result: RunResult) -> uuid.UUID:
    start, _ = _times(result)
    return run_uuid(start, f"{run.key}/{example_id}/{result.variant_hash}/{result.repeat}")


def _post_run(
    client: Client, project: str, run: RunInfo, example_id: uuid.UUID, query: str, result: RunResult
) -> uuid.UUID:
    from langsmith.run_trees import RunTree

    start, end = _times(result)
    run_id = _result_run_id(run, example_id, result)
    metadata = {
        "arena_run_id": run.id,
        "variant": result.variant,
        "variant_hash": result.variant_hash,
        "case_id": result.case_id,
        "repeat": result.repeat,
        "arena_result_id": result.id,
    }
    tree = RunTree(
        name=f"{result.variant}:{result.case_id}",
        run_type="chain",
        id=run_id,
        start_time=start,
        inputs={"query": query},
        project_name=project,
        reference_example_id=example_id,
        extra={"metadata": metadata},
        tags=[
            f"variant:{result.variant}",
            f"case:{result.case_id}",
            f"arena-run:{run.id}",
            f"version:{result.variant_hash}",
            f"repeat:{result.repeat}",
        ],
        ls_client=client,
    )
    for step in result.steps:
        tree.create_child(
            step.tool,
            "tool",
            run_id=run_uuid(start, f"{run_id}/{step.index}"),
            inputs=dict(step.args),
            outputs={"output": step.observation},
            error=step.error,
            start_time=start,
            end_time=end,
            extra={"metadata": {"agent": step.agent, "index": step.index}},
        )
    tree.end(outputs=outputs_from_result(result), error=result.error, end_time=end)
    tree.post(exclude_child_runs=False)
    return run_id


def _feedback(score: CaseScore, grader: str) -> Iterable[tuple[str, float, str]]:
    verdict = "pass" if score.passed else "fail: " + "; ".join(score.fail_reasons)
    yield "golden_score", score.score, f"{verdict} (grader: {grader})"
    yield "golden_pass", float(score.passed), verdict
    for name in FEEDBACK_KEYS:
        if name in score.components:
            yield f"golden_{name}", score.components[name], f"{name} (grader: {grader})"


def _experiment(
    client: Client,
    run: RunInfo,
    dataset_id: uuid.UUID,
    variant: str,
    variant_hash: str,
    description: str,
    grader: str,
) -> Experiment:
    from langsmith.utils import LangSmithConflictError

    name = experiment_name(run, variant, variant_hash)
    metadata = {
        "arena_run_id": run.id,
        "arena_run_key": run.key,
        "variant": variant,
        "variant_hash": variant_hash,
        "dataset_version": run.dataset_version,
        "grader": grader,
    }
    try:
        project = client.create_project(
            name,
            reference_dataset_id=dataset_id,
            description=description or None,
            metadata=metadata,
        )
        created = True
    except LangSmithConflictError:
        project = client.read_project(project_name=name)
        created = False
    return Experiment(
        variant=variant,
        variant_hash=variant_hash,
        name=name,
        id=project.id,
        created=created,
        url=project.url,
    )


def push_run(
    store: Store, run_id: int | None, client: Client, *, dataset_name: str | None = None
) -> PushReport:
    """Send stored run ``run_id`` (newest when None) to LangSmith (see the module docstring).

    Scores are the stored ones (``arena score``, with its grader) or else the keyword
    scores; no model is called.
    """
    from arena.evaluation.run_scores import load_run_scores

    run = store.run(run_id)
    dataset = store.run_dataset(run.id)
    sync = upload_dataset(client, dataset, dataset_name)
    scores = load_run_scores(store, run.id)
    by_result = {s.result_id: s for s in scores.cases}
    descriptions = {(v.name, v.version_hash): v.description for v in store.variants()}
    report = PushReport(run_id=run.id, dataset=sync)
    queries = {c.id: c.input for c in dataset.test_cases}
    results = store.results(run.id)
    run_ids: dict[int, uuid.UUID] = {}
    for variant, variant_hash in run.config.get("variants", {}).items():
        experiment = _experiment(
            client,
            run,
            sync.dataset_id,
            variant,
            variant_hash,
            descriptions.get((variant, variant_hash), ""),
            scores.grader,
        )
        report.experiments.append(experiment)
        for result in (
            r for r in results if r.variant_hash == variant_hash and r.case_id in sync.example_ids
        ):
            example_id = sync.example_ids[result.case_id]
            if not experiment.created:
                run_ids[result.id or 0] = _result_run_id(run, example_id, result)
                continue
            ls_run = _post_run(
                client, experiment.name, run, example_id, queries[result.case_id], result
            )
            run_ids[result.id or 0] = ls_run
            experiment.runs += 1
            score = by_result.get(result.id)
            for key, value, comment in _feedback(score, scores.grader) if score else ():
                client.create_feedback(
                    ls_run,
                    key,
                    score=value,
                    comment=comment,
                    trace_id=ls_run,
                    session_id=experiment.id,
                    start_time=_times(result)[0],
                    feedback_id=uuid.uuid5(_NAMESPACE, f"{ls_run}/{key}"),
                    source_info={"arena": True, "grader": scores.grader},
                )
                experiment.feedback += 1
    report.comparisons = _comparisons(client, store, run, sync, report, run_ids)
    client.flush()
    return report


def _comparisons(
    client: Client,
    store: Store,
    run: RunInfo,
    sync: DatasetSync,
    report: PushReport,
    run_ids: dict[int, uuid.UUID],
) -> list[Comparison]:
    from langsmith.utils import LangSmithConflictError

    projects = {e.variant: e.id for e in report.experiments}
    groups: dict[tuple[str, str, str], list[Any]] = {}
    for battle in store.battles(run.id):
        if battle.winner in (MODEL_A, MODEL_B) or is_tie(battle.winner):
            key = (battle.judge.key, *sorted((battle.variant_a, battle.variant_b)))
            groups.setdefault(key, []).append(battle)  # type: ignore[arg-type]
    out = []
    for (judge_key, first, second), battles in groups.items():
        label = battles[0].judge.label
        name = f"{first} vs {second} · judge {label} · arena run {run.id} ({run.key[:8]})"
        comparison_id = uuid.uuid5(_NAMESPACE, f"{run.key}/{judge_key}/{first}/{second}")
        try:
            client.create_comparative_experiment(
                name,
                experiments=[projects[first], projects[second]],
                reference_dataset=sync.dataset_id,
                id=comparison_id,
                description=f"Pairwise verdicts of judge {label}, both orders.",
                metadata={"arena_run_id": run.id, "judge": label, "judge_key": judge_key},
            )
        except LangSmithConflictError:
            out.append(Comparison(name=name, id=comparison_id, created=False))
            continue
        comparison = Comparison(name=name, id=comparison_id, created=True)
        for battle in battles:
            _preference(client, battle, comparison_id, run_ids, projects)
            comparison.battles += 1
        out.append(comparison)
    return out


def _preference(
    client: Client,
    battle: Any,
    comparison_id: uuid.UUID,
    run_ids: dict[int, uuid.UUID],
    projects: dict[str, uuid.UUID],
) -> None:
    a, b = run_ids.get(battle.result_a_id), run_ids.get(battle.result_b_id)
    if a is None or b is None:
        return
    share = 0.5 if is_tie(battle.winner) else 1.0 if battle.winner == MODEL_A else 0.0
    group = uuid.uuid5(_NAMESPACE, f"{comparison_id}/{battle.result_a_id}/{battle.result_b_id}")
    said = winner_words(battle.winner, battle.variant_a, battle.variant_b)
    comment = (
        f"judge {battle.judge.label} on {battle.case_id}: {said}"
        + (" (strong)" if battle.strong else "")
        + (" (orders disagree)" if battle.flip else "")
    )
    for run_id, variant, value in (
        (a, battle.variant_a, share),
        (b, battle.variant_b, 1.0 - share),
    ):
        client.create_feedback(
            run_id,
            "preference",
            score=value,
            comment=comment,
            trace_id=run_id,
            session_id=projects[variant],
            comparative_experiment_id=comparison_id,
            feedback_group_id=group,
            feedback_id=uuid.uuid5(_NAMESPACE, f"{group}/{run_id}"),
        )
