"""The real local model judges answers made elsewhere end to end: an ``--outputs`` pair of
files (three questions) judged by the checklist judge, rated, and agreed with a hand-made
vote file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.cli import main
from arena.storage import Store
from judges.modes.checklist._items import item_grades

pytestmark = pytest.mark.integration

# (id, question, reference, right answer, wrong answer); q3 has no reference: the judge
# writes its checklist from the question first.
QUESTIONS = [
    ("q1", "What is 25% of 1200?", "300", "25% of 1200 is 300.", "25% of 1200 is 250."),
    ("q2", "What is the capital of France?", "Paris", "The capital of France is Paris.",
     "The capital of France is Lyon."),
    ("q3", "How many days are in a week?", None, "A week has 7 days.", "A week has 10 days."),
]  # fmt: skip


def _write(path: Path, rows: list[dict[str, object]]) -> str:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return str(path)


def test_answer_files_judged_rated_and_agreed_with_people(
    local_db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    right = _write(
        tmp_path / "right.jsonl",
        [
            {"question_id": q, "question": text, "answer": good, "model": "right"}
            | ({"reference": ref, "expected": [ref]} if ref else {})
            for q, text, ref, good, _ in QUESTIONS
        ],
    )
    wrong = _write(
        tmp_path / "wrong.jsonl",
        [
            {"question_id": q, "question": text, "answer": bad, "model": "wrong"}
            for q, text, _, _, bad in QUESTIONS
        ],
    )
    judge = "local:qwen2.5-coder-1.5b/checklist"
    assert main(["judge", "--outputs", right, wrong, "--judge", judge, "--db", local_db_url]) == 0
    store = Store(local_db_url)
    run_id = store.run().id
    battles = store.battles(run_id)
    assert len(battles) == 3 and all(b.winner != "error" for b in battles)
    for battle in battles:
        assert battle.verdict_ab is not None
        grades = item_grades(battle.verdict_ab.details)
        assert grades and all(0.0 <= g.p_yes <= 1.0 for g in grades)
    capsys.readouterr()
    assert main(["ratings", "--db", local_db_url, "--json"]) == 0
    assert "right" in capsys.readouterr().out
    log = tmp_path / "battles.jsonl"
    assert main(["battles", "export", "--db", local_db_url, "-o", str(log)]) == 0
    votes = _write(
        tmp_path / "votes.jsonl",
        [
            {
                "question_id": q,
                "model_a": "right",
                "model_b": "wrong",
                "winner": "model_a",
                "judge": "human:ann",
            }
            for q, *_ in QUESTIONS
        ],
    )
    capsys.readouterr()
    assert main(["agree", str(log), votes, "--json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)
    assert row["right"] == "human" and row["with_ties"]["n"] == 3
    # Structure, not prose: the figure is measured on all three questions and is a share.
    assert 0.0 <= row["with_ties"]["percent"] <= 1.0
