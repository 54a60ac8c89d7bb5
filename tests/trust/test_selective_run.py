"""Selective verdicts on a stored run, end to end with scripted judges: `arena judge` with a
selective spec stores confidence and abstention, `arena health` says what the guarantee
rests on (or that nothing does), the gate asks for a person instead of guessing, and
people's votes take the abstained battles' place in the ratings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.battles import judge_run
from arena.compare._compare import compare_variants
from arena.evaluation.run_scores import score_run
from arena.leaderboard._rating_inputs import rated, select_battles, undecided
from arena.models import ModelConfig, register_fake
from arena.storage import Store
from judges import JudgeSpec, human_judge
from judges._types import SelectiveSettings
from tests.battles.test_judges import _prefers_300, _run

pytestmark = pytest.mark.system  # runs, judging and storage

SELECTIVE = JudgeSpec(model=ModelConfig(spec="fake:sel"), selective=SelectiveSettings())


def _judged(store: Store) -> int:
    run_id = _run(store)  # good and same answer 300 (pass), bad answers 250 (fail)
    score_run(store, run_id)
    register_fake("sel", [_prefers_300], cycle=True)
    judge_run(store, run_id, SELECTIVE, progress=False)
    return run_id


def test_a_selective_judge_without_enough_labelled_pairs_abstains_and_says_why(
    store: Store, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from arena.cli import main

    run_id = _judged(store)
    battles = store.battles(run_id, SELECTIVE.key)
    judged = [b for b in battles if b.verdict_ab is not None]
    # 8 golden-decisive pairs, all calibrating, and 11 are needed to back 80% at 0.1.
    assert judged and all(b.abstained and b.confidence is not None for b in judged)
    assert all(not b.abstained and b.confidence is None for b in battles if b not in judged)
    assert rated(battles) == [b for b in battles if b not in judged]
    assert main(["health", str(run_id), "--db", db_url]) == 0
    out = capsys.readouterr().out
    assert "selective verdicts, fake:sel/text" in out
    assert "no threshold guarantees 80% agreement at error level 0.1" in out
    assert "calibrated on 8 labelled pairs (golden 8)" in out
    assert main(["health", str(run_id), "--json", "--db", db_url]) == 0
    (health,) = json.loads(capsys.readouterr().out)["health"]
    assert health["selective"]["configured"] is True and health["selective"]["coverage"] == 0


def test_the_gate_asks_for_a_person_then_counts_the_vote(store: Store) -> None:
    run_id = _judged(store)
    report = compare_variants(store, "bad", "good", run_id=run_id)
    assert report.undecided == 4 and report.battles == 0
    assert report.verdict == "inconclusive"
    assert "undecided by the judge: 4 pairs need a person" in report.reasons[0]
    person = human_judge("ann")
    for battle in store.battles(run_id, SELECTIVE.key):
        if {battle.variant_a, battle.variant_b} == {"good", "bad"}:
            vote = battle.model_copy(
                update={"id": None, "judge": person, "verdict_ab": None, "verdict_ba": None}
            )
            vote.abstained, vote.confidence = False, None
            store.save_battle(vote)
    selected = [
        b
        for b in select_battles(store, run_id, None)
        if {b.variant_a, b.variant_b} == {"good", "bad"}
    ]
    assert undecided(selected) == [] and sum(b.judge.is_human for b in rated(selected)) == 4
    again = compare_variants(store, "bad", "good", run_id=run_id)
    assert again.undecided == 0 and again.battles == 4
    assert not any("undecided" in reason for reason in again.reasons)


def test_a_judge_yaml_turns_selective_verdicts_on_for_arena_judge(
    store: Store, db_url: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from arena.cli import main

    run_id = _run(store)
    score_run(store, run_id)
    register_fake("sel", [_prefers_300], cycle=True)
    spec = tmp_path / "judge.yaml"
    spec.write_text(
        "model: {spec: 'fake:sel'}\nmode: text\nselective: {target: 0.75, error: 0.2}\n"
    )
    assert main(["judge", str(run_id), "--judge", str(spec), "--db", db_url]) == 0
    out = capsys.readouterr().out
    assert "selective verdicts, fake:sel/text" in out
    # 8 calibration pairs suffice at 75% / 0.2 (0.75 ** 6 < 0.2): a threshold is found.
    assert (
        "agreement with the golden checks >= 75% with probability >= 80% on the verdicts given"
        in out
    )
    assert "calibrated on 8 labelled pairs (golden 8)" in out
    stored = store.battles(run_id, SELECTIVE.key)  # the setting is not part of the key
    assert stored and all(
        b.judge.selective == SelectiveSettings(target=0.75, error=0.2) for b in stored
    )
    given = [b for b in stored if b.confidence is not None and not b.abstained]
    assert {b.winner for b in given} <= {"model_a", "model_b"} and len(given) == 8
    assert all(b.abstained for b in stored if b.winner == "tie" and b.verdict_ab is not None)


def test_the_gate_report_carries_the_undecided_pairs(store: Store) -> None:
    from arena.compare._compare import compare_markdown

    run_id = _judged(store)
    report = compare_variants(store, "bad", "good", run_id=run_id)
    assert "4 undecided by the judge, waiting for a person" in report.summary
    page = compare_markdown(report)
    assert "- undecided by the judge: 4 pairs need a person" in page
    assert "battles: 0; undecided by the judge: 4" in page
