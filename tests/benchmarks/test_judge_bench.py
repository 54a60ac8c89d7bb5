"""benchmarks/judge_bench.py on a stored run with a scripted judge: the table and the misses."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest
from langchain_core.messages import AIMessage, BaseMessage

from arena.models import register_fake
from arena.storage import Store
from tests.judges.test_checklist import _run, _yes
from tests.support.benchmarks import load_benchmark


def _bench() -> ModuleType:
    return load_benchmark("judge_bench")


def _wrong_on_case_0(messages: list[BaseMessage]) -> AIMessage:
    """Right on every case but C-0, where it prefers the wrong answer on every item."""
    text = str(messages[-1].content)
    good = "300" in text.split("Answer:\n", 1)[1].split("\n\n", 1)[0]
    if "#0" in text:
        good = not good
    if "contain" in text.rsplit("\n\n", 1)[1]:  # the forbidden item wants NO
        return _yes(0.1 if good else 0.9)
    return _yes(0.9 if good else 0.2)


@pytest.mark.system  # a run and a judging through the benchmark's own entry point
def test_the_bench_prints_every_row_and_the_misses(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = f"sqlite:///{tmp_path / 'bench.db'}"
    run_id = _run(Store(db))
    register_fake("judge", [_wrong_on_case_0], cycle=True)
    args = ["--db", db, "--run", str(run_id), "--judge", "fake:judge", "--modes", "checklist"]
    assert _bench().main([*args, "--misses"]) == 0
    out = capsys.readouterr().out
    table, misses = out.split("misses of ", 1)
    # 3 decisive pairs (one per case), 2 right: 67%, in every row of the checklist.
    rows = [line for line in table.splitlines() if line[:3] in {f"{i}. " for i in range(1, 10)}]
    assert len(rows) >= 9 and all(" of 3 " in row for row in rows)
    assert "67% [" in rows[0] and "fake:judge/checklist" in rows[0]
    assert "(min, no reference item)" in table and "(logit)" in table
    # The one miss names its case, both golden marks and the judge's items.
    assert misses.count("\n- ") == 1 and "- C-0 " in misses
    assert "P(YES)=" in misses and "golden model_" in misses
