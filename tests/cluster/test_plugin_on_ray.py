"""A provider and an agent architecture that exist only as an outside package's entry points
run on Ray workers: each worker process finds them on its first lookup."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cluster.cluster import Cluster

pytestmark = pytest.mark.system


def test_plugin_provider_and_agent_run_on_ray_workers(cluster: Cluster, tmp_path: Path) -> None:
    case = {"id": "R-1", "input": "hello ray", "category": "happy_path"}
    dataset = tmp_path / "golden.json"
    dataset.write_text(json.dumps({"name": "r", "available_tools": [], "test_cases": [case]}))
    variant = tmp_path / "parrot.yaml"
    variant.write_text("name: parrot\nagent: parrot-agent\nmodel: {spec: 'parrot:any'}\n")
    args = ["run", "--variants", str(variant), "--dataset", str(dataset), "--json"]
    doc = cluster.arena_json(
        [
            *args,
            "--executor",
            "ray",
            "--ray-address",
            cluster.address,
            "--db",
            f"sqlite:///{tmp_path / 'ray.db'}",
        ]
    )
    results = doc["results"]
    assert isinstance(results, list) and len(results) == 1
    assert results[0]["error"] is None
    assert results[0]["output"] == "The parrot says: hello ray"
