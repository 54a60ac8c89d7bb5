"""The Leaderboard's judge banner: the selected judge's decisive-pair accuracy, and a clear
warning when it cannot beat chance (AppTest, in-process, scripted health reports)."""

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
        (_report(0.88, 0.76, 0.97, 52), "success", "**88%** (95% interval 76–97%) on 52"),
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
