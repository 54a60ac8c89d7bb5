"""Judge health: warnings (one set of thresholds, shown by `arena judge`, `arena health` and
the app), Cohen's kappa, agreement between judges and with human labels."""

from __future__ import annotations

import json
from typing import Any

import pytest

from arena.battles import judge_run
from arena.models import ModelConfig, register_fake
from arena.storage import Store
from arena.trust import JudgeHealth, cohen_kappa, health_warnings
from judges import JudgeSpec
from tests.battles.test_judges import _prefers_300, _run, _spec

pytestmark = pytest.mark.unit


def _health(**figures: float | None) -> JudgeHealth:
    base: dict[str, Any] = dict(
        judge="fake:j/text",
        judge_key="k",
        battles=10,
        judged=10,
        position_consistency=0.9,
        flip_rate=0.1,
        first_position_win_rate=0.5,
        longer_answer_win_rate=0.5,
        tie_rate=0.2,
        error_rate=0.0,
        self_judged=0,
    )
    return JudgeHealth(**{**base, **figures})


@pytest.mark.parametrize(
    ("figures", "warnings"),
    [
        ({}, []),
        ({"position_consistency": 0.8}, []),  # thresholds are strict
        ({"position_consistency": 0.79}, ["often flips with the order"]),
        ({"first_position_win_rate": 0.66}, ["position bias"]),
        ({"first_position_win_rate": 0.34}, ["position bias"]),
        ({"first_position_win_rate": 0.64}, []),
        ({"longer_answer_win_rate": 0.71}, ["prefers longer answers"]),
        ({"longer_answer_win_rate": 0.1}, []),
        ({"tie_rate": 0.51}, ["mostly ties"]),
        ({"error_rate": 0.11}, ["many unreadable verdicts"]),
        ({"error_rate": 0.1}, []),
        (
            {
                "position_consistency": None,
                "first_position_win_rate": None,
                "longer_answer_win_rate": None,
                "tie_rate": None,
                "error_rate": None,
            },
            [],
        ),
        (
            {"position_consistency": 0.0, "error_rate": 1.0},
            ["often flips with the order", "many unreadable verdicts"],
        ),
    ],
)
def test_health_warnings(figures: dict[str, float | None], warnings: list[str]) -> None:
    assert health_warnings(_health(**figures)) == warnings


@pytest.mark.system  # end to end (runs, judging, storage): too slow for a unit test
def test_arena_health_prints_the_same_warnings_in_text_and_json(
    store: Store, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from arena.cli import main

    run_id = _run(store)
    register_fake("always-a", ["[[A>B]]"], cycle=True)
    biased = JudgeSpec(model=ModelConfig(spec="fake:always-a"))
    judge_run(store, run_id, biased, progress=False)
    register_fake("fair", [_prefers_300], cycle=True)
    judge_run(store, run_id, JudgeSpec(model=ModelConfig(spec="fake:fair")), progress=False)

    assert main(["health", str(run_id), "--json", "--db", db_url]) == 0
    doc = {h["judge_key"]: h for h in json.loads(capsys.readouterr().out)["health"]}
    # Every battle a tie: no decisive pair goes to the golden winner.
    assert doc[biased.key]["warnings"] == [
        "often flips with the order",
        "position bias",
        "mostly ties",
        "cannot beat chance on decisive pairs",
    ]
    assert doc[biased.key]["accuracy"]["accuracy"] == 0.0
    fair = next(h for key, h in doc.items() if key != biased.key)
    assert fair["warnings"] == []

    assert main(["health", str(run_id), "--db", db_url]) == 0
    out = capsys.readouterr().out
    assert (
        f"warning: judge fake:always-a/text ({biased.key}): often flips with the order, "
        "position bias, mostly ties, cannot beat chance on decisive pairs"
    ) in out
    assert out.count("warning:") == 1

    assert (
        main(["judge", str(run_id), "--judge", "fake:always-a/text", "--json", "--db", db_url]) == 0
    )
    report = json.loads(capsys.readouterr().out)
    assert report["health"]["warnings"] == doc[biased.key]["warnings"]


@pytest.mark.parametrize(
    ("left", "right", "percent", "kappa"),
    [
        (["a", "a", "b", "b"], ["a", "a", "b", "b"], 1.0, 1.0),
        (["a", "b", "a", "b"], ["b", "a", "b", "a"], 0.0, -1.0),
        # Hand-computed: po = 0.7; pe = 0.5*0.6 + 0.5*0.4 = 0.5; kappa = 0.4.
        (["a"] * 5 + ["b"] * 5, ["a"] * 4 + ["b"] + ["a"] * 2 + ["b"] * 3, 0.7, 0.4),
    ],
)
def test_cohen_kappa(left: list[str], right: list[str], percent: float, kappa: float) -> None:
    result = cohen_kappa(left, right)
    assert result.percent == pytest.approx(percent) and result.kappa == pytest.approx(kappa)


def test_judge_and_human_agreement_through_the_cli(
    store: Store, db_url: str, tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    from arena.cli import main

    run_id = _run(store)
    register_fake("judge", [_prefers_300], cycle=True)
    judge_run(store, run_id, _spec(), progress=False)
    register_fake("judge2", ["[[A>B]]"], cycle=True)
    judge_run(store, run_id, JudgeSpec(model=ModelConfig(spec="fake:judge2")), progress=False)
    labels = tmp_path / "human.jsonl"
    rows = [
        {"case_id": f"C-{i}", "variant_a": "bad", "variant_b": "good", "winner": "model_b"}
        for i in range(4)
    ]
    rows.append({"case_id": "C-0", "variant_a": "good", "variant_b": "same", "winner": "tie"})
    labels.write_text("\n".join(json.dumps(r) for r in rows))
    assert main(["health", "--human", str(labels), "--json", "--db", db_url]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert len(doc["health"]) == 2
    (pair,) = doc["judge_agreement"]
    # The fair judge gives 8 wins and 4 ties; the always-A judge gives 12 ties.
    assert pair["n"] == 12 and pair["percent"] == pytest.approx(4 / 12)
    fair = next(h for h in doc["human_agreement"] if h["judge"] == _spec().key)
    assert fair["n"] == 5 and fair["percent"] == 1.0
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"case_id": "C-0", "variant_a": "x", "variant_b": "y", "winner": "nope"}')
    assert main(["health", "--human", str(bad), "--db", db_url]) == 2
    assert "line 1" in capsys.readouterr().err
