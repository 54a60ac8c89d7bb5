"""Shared fixtures: an isolated cache and database per test, scripted fake models.

Also two rules that keep ``pytest -m unit`` fast: a test marked ``system`` itself is a system
test even in a module marked ``unit`` (the closest of the two markers wins), and unit tests
that use more than UNIT_CPU_BUDGET_S of CPU are listed at the end of the run, to be made
faster or marked ``system``.
"""

from __future__ import annotations

import sys
import time
from collections import OrderedDict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from arena.paths import data_dir

UNIT_CPU_BUDGET_S = 0.5
_SPEED = ("unit", "system")
_slow_units: dict[str, float] = {}

# Collection writes the bytecode of what it imports (the checkout's packages, and pytest's
# rewrite of each test module) even where PYTHONDONTWRITEBYTECODE is set, as on CI's image: the
# arena commands, workers and nested sessions the tests start then read it instead of compiling
# it again, each. The tests themselves write none: a test that edits a file of its own in place
# within one second (same size) must never run a stale cached copy of it.
_DONT_WRITE_BYTECODE = sys.dont_write_bytecode
sys.dont_write_bytecode = False


SHARED_SCOPES = {
    "tests/packaging/": "tests/packaging (one built wheel)",
    "tests/cluster/": "tests/cluster (one Ray cluster)",
    "tests/examples/test_own_agent_tool_errors.py": "tests/examples (gated_template)",
    "tests/examples/test_own_agent_versions.py": "tests/examples (gated_template)",
}
"""Test files (by path prefix) that share one expensive fixture: with ``--dist loadfile`` they
form one scope, run on one xdist worker in a row, so the fixture is built once (and a
package-scoped one is torn down after its last test)."""

LONGEST_SCOPES = ("tests/packaging (one built wheel)", "tests/cluster (one Ray cluster)")
"""Scopes that run for minutes on their own: they start first, so that no worker is left with
one of them at the end while the other has nothing to do (xdist otherwise starts the scopes
with the most tests first)."""


def shared_scope(nodeid: str) -> str:
    """The xdist scope of a test: its file, or the shared name of its file's group."""
    path = nodeid.split("::", 1)[0]
    return next((name for prefix, name in SHARED_SCOPES.items() if path.startswith(prefix)), path)


def longest_first(workqueue: OrderedDict[str, Any]) -> None:
    """Move the :data:`LONGEST_SCOPES` in ``workqueue`` to its front, in that order."""
    for scope in reversed(LONGEST_SCOPES):
        if scope in workqueue:
            workqueue.move_to_end(scope, last=False)


class _SharedScopes:
    """pytest-xdist plugin: ``--dist loadfile``, with the files of :data:`SHARED_SCOPES`
    grouped."""

    @staticmethod
    def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
        if config.getvalue("dist") != "loadfile":
            return None
        from xdist.scheduler import LoadFileScheduling

        class SharedFileScheduling(LoadFileScheduling):  # type: ignore[misc]
            def _split_scope(self, nodeid: str) -> str:
                return shared_scope(nodeid)

            def _assign_work_unit(self, node: Any) -> None:
                if not getattr(self, "_ordered", False):  # the first unit: the queue is full
                    self._ordered = True
                    longest_first(self.workqueue)
                super()._assign_work_unit(node)

        return SharedFileScheduling(config, log)


def pytest_configure(config: pytest.Config) -> None:
    """Group the files of :data:`SHARED_SCOPES` when pytest-xdist distributes the tests."""
    if config.pluginmanager.hasplugin("xdist"):
        config.pluginmanager.register(_SharedScopes(), "arena-shared-scopes")


def pytest_collection_finish(session: pytest.Session) -> None:
    """After collection: bytecode is written again only as the environment says."""
    sys.dont_write_bytecode = _DONT_WRITE_BYTECODE


def _closest_speed_wins(item: pytest.Item) -> None:
    """Hide inherited ``unit``/``system`` markers from ``item`` when it carries the other one
    itself, so ``-m unit`` and ``-m system`` see only the closest."""
    own = {mark.name for mark in item.own_markers if mark.name in _SPEED}
    if len(own) != 1:
        return
    (keep,) = own
    inherited = item.iter_markers_with_node

    def iter_markers_with_node(name: str | None = None) -> Iterator[tuple[Any, pytest.Mark]]:
        for node, mark in inherited(name):
            if node is item or mark.name not in _SPEED or mark.name == keep:
                yield node, mark

    item.iter_markers_with_node = iter_markers_with_node  # type: ignore[method-assign]


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Before ``-m`` selects: the closest of ``unit``/``system`` decides (see above)."""
    for item in items:
        _closest_speed_wins(item)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    """Note unit tests over the CPU budget (CPU, not wall time: a busy machine is no excuse)."""
    started = time.process_time()
    yield
    used = time.process_time() - started
    if used > UNIT_CPU_BUDGET_S and item.get_closest_marker("unit") is not None:
        _slow_units[item.nodeid] = used


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """List the unit tests over the CPU budget."""
    if not _slow_units:
        return
    terminalreporter.section(
        f"unit tests over {UNIT_CPU_BUDGET_S:g} s of CPU: make them faster or mark them system"
    )
    for nodeid, used in sorted(_slow_units.items(), key=lambda kv: -kv[1]):
        terminalreporter.write_line(f"{used:6.2f} s  {nodeid}")


@pytest.fixture(autouse=True)
def _isolated_env(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Keep sandboxes out of the user's cache, and retries instant in unit tests."""
    if request.node.get_closest_marker("integration") is None:
        monkeypatch.setenv("ARENA_RETRY_DELAY", "0")
    monkeypatch.delenv("ARENA_DB_URL", raising=False)
    monkeypatch.delenv(
        "ARENA_FAKE_SCRIPTS", raising=False
    )  # no scripts file unless a test sets one
    monkeypatch.setenv("ARENA_SANDBOX_DIR", str(tmp_path / "sandboxes"))
    # streamlit.testing runs app.py as ``__main__`` and leaves it there; worker processes
    # started later would run the app again to rebuild their ``__main__``.
    monkeypatch.setitem(sys.modules, "__main__", sys.modules["__main__"])


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    """A fresh SQLite database file."""
    return f"sqlite:///{tmp_path / 'arena.db'}"


@pytest.fixture
def store(db_url: str):  # type: ignore[no-untyped-def]
    """A Store on a fresh SQLite database."""
    from arena.storage import Store

    return Store(db_url)


@pytest.fixture
def golden_path() -> Path:
    """The shipped golden dataset."""
    return data_dir() / "golden" / "research_agent.json"


@pytest.fixture
def variants_dir() -> Path:
    """The shipped variants."""
    return data_dir() / "variants"


@pytest.fixture(scope="session")
def local_db_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    """One database for every test on the real local model, so they share its cache."""
    return f"sqlite:///{tmp_path_factory.mktemp('local') / 'arena.db'}"


@pytest.fixture(autouse=True)
def _registries_restored() -> Iterator[None]:
    """What a test registers (a docs example's judge mode, a golden check) ends with it."""
    from contextlib import ExitStack

    from arena.extend import REGISTRIES

    with ExitStack() as stack:
        for registry in REGISTRIES.values():
            stack.enter_context(registry.scope())
        yield


@pytest.fixture(autouse=True)
def _project_roots_restored() -> Iterator[None]:
    """The folders an `arena.yaml` made importable end with the test that read it (one CLI
    process reads one project; a test process reads many, some with a package of one name)."""
    from arena.factories import _imports

    roots = list(_imports._CONFIG_ROOTS)
    yield
    _imports._CONFIG_ROOTS[:] = roots
