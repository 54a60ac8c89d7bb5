"""Judge-health warnings: one set of thresholds, shown by `arena judge`, `arena health` and
the app."""

from __future__ import annotations

import json
from typing import Any

import pytest

from arena.judging import JudgeHealth, health_warnings, judge_run
from arena.models import ModelConfig, register_fake
from arena.storage import Store
from judges import JudgeSpec
from tests.judges.test_judges import _prefers_300, _run

pytestmark = pytest.mark.unit


def _health(**figures: float | None) -> JudgeHealth:
    base: dict[str, Any] = dict(
        judge="fake:j/text", judge_key="k", battles=10, judged=10, position_consistency=0.9,
        flip_rate=0.1, first_position_win_rate=0.5, longer_answer_win_rate=0.5, tie_rate=0.2,
        error_rate=0.0, self_judged=0)
    return JudgeHealth(**{**base, **figures})


@pytest.mark.parametrize(("figures", "warnings"), [
    ({}, []),
    ({"position_consistency": 0.8}, []),                      # thresholds are strict
    ({"position_consistency": 0.79}, ["often flips with the order"]),
    ({"first_position_win_rate": 0.66}, ["position bias"]),
    ({"first_position_win_rate": 0.34}, ["position bias"]),
    ({"first_position_win_rate": 0.64}, []),
    ({"longer_answer_win_rate": 0.71}, ["prefers longer answers"]),
    ({"longer_answer_win_rate": 0.1}, []),
    ({"tie_rate": 0.51}, ["mostly ties"]),
    ({"error_rate": 0.11}, ["many unreadable verdicts"]),
    ({"error_rate": 0.1}, []),
    ({"position_consistency": None, "first_position_win_rate": None,
      "longer_answer_win_rate": None, "tie_rate": None, "error_rate": None}, []),
    ({"position_consistency": 0.0, "error_rate": 1.0},
     ["often flips with the order", "many unreadable verdicts"]),
])
def test_health_warnings(figures: dict[str, float | None], warnings: list[str]) -> None:
    assert health_warnings(_health(**figures)) == warnings


def test_arena_health_prints_the_same_warnings_in_text_and_json(
        store: Store, db_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    from arena.cli import main

    run_id = _run(store)
    register_fake("always-a", ["[[A>B]]"], cycle=True)
    biased = JudgeSpec(model=ModelConfig(spec="fake:always-a"))
    judge_run(store, run_id, biased, progress=False)
    register_fake("fair", [_prefers_300], cycle=True)
    judge_run(store, run_id, JudgeSpec(model=ModelConfig(spec="fake:fair")), progress=False)

    assert main(["health", str(run_id), "--json", "--db", db_url]) == 0
    doc = {h["judge_key"]: h for h in json.loads(capsys.readouterr().out)["health"]}
    assert doc[biased.key]["warnings"] == ["often flips with the order", "position bias",
                                           "mostly ties"]
    fair = next(h for key, h in doc.items() if key != biased.key)
    assert fair["warnings"] == []

    assert main(["health", str(run_id), "--db", db_url]) == 0
    out = capsys.readouterr().out
    assert (f"warning: judge fake:always-a/text ({biased.key}): often flips with the order, "
            "position bias, mostly ties") in out
    assert out.count("warning:") == 1

    assert main(["judge", str(run_id), "--judge", "fake:always-a/text", "--json",
                 "--db", db_url]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["health"]["warnings"] == doc[biased.key]["warnings"]
