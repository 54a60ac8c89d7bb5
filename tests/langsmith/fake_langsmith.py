"""A small LangSmith look-alike on 127.0.0.1 that records every request the SDK sends.

It answers the endpoints the ``langsmith`` client uses for datasets, examples, projects
(experiments), runs (multipart and JSON ingestion), feedback and comparative experiments,
keeps what was created so later reads find it, and returns 409 for a duplicate name as the
hosted service does. It is not the hosted service: the contract tests check that our
payloads carry the right data in the SDK's own schema fields, not how LangSmith stores them.
"""

from __future__ import annotations

import json
import threading
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.parser import BytesParser
from email.policy import HTTP
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

TENANT = "00000000-0000-0000-0000-00000000a11a"


@dataclass
class Recorded:
    """One request: method, path, query, JSON body (or multipart parts), headers."""

    method: str
    path: str
    query: dict[str, list[str]]
    body: Any
    headers: dict[str, str]
    parts: dict[str, Any] = field(default_factory=dict)


def _now() -> str:
    return datetime.now(UTC).isoformat()


def _parts(content_type: str, body: bytes) -> dict[str, Any]:
    message = BytesParser(policy=HTTP).parsebytes(
        f"Content-Type: {content_type}\r\n\r\n".encode() + body
    )
    parts: dict[str, Any] = {}
    for part in message.iter_parts():
        name = part.get_param("name", header="content-disposition")
        payload = part.get_payload(decode=True) or b""
        try:
            parts[str(name)] = json.loads(payload)
        except ValueError:
            parts[str(name)] = payload
    return parts


