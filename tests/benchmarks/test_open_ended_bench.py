"""``python -m benchmarks judge_bench --open-ended`` with a scripted judge: each mode and the fitted
combination against people on the shipped set's held-out pairs."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, BaseMessage

from arena.models import register_fake
from arena.outputs import load_preference_set
from judges._open_ended import agreement_with_people
from tests.support.benchmarks import load_benchmark

LONG = 200  # the scripted judge likes answers longer than this


def _likes_long(messages: list[BaseMessage]) -> AIMessage:
    found = re.search(r"<answer-\w+>(.*?)</answer-", str(messages[-1].content), re.S)
    p = 0.9 if found and len(found.group(1).strip()) > LONG else 0.3
    tops = [{"token": "YES", "logprob": math.log(p)}, {"token": "NO", "logprob": math.log(1 - p)}]
    meta = {"logprobs": {"content": [{"token": "YES", "logprob": 0.0, "top_logprobs": tops}]}}
    return AIMessage("YES", response_metadata=meta)


@pytest.mark.system  # judges 16 pairs of the shipped set through the benchmark's entry point
def test_the_open_ended_table_measures_each_mode_on_the_held_out_pairs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    register_fake("judge", [_likes_long], cycle=True)
    db = f"sqlite:///{tmp_path / 'bench.db'}"
    args = ["--db", db, "--judge", "fake:judge", "--modes", "grades", "checklist"]
    bench = load_benchmark("judge_bench")
    assert bench.main([*args, "--open-ended", "--held-out", "4", "--calibration", "12"]) == 0
    out = capsys.readouterr().out
    assert "4 held-out pairs" in out and "12 calibration pairs" in out
    # What the scripted grades judge must score: the longer side when exactly one is long.
    held = load_preference_set().held_out()[:4]
    judged = []
    for pair in held:
        long_1, long_2 = len(pair.answer_1.strip()) > LONG, len(pair.answer_2.strip()) > LONG
        judged.append(0 if long_1 == long_2 else (1 if long_1 else 2))
    figures = agreement_with_people([p.preferred for p in held], judged)
    row = next(line for line in out.splitlines() if line.startswith("fake:judge/grades"))
    assert f"{round(100 * (figures.with_ties or 0))}% of 4" in row
    assert any(line.startswith("fake:judge/checklist") for line in out.splitlines())
    assert "combination of 2 modes (fitted on 12 pairs)" in out
    assert "weights on log-odds: fake:judge/grades" in out
    # The choice step: every candidate on both parts, one chosen on the 12 calibration pairs.
    assert "highest agreement with ties on the 12 calibration pairs" in out
    assert "fake:judge/checklist, forced choice" in out
    assert "combination of grades + checklist + length (fitted on 12 calibration pairs)" in out
    assert sum(line.startswith("* ") for line in out.splitlines()) == 1
    assert "chosen: fake:judge/" in out or "chosen: combination" in out
    assert "selective, chosen: 200 random splits (12 calibration / 4 test pairs)" in out
