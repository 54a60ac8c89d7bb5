"""``pytest --arena``: a team's golden set as pytest tests (the entry point ``pytest11``).

Off unless asked: without ``--arena`` the plugin adds its options and does nothing else.
With it, the golden dataset is collected as one test per case (named by the case id, so
``-k``, ``-x`` and ``pytest-xdist`` work), each case runs the variant's agent (its stored
results reused: a rerun sends no model call), is scored like ``arena score`` and held to the
gate's per-case rules (a critical or happy-path case must pass, a pending case is ``xfail``,
every repeat must pass: pass^k). The results are stored as the run ``arena run`` would make,
and the session ends with the suite verdict against the baseline (``arena check``'s rules);
a failing verdict fails the session. Settings: ``--arena-NAME``, the ini key ``arena_NAME``,
else ``arena.yaml`` (see :data:`arena.pytest_plugin._settings.SETTINGS`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from arena.pytest_plugin._items import SESSION, GoldenFile, GoldenItem, case_failures
from arena.pytest_plugin._settings import SETTINGS, Settings, resolve

__all__ = ["SESSION", "GoldenFile", "GoldenItem", "Settings", "case_failures", "resolve"]


def pytest_addoption(parser: pytest.Parser) -> None:
    """``--arena`` and ``--arena-NAME`` for every setting, with ini keys ``arena_NAME``."""
    group = parser.getgroup("arena", "agent-arena's golden set as tests")
    group.addoption(
        "--arena", action="store_true", default=False, help="run the golden set as tests"
    )
    for name, text in SETTINGS.items():
        group.addoption(f"--arena-{name}", dest=f"arena_{name}", default=None, help=text)
        parser.addini(f"arena_{name}", text, default=None)


def _worker(config: pytest.Config) -> bool:
    return hasattr(config, "workerinput")


@pytest.hookimpl(trylast=True)
def pytest_configure(config: pytest.Config) -> None:
    """Open the session's run and add the dataset to what pytest collects."""
    if not config.getoption("arena", default=False):
        return
    from arena.errors import InputError
    from arena.pytest_plugin._session import ArenaSession

    try:
        arena = ArenaSession.open(resolve(config))
    except InputError as exc:
        raise pytest.UsageError(f"arena: {exc}") from None
    config.stash[SESSION] = arena
    dataset = Path(arena.settings.dataset).absolute()
    covered = any(_within(dataset, Path(arg.split("::")[0]).absolute()) for arg in config.args)
    if not covered:
        config.args.append(str(dataset))


def _within(path: Path, root: Path) -> bool:
    return path == root or root in path.parents


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> Any:
    """The dataset file is a :class:`GoldenFile`."""
    arena = parent.config.stash.get(SESSION, None)
    if arena is None or file_path.absolute() != Path(arena.settings.dataset).absolute():
        return None
    return GoldenFile.from_parent(parent, path=file_path)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the golden items for LangSmith's pytest plugin when it is active and configured."""
    if SESSION not in config.stash:
        return
    from arena.langsmith._testing import langsmith_active

    if langsmith_active(config):
        for item in items:
            if isinstance(item, GoldenItem):
                item.add_marker(pytest.mark.langsmith)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """On the main process: the suite verdict; a failing one fails the session."""
    arena = session.config.stash.get(SESSION, None)
    if arena is None or _worker(session.config):
        return
    arena.finish()
    if arena.verdict is not None and not arena.verdict.passed and session.exitstatus == 0:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    """What the session ran and sent, and the suite verdict (or why there is none)."""
    arena = config.stash.get(SESSION, None)
    if arena is None or _worker(config):
        return
    from arena.gate._report import gate_text

    write = terminalreporter.write_line
    terminalreporter.section("agent-arena")
    write(
        f"run {arena.opened.run_id} in {arena.settings.db}: {arena.variant.name} on "
        f"{len(arena.cases)} case(s) of {arena.dataset.name} (tier {arena.settings.tier}, "
        f"repeats {arena.settings.repeats}); {arena.calls_made()} model call(s) sent"
    )
    if arena.verdict is not None:
        for line in gate_text(arena.verdict).rstrip().splitlines():
            write(line)
    elif arena.skipped_verdict:
        write(f"suite verdict skipped: {arena.skipped_verdict}")
