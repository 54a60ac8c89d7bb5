"""The fault server itself: every switch does what it says, seeded and counted."""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request
from typing import Any

import pytest
from langchain_core.messages import HumanMessage

from arena.models import ModelConfig, make_chat_model
from tests.faults.scenario import API_KEY, KEY_ENV
from tests.support.fault_server import KINDS, FaultProcess, FaultServer, quality

pytestmark = pytest.mark.system

PAIR = (
    "Question: q\n\nAnswer A:\nweak answer: 1\n\nAnswer B:\nstrong answer: 2\n\n"
    "Which answer is better, A or B? Reply with one letter."
)


def _post(url: str, body: dict[str, Any], key: str = API_KEY) -> tuple[int, bytes]:
    request = urllib.request.Request(
        url + "/chat/completions",
        data=json.dumps(body).encode(),
        headers={"Authorization": f"Bearer {key}", "Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=5) as reply:
            return reply.status, reply.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


def _chat(text: str, **extra: Any) -> dict[str, Any]:
    return {"model": "m", "messages": [{"role": "user", "content": text}], **extra}


def test_answers_are_deterministic_and_judges_prefer_strong() -> None:
    with FaultServer() as server:
        status, body = _post(server.base_url, _chat("hello"))
        assert status == 200
        assert json.loads(body)["choices"][0]["message"]["content"].startswith("m answer: ")
        assert _post(server.base_url, _chat("hello"))[1] == body
        text = json.loads(_post(server.base_url, _chat(PAIR))[1])
        assert text["choices"][0]["message"]["content"].endswith("[[B>A]]")
        lp = json.loads(_post(server.base_url, _chat(PAIR, logprobs=True, top_logprobs=5))[1])
        top = lp["choices"][0]["logprobs"]["content"][0]["top_logprobs"]
        assert top[0]["token"] == "B" and {t["token"] for t in top} == {"A", "B"}
        grade = _chat(
            "Question: q\n\nAnswer:\nstrong answer: 3\n\nReply YES or NO.",
            logprobs=True,
            top_logprobs=5,
        )
        assert (
            json.loads(_post(server.base_url, grade)[1])["choices"][0]["message"]["content"]
            == "YES"
        )
        assert server.stats()["requests"] == server.stats()["ok"] == 5
    assert quality("strong x") > quality("weak x")


def test_every_fault_kind_reaches_the_client(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(KEY_ENV, API_KEY)
    seen: dict[str, str] = {}
    with FaultServer(hang_s=5) as server:
        config = ModelConfig(
            spec="openai:m",
            base_url=server.base_url,
            api_key_env=KEY_ENV,
            timeout=2.0,
            max_tokens=1,
            extra={"logprobs": True, "top_logprobs": 5},
        )
        for kind in KINDS:
            server.configure(rate=1.0, kinds=[kind])
            try:
                reply = asyncio.run(make_chat_model(config).ainvoke([HumanMessage(PAIR)]))
                lp = bool((reply.response_metadata or {}).get("logprobs"))
                seen[kind] = f"reply {reply.content!r} logprobs={lp}"
            except Exception as exc:
                seen[kind] = f"{type(exc).__name__}: {exc}"
        assert server.stats()["requests"] == len(KINDS)
        assert all(server.stats()[kind] == 1 for kind in KINDS)
    assert "429" in seen["429"] and "500" in seen["500"] and "503" in seen["503"]
    assert "Timeout" in seen["hang"] or "timed out" in seen["hang"]
    assert seen["empty_content"] == "reply '' logprobs=True"
    assert seen["no_logprobs"] == "reply 'B' logprobs=False"
    assert seen["bad_verdict"].startswith("reply 'I cannot tell")
    assert API_KEY in seen["echo_key"]  # the server does echo it: the arena must redact it
    for kind in ("truncated", "bad_json", "empty_choices"):
        assert not seen[kind].startswith("reply"), (kind, seen[kind])


def test_faults_are_seeded_by_body_not_by_order() -> None:
    def outcomes(seed: int, order: list[str]) -> dict[str, list[int]]:
        with FaultServer(rate=0.5, kinds=["500"], seed=seed) as server:
            got: dict[str, list[int]] = {}
            for text in order:
                got.setdefault(text, []).append(_post(server.base_url, _chat(text))[0])
            return got

    texts = [f"q{i}" for i in range(12)] * 2
    first = outcomes(7, texts)
    assert first == outcomes(7, list(reversed(texts)))
    assert {500, 200} <= {s for v in first.values() for s in v}
    assert first != outcomes(8, texts)


def test_subprocess_form_has_the_same_api() -> None:
    with FaultProcess(rate=1.0, kinds=["503"], seed=1) as server:
        assert _post(server.base_url, _chat("x"))[0] == 503
        server.configure(rate=0.0)
        assert _post(server.base_url, _chat("x"))[0] == 200
        stats = server.stats()
        assert stats["requests"] == 2 and stats["503"] == 1 and stats["ok"] == 1
        assert [kind for _, kind, _ in server.log()] == ["503", "ok"]
        server.reset()
        assert server.stats()["requests"] == 0 and server.log() == []
