"""``python -m benchmarks tie_bench`` with a scripted judge: each mode at margin 0 and at the
margin learned on the calibration part, against people who call ties."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, BaseMessage

from arena.models import register_fake
from arena.outputs import load_preference_set
from tests.support.benchmarks import load_benchmark

LONG = 120  # the scripted judge likes answers longer than this


def _likes_long(messages: list[BaseMessage]) -> AIMessage:
    text = str(messages[-1].content)
    if text.startswith("Write 3 short"):
        return AIMessage("Is it right?")
    found = re.search(r"<answer-\w+>(.*?)</answer-", text, re.S)
    p = 0.9 if found and len(found.group(1).strip()) > LONG else 0.3
    tops = [{"token": "YES", "logprob": math.log(p)}, {"token": "NO", "logprob": math.log(1 - p)}]
    meta = {"logprobs": {"content": [{"token": "YES", "logprob": 0.0, "top_logprobs": tops}]}}
    return AIMessage("YES", response_metadata=meta)


@pytest.mark.system  # judges 14 pairs of the set with ties through the benchmark's entry point
def test_the_tie_table_gives_each_mode_at_margin_0_and_at_the_learned_margin(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    register_fake("judge", [_likes_long], cycle=True)
    bench = load_benchmark("tie_bench")
    db = f"sqlite:///{tmp_path / 'bench.db'}"
    args = ["--db", db, "--judge", "fake:judge", "--modes", "auto", "grades"]
    assert bench.main([*args, "--held-out", "6", "--calibration", "8"]) == 0
    out = capsys.readouterr().out
    held = load_preference_set(bench.set_dir()).held_out()[:6]
    people_ties = sum(p.preferred == 0 for p in held) / 6
    assert "tie bench: 6 held-out pairs of https://github.com/WeOpenML/PandaLM" in out
    assert f"people's tie rate {round(100 * people_ties)}%" in out
    assert "the 8 calibration pairs the margins are learned on" in out
    assert re.search(r"arena commit [0-9a-f]{7,12}", out)
    rows = [line for line in out.splitlines() if line.startswith("fake:judge/")]
    assert [r.split()[0] for r in rows] == ["fake:judge/auto"] * 2 + ["fake:judge/grades"] * 2
    # At margin 0 the grades judge ties exactly where both answers are equally long or short.
    same = sum((len(p.answer_1.strip()) > LONG) == (len(p.answer_2.strip()) > LONG) for p in held)
    assert re.search(rf"0 \(ties only at P = 0\.5\)\s+{round(100 * same / 6)}% of 6", rows[2])
    assert "learned on 8 calibration pairs" in rows[1] and "learned on 8" in rows[3]
    assert "bar (auto, learned margin, held-out): tie rate" in out
