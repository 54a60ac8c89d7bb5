"""Several processes writing one database at once: no crash, nothing lost, nothing doubled.

Each round starts four real processes on a fresh database at the same instant (a barrier):
they all create the tables, store the same dataset, variant and run, the same results
(half of them first as errors), battles, both caches, scores and a baseline (defect 4).
"""

from __future__ import annotations

import traceback
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from arena.battles import Battle
from arena.golden import load_dataset
from arena.models import ModelConfig
from arena.paths import data_dir
from arena.records.results import RunResult
from arena.scoring import Baseline, CaseScore
from arena.storage import Store
from arena.storage._tables import (
    BattleRow,
    CaseRow,
    DatasetRow,
    ResultRow,
    StepRow,
    VariantRow,
)
from arena.variants.variant import Variant
from judges import JudgeSpec, Verdict
from tests.support.postgres import postgres_cluster
from tests.support.processes import apply_env, arena_env, worker_context

pytestmark = pytest.mark.system

WRITERS = 4
ROUNDS = 10
CASES = 4


def _variant() -> Variant:
    return Variant(name="v", model=ModelConfig(spec="fake:v"))


def _result(run_id: int, case: int, variant: str, error: str | None) -> RunResult:
    return RunResult(
        run_id=run_id,
        variant=variant,
        variant_hash=variant,
        case_id=f"C-{case}",
        case_hash=f"h{case}",
        repeat=0,
        output="" if error else f"answer {case}",
        error=error,
    )


def _writes(url: str, writer: int) -> None:
    """Everything one process writes in one round."""
    store = Store(url)  # creates the tables, racing the others
    dataset_id = store.ensure_dataset(load_dataset(data_dir() / "golden" / "research_agent.json"))
    store.ensure_variant(_variant())
    run_id, _ = store.open_run("same-run", dataset_id, {"variants": {"v": "v", "w": "w"}})
    ids: dict[tuple[int, str], int] = {}
    for case in range(CASES):
        for variant in ("v", "w"):
            # Odd writers fail first, then succeed: a late error never replaces an answer.
            if writer % 2:
                store.save_result(_result(run_id, case, variant, f"boom {writer}"))
            ids[(case, variant)] = store.save_result(_result(run_id, case, variant, None))
    spec = JudgeSpec(model=ModelConfig(spec="fake:j"))
    for case in range(CASES):
        winner = "error" if writer % 2 else "model_a"
        store.save_battle(
            Battle(
                run_id=run_id,
                case_id=f"C-{case}",
                variant_a="v",
                variant_b="w",
                hash_a="v",
                hash_b="w",
                result_a_id=ids[(case, "v")],
                result_b_id=ids[(case, "w")],
                winner=winner,
                judge=spec,
            )
        )
        store.put(f"reply-{case}", "m", {"writer": writer})
        store.put_verdict(f"verdict-{case}", Verdict(label="A>B", judge=spec))
    scores = [
        CaseScore(
            result_id=rid,
            variant=v,
            variant_hash=v,
            case_id=f"C-{c}",
            category="happy_path",
            tier="critical",
            score=1.0,
            passed=True,
        )
        for (c, v), rid in ids.items()
    ]
    store.save_scores(run_id, "keywords", scores)
    store.save_baseline(
        Baseline(
            name="base",
            variant="v",
            variant_hash="v",
            dataset="d",
            suite_score=1.0,
            pass_rate=1.0,
            cases={},
            source_run_id=run_id,
        )
    )
    store.finish_run(run_id)
    store.close()


def _writer(env: dict[str, str], urls: list[str], writer: int, barrier: Any, errors: Any) -> None:
    apply_env(env)
    for url in urls:
        try:
            barrier.wait(timeout=60)
            _writes(url, writer)
        except BaseException:
            errors.put(f"writer {writer} on {url}:\n{traceback.format_exc()}")
            barrier.abort()  # the others stop at the next round instead of waiting
            return


def _count(store: Store, model: type[Any]) -> int:
    with store.session() as s:
        return int(s.scalar(select(func.count()).select_from(model)) or 0)


def _check(url: str) -> None:
    with Store(url) as store:
        _check_store(store)


def _check_store(store: Store) -> None:
    dataset = load_dataset(data_dir() / "golden" / "research_agent.json")
    assert _count(store, DatasetRow) == 1 and _count(store, VariantRow) == 1
    assert _count(store, CaseRow) == len(dataset.test_cases)
    (run,) = store.runs()
    assert run.status == "finished" and run.results == 2 * CASES and run.errors == 0
    assert {r.output for r in store.results(run.id)} == {f"answer {c}" for c in range(CASES)}
    assert _count(store, ResultRow) == 2 * CASES and _count(store, StepRow) == 0
    battles = store.battles(run.id)
    assert _count(store, BattleRow) == CASES == len(battles)
    assert {b.winner for b in battles} == {"model_a"}  # no failed judge replaced a verdict
    assert all(store.get(f"reply-{c}") is not None for c in range(CASES))
    assert all(store.get_verdict(f"verdict-{c}") is not None for c in range(CASES))
    _, scores = store.scores(run.id, "keywords")
    assert len(scores) == 2 * CASES
    assert [b.name for b in store.baselines()] == ["base"]


def _race(urls: list[str]) -> None:
    ctx = worker_context()
    barrier, errors = ctx.Barrier(WRITERS), ctx.Queue()
    procs = [
        ctx.Process(target=_writer, args=(arena_env(), urls, w, barrier, errors))
        for w in range(WRITERS)
    ]
    for proc in procs:
        proc.start()
    for proc in procs:
        proc.join(300)
    failures = []
    while not errors.empty():
        failures.append(errors.get())
    assert not failures, "\n".join(failures)
    assert [p.exitcode for p in procs] == [0] * WRITERS
    for url in urls:
        _check(url)


def test_concurrent_writers_on_sqlite(tmp_path: Path) -> None:
    _race([f"sqlite:///{tmp_path / f'round{r}.db'}" for r in range(ROUNDS)])


@pytest.fixture(scope="module")
def postgres_urls() -> Iterator[list[str]]:
    """A throwaway cluster with one empty database per round."""
    with postgres_cluster(tuple(f"round{r}" for r in range(ROUNDS))) as urls:
        yield list(urls.values())


def test_concurrent_writers_on_postgres(postgres_urls: list[str]) -> None:
    _race(postgres_urls)
