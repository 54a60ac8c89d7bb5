"""`arena gate` as a new user reads it: variants by their `name:`, one headline, "not run"
lists that say each case's tier (issue 19, item 5)."""

from __future__ import annotations

import pytest

from arena.cli import main
from tests.gate.conftest import Project, answers
from tests.gate.test_gate_cli import gate

pytestmark = pytest.mark.unit


def _named(project: Project, file: str, name: str, table: dict[str, str]) -> None:
    """A variant whose file name is not its `name:`."""
    project.variant(name, table)
    (project.variants / f"{name}.yaml").rename(project.variants / f"{file}.yaml")


def test_candidate_and_baseline_are_found_by_their_name(project: Project, db_url: str) -> None:
    _named(project, "trip_v1", "trip-v1", answers())
    _named(project, "trip_v2", "trip-v2", answers(S_1="hmm"))
    code, doc, _ = gate(project, db_url, "--baseline", "trip-v1", "--candidate", "trip-v2")
    assert doc["regression"]["broken_cases"] == ["S-1"], doc
    assert doc["compare"]["candidate"] == "trip-v2" and doc["compare"]["baseline"] == "trip-v1"
    # a file path (and a file stem) still work
    path = str(project.variants / "trip_v2.yaml")
    code, doc, _ = gate(project, db_url, "--baseline", "trip_v1", "--candidate", path)
    assert doc["compare"]["candidate"] == "trip-v2", code


def test_a_name_two_files_share_is_refused_naming_both(
    project: Project, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    _named(project, "one", "twin", answers())
    (project.variants / "two.yaml").write_text((project.variants / "one.yaml").read_text())
    code, _, _ = gate(project, db_url, "--baseline", "twin", "--candidate", "twin")
    err = capsys.readouterr().err
    assert code == 2 and "one.yaml" in err and "two.yaml" in err and "field candidate" in err


def test_an_unknown_candidate_lists_the_names_there_are(
    project: Project, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    _named(project, "trip_v1", "trip-v1", answers())
    code, _, _ = gate(project, db_url, "--baseline", "trip-v1", "--candidate", "trip-v3")
    err = capsys.readouterr().err
    assert code == 2 and "no variant 'trip-v3'" in err and "trip-v1" in err


def test_a_gate_failed_on_an_absolute_limit_has_one_headline(
    project: Project, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # S-2 fails in both: no regression, but the pass rate is under the limit
    project.variant("base", answers(S_2="no"))
    project.variant("cand", answers(S_2="no"))
    capsys.readouterr()
    code, doc, md = gate(
        project, db_url, "--baseline", "base", "--candidate", "cand", "--min-pass-rate", "0.95"
    )
    out = capsys.readouterr().out
    assert code == 1 and not doc["regression"]["regressed"]
    assert doc["failures"] and doc["failures"][0].startswith("[min_pass_rate]")
    for text in (out, md):
        assert "arena gate FAILED" in text
        assert "ALL CLEAR" not in text and "✅" not in text
        assert "no regression" in text  # what the regression rules found, without a verdict
    assert "REGRESSION REPORT" not in out


def test_a_passing_gate_says_so_once(
    project: Project, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    project.variant("base", answers())
    code, _, md = gate(project, db_url, "--baseline", "base", "--candidate", "base")
    out = capsys.readouterr().out
    assert code == 0 and "arena gate passed" in out and "## ✅ arena gate passed" in md
    assert md.count("✅") == 1 and "ALL CLEAR" not in out + md


def test_not_run_cases_are_listed_by_their_tier(
    project: Project, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    project.variant("agent", answers())
    gate(project, db_url, "--baseline", "agent", "--candidate", "agent")
    exported = project.root / "base.json"
    assert main(["baseline", "save", "agent", "--export", str(exported), "--db", db_url]) == 0
    capsys.readouterr()
    code, doc, md = gate(
        project, db_url, "--baseline", str(exported), "--candidate", "agent", "--cases", "C-1,S-1"
    )
    out = capsys.readouterr().out
    regression = doc["regression"]
    assert regression["not_run_cases"] == ["C-2", "S-2", "S-3", "P-1"]
    assert regression["not_run_tiers"] == {
        "C-2": "critical",
        "S-2": "standard",
        "S-3": "standard",
        "P-1": "pending",
    }
    assert code == 1 and regression["missing_cases"] == ["C-2"]
    assert "Not run, critical tier (blocks: critical_missing): `C-2`" in md
    assert "Not run, standard tier: `S-2`, `S-3`" in md
    assert "Not run, pending tier: `P-1`" in md
    assert "Not run, standard tier: S-2, S-3" in out
    assert "critical: see critical_missing" not in out + md
