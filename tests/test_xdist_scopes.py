"""The xdist scopes of ``.ci/run``'s offline step (``--dist loadfile``): a file's tests are one
scope, and the files sharing one expensive fixture (tests/conftest.py ``SHARED_SCOPES``) are
one scope together, so that fixture is built once per run, not once per worker."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import SHARED_SCOPES, shared_scope

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parents[1]


def test_a_files_tests_are_one_scope() -> None:
    assert shared_scope("tests/test_layout.py::test_a") == "tests/test_layout.py"
    assert shared_scope("tests/app/test_app.py::test_b[x::y]") == "tests/app/test_app.py"


def test_every_cluster_file_is_in_the_one_ray_scope() -> None:
    files = sorted((ROOT / "tests" / "cluster").glob("test_*.py"))
    assert len(files) >= 4
    scopes = {shared_scope(f"{f.relative_to(ROOT).as_posix()}::test_x") for f in files}
    assert scopes == {"tests/cluster (one Ray cluster)"}


def test_the_gated_example_files_are_one_scope_and_every_listed_path_exists() -> None:
    assert shared_scope("tests/examples/test_own_agent_tool_errors.py::t") == shared_scope(
        "tests/examples/test_own_agent_versions.py::t"
    )
    assert shared_scope("tests/examples/test_own_agent_example.py::t") == (
        "tests/examples/test_own_agent_example.py"
    )
    for prefix in SHARED_SCOPES:
        assert (ROOT / prefix).exists(), prefix
