"""``pytest --arena`` in a team's own repository: each golden case a test named by its id,
the gate's per-case rules as pass/fail/xfail, stored and cached like ``arena run``, ``-k``,
``-x`` and xdist, and the suite verdict against the baseline at the end of the session."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from tests.pytest_plugin.team_repo import CASES, make_repo, run_pytest, write_cases

pytestmark = pytest.mark.system
FLAGS = [
    "--arena",
    "--arena-dataset",
    "golden.json",
    "--arena-variant",
    "echo.yaml",
    "--arena-tier",
    "all",
    "--arena-db",
    "arena.db",
    "-p",
    "no:langsmith_plugin",
]


def test_without_arena_the_plugin_adds_nothing(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    code, counts, out = run_pytest(repo, "-p", "no:langsmith_plugin")
    assert code == 0, out
    assert counts == {"passed": 1}, out
    assert "agent-arena" not in out and not (repo / "arena.db").exists()


@pytest.fixture(scope="module")
def first_session(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[Path, int, dict[str, int], str]:
    """One ``pytest --arena`` session on a new repository (its folder, exit code, counts and
    output), read by several tests; a test that runs more in it works on a copy."""
    repo = make_repo(tmp_path_factory.mktemp("first"))
    return (repo, *run_pytest(repo, *FLAGS))


def _copy(repo: Path, tmp_path: Path) -> Path:
    return Path(shutil.copytree(repo, tmp_path / "team-repo"))


def test_each_case_is_a_test_named_by_its_id_under_the_gates_rules(
    first_session: tuple[Path, int, dict[str, int], str],
) -> None:
    repo, code, counts, out = first_session
    assert code == 1, out
    # OK-1 and STD-1 pass (STD-1 fails its check: a standard case only warns), the team's
    # own unit test passes, FAIL-1 (critical) fails, PEND-1 is xfail.
    assert counts["passed"] == 3 and counts["failed"] == 1 and counts["xfailed"] == 1, out
    assert "FAILED golden.json::FAIL-1" in out
    assert "critical case FAIL-1 fails" in out and "happy-path case FAIL-1 fails" in out
    assert "GoldenCaseWarning: standard case STD-1 fails" in out
    assert "PASSED golden.json::OK-1" in out and "XFAIL golden.json::PEND-1" in out
    # Stored like `arena run`: one run holding the four results.
    with sqlite3.connect(repo / "arena.db") as db:
        (runs,) = db.execute("select count(*) from runs").fetchone()
        (results,) = db.execute("select count(*) from results").fetchone()
    assert (runs, results) == (1, 4)


def test_a_second_session_makes_no_model_call(
    first_session: tuple[Path, int, dict[str, int], str], tmp_path: Path
) -> None:
    repo, _, _, first = first_session
    repo = _copy(repo, tmp_path)
    assert "4 model call(s) sent" in first, first
    code, counts, second = run_pytest(repo, *FLAGS)
    assert code == 1 and counts["failed"] == 1, second
    assert "0 model call(s) sent" in second, second


def test_arena_run_reuses_the_sessions_results(
    first_session: tuple[Path, int, dict[str, int], str], tmp_path: Path
) -> None:
    """The run the plugin fills is the run `arena run` makes: either reuses the other's."""
    import subprocess
    import sys

    repo = _copy(first_session[0], tmp_path)
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "arena.cli",
            "run",
            "--dataset",
            "golden.json",
            "--variants",
            "echo.yaml",
            "--tier",
            "all",
            "--db",
            "sqlite:///arena.db",
            "--json",
        ],
        cwd=repo,
        capture_output=True,
        text=True,
        timeout=300,
        env={**__import__("os").environ, "ARENA_SANDBOX_DIR": str(repo / "sandboxes")},
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert '"model_calls": 0' in proc.stdout, proc.stdout
    with sqlite3.connect(repo / "arena.db") as db:
        (runs,) = db.execute("select count(*) from runs").fetchone()
    assert runs == 1


