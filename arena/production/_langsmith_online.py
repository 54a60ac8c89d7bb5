"""Traces straight from a LangSmith project (``--langsmith-project NAME --since 24h``).

Only when ``LANGSMITH_API_KEY`` is set (:func:`arena.langsmith.make_client`). The project is
looked up by name, then its root runs started since the given time are read page by page
from the REST API's ``POST /runs/query`` (cursor-paginated), each page turned into traces as
it comes (:func:`arena.production._langsmith_runs.run_to_trace`): memory is bounded by a
page, not the project.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

from arena.errors import InputError
from arena.production._langsmith_runs import runs_to_traces
from arena.production._trace import ProductionTrace

PAGE = 100
_FIELDS = [
    "id", "name", "run_type", "inputs", "outputs", "error", "extra", "start_time", "end_time",
    "parent_run_id", "prompt_tokens", "completion_tokens", "total_tokens", "total_cost",
    "trace_id",
]  # fmt: skip
_SPAN = re.compile(r"^(\d+)\s*([mhdw])$")
_UNITS = {"m": "minutes", "h": "hours", "d": "days", "w": "weeks"}


def since_time(text: str, now: datetime | None = None) -> datetime:
    """``24h``, ``30m``, ``7d``, ``2w`` before ``now`` (default: now, UTC), or an ISO time."""
    found = _SPAN.match(text.strip())
    if found:
        amount, unit = int(found.group(1)), _UNITS[found.group(2)]
        return (now or datetime.now(UTC)) - timedelta(**{unit: amount})
    try:
        moment = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        raise InputError(
            f"expected a span such as 24h, 7d, 30m, or an ISO time, got {text!r}",
            field="--since",
        ) from None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def project_runs(
    client: Any, project: str, since: datetime, *, page: int | None = None
) -> Iterator[tuple[str, dict[str, Any]]]:
    """(place, run) of the project's root runs started at or after ``since``, lazily,
    ``page`` (default :data:`PAGE`) a request."""
    from langsmith.utils import LangSmithNotFoundError

    try:
        session = client.read_project(project_name=project)
    except LangSmithNotFoundError:
        raise InputError(f"no LangSmith project {project!r}", field="--langsmith-project") from None
    body: dict[str, Any] = {
        "session": [str(session.id)],
        "is_root": True,
        "start_time": since.isoformat(),
        "select": _FIELDS,
        "limit": page or PAGE,
    }
    number = 0
    while True:
        reply = client.request_with_retries(
            "POST", "/runs/query", request_kwargs={"data": json.dumps(body)}
        ).json()
        runs = reply.get("runs") if isinstance(reply, dict) else None
        for run in runs or []:
            number += 1
            if not isinstance(run, dict):
                where = f"run {number}"
                raise InputError("not a JSON object", file=f"langsmith:{project}", at=where)
            yield f"run {number} ({run.get('id')})", run
        cursor = (reply.get("cursors") or {}).get("next") if isinstance(reply, dict) else None
        if not runs or not cursor:
            return
        body["cursor"] = cursor


def langsmith_traces(project: str, since: str, *, client: Any = None) -> Iterator[ProductionTrace]:
    """The traces of a LangSmith project since ``since`` (``24h``; see :func:`since_time`)."""
    if client is None:
        from arena.langsmith import make_client

        client = make_client("--langsmith-project")
    runs = project_runs(client, project, since_time(since))
    for _, trace in runs_to_traces(runs, file=f"langsmith:{project}"):
        yield trace
