"""Every command on a database written by an older commit, once upgraded, as a user runs it
(the `arena` CLI in a subprocess, in a copy of examples/own-agent, models scripted): nothing
fails that did not, and grades made by older rules never read as regressions (the history and
gate cases of issue 48)."""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.examples.test_own_agent_example import EXAMPLE, User
from tests.support.old_db import OLD_COMMITS, old_database

pytestmark = pytest.mark.system

JUDGE = "local:qwen2.5-coder-1.5b/text"  # the scripted judge of fake_models.yaml


def _project(tmp_path: Path, commit: str) -> User:
    folder = tmp_path / "own-agent"
    shutil.copytree(EXAMPLE, folder)
    db = old_database(commit, tmp_path)
    shutil.move(db, folder / "arena.db")
    (folder / "baselines").mkdir()
    shutil.move(tmp_path / "baseline.json", folder / "baselines" / "baseline.json")
    config = yaml.safe_load((folder / "arena.yaml").read_text())
    config.pop("absolute")  # the gate's rules alone decide (small-model misses a critical case)
    (folder / "arena.yaml").write_text(yaml.safe_dump(config))
    return User(folder)


@pytest.fixture(scope="module")
def upgraded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The project on the oldest fixture database, upgraded once by ``arena db upgrade``
    (each test works on a copy of it, see :func:`_upgraded_copy`)."""
    user = _project(tmp_path_factory.mktemp("upgraded"), OLD_COMMITS[0])
    user.arena("db", "upgrade")
    return user.folder


def _upgraded_copy(upgraded: Path, tmp_path: Path) -> User:
    folder = tmp_path / "own-agent"
    shutil.copytree(upgraded, folder)
    return User(folder)


def test_every_command_runs_on_an_upgraded_database(tmp_path: Path) -> None:
    """On the oldest fixture database (9c40ccf). The other (ce8052d) holds the same rows in the
    same table definitions plus an empty ``dialogues`` table this one lacks, so this upgrade
    does all that one does and more; after either upgrade the schema is today's and every row
    is kept (test_migrations.py::test_a_database_of_an_older_commit_upgrades_keeping_every_row,
    both databases), and the CLI's upgrade of ce8052d's is checked by
    test_history_never_compares_an_older_rules_grade_as_equal."""
    user = _project(tmp_path, OLD_COMMITS[0])
    user.arena("runs", code=2)  # reads only: says to upgrade
    assert "upgraded to schema revision" in user.arena("db", "upgrade")
    assert "finished" in user.arena("runs")
    assert user.json("show", "1")["case_id"] == "K-1"
    assert "passes in the latest run" in user.arena("history", "K-1")
    assert len(user.json("ratings")["entries"]) == 4
    assert len(user.arena("battles", "export", "1").splitlines()) == 18  # 6 pairs x 3 cases
    assert "baseline" in user.arena("baseline", "list")
    # the stored baseline (graded by older rules) is re-graded from run 1 before comparing
    same = user.arena("check", "--candidate", "baseline", "--baseline", "baseline")
    assert "re-graded from its stored results in run 1 (no model call)" in same
    broken = user.arena("check", "--candidate", "small-model", "--baseline", "baseline", code=1)
    assert "critical case K-3: 1/1 -> 0/1" in broken  # a real regression still is one
    gate = user.arena("gate")  # arena.yaml: prompt-v2 against baselines/baseline.json
    assert "re-graded from its stored results in run 1" in gate
    scored = user.json("score", "1")
    assert {v["variant"] for v in scored["variants"]} == {
        "baseline",
        "no-oven",
        "prompt-v2",
        "small-model",
    }


def _grade_passed_by_older_rules(db: Path, variant: str, case: str) -> None:
    """Make the stored (rules 0) grade of ``variant`` on ``case`` in run 1 a pass, as a laxer
    older rule would have graded it."""
    with sqlite3.connect(db) as conn:
        (score_id, body) = conn.execute(
            "SELECT s.id, s.body FROM scores s JOIN results r ON r.id = s.result_id "
            "WHERE r.run_id = 1 AND r.variant = ? AND r.case_id = ?",
            (variant, case),
        ).fetchone()
        grade = {**json.loads(body), "score": 1.0, "passed": True, "fail_reasons": []}
        conn.execute("UPDATE scores SET body = ? WHERE id = ?", (json.dumps(grade), score_id))
    conn.close()


def test_history_never_compares_an_older_rules_grade_as_equal(tmp_path: Path) -> None:
    """Run 1's stored grade (older rules) passed K-3; today's rules fail the same answer. The
    history re-scores run 1 from its stored result: K-3 fails in every run, it did not start
    failing in run 2."""
    user = _project(tmp_path, OLD_COMMITS[1])
    assert "upgraded to schema revision" in user.arena("db", "upgrade")
    _grade_passed_by_older_rules(user.folder / "arena.db", "small-model", "K-3")
    user.arena(
        "run",
        "--variants",
        "variants/small-model.yaml",
        "--dataset",
        "golden/kitchen.json",
        "--cases",
        "K-3",
    )
    user.arena("score")
    history = user.arena("history", "K-3", "--variant", "small-model")
    assert "small-model: fails in every run, since run 1" in history, history
    assert "last passed" not in history
    assert "re-scored from its stored results (no model call)" in history


def test_a_baseline_graded_by_older_rules_is_regraded_before_the_gate_compares(
    upgraded: Path, tmp_path: Path
) -> None:
    """A baseline file saved from run 1 by the older code says small-model passed K-3 (its
    rules did); the candidate is the same variant. The gate re-grades the baseline's side from
    run 1's stored results, so K-3 is not 'broken', and it says so."""
    user = _upgraded_copy(upgraded, tmp_path)
    conn = sqlite3.connect(user.folder / "arena.db")
    (digest,) = conn.execute(
        "SELECT DISTINCT variant_hash FROM results WHERE variant = 'small-model'"
    ).fetchone()
    conn.close()
    file = user.folder / "baselines" / "baseline.json"
    old = json.loads(file.read_text())
    assert old["format"] == 2 and "rules_version" not in old
    old.update(name="old-small", variant="small-model", variant_hash=digest)
    (user.folder / "baselines" / "old-small.json").write_text(json.dumps(old))
    argv = ("--candidate", "small-model", "--baseline", "baselines/old-small.json")
    report = user.arena("check", *argv)
    assert "[critical_broken]" not in report and "K-3: 1/1 -> 0/1" not in report
    assert (
        "baseline 'old-small' was graded by older rules (scoring rules 0, this is 1): its side "
        "was re-graded from its stored results in run 1 (no model call) before comparing"
    ) in report
    gate = user.arena("gate", *argv, "--judge", "none")
    assert "K-3: 1/1 -> 0/1" not in gate and "re-graded from its stored results" in gate


def test_judging_again_under_a_changed_identity_says_what_it_replaced(
    upgraded: Path, tmp_path: Path
) -> None:
    """The older commit's judge prompts differ from today's: judging the upgraded run again
    asks some pairs anew under the same judge key, and says how many verdicts it replaced; a
    second judging is served from the cache and replaces nothing."""
    user = _upgraded_copy(upgraded, tmp_path)
    argv = ["--fake-scripts", "fake_models.yaml", "judge", "--judge", JUDGE]
    done = subprocess.run(
        [sys.executable, "-m", "arena.cli", *argv],
        cwd=user.folder,
        env=user.env,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    assert re.search(r"run 1: [1-9]\d* verdicts replaced \(\d+ with another winner\)", done.stderr)
    again = user.json("judge", "--judge", JUDGE)
    assert (again["model_calls"], again["replaced"]) == (0, 0)
