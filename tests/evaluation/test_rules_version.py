"""Scores and baselines know which scoring rules made them: a grade made by older rules is
re-scored from the stored result (keyword grades) or marked (a model grader's), never read as
today's; re-scoring says what it replaced; a baseline file of a newer format is refused."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest

from arena.errors import InputError, NewerFormat
from arena.evaluation.run_scores import load_run_scores, score_run
from arena.gate import load_baseline_file
from arena.scoring import RULES_VERSION, baseline_from_json
from arena.scoring._baseline import FORMAT
from arena.storage import Store
from tests.support.old_db import OLD_COMMITS, old_database

pytestmark = pytest.mark.unit


@pytest.fixture
def upgraded(tmp_path: Path) -> tuple[Path, Store]:
    """An older commit's database, upgraded: its 12 keyword grades are of rules 0."""
    path = old_database(OLD_COMMITS[0], tmp_path)
    return path, Store(f"sqlite:///{path}")


def _tamper(path: Path, case: str, variant: str, **grade: object) -> None:
    with sqlite3.connect(path) as conn:
        score_id, body = conn.execute(
            "SELECT s.id, s.body FROM scores s JOIN results r ON r.id = s.result_id "
            "WHERE r.case_id = ? AND r.variant = ?",
            (case, variant),
        ).fetchone()
        conn.execute(
            "UPDATE scores SET body = ? WHERE id = ?",
            (json.dumps({**json.loads(body), **grade}), score_id),
        )
    conn.close()


def test_keyword_grades_of_older_rules_are_rescored_from_the_stored_results(
    upgraded: tuple[Path, Store],
) -> None:
    path, store = upgraded
    _tamper(path, "K-3", "small-model", passed=True, score=1.0, fail_reasons=[])
    scores = load_run_scores(store, 1)
    assert scores.regraded_from == 0 and not scores.older_rules
    [k3] = [c for c in scores.cases if c.case_id == "K-3" and c.variant == "small-model"]
    assert not k3.passed and k3.score < 1.0  # today's grade of the stored answer
    assert "re-scored from its stored results (no model call)" in (scores.rules_note() or "")
    assert store.score_rules(1, "keywords") == 0  # reading wrote nothing


def test_a_model_graders_older_grades_are_marked_with_the_command(
    upgraded: tuple[Path, Store],
) -> None:
    path, store = upgraded
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE scores SET grader = 'local:qwen2.5-coder-1.5b'")
    conn.close()
    scores = load_run_scores(store, 1)
    assert scores.older_rules and scores.rules_version == 0 and scores.regraded_from is None
    note = scores.rules_note() or ""
    assert "graded by older rules (scoring rules 0, this is 1)" in note
    assert "run `arena score 1 --grader local:qwen2.5-coder-1.5b`" in note


def test_scoring_again_records_the_rules_and_says_what_it_replaced(
    upgraded: tuple[Path, Store], capsys: pytest.CaptureFixture[str]
) -> None:
    path, store = upgraded
    _tamper(path, "K-3", "small-model", passed=True, score=1.0, fail_reasons=[])
    first = score_run(store, 1)
    assert first.replaced is not None
    assert (first.replaced.replaced, first.replaced.older_rules) == (12, [0])
    assert first.replaced.changed >= 1  # at least the tampered grade
    assert "12 stored scores replaced" in (first.replaced.message() or "")
    assert "they were graded by older rules (0)" in (first.replaced.message() or "")
    assert store.score_rules(1, "keywords") == RULES_VERSION
    again = score_run(store, 1)
    assert again.replaced is not None
    assert (again.replaced.changed, again.replaced.older_rules) == (0, [])
    assert load_run_scores(store, 1).regraded_from is None


OLD_BASELINE = Path(__file__).parents[1] / "storage" / "fixtures" / "baseline-9c40ccf.json"


def test_a_baseline_file_records_its_format_and_rules() -> None:
    old = json.loads(OLD_BASELINE.read_text())
    assert old["format"] == 2
    loaded = baseline_from_json(json.dumps(old))
    assert loaded.rules_version == 0 and loaded.older_rules
    again = baseline_from_json(loaded.model_dump_json())  # written back: still rules 0
    assert (again.format, again.rules_version) == (2, 0)
    current = {**old, "format": FORMAT, "rules_version": RULES_VERSION}
    new = json.loads(baseline_from_json(json.dumps(current)).model_dump_json())
    assert (new["format"], new["rules_version"]) == (3, RULES_VERSION)


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("format", 4, "baseline format 4 is newer than this agent-arena reads (up to 3)"),
        (
            "rules_version",
            RULES_VERSION + 1,
            f"baseline scoring rules format {RULES_VERSION + 1} is newer",
        ),
    ],
)
def test_a_baseline_of_a_newer_format_is_refused_naming_it(
    tmp_path: Path, field: str, value: int, message: str
) -> None:
    body = json.loads(OLD_BASELINE.read_text())
    file = tmp_path / "future.json"
    file.write_text(json.dumps({**body, "format": 3, field: value}))
    with pytest.raises(NewerFormat, match=re.escape(message)) as caught:
        load_baseline_file(file)
    assert isinstance(caught.value, InputError)
    assert str(caught.value).startswith(f"file {file}, field {field}: ")
    assert "upgrade agent-arena" in str(caught.value)
