"""Issue 46, "Stale": a module the agent loads with ``importlib.import_module`` was outside
its version, so a database kept between runs reused old answers after that module changed.
Now an import hook, active only while the factory builds and runs the agent and recording in
that agent's context only, notes the project files it loaded; the next run's version hashes
them. Last round's attempt recorded every project module of the process, and in the full
suite the versions of unrelated runs drifted: the tests below run unrelated agents in one
process (one run, and one after the other) and check that neither takes the other's files."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.executors import LocalExecutor
from arena.factories import _loaded
from arena.factories._loaded import hook_installed
from arena.golden import GoldenDataset
from arena.runner import RunOptions, RunReport, run_suite
from arena.storage import Store
from arena.variants.variant import Variant
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
            "test_cases": [{"id": "S-1", "input": "Where is my refund?", "category": "happy_path"}],
        }
    )


def _run(store: Store, variants: list[Variant], **options: object) -> RunReport:
    return run_suite(store, _dataset(), variants, RunOptions(progress=False, **options))


def _output(report: RunReport, name: str) -> str:
    (result,) = [r for r in report.results if r.variant == name]
    assert result.error is None, result.error  # say why the agent failed, not only ''
    return result.output or ""


def test_editing_a_dynamically_imported_file_runs_the_agent_again(
    store: Store, project: DynamicProject
) -> None:
    assert project.policy not in project.dynamic().version.code  # invisible to `import`s
    first = _run(store, [project.dynamic()])
    assert "5 days" in _output(first, "dyn")
    static = project.dynamic().version.static_hash
    assert set(store.loaded_files(static)) == {project.policy}  # only what it loaded
    again = _run(store, [project.dynamic()])
    assert again.run_id == first.run_id and again.reused == 1 and again.model_calls == 0
    project.edit(project.policy, "5 days", "15 days")
    project.forget_policy()
    edited = _run(store, [project.dynamic()])
    assert edited.run_id != first.run_id and edited.reused == 0  # before: the old answer
    assert "15 days" in _output(edited, "dyn")
    assert any(project.policy in line for line in edited.changes["dyn"])
    project.edit(project.policy, "15 days", "5 days")
    project.forget_policy()
    back = _run(store, [project.dynamic()])
    assert back.run_id == first.run_id and back.reused == 1 and back.model_calls == 0


def test_two_unrelated_agents_in_one_process_keep_their_own_versions(
    store: Store, project: DynamicProject
) -> None:
    plain_before = project.plain().version
    both = _run(store, [project.dynamic(), project.plain()])  # one run, side by side
    assert "5 days" in _output(both, "dyn")
    assert set(store.loaded_files(project.dynamic().version.static_hash)) == {project.policy}
    assert store.loaded_files(plain_before.static_hash) == {}  # policy was in the process
    alone = _run(store, [project.plain()])  # after the other, policy still imported
    assert store.loaded_files(plain_before.static_hash) == {}
    assert store.covering(project.plain()).version_hash == plain_before.hash
    project.edit(project.policy, "5 days", "15 days")  # the other agent's file
    project.forget_policy()
    again = _run(store, [project.plain()])  # not its file: nothing to redo
    assert again.run_id == alone.run_id and again.reused == 1 and again.model_calls == 0
    assert not hook_installed()  # the hook is in place only while an agent is built and run
    assert importlib.import_module is _loaded._ORIGINAL_IMPORT_MODULE


def test_the_record_is_taken_where_an_executor_runs_the_agent(
    tmp_path: Path, project: DynamicProject
) -> None:
    store = Store(f"sqlite:///{tmp_path / 'executor.db'}")
    executor = LocalExecutor()
    _run(store, [project.dynamic()], executor=executor)
    assert set(store.loaded_files(project.dynamic().version.static_hash)) == {project.policy}
    project.edit(project.policy, "5 days", "15 days")
    project.forget_policy()
    edited = _run(store, [project.dynamic()], executor=executor)
    assert edited.reused == 0 and "15 days" in _output(edited, "dyn")
