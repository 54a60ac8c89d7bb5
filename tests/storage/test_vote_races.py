"""One person's vote on one pair, cast by several processes at the same instant: exactly one
is stored, every other writer is told "already voted", whichever order each one shows the
pair in (SQLite and PostgreSQL, real processes released together by a barrier)."""

from __future__ import annotations

import traceback
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from arena.golden import GoldenDataset
from arena.records.results import RunResult
from arena.storage import Store
from arena.storage._tables import BattleRow
from arena.votes import AlreadyVoted, VotePair, cast_vote, open_pairs
from arena.votes._ballots import swapped
from tests.support.postgres import postgres_cluster
from tests.support.processes import apply_env, arena_env, worker_context

pytestmark = pytest.mark.system

WRITERS = 4
ROUNDS = 8
VOTER = "ann"


def _result(run_id: int, variant: str) -> RunResult:
    return RunResult(
        run_id=run_id,
        variant=variant,
        variant_hash=variant,
        case_id="C",
        case_hash="c",
        output=f"{variant}'s answer",
    )


def vote_run(url: str) -> VotePair:
    """A run of two variants on one case: the one pair a person can vote on."""
    store = Store(url)
    dataset = GoldenDataset.model_validate(
        {
            "name": "votes",
            "available_tools": [],
            "test_cases": [{"id": "C", "input": "hi", "category": "happy_path"}],
        }
    )
    config = {"variants": {"v": 1, "w": 1}}
    run_id, _ = store.open_run("votes", store.ensure_dataset(dataset), config)
    for variant in ("v", "w"):
        store.save_result(_result(run_id, variant))
    (pair,) = open_pairs(store, run_id, VOTER)
    store.close()
    return pair


def _vote(url: str, pair: VotePair, writer: int) -> str:
    """One writer's vote: odd writers see the pair the other way round."""
    store = Store(url)
    shown = swapped(pair) if writer % 2 else pair
    try:
        cast_vote(store, shown, VOTER, "model_a")
    except AlreadyVoted:
        return "already voted"
    finally:
        store.close()
    return "stored"


def _writer(
    env: dict[str, str], rounds: list[tuple[str, VotePair]], writer: int, barrier: Any, out: Any
) -> None:
    apply_env(env)
    for url, pair in rounds:
        try:
            barrier.wait(timeout=60)
            out.put((url, _vote(url, pair, writer)))
        except BaseException:
            out.put((url, f"writer {writer}:\n{traceback.format_exc()}"))
            barrier.abort()
            return


def _race(urls: list[str]) -> None:
    rounds = [(url, vote_run(url)) for url in urls]
    ctx = worker_context()
    barrier, out = ctx.Barrier(WRITERS), ctx.Queue()
    procs = [
        ctx.Process(target=_writer, args=(arena_env(), rounds, w, barrier, out))
        for w in range(WRITERS)
    ]
    for proc in procs:
        proc.start()
    for proc in procs:
        proc.join(300)
    told: dict[str, list[str]] = {url: [] for url in urls}
    while not out.empty():
        url, said = out.get()
        told[url].append(said)
    assert [p.exitcode for p in procs] == [0] * WRITERS
    for url, pair in rounds:
        assert sorted(told[url]) == ["already voted"] * (WRITERS - 1) + ["stored"], told[url]
        with Store(url) as store:
            with store.session() as s:
                assert s.scalar(select(func.count()).select_from(BattleRow)) == 1
            assert open_pairs(store, pair.run_id, VOTER) == []


def test_one_vote_per_pair_under_racing_writers_on_sqlite(tmp_path: Path) -> None:
    _race([f"sqlite:///{tmp_path / f'round{r}.db'}" for r in range(ROUNDS)])


@pytest.fixture(scope="module")
def postgres_urls() -> Iterator[list[str]]:
    """A throwaway cluster with one empty database per round."""
    with postgres_cluster(tuple(f"votes{r}" for r in range(ROUNDS))) as urls:
        yield list(urls.values())


def test_one_vote_per_pair_under_racing_writers_on_postgres(postgres_urls: list[str]) -> None:
    _race(postgres_urls)
