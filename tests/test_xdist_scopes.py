"""The xdist scopes of ``.ci/run``'s offline step (``--dist loadfile``): a file's tests are one
scope, and the files sharing one expensive fixture (tests/conftest.py ``SHARED_SCOPES``) are
one scope together, so that fixture is built once per run, not once per worker."""

from __future__ import annotations

from collections import OrderedDict
from pathlib import Path

import pytest

from tests.conftest import LONGEST_SCOPES, SHARED_SCOPES, longest_first, shared_scope

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parents[1]


def test_a_files_tests_are_one_scope() -> None:
    assert shared_scope("tests/test_layout.py::test_a") == "tests/test_layout.py"
    assert shared_scope("tests/app/test_app.py::test_b[x::y]") == "tests/app/test_app.py"


@pytest.mark.parametrize(
    ("folder", "scope"),
    [
        ("cluster", "tests/cluster (one Ray cluster)"),
        ("packaging", "tests/packaging (one built wheel)"),
    ],
)
def test_every_file_of_a_shared_folder_is_in_its_one_scope(folder: str, scope: str) -> None:
    files = sorted((ROOT / "tests" / folder).glob("test_*.py"))
    assert len(files) >= 4
    assert {shared_scope(f"{f.relative_to(ROOT).as_posix()}::test_x") for f in files} == {scope}


def test_the_gated_example_files_are_one_scope_and_every_listed_path_exists() -> None:
    assert shared_scope("tests/examples/test_own_agent_tool_errors.py::t") == shared_scope(
        "tests/examples/test_own_agent_versions.py::t"
    )
    assert shared_scope("tests/examples/test_own_agent_example.py::t") == (
        "tests/examples/test_own_agent_example.py"
    )
    for prefix in SHARED_SCOPES:
        assert (ROOT / prefix).exists(), prefix


def test_the_longest_scopes_start_first_and_the_rest_keep_their_order() -> None:
    assert set(LONGEST_SCOPES) <= set(SHARED_SCOPES.values())
    queue = OrderedDict.fromkeys(["tests/a.py", LONGEST_SCOPES[1], "tests/b.py", LONGEST_SCOPES[0]])
    longest_first(queue)
    assert list(queue) == [*LONGEST_SCOPES, "tests/a.py", "tests/b.py"]
    partial = OrderedDict.fromkeys(["tests/a.py", LONGEST_SCOPES[1]])
    longest_first(partial)  # a scope -m left out is no error
    assert list(partial) == [LONGEST_SCOPES[1], "tests/a.py"]
