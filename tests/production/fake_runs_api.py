"""The LangSmith look-alike of the LangSmith tests (:mod:`tests.langsmith.fake_langsmith`),
taught the runs query: ``POST /runs/query`` filtered by project, root and start time, and
cursor-paginated as the hosted API is."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

from tests.langsmith.fake_langsmith import TENANT, FakeLangSmith, Recorded


class FakeRunsApi(FakeLangSmith):
    """A fake LangSmith holding one project's runs."""

    def __init__(self, project: str, runs: list[dict[str, Any]]) -> None:
        super().__init__()
        self.project_id = str(uuid.uuid4())
        self.sessions[self.project_id] = {
            "id": self.project_id,
            "name": project,
            "description": None,
            "extra": None,
            "reference_dataset_id": None,
            "end_time": None,
            "start_time": datetime.now(UTC).isoformat(),
            "tenant_id": TENANT,
        }
        self.stored_runs = [{**run, "session_id": self.project_id} for run in runs]

    def _route(self, r: Recorded) -> tuple[int, Any]:
        if r.path.rstrip("/").removeprefix("/api/v1") == "/runs/query" and r.method == "POST":
            return 200, self._query(r.body or {})
        return super()._route(r)

    def _query(self, body: dict[str, Any]) -> dict[str, Any]:
        since = datetime.fromisoformat(body["start_time"]) if body.get("start_time") else None
        found = [
            run
            for run in self.stored_runs
            if run["session_id"] in body.get("session", [])
            and (not body.get("is_root") or run.get("parent_run_id") is None)
            and (since is None or datetime.fromisoformat(run["start_time"]) >= since)
        ]
        start = int(body.get("cursor") or 0)
        page = found[start : start + int(body.get("limit") or 100)]
        more = start + len(page) < len(found)
        return {"runs": page, "cursors": {"next": str(start + len(page)) if more else None}}
