"""`--executor ray` on a real two-node cluster gives exactly what the local executor gives,
on SQLite and on PostgreSQL, and a second run sends nothing."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from arena.storage import Store
from tests.cluster.cluster import ROOT, Cluster
from tests.faults.scenario import API_KEY, KEY_ENV, cli_json, expected_answer, write_files
from tests.support.fault_server import FaultServer
from tests.support.postgres import postgres_cluster

pytestmark = pytest.mark.system
FAULTS = {"rate": 0.5, "kinds": ("429", "500", "503"), "seed": 11}
"""Transient faults: with two attempts per call, about one task in four ends in an error
(which ones depends only on the seed and the request, so both executors see the same)."""


@pytest.fixture(scope="module")
def postgres_url() -> Iterator[str]:
    """A throwaway PostgreSQL cluster shared by the ray workers and the driver."""
    with postgres_cluster() as urls:
        yield urls["arena"]


def _outcomes(doc: dict[str, Any]) -> dict[tuple[str, str, int], tuple[Any, ...]]:
    """Everything a result says except timings and ids, by (variant, case, repeat)."""
    return {
        (r["variant"], r["case_id"], r["repeat"]): (
            r["output"],
            bool(r["error"]),
            r["tool_calls"],
            r["model_calls"],
            r["input_tokens"],
            r["output_tokens"],
        )
        for r in doc["results"]
    }


def _winners(battles: list[dict[str, Any]]) -> dict[tuple[str, str, str, int], str]:
    return {
        (b["variant_a"], b["variant_b"], b["case_id"], b["repeat"]): b["winner"] for b in battles
    }


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_ray_results_equal_local_and_the_rerun_sends_nothing(
    backend: str,
    cluster: Cluster,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    request: pytest.FixtureRequest,
) -> None:
    monkeypatch.setenv(KEY_ENV, API_KEY)
    monkeypatch.setenv("ARENA_RETRIES", "2")
    ray_db = (
        request.getfixturevalue("postgres_url")
        if backend == "postgres"
        else f"sqlite:///{tmp_path / 'ray.db'}"
    )
    with FaultServer(**FAULTS) as here, FaultServer(**FAULTS) as there:
        local = write_files(tmp_path / "local", here.base_url, f"sqlite:///{tmp_path / 'local.db'}")
        remote = write_files(tmp_path / "ray", there.base_url, ray_db)
        want, _ = cli_json(local.run_args())
        judged, _ = cli_json(local.judge_args("text"))
        driver = subprocess.run(
            [
                sys.executable,
                "-m",
                "tests.cluster.driver",
                cluster.address,
                ray_db,
                str(remote.dataset),
                str(remote.judge("text")),
                *map(str, remote.variants),
            ],
            cwd=ROOT,
            env=cluster.env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert driver.returncode == 0, driver.stderr[-4000:]
        first, second = json.loads(driver.stdout)["passes"]

    got = first["run"]
    assert _outcomes(got) == _outcomes(want)  # outputs, errors, trajectories, tokens
    errors = sum(1 for r in got["results"] if r["error"])
    assert 0 < errors < len(got["results"])  # the faults did bite, the same way on both
    for r in got["results"]:
        if not r["error"]:
            assert r["output"] == expected_answer(r["variant"], remote.inputs[r["case_id"]])
    assert got["model_calls"] == want["model_calls"]
    assert _winners(first["judge"]["battles"]) == _winners(judged["battles"])
    info = Store(ray_db).run(int(got["run_id"]))
    assert info.status == "finished" and info.results == len(want["results"])

    again = second["run"]
    assert again["run_id"] == got["run_id"] and again["reused_results"] == len(got["results"])
    assert again["model_calls"] == 0  # nothing stored is sent again
    assert _outcomes(again) == _outcomes(got)
    # Judge verdicts that failed under the faults are asked again, as locally; none other.
    failed = sum(b["winner"] == "error" for b in first["judge"]["battles"])
    assert second["judge"]["model_calls"] <= 2 * failed
