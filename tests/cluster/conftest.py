"""One real two-node Ray cluster on 127.0.0.1 for every cluster test (it takes a while to
start), with the fault server's API key, instant retries and the test plugin package
(tests/plugin_package) in its nodes' environment."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.cluster.cluster import Cluster, ray_cluster
from tests.faults.scenario import API_KEY, KEY_ENV
from tests.plugin.conftest import install_plugin


@pytest.fixture(scope="package")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    """Head and worker node, each with one CPU; stopped after the last cluster test (an idle
    cluster keeps about a third of a core busy: it must not outlive its tests)."""
    try:
        import ray  # noqa: F401
    except ImportError:
        pytest.fail("the cluster tests need Ray: pip install -e '.[dev]' (or '.[ray]')")
    sandboxes = tmp_path_factory.mktemp("ray-sandboxes")
    plugin = install_plugin(tmp_path_factory.mktemp("ray-plugin") / "site")
    env = {
        "PYTHONPATH": str(plugin),  # the test plugin's entry points, on every node
        KEY_ENV: API_KEY,
        "ARENA_RETRIES": "2",
        "ARENA_RETRY_DELAY": "0",
        "ARENA_SANDBOX_DIR": str(sandboxes),
    }
    with ray_cluster(env) as running:
        yield running
