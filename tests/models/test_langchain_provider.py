"""``langchain:PROVIDER:MODEL``: LangChain's own chat-model classes, driven by the real
provider clients against local servers that speak the provider's HTTP API (Anthropic's
Messages API with tool use; Mistral's chat API, the OpenAI-shaped fault server), with the
faults the OpenAI fault server injects: retried, then recorded as errors."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from arena.errors import InputError
from arena.models import ModelConfig, make_chat_model
from arena.storage import Store
from tests.faults.scenario import cli
from tests.support.anthropic_server import AnthropicServer
from tests.support.fault_server import FaultServer

pytestmark = pytest.mark.system
KEY_ENV = "ARENA_PROVIDER_TEST_KEY"
KEY = "sk-provider-test-0f3c9a"
HAIKU = "langchain:anthropic:claude-3-5-haiku-latest"
MISTRAL = "langchain:mistralai:mistral-small-latest"


@pytest.fixture
def upstream(monkeypatch: pytest.MonkeyPatch) -> Iterator[FaultServer]:
    """The OpenAI-shaped answers behind both servers; two attempts per call, no delay."""
    monkeypatch.setenv(KEY_ENV, KEY)
    monkeypatch.setenv("ARENA_RETRIES", "3")
    monkeypatch.setenv("ARENA_RETRY_DELAY", "0")
    with FaultServer(tool_calls=True) as server:
        yield server


def cli_json(args: list[str]) -> tuple[int, dict[str, Any]]:
    """``arena ARGS --json`` in-process: the exit code and the document."""
    code, out, err = cli(args)
    assert out.strip(), err[-3000:]
    return code, json.loads(out)


def _files(tmp_path: Path, spec: str, base_url: str, timeout: float = 5.0) -> list[str]:
    tmp_path.mkdir(parents=True, exist_ok=True)
    dataset = tmp_path / "golden.json"
    dataset.write_text(json.dumps({
        "name": "providers", "available_tools": ["calculate"],
        "test_cases": [{"id": "P-1", "input": "What is 6 times 7?", "category": "happy_path",
                        "tier": "critical", "expected_tools": ["calculate"]}],
    }))  # fmt: skip
    variant = tmp_path / "claude.yaml"
    variant.write_text(
        f"name: claude\nagent: react\nmodel: {{spec: '{spec}', base_url: '{base_url}', "
        f"api_key_env: {KEY_ENV}, timeout: {timeout}}}\ntools: [calculate]\nmax_steps: 3\n"
    )
    db = f"sqlite:///{tmp_path / 'arena.db'}"
    return ["run", "--variants", str(variant), "--dataset", str(dataset), "--db", db, "--json"]


def test_an_anthropic_variant_runs_with_tool_calls_tokens_and_cost(
    tmp_path: Path, upstream: FaultServer
) -> None:
    with AnthropicServer(upstream.base_url) as server:
        code, report = cli_json(_files(tmp_path, HAIKU, server.base_url))
        assert code == 0, report
        (result,) = report["results"]
        assert result["error"] is None, result
        assert [s["name"] for s in result["tool_calls"]] == ["calculate"]
        assert result["tool_calls"][0]["args"] == {"expression": "6 * 7"}
        assert result["input_tokens"] > 0 and result["output_tokens"] > 0
        assert result["cost_usd"] > 0  # data/pricing.yaml prices the model
        # The client sent Anthropic's request: tools with input_schema, a tool_result block.
        assert server.requests[0]["tools"][0]["input_schema"]["properties"]
        second = server.requests[1]["messages"]
        assert any(
            isinstance(m["content"], list)
            and any(b.get("type") == "tool_result" for b in m["content"])
            for m in second
        )
        # A rerun reuses the stored answer: no request.
        sent = len(server.requests)
        code, again = cli_json(_files(tmp_path, HAIKU, server.base_url))
        assert code == 0 and again["model_calls"] == 0 and len(server.requests) == sent


def test_anthropic_faults_are_retried_then_recorded_as_errors(
    tmp_path: Path, upstream: FaultServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ARENA_RETRIES", "4")
    with AnthropicServer(upstream.base_url, faults=["429", "529", "bad_json"]) as server:
        code, report = cli_json(_files(tmp_path / "a", HAIKU, server.base_url))
        (result,) = report["results"]
        assert code == 0 and result["error"] is None, result
        assert server.counts["429"] == server.counts["529"] == server.counts["bad_json"] == 1
    with AnthropicServer(upstream.base_url, always="500") as server:
        code, report = cli_json(_files(tmp_path / "b", HAIKU, server.base_url))
        (result,) = report["results"]
        assert result["error"] and "500" in result["error"], result
        assert server.counts["500"] == 4  # ARENA_RETRIES attempts, then the error is recorded
        assert KEY not in json.dumps(report)
    with AnthropicServer(upstream.base_url, always="hang", hang_s=10) as server:
        code, report = cli_json(_files(tmp_path / "c", HAIKU, server.base_url, timeout=0.5))
        (result,) = report["results"]
        assert result["error"] and server.counts["hang"] == 4, result


def test_a_mistral_variant_runs_against_mistrals_api(tmp_path: Path, upstream: FaultServer) -> None:
    upstream.configure(rate=1.0, kinds=["429"])
    code, report = cli_json(_files(tmp_path / "a", MISTRAL, upstream.base_url))
    (result,) = report["results"]
    assert result["error"] and "429" in result["error"], result
    upstream.configure(rate=0.0)
    code, report = cli_json(_files(tmp_path / "b", MISTRAL, upstream.base_url))
    (result,) = report["results"]
    assert code == 0 and result["error"] is None, result
    assert [s["name"] for s in result["tool_calls"]] == ["calculate"]
    assert result["input_tokens"] > 0


def test_settings_are_passed_the_providers_way(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(KEY_ENV, KEY)
    common = {"api_key_env": KEY_ENV, "temperature": 0.3, "max_tokens": 77, "timeout": 9.0}
    claude = make_chat_model(ModelConfig(spec=HAIKU, base_url="http://127.0.0.1:9", **common))
    assert (claude.model, claude.temperature, claude.max_tokens) == (  # type: ignore[attr-defined]
        "claude-3-5-haiku-latest",
        0.3,
        77,
    )
    assert claude.anthropic_api_url == "http://127.0.0.1:9"  # type: ignore[attr-defined]
    assert claude.default_request_timeout == 9.0  # type: ignore[attr-defined]
    assert claude.max_retries == 0  # type: ignore[attr-defined]  # the arena retries
    mistral = make_chat_model(ModelConfig(spec=MISTRAL, base_url="http://127.0.0.1:9/v1", **common))
    assert mistral.endpoint == "http://127.0.0.1:9/v1"  # type: ignore[attr-defined]
    assert mistral.max_tokens == 77 and mistral.max_retries == 0  # type: ignore[attr-defined]


def test_bad_specs_and_missing_packages_are_clear_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    from arena.models.providers import PROVIDERS

    provider = PROVIDERS.lookup("langchain")
    with pytest.raises(InputError, match="langchain:PROVIDER:MODEL"):
        provider.check(ModelConfig(spec="langchain:claude"))
    with pytest.raises(InputError, match=r"pip install 'agent-arena\[google\]'"):
        provider.check(ModelConfig(spec="langchain:google_genai:gemini-2.0-flash"))
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    with pytest.raises(InputError, match="ANTHROPIC_API_KEY is not set"):
        provider.check(ModelConfig(spec=HAIKU))


def test_a_logprobs_judge_on_a_langchain_model_is_refused(tmp_path: Path) -> None:
    from judges._spec import parse_judge

    judge = tmp_path / "judge.yaml"
    judge.write_text(f"model: {{spec: '{HAIKU}', api_key_env: {KEY_ENV}}}\nmode: logprobs\n")
    with pytest.raises(InputError, match="log-probabilities, which provider 'langchain'"):
        parse_judge(str(judge))
    assert parse_judge(f"{HAIKU}/text").mode == "text"


def test_a_model_priced_nowhere_is_said_to_be_unknown(
    tmp_path: Path, upstream: FaultServer
) -> None:
    unpriced = "langchain:mistralai:mistral-tiny-2099"
    code, out, err = cli(_files(tmp_path, unpriced, upstream.base_url))
    assert code == 0, err
    assert f"arena: note: price unknown for {unpriced}" in err
    (result,) = json.loads(out)["results"]
    assert result["cost_usd"] is None and result["input_tokens"] > 0  # unknown, never $0
    (stored,) = Store(f"sqlite:///{tmp_path / 'arena.db'}").results(1)
    assert stored.cost_usd is None
    code, out, err = cli(_files(tmp_path / "priced", MISTRAL, upstream.base_url))
    assert code == 0 and "price unknown" not in err
    assert json.loads(out)["results"][0]["cost_usd"] > 0
