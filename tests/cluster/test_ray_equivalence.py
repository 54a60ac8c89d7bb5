"""`--executor ray` on a real two-node cluster gives exactly what the local executor gives,
on SQLite and on PostgreSQL, and a second run sends nothing."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from arena.storage import Store
from tests.cluster.cluster import Cluster
from tests.faults.scenario import API_KEY, KEY_ENV, cli_json, expected_answer, write_files
from tests.support.fault_server import FaultServer
from tests.support.postgres import postgres_cluster

pytestmark = pytest.mark.system
FAULTS = {"rate": 0.25, "kinds": ("429", "500", "503"), "seed": 11}
"""Transient faults: with two attempts per call, some tasks end in a recorded error."""


@pytest.fixture(scope="module")
def postgres_url() -> Iterator[str]:
    """A throwaway PostgreSQL cluster shared by the ray workers and the driver."""
    with postgres_cluster() as urls:
        yield urls["arena"]


def _ray(cluster: Cluster) -> tuple[str, ...]:
    return ("--executor", "ray", "--ray-address", cluster.address)


def _outcomes(doc: dict[str, Any]) -> dict[tuple[str, str, int], tuple[Any, ...]]:
    """Everything a result says except timings and ids, by (variant, case, repeat)."""
    return {(r["variant"], r["case_id"], r["repeat"]): (
        r["output"], bool(r["error"]), r["tool_calls"], r["model_calls"], r["input_tokens"],
        r["output_tokens"]) for r in doc["results"]}


def _winners(doc: dict[str, Any]) -> dict[tuple[str, str, str, int], str]:
    return {(b["variant_a"], b["variant_b"], b["case_id"], b["repeat"]): b["winner"]
            for b in doc["battles"]}


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_ray_results_equal_local_and_the_rerun_sends_nothing(
        backend: str, cluster: Cluster, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        request: pytest.FixtureRequest) -> None:
    monkeypatch.setenv(KEY_ENV, API_KEY)
    monkeypatch.setenv("ARENA_RETRIES", "2")
    ray_db = (request.getfixturevalue("postgres_url") if backend == "postgres"
              else f"sqlite:///{tmp_path / 'ray.db'}")
    with FaultServer(**FAULTS) as here, FaultServer(**FAULTS) as there:
        local = write_files(tmp_path / "local", here.base_url,
                            f"sqlite:///{tmp_path / 'local.db'}")
        remote = write_files(tmp_path / "ray", there.base_url, ray_db)
        want, _ = cli_json(local.run_args())
        got = cluster.arena_json(remote.run_args(*_ray(cluster)))
        assert _outcomes(got) == _outcomes(want)
        errors = sum(1 for r in got["results"] if r["error"])
        assert 0 < errors < len(got["results"])  # the faults did bite, the same way
        for r in got["results"]:
            if not r["error"]:
                assert r["output"] == expected_answer(r["variant"], remote.inputs[r["case_id"]])
        info = Store(ray_db).run(int(got["run_id"]))
        assert info.status == "finished" and info.results == len(want["results"])

        for server in (here, there):  # the judge is not under test here: no faults
            server.configure(rate=0.0)
        judged_here, _ = cli_json(local.judge_args("text"))
        judged_there = cluster.arena_json(remote.judge_args("text", *_ray(cluster)))
        assert _winners(judged_there) == _winners(judged_here)
        assert judged_there["model_calls"] == judged_here["model_calls"] > 0

        there.reset()
        again = cluster.arena_json(remote.run_args(*_ray(cluster)))
        rejudged = cluster.arena_json(remote.judge_args("text", *_ray(cluster)))
        assert (again["model_calls"], rejudged["model_calls"]) == (0, 0)
        assert again["reused_results"] == len(got["results"])
        assert there.stats()["requests"] == 0  # the second run sent nothing at all
