"""An endpoint that echoes the API key in its error body: the key is never stored or printed
(results.error, `arena run --json`, `arena score --markdown`, a judge's exception text)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from langchain_core.messages import HumanMessage

from arena.cli import main
from arena.golden import GoldenDataset
from arena.models import CachingChatModel, ModelConfig, RetryPolicy, make_chat_model
from tests.support.fault_server import FaultServer

pytestmark = pytest.mark.system

KEY = "sk-echoed-secret-4f1c9a77d2"


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[FaultServer]:
    monkeypatch.setenv("ECHO_TEST_KEY", KEY)
    monkeypatch.setenv("ARENA_RETRIES", "2")
    with FaultServer(rate=1.0, kinds=["echo_key"]) as running:
        yield running


@pytest.mark.parametrize("status", [401, 500])
def test_echoed_key_is_never_stored_or_printed(
    server: FaultServer, tmp_path: Path, status: int, capsys: pytest.CaptureFixture[str]
) -> None:
    server.configure(echo_status=status)
    variant = tmp_path / "v.yaml"
    variant.write_text(
        "name: leaky\nmodel: {spec: 'openai:m', api_key_env: ECHO_TEST_KEY, "
        f"base_url: '{server.base_url}', timeout: 2}}\n"
    )
    dataset = tmp_path / "d.json"
    dataset.write_text(
        GoldenDataset.model_validate(
            {
                "name": "t",
                "available_tools": ["calculate"],
                "test_cases": [{"id": "C-1", "input": "hi", "category": "happy_path"}],
            }
        ).model_dump_json()
    )
    db = f"sqlite:///{tmp_path / 'arena.db'}"
    assert (
        main(["run", "--variants", str(variant), "--dataset", str(dataset), "--db", db, "--json"])
        == 0
    )
    out = capsys.readouterr().out
    assert server.stats()["echo_key"] >= 1, "the server never echoed the key"
    (result,) = json.loads(out)["results"]
    assert "redacted" in result["error"] and str(status) in result["error"]
    assert KEY not in out
    assert main(["score", "--db", db, "--markdown"]) == 0
    markdown = capsys.readouterr().out
    assert "run error" in markdown and "ECHO_TEST_KEY redacted" in markdown
    assert KEY not in markdown
    for path in tmp_path.glob("arena.db*"):
        assert KEY.encode() not in path.read_bytes()


async def test_exceptions_reaching_judges_carry_no_key(server: FaultServer) -> None:
    config = ModelConfig(
        spec="openai:judge", api_key_env="ECHO_TEST_KEY", base_url=server.base_url, timeout=2
    )
    model = CachingChatModel(
        factory=lambda: make_chat_model(config),
        identity=config.cache_identity(),
        retry=RetryPolicy(attempts=1, base_delay=0),
    )
    with pytest.raises(Exception) as caught:
        await model.ainvoke([HumanMessage("judge this")])
    assert "redacted" in str(caught.value) and KEY not in f"{caught.value!r} {caught.value}"