def test_settings_come_from_arena_yaml(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    (repo / "arena.yaml").write_text(
        "candidate: echo.yaml\ndb: team.db\nrun:\n  dataset: golden.json\n  tier: critical\n"
    )
    code, counts, out = run_pytest(repo, "--arena", "-p", "no:langsmith_plugin")
    assert code == 1, out
    assert counts == {"passed": 2, "failed": 1}, out  # OK-1, the unit test; FAIL-1
    assert "golden.json::STD-1" not in out and (repo / "team.db").is_file()


def test_ini_keys_are_read(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    (repo / "pytest.ini").write_text(
        "[pytest]\narena_dataset = golden.json\narena_variant = echo.yaml\n"
        "arena_tier = critical\narena_db = ini.db\n"
    )
    code, counts, out = run_pytest(repo, "--arena", "-p", "no:langsmith_plugin")
    assert code == 1 and counts == {"passed": 2, "failed": 1}, out
    assert (repo / "ini.db").is_file()


def test_k_selects_cases_and_the_verdict_waits_for_all(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    code, counts, out = run_pytest(repo, *FLAGS, "-k", "OK-1")
    assert code == 0 and counts == {"passed": 1}, out
    assert "suite verdict skipped: 3 of 4 case(s) have no finished result" in out


def test_x_stops_at_the_first_failing_case(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    code, counts, out = run_pytest(repo, *FLAGS, "-x", "golden.json")
    assert code == 1 and counts == {"passed": 1, "failed": 1}, out  # OK-1, then FAIL-1


def test_under_xdist_the_workers_fill_one_run(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    code, counts, out = run_pytest(repo, *FLAGS, "-n", "2")
    assert code == 1, out
    assert counts["passed"] == 3 and counts["failed"] == 1 and counts["xfailed"] == 1, out
    assert "4 model call(s) sent" in out, out
    with sqlite3.connect(repo / "arena.db") as db:
        assert db.execute("select count(*) from runs").fetchone() == (1,)
        assert db.execute("select count(*) from results").fetchone() == (4,)


def test_bad_settings_are_a_usage_error_naming_the_flag(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    code, _, out = run_pytest(repo, "--arena", "--arena-dataset", "golden.json")
    assert code == 4, out
    assert "arena:" in out and "--arena-variant" in out
    code, _, out = run_pytest(repo, *FLAGS, "--arena-repeats", "two")
    assert code == 4 and "repeats" in out and "'two'" in out, out


def test_the_session_verdict_fails_a_regression_no_single_test_shows(tmp_path: Path) -> None:
    """Standard cases only warn one by one; the suite rule against the baseline catches the
    drop and fails the session."""
    cases = [
        {
            "id": "C-1",
            "input": "Say hello",
            "category": "happy_path",
            "tier": "critical",
            "expected_output_contains": ["hello"],
        },
        *[
            {
                "id": f"S-{i}",
                "input": f"Say word{i}",
                "category": "edge_case",
                "tier": "critical" if False else "standard",
                "expected_output_contains": [f"word{i}"],
            }
            for i in range(4)
        ],
    ]
    repo = make_repo(tmp_path, cases)
    flags = [
        "--arena",
        "--arena-dataset",
        "golden.json",
        "--arena-tier",
        "all",
        "--arena-db",
        "arena.db",
        "-p",
        "no:langsmith_plugin",
    ]
    code, counts, out = run_pytest(repo, *flags, "--arena-variant", "echo.yaml")
    assert code == 0 and "suite verdict skipped: no baseline" in out, out
    import subprocess
    import sys

    saved = subprocess.run(
        [
            sys.executable,
            "-m",
            "arena.cli",
            "baseline",
            "save",
            "echo",
            "--name",
            "baseline",
            "--db",
            "sqlite:///arena.db",
        ],
        cwd=repo,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert saved.returncode == 0, saved.stdout + saved.stderr
    # The candidate keeps the critical case (echo's answer is scripted for it) and loses
    # every standard one: no test fails, the suite verdict does.
    (repo / "conftest.py").write_text(
        "from arena.models import register_fake\n"
        "register_fake('half', [lambda m: 'hello' if 'hello' in str(m[-1].content) "
        "else 'no'], cycle=True)\n"
    )
    (repo / "half.yaml").write_text("name: echo\nmodel: {spec: 'fake:half'}\ntools: []\n")
    code, counts, out = run_pytest(repo, *flags, "--arena-variant", "half.yaml")
    assert "failed" not in counts and counts["passed"] == 6, out
    assert code == 1, out
    assert "suite_drop" in out or "suite score" in out, out


def test_a_broken_critical_case_fails_its_test_and_the_verdict(tmp_path: Path) -> None:
    cases = [c for c in CASES if c["id"] != "FAIL-1"]
    repo = make_repo(tmp_path, cases)
    flags = [
        "--arena",
        "--arena-dataset",
        "golden.json",
        "--arena-tier",
        "all",
        "--arena-db",
        "arena.db",
        "-p",
        "no:langsmith_plugin",
    ]
    run_pytest(repo, *flags, "--arena-variant", "echo.yaml")
    import subprocess
    import sys

    saved = subprocess.run(
        [
            sys.executable,
            "-m",
            "arena.cli",
            "baseline",
            "save",
            "echo",
            "--export",
            "base.json",
            "--db",
            "sqlite:///arena.db",
        ],
        cwd=repo,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert saved.returncode == 0, saved.stdout + saved.stderr
    write_cases(repo, [{**c, "input": "Say nothing"} if c["id"] == "OK-1" else c for c in cases])
    code, counts, out = run_pytest(
        repo, *flags, "--arena-variant", "echo.yaml", "--arena-baseline", "base.json"
    )
    assert code == 1 and counts["failed"] == 1, out
    assert "FAILED golden.json::OK-1" in out and "critical case OK-1 fails" in out
    assert "critical" in out.split("agent-arena")[-1], out


def test_a_conversation_case_is_one_test_with_its_turns_checked(tmp_path: Path) -> None:
    dialogue = {
        "id": "DLG-1",
        "input": "Say hello",
        "category": "happy_path",
        "tier": "critical",
        "conversation": {
            "turns": [{"user": "Say goodbye"}],
            "expect": [{"turn": 1, "contains": ["hello"]}, {"turn": 2, "contains": ["bye"]}],
        },
    }
    broken = {**dialogue, "id": "DLG-2", "conversation": {
        "turns": [{"user": "Say goodbye"}],
        "expect": [{"turn": 2, "contains": ["hello"]}],
    }}  # fmt: skip
    repo = make_repo(tmp_path, [dialogue, broken])
    code, counts, out = run_pytest(repo, *FLAGS, "golden.json")
    assert code == 1 and counts == {"passed": 1, "failed": 1}, out
    assert "PASSED golden.json::DLG-1" in out and "FAILED golden.json::DLG-2" in out
    assert "turn 2" in out.split("FAILURES")[-1], out
