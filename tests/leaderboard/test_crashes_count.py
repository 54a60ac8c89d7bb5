"""Crashed answers count: a crash loses its battle, two crashes tie, nothing is dropped; the
ratings, the leaderboard, ``arena compare`` and the gate's compare verdict all see them."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from langchain_core.messages import BaseMessage

from arena.battles import judge_run
from arena.cli import main
from arena.compare._compare import compare_variants
from arena.evaluation.run_scores import score_run
from arena.golden import GoldenDataset
from arena.leaderboard import build_leaderboard
from arena.leaderboard._rating_inputs import battles_to_arrays, select_battles
from arena.models import ModelConfig, register_fake
from arena.ratings import RatingOptions, win_rate_interval
from arena.runner import RunOptions, run_suite
from arena.storage import Store
from arena.variants.variant import Variant
from judges import JudgeSpec
from tests.gate.conftest import Project, answers, scripted

pytestmark = pytest.mark.unit

RIGHT, WRONG = "It is 300.", "It is 250."
CASES = 6


def replies(answer: str, crash_on: tuple[str, ...] = ()) -> Callable[[list[BaseMessage]], object]:
    """A model step: ``answer`` to every case, an exception on the cases in ``crash_on``."""

    def reply(messages: list[BaseMessage]) -> object:
        case = str(messages[-1].content).rsplit("#", 1)[-1].strip()
        return RuntimeError(f"tool blew up on case {case}") if case in crash_on else answer

    return reply


def prefers_300(messages: list[BaseMessage]) -> str:
    """A text judge: the answer saying 300 wins."""
    text = str(messages[-1].content)
    a = text.split("Answer A:\n", 1)[1].split("\n\n", 1)[0]
    b = text.split("Answer B:\n", 1)[1].split("\n\n", 1)[0]
    return "[[A>B]]" if "300" in a and "300" not in b else "[[B>A]]" if "300" in b else "[[A=B]]"


def run_scored(store: Store, names: tuple[str, ...], cases: int, repeats: int = 1) -> int:
    """A scored run of the variants ``names`` (model ``fake:NAME`` each) on ``cases``
    critical cases asking for 300 (case ``C-i`` ends in ``#i``)."""
    dataset = GoldenDataset.model_validate(
        {
            "name": "crashes",
            "available_tools": [],
            "test_cases": [
                {
                    "id": f"C-{i}",
                    "input": f"What's 25% of 1200? #{i}",
                    "category": "happy_path",
                    "tier": "critical",
                    "expected_output_contains": ["300"],
                }
                for i in range(cases)
            ],
        }
    )
    variants = [
        Variant.model_validate({"name": n, "model": {"spec": f"fake:{n}"}, "tools": []})
        for n in names
    ]
    options = RunOptions(progress=False, repeats=repeats, concurrency=1)
    run_id = run_suite(store, dataset, variants, options).run_id
    score_run(store, run_id)
    return run_id


def judge_spec() -> JudgeSpec:
    """A text judge on :func:`prefers_300`."""
    register_fake("judge-300", [prefers_300], cycle=True)
    return JudgeSpec(model=ModelConfig(spec="fake:judge-300"))


def judged(store: Store) -> tuple[int, JudgeSpec]:
    """steady (always right), crashy (right, but crashes on cases 0 and 1), wrong (always
    wrong), on six critical cases; scored and judged."""
    register_fake("steady", [replies(RIGHT)], cycle=True)
    register_fake("crashy", [replies(RIGHT, ("0", "1"))], cycle=True)
    register_fake("wrong", [replies(WRONG)], cycle=True)
    run_id = run_scored(store, ("steady", "crashy", "wrong"), CASES)
    spec = judge_spec()
    judge_run(store, run_id, spec, progress=False)
    return run_id, spec


def test_a_variant_crashing_on_two_cases_rates_below_the_baseline(store: Store) -> None:
    run_id, _ = judged(store)
    board = build_leaderboard(store, run_id, options=RatingOptions(bootstrap_rounds=50))
    rows = {e.variant: e for e in board.entries}
    steady, crashy = rows["steady"], rows["crashy"]
    # Every pair on every case is a battle: 3 pairs x 6 cases, none dropped.
    assert sum(sum(row) for row in board.battle_counts) == 2 * 3 * CASES
    assert steady.battles == crashy.battles == 2 * CASES
    # crashy: 4 ties with steady, 4 wins over wrong, 2 + 2 losses by crashing.
    assert (crashy.wins, crashy.ties, crashy.losses) == (4, 4, 4)
    assert (steady.wins, steady.ties, steady.losses) == (8, 4, 0)
    assert crashy.rating is not None and steady.rating is not None
    assert crashy.rating < steady.rating
    assert crashy.elo is not None and steady.elo is not None and crashy.elo < steady.elo
    assert board.entries[0].variant == "steady"


def test_compare_counts_the_crashes_in_the_win_rate(store: Store) -> None:
    run_id, _ = judged(store)
    report = compare_variants(store, "steady", "crashy", run_id=run_id, bootstrap=200)
    assert report.battles == CASES  # 4 ties between identical answers, 2 crash losses
    assert report.win_rate == pytest.approx(2 / CASES)  # (4 x 0.5 + 2 x 0) / 6
    assert report.ci_high is not None and report.ci_high < 1.0
    assert report.verdict != "identical"
    assert "2 decided by a crash" in report.summary
    # The judge's accuracy counts only what the judge decided: crashy vs wrong, steady vs
    # wrong on the cases where crashy answered (4 + 6 decisive pairs), never a crash battle.
    assert report.judge_accuracy is not None and report.judge_accuracy.pairs == 10


def test_crash_battles_are_in_the_rating_arrays(store: Store) -> None:
    run_id, spec = judged(store)
    battles = select_battles(store, run_id, spec.key)
    pair = [b for b in battles if {b.variant_a, b.variant_b} == {"wrong", "crashy"}]
    arrays = battles_to_arrays(pair)
    rate = win_rate_interval(arrays, "crashy", "wrong")
    assert len(arrays.outcome) == CASES and float(rate.win_rate) == pytest.approx(4 / CASES)


def test_a_crash_on_one_repeat_loses_that_repeat_only(store: Store) -> None:
    register_fake("twice", [replies(RIGHT)], cycle=True)
    seen: dict[str, int] = {}

    def second_time_crashes(messages: list[BaseMessage]) -> object:
        case = str(messages[-1].content).rsplit("#", 1)[-1].strip()
        seen[case] = seen.get(case, 0) + 1
        return RuntimeError("flaky") if case == "0" and seen[case] == 2 else RIGHT

    register_fake("flaky", [second_time_crashes], cycle=True)
    run_id = run_scored(store, ("twice", "flaky"), cases=2, repeats=2)
    report = judge_run(store, run_id, judge_spec(), progress=False)
    assert len(report.battles) == 4 and report.crashes == 1
    (crash,) = [b for b in report.battles if b.is_crash]
    assert crash.case_id == "C-0" and crash.winner == "model_a" and crash.crashed == "b"
    compared = compare_variants(store, "twice", "flaky", run_id=run_id, bootstrap=100)
    assert compared.battles == 4 and compared.win_rate == pytest.approx(3 / 8)


@pytest.fixture
def project(tmp_path: Path) -> Project:
    """A fresh gate project (tests/gate/conftest.py)."""
    return Project(tmp_path)


@pytest.mark.system  # the whole gate: run, score, check, judge, compare, reports
def test_the_gate_compare_verdict_sees_the_crashes(project: Project, db_url: str) -> None:
    project.variant("base", answers())
    project.variant("cand", answers())
    table = scripted(answers())

    def crashes_on_critical(messages: list[BaseMessage]) -> object:
        case = str(messages[-1].content).rsplit("#", 1)[-1].strip()
        crashed = case in ("C-1", "C-2")
        return RuntimeError(f"agent crashed on {case}") if crashed else table(messages)

    register_fake("gate-cand", [crashes_on_critical], cycle=True)
    config = project.config()
    reports = project.root / "reports"
    argv = ["gate", "--config", str(config), "--report-dir", str(reports), "--db", db_url]
    code = main([*argv, "--baseline", "base", "--candidate", "cand"])
    doc = json.loads((reports / "gate.json").read_text())
    assert code == 1
    compare = doc["compare"]
    # six cases: four identical answers (ties), two crashes (losses); not "identical answers"
    assert compare["battles"] == 6 and compare["crash_battles"] == 2
    assert compare["win_rate"] == pytest.approx(2 / 6)
    assert compare["verdict"] == "worse"


@pytest.mark.system  # run, score and judge case by case
def test_a_sequential_comparison_with_a_judge_counts_a_crash_as_a_loss(
    project: Project, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    cases = [{"id": f"S-{i}", "input": f"Q {i} #S-{i}", "category": "happy_path"} for i in range(4)]
    project.write_dataset([{**c, "expected_output_contains": ["beta"]} for c in cases])
    project.variant("base", {c["id"]: "beta" for c in cases})
    project.variant("cand", {c["id"]: "beta" for c in cases})
    table = scripted({c["id"]: "beta" for c in cases})

    def crashes_on_s2(messages: list[BaseMessage]) -> object:
        crashed = str(messages[-1].content).endswith("#S-2")
        return RuntimeError("the agent fell over") if crashed else table(messages)

    register_fake("gate-cand", [crashes_on_s2], cycle=True)
    sides = ["--baseline", "base", "--candidate", "cand"]
    files = ["--dataset", str(project.dataset), "--variants-dir", str(project.variants)]
    judge = ["--judge", "fake:gate-judge/text", "--json", "--db", db_url]
    code = main(["compare", "--sequential", *sides, *files, *judge])
    report = json.loads(capsys.readouterr().out)
    assert code in (0, 1) and report["cases_skipped"] == []
    outcomes = {p["case_id"]: p["outcome"] for p in report["trace"]}
    assert outcomes["S-2"] == 0.0 and sorted(outcomes) == ["S-0", "S-1", "S-2", "S-3"]
