"""Code an agent imports dynamically is part of its version (trial 2, critical finding): the
static fingerprint reads ``import`` statements, so a module loaded with
``importlib.import_module("desk" + "policy")`` was never hashed, and after editing it a rerun
(and the gate, with its database cached in CI) reused the old answers. Now each task records
the project files its process loaded beyond the static code, and the next version hashes
them."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.executors import LocalExecutor
from arena.golden import GoldenDataset
from arena.runner import RunOptions, RunReport, run_suite
from arena.storage import Store
from arena.variants.version import UNRECORDED
from tests.support.dynamic_project import DynamicProject, dynamic_project

pytestmark = pytest.mark.unit


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[DynamicProject]:
    for made in dynamic_project(tmp_path / "proj"):
        monkeypatch.chdir(made.root)  # arena runs from the project's root
        yield made


def _dataset() -> GoldenDataset:
    return GoldenDataset.model_validate(
        {
            "name": "shop",
            "available_tools": [],
            "test_cases": [
                {
                    "id": "S-1",
                    "input": "Where is my refund?",
                    "category": "happy_path",
                    "expected_output_contains": ["5 days"],
                }
            ],
        }
    )


def _run(store: Store, project: DynamicProject, **options: object) -> RunReport:
    return run_suite(store, _dataset(), [project.dynamic()], RunOptions(progress=False, **options))


def test_editing_a_dynamically_imported_file_runs_the_agent_again(
    store: Store, project: DynamicProject
) -> None:
    assert project.policy not in project.dynamic().version.code  # invisible to `import`s
    first = _run(store, project)
    assert "5 days" in (first.results[0].output or "")
    recorded = store.loaded_paths()
    assert project.policy in recorded
    assert not set(recorded) & set(project.dynamic().version.code)  # static ones are not
    again = _run(store, project)
    assert again.resumed and again.reused == 1 and again.model_calls == 0
    assert again.changes == {"dyn": []}
    project.edit(project.policy, "5 days", "15 days")
    project.forget_policy()
    edited = _run(store, project)
    assert not edited.resumed and edited.reused == 0  # before: resumed, the old answer reused
    assert edited.changes == {"dyn": [f"agent code changed: {project.policy}"]}
    assert "15 days" in (edited.results[0].output or "")
    project.edit(project.policy, "15 days", "5 days")
    project.forget_policy()
    back = _run(store, project)
    assert back.run_id == first.run_id and back.reused == 1 and back.model_calls == 0


def test_a_static_import_stays_covered_beside_the_recorded_files(
    store: Store, project: DynamicProject
) -> None:
    _run(store, project)
    version = project.dynamic().version
    assert f"{project.common}/faq.py" in version.code
    assert project.policy in version.loaded and not set(version.loaded) & set(version.code)
    project.edit(f"{project.common}/faq.py", "2 days", "12 days")
    project.forget_modules()
    edited = project.dynamic().version
    assert edited.hash != version.hash
    assert f"agent code changed: {project.common}/faq.py" in edited.changes_since(version)


def test_the_record_is_taken_where_an_executor_runs_the_agent(
    tmp_path: Path, project: DynamicProject
) -> None:
    store = Store(f"sqlite:///{tmp_path / 'executor.db'}")
    executor = LocalExecutor()
    _run(store, project, executor=executor)
    assert project.policy in store.loaded_paths()
    project.edit(project.policy, "5 days", "15 days")
    project.forget_policy()
    edited = _run(store, project, executor=executor)
    assert edited.reused == 0 and "15 days" in (edited.results[0].output or "")


def test_a_recorded_file_the_older_version_never_saw_is_named(
    store: Store, project: DynamicProject
) -> None:
    before = project.dynamic().version  # no run yet: nothing recorded
    _run(store, project)
    project.edit(project.policy, "5 days", "15 days")
    project.forget_policy()
    after = project.dynamic().version
    assert after.hash != before.hash
    assert project.policy in after.loaded
    (line,) = [c for c in after.changes_since(before) if c.startswith(UNRECORDED)]
    assert project.policy in line or line.endswith("more")  # other tests' modules may crowd it