class FakeLangSmith:
    """The server and everything it has been sent."""

    def __init__(self) -> None:
        self.requests: list[Recorded] = []
        self.datasets: dict[str, dict[str, Any]] = {}
        self.examples: dict[str, dict[str, Any]] = {}
        self.sessions: dict[str, dict[str, Any]] = {}
        self.run_parts: dict[str, dict[str, Any]] = {}
        self.feedback_bodies: list[dict[str, Any]] = []
        self.comparative: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        """The endpoint to put in ``LANGSMITH_ENDPOINT``."""
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def start(self) -> FakeLangSmith:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    # -- what was sent ------------------------------------------------------------------------
    def runs(self) -> dict[str, dict[str, Any]]:
        """Every run, its post and patch operations merged (inputs, outputs, extra...)."""
        return {run_id: dict(run) for run_id, run in self.run_parts.items()}

    def feedback(self) -> list[dict[str, Any]]:
        """Every feedback, sent to /feedback or in a multipart ingestion."""
        return list(self.feedback_bodies)

    def paths(self) -> list[str]:
        return [f"{r.method} {r.path}" for r in self.requests]

    # -- the handler ---------------------------------------------------------------------------
    def _handler(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:  # quiet
                pass

            def _body(self) -> bytes:
                length = int(self.headers.get("Content-Length") or 0)
                return self.rfile.read(length) if length else b""

            def _reply(self, status: int, payload: Any) -> None:
                data = json.dumps(payload, default=str).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _handle(self) -> None:
                url = urlsplit(self.path)
                raw = self._body()
                content_type = self.headers.get("Content-Type", "")
                parts: dict[str, Any] = {}
                body: Any = None
                if content_type.startswith("multipart/"):
                    parts = _parts(content_type, raw)
                elif raw:
                    try:
                        body = json.loads(raw)
                    except ValueError:
                        body = raw.decode(errors="replace")
                record = Recorded(
                    self.command,
                    url.path,
                    parse_qs(url.query),
                    body,
                    dict(self.headers.items()),
                    parts,
                )
                with fake._lock:
                    fake.requests.append(record)
                    status, payload = fake._route(record)
                self._reply(status, payload)

            do_GET = do_POST = do_PATCH = do_PUT = do_DELETE = _handle

        return Handler

    def _route(self, r: Recorded) -> tuple[int, Any]:
        path = r.path.rstrip("/").removeprefix("/api/v1")
        if path == "/info":
            return 200, {
                "version": "0.10.99",
                "instance_flags": {},
                "batch_ingest_config": {
                    "use_multipart_endpoint": True,
                    "size_limit": 100,
                    "size_limit_bytes": 20_000_000,
                    "scale_up_qsize_trigger": 1000,
                    "scale_up_nthreads_limit": 4,
                    "scale_down_nempty_trigger": 4,
                },
            }
        if path == "/runs/multipart":
            self._ingest_parts(r.parts)
            return 202, {}
        if path == "/runs/batch":
            for op in ("post", "patch"):
                for run in (r.body or {}).get(op, []):
                    self.run_parts.setdefault(str(run["id"]), {}).update(run)
            return 202, {}
        if path == "/runs" and r.method == "POST":
            self.run_parts.setdefault(str(r.body["id"]), {}).update(r.body)
            return 202, {}
        if path.startswith("/runs/") and r.method == "PATCH":
            self.run_parts.setdefault(path.split("/")[2], {}).update(r.body or {})
            return 202, {}
        if path == "/feedback" and r.method == "POST":
            self.feedback_bodies.append(r.body)
            return 200, r.body
        if path == "/datasets/comparative" and r.method == "POST":
            return self._comparative(r.body)
        if path.startswith("/datasets"):
            return self._datasets(r, path)
        if path.startswith("/examples"):
            return self._examples(r, path)
        if path.startswith("/sessions"):
            return self._sessions(r, path)
        return 404, {"detail": f"not found: {r.method} {path}"}

    def _ingest_parts(self, parts: dict[str, Any]) -> None:
        for name, value in parts.items():
            kind, _, rest = name.partition(".")
            if kind == "feedback":
                self.feedback_bodies.append(value)
            elif kind in ("post", "patch"):
                run_id, _, key = rest.partition(".")
                run = self.run_parts.setdefault(run_id, {})
                if key:
                    run[key] = value
                else:
                    run.update(value)

    def _datasets(self, r: Recorded, path: str) -> tuple[int, Any]:
        segments = path.split("/")[2:]
        if r.method == "POST" and not segments:
            if any(d["name"] == r.body["name"] for d in self.datasets.values()):
                return 409, {"detail": "Dataset with this name already exists."}
            dataset = {
                "id": str(uuid.uuid4()),
                "name": r.body["name"],
                "description": r.body.get("description"),
                "data_type": r.body.get("data_type", "kv"),
                "created_at": _now(),
                "modified_at": _now(),
                "example_count": 0,
                "session_count": 0,
                "metadata": (r.body.get("extra") or {}).get("metadata"),
            }
            self.datasets[dataset["id"]] = dataset
            return 200, dataset
        if r.method == "GET" and not segments:
            names = r.query.get("name", [])
            found = [d for d in self.datasets.values() if not names or d["name"] in names]
            return 200, found
        if r.method == "GET" and len(segments) == 1:
            dataset = self.datasets.get(segments[0])
            return (200, dataset) if dataset else (404, {"detail": "no dataset"})
        if r.method == "GET" and len(segments) == 2 and segments[1] == "version":
            return 200, {"as_of": _now(), "tags": []}
        if r.method == "PUT" and len(segments) == 2 and segments[1] == "tags":
            return 200, {}
        return 404, {"detail": f"not found: {r.method} {path}"}

    def _examples(self, r: Recorded, path: str) -> tuple[int, Any]:
        segments = path.split("/")[2:]
        if r.method == "POST" and segments == ["bulk"]:
            created = [self._example(item) for item in r.body]
            return 200, created
        if r.method == "POST" and not segments:
            return 200, self._example(r.body)
        if r.method == "GET" and not segments:
            wanted = set(r.query.get("dataset", []))
            ids = set(r.query.get("id", []))
            found = [
                e
                for e in self.examples.values()
                if (not wanted or e["dataset_id"] in wanted) and (not ids or e["id"] in ids)
            ]
            offset = int(r.query.get("offset", ["0"])[0])
            limit = int(r.query.get("limit", ["100"])[0])
            return 200, found[offset : offset + limit]
        if r.method == "GET" and len(segments) == 1:
            example = self.examples.get(segments[0])
            return (200, example) if example else (404, {"detail": "no example"})
        if r.method == "PATCH" and len(segments) == 1 and segments[0] in self.examples:
            example = self.examples[segments[0]]
            example.update({k: v for k, v in r.body.items() if k != "id"})
            example["modified_at"] = _now()
            return 200, example
        return 404, {"detail": f"not found: {r.method} {path}"}

    def _example(self, item: dict[str, Any]) -> dict[str, Any]:
        example = {
            "id": str(item.get("id") or uuid.uuid4()),
            "dataset_id": item["dataset_id"],
            "inputs": item.get("inputs"),
            "outputs": item.get("outputs"),
            "metadata": item.get("metadata"),
            "created_at": _now(),
            "modified_at": _now(),
        }
        self.examples[example["id"]] = example
        return example

    def _sessions(self, r: Recorded, path: str) -> tuple[int, Any]:
        segments = path.split("/")[2:]
        if r.method == "POST" and not segments:
            if any(s["name"] == r.body["name"] for s in self.sessions.values()):
                return 409, {"detail": "Session already exists."}
            session = {
                "id": r.body.get("id") or str(uuid.uuid4()),
                "name": r.body["name"],
                "description": r.body.get("description"),
                "extra": r.body.get("extra"),
                "reference_dataset_id": r.body.get("reference_dataset_id"),
                "start_time": _now(),
                "end_time": None,
                "tenant_id": TENANT,
            }
            self.sessions[session["id"]] = session
            return 200, session
        if r.method == "GET" and not segments:
            names = r.query.get("name", [])
            found = [s for s in self.sessions.values() if not names or s["name"] in names]
            return 200, found
        if len(segments) == 1 and segments[0] in self.sessions:
            session = self.sessions[segments[0]]
            if r.method == "PATCH":
                session.update({k: v for k, v in r.body.items() if v is not None})
            return 200, session
        return 404, {"detail": f"not found: {r.method} {path}"}

    def _comparative(self, body: dict[str, Any]) -> tuple[int, Any]:
        if any(c["id"] == body["id"] for c in self.comparative):
            return 409, {"detail": "Comparative experiment already exists."}
        stored = {**body, "tenant_id": TENANT, "modified_at": _now()}
        self.comparative.append(stored)
        return 200, stored
