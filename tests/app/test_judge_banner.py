"""The judge banner, first on Judge health: the selected judge's decisive-pair accuracy, and a
clear warning when it cannot beat chance (AppTest, in-process, scripted health reports)."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.system


def _report(accuracy: float | None, low: float, high: float, pairs: int) -> dict[str, Any]:
    found = None
    if accuracy is not None:
        found = {
            "accuracy": accuracy,
            "ci_low": low,
            "ci_high": high,
            "pairs": pairs,
            "correct": round(accuracy * pairs),
            "beats_chance": low > 0.5,
        }
    return {"health": [{"judge_key": "k1", "judge": "j", "accuracy": found}]}


def _banner() -> None:
    from arena.app.judge_banner import judge_accuracy_banner

    judge_accuracy_banner("sqlite://", 1, "k1", "local:qwen/logprobs")


@pytest.mark.parametrize(
    ("report", "kind", "text"),
    [
        (_report(0.43, 0.14, 0.71, 14), "warning", "cannot beat chance on this run"),
        (
            _report(0.88, 0.76, 0.97, 52),
            "success",
            "**88%** (95% interval 76%–97%), right on 46 of 52",
        ),
        (_report(None, 0, 0, 0), "info", "unmeasured"),
    ],
)
def test_the_banner_says_whether_the_judge_beats_chance(
    monkeypatch: pytest.MonkeyPatch, report: dict[str, Any], kind: str, text: str
) -> None:
    from streamlit.testing.v1 import AppTest

    from arena.app import data

    monkeypatch.setattr(data, "load_health", lambda url, run_id: report)
    at = AppTest.from_function(_banner, default_timeout=30)
    at.run()
    assert not at.exception
    shown = {"warning": at.warning, "success": at.success, "info": at.info}
    assert [e.value for e in shown[kind]] and text in shown[kind][0].value
    assert sum(len(v) for v in shown.values()) == 1
    if kind == "warning":
        assert "14 decisive pairs" in at.warning[0].value and "43%" in at.warning[0].value


def _trust_report(selective: dict[str, Any] | None) -> dict[str, Any]:
    report = _report(0.88, 0.76, 0.97, 52)
    report["health"][0].update(
        selective=selective,
        self_judged=24,
        battles=24,
        longer_answer_win_rate=0.74,
        self_preference={"summary": "picks its own model's answer in 9 of 12 decisive pairs"},
    )
    return report


@pytest.mark.parametrize(
    ("selective", "says"),
    [
        ({"summary": "not calibrated: no labelled pairs (dataset shop)"}, "not calibrated"),
        (
            {
                "summary": "coverage 55% of 24 battles on dataset shop: agreement with people "
                "at least 80% with probability at least 90% (calibrated on 40 labelled pairs "
                "(golden 30, votes 10))"
            },
            "calibrated on 40 labelled pairs",
        ),
    ],
)
def test_the_banner_says_what_backs_the_judge_and_its_biases(
    monkeypatch: pytest.MonkeyPatch, selective: dict[str, Any], says: str
) -> None:
    from streamlit.testing.v1 import AppTest

    from arena.app import data

    monkeypatch.setattr(data, "load_health", lambda url, run_id: _trust_report(selective))
    at = AppTest.from_function(_banner, default_timeout=30)
    at.run()
    assert not at.exception
    assert len(at.success) == 1 and len(at.info) == 1 and len(at.warning) == 1
    shown = at.info[0].value.replace("\\", "")
    assert shown.startswith("Selective verdicts: ") and says in shown
    biases = at.warning[0].value.replace("\\", "")
    assert "also a contestant's model: 24 of 24 battles are self-judged" in biases
    assert "picks its own model's answer in 9 of 12" in biases
    assert "prefers longer answers: the longer answer won 74%" in biases


def test_the_health_table_shows_coverage_and_what_backs_each_judge() -> None:
    from arena.app.health_view import health_table

    row = {
        "judge": "j",
        "judge_key": "k1",
        "battles": 24,
        "position_consistency": 1.0,
        "first_position_win_rate": 0.5,
        "longer_answer_win_rate": 0.74,
        "tie_rate": 0.1,
        "error_rate": 0.0,
        "self_judged": 0,
        "warnings": [],
    }
    backed = {
        "coverage": 0.55,
        "coverage_all": 0.4,
        "summary": "coverage 55% of 20 decisive pairs (40% of all 24 battles) ...",
    }
    bare = {"coverage": None, "summary": "not calibrated: no labelled pairs (dataset shop)"}
    table = health_table([{**row, "selective": backed}, {**row, "selective": bare}, row])
    assert list(table["Coverage"]) == ["55%", "-", "-"]
    assert list(table["Coverage (all battles)"]) == ["40%", "-", "-"]
    assert list(table["Selective verdicts"]) == [backed["summary"], bare["summary"], "-"]
