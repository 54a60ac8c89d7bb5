"""``arena shadow --langsmith-project NAME --since 24h`` against a LangSmith look-alike on
127.0.0.1: the project's recent root runs, read page by page, sampled and compared."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from arena.cli import main
from arena.errors import InputError
from arena.production import since_time
from tests.production.fake_runs_api import FakeRunsApi
from tests.production.helpers import DATA
from tests.production.scripted import register_models, variant_file

pytestmark = pytest.mark.system  # a real HTTP server and the SDK's client
PROJECT = "support-bot-prod"


def _runs() -> list[dict[str, object]]:
    """The recorded export's runs, started an hour ago, plus 3 older root runs and 3 new."""
    runs = json.loads((DATA / "langsmith_runs.json").read_text())
    recent = (datetime.now(UTC) - timedelta(hours=1)).isoformat()
    old = (datetime.now(UTC) - timedelta(hours=48)).isoformat()
    for run in runs:
        run["start_time"] = recent
        run["end_time"] = recent
    extra = []
    for i in range(6):
        copy = {**runs[2], "id": f"00000000-0000-4000-8000-00000000000{i}"}
        copy["inputs"] = {"input": f"Old or new question {i}?"}
        copy["start_time"] = copy["end_time"] = old if i < 3 else recent
        extra.append(copy)
    return runs + extra


@pytest.fixture
def api(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeRunsApi]:
    server = FakeRunsApi(PROJECT, _runs()).start()
    monkeypatch.setenv("LANGSMITH_API_KEY", "lsv2_pt_fake_key_for_the_local_fake_000")
    monkeypatch.setenv("LANGSMITH_ENDPOINT", server.url)
    monkeypatch.delenv("LANGCHAIN_API_KEY", raising=False)
    yield server
    server.stop()


def test_recent_root_runs_are_read_page_by_page_and_checked(
    api: FakeRunsApi,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("arena.production._langsmith_online.PAGE", 2)
    db = f"sqlite:///{tmp_path / 'arena.db'}"
    argv = ["shadow", "--langsmith-project", PROJECT, "--since", "24h", "--evaluate-only",
            "--redact", "--db", db, "--json"]  # fmt: skip
    assert main(argv) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["sampled"] == 5  # 2 recorded roots + 3 new; the child and old runs are not
    queries = [r for r in api.requests if r.path.endswith("/runs/query")]
    assert len(queries) == 3  # pages of 2, followed by their cursors
    assert queries[0].body["is_root"] is True and queries[0].body["session"] == [api.project_id]
    assert queries[1].body["cursor"] == "2"
    assert all(r.headers.get("x-api-key", "").startswith("lsv2_pt_fake") for r in queries)
    assert b"jane.doe@example.com" not in (tmp_path / "arena.db").read_bytes()


def test_a_candidate_is_compared_with_what_the_project_answered(
    api: FakeRunsApi, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    register_models()
    db = f"sqlite:///{tmp_path / 'arena.db'}"
    argv = ["shadow", "--langsmith-project", PROJECT, "--candidate",
            variant_file(tmp_path, "cand", "better"), "--judge", "fake:prefers-good/text",
            "--db", db, "--json"]  # fmt: skip
    assert main(argv) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["sampled"] == 5 and report["win_rate"] == 1.0  # only its answers are GOOD


def test_an_unknown_project_or_no_key_is_bad_input(
    api: FakeRunsApi,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    db = f"sqlite:///{tmp_path / 'arena.db'}"
    argv = ["shadow", "--langsmith-project", "nope", "--evaluate-only", "--db", db]
    assert main(argv) == 2
    assert "no LangSmith project 'nope'" in capsys.readouterr().err
    monkeypatch.delenv("LANGSMITH_API_KEY")
    assert main(argv) == 2
    assert "LANGSMITH_API_KEY" in capsys.readouterr().err
    assert not (tmp_path / "arena.db").exists()


def test_since_spans_and_times() -> None:
    now = datetime(2026, 12, 4, 12, tzinfo=UTC)
    assert since_time("24h", now) == datetime(2026, 12, 3, 12, tzinfo=UTC)
    assert since_time("7d", now) == datetime(2026, 11, 27, 12, tzinfo=UTC)
    assert since_time("2026-12-01T00:00:00Z") == datetime(2026, 12, 1, tzinfo=UTC)
    with pytest.raises(InputError, match="--since"):
        since_time("yesterday")
