"""Task sandboxes in real runs: one fresh folder per execution, unique per database and run,
never built from a raw case id, and removed only inside the sandbox root."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

from arena.golden import GoldenCase, GoldenDataset
from arena.models import CachingChatModel, make_chat_model
from arena.runner import RunOptions, run_suite, run_suite_async
from arena.runner._execute import execute_task
from arena.runner._suite import sandbox_root
from arena.runner._tasks import Task
from arena.storage import Store
from arena.variants.variant import Variant

pytestmark = pytest.mark.unit

PROBE = "tests.agents.hostile_agents:sandbox_prober"


def _variant(name: str = "probe") -> Variant:
    return Variant.model_validate({"name": name, "agent": PROBE, "model": {"spec": "fake:echo"}})


def _dataset(*cases: GoldenCase) -> GoldenDataset:
    cases = cases or (
        GoldenCase.model_validate({"id": "C-1", "input": "hi", "category": "happy_path"}),
    )
    return GoldenDataset.model_validate(
        {"name": "t", "available_tools": ["write_file"], "test_cases": []}
    ).model_copy(update={"test_cases": list(cases)})


def _seen(output: str) -> tuple[str, list[str]]:
    match = re.fullmatch(r"folder=(.*) seen=(.*)", output)
    assert match, output
    return match.group(1), match.group(2).split(",")


def test_two_databases_at_run_1_never_share_a_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ARENA_TEST_SLEEP", "0.3")
    stores = [Store(f"sqlite:///{tmp_path / name}.db") for name in ("one", "two")]
    options = RunOptions(progress=False)

    async def both() -> list[object]:
        return list(
            await asyncio.gather(
                *(run_suite_async(s, _dataset(), [_variant()], options) for s in stores)
            )
        )

    reports = asyncio.run(both())
    assert [r.run_id for r in reports] == [1, 1]  # type: ignore[attr-defined]
    results = [r.results[0] for r in reports]  # type: ignore[attr-defined]
    folders = []
    for result in results:
        assert result.error is None, result.error
        folder, seen = _seen(result.output)
        assert seen == ["probe.txt"]  # its own marker only: not wiped, not shared
        assert result.files == {"probe.txt": folder}
        folders.append(folder)
    assert folders[0] != folders[1]
    root = (tmp_path / "sandboxes").resolve()
    assert all(Path(f).is_relative_to(root) for f in folders)
    assert not any(Path(f).exists() for f in folders)  # removed after the snapshot


def test_two_executions_of_one_task_never_share_a_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two processes on one run (same database, run, variant, case, repeat) at once."""
    monkeypatch.setenv("ARENA_TEST_SLEEP", "0.3")
    variants = [_variant("probe"), _variant("probe")]
    case = _dataset().test_cases[0]
    folder = sandbox_root(1, f"sqlite:///{tmp_path}/x.db") / "probe" / "C-1-r0"

    async def twice() -> list[object]:
        return list(
            await asyncio.gather(
                *(
                    execute_task(
                        Task(v, case, 0),
                        CachingChatModel(
                            factory=lambda c=v.model: make_chat_model(c), identity="echo"
                        ),
                        folder,
                        1,
                        30,
                    )
                    for v in variants
                )
            )
        )

    results = asyncio.run(twice())
    seen = [_seen(r.output) for r in results]  # type: ignore[attr-defined]
    assert seen[0][0] != seen[1][0]
    assert seen[0][1] == seen[1][1] == ["probe.txt"]


@pytest.mark.parametrize("hostile_id", ["../../../victim", "ABSOLUTE", "../victim/..", "."])
def test_a_raw_case_id_never_becomes_a_path(tmp_path: Path, store: Store, hostile_id: str) -> None:
    """Ids are validated at load; even a case built without validation stays inside."""
    victim = tmp_path / "victim-r0"
    victim.mkdir()
    (victim / "precious.txt").write_text("keep")
    case_id = str(tmp_path / "victim") if hostile_id == "ABSOLUTE" else hostile_id
    case = GoldenCase.model_construct(
        **{
            **GoldenCase.model_validate(
                {"id": "x", "input": "hi", "category": "happy_path"}
            ).__dict__,
            "id": case_id,
        }
    )
    report = run_suite(store, _dataset(case), [_variant()], RunOptions(progress=False))
    folder, seen = _seen(report.results[0].output)
    assert seen == ["probe.txt"]
    assert Path(folder).resolve().is_relative_to((tmp_path / "sandboxes").resolve())
    assert (victim / "precious.txt").read_text() == "keep"
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("victim")) == [
        "victim-r0"
    ]
