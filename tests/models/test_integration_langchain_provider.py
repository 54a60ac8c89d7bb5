"""An Anthropic variant (``langchain:anthropic:...``, the real ``anthropic`` client) runs the
research agent against a local Anthropic-speaking server whose answers come from the embedded
model, and is judged and gated beside the OpenAI-compatible baseline. One case: the point is
the provider path end to end (tool calls recorded, tokens and cost stored, a verdict)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.models._local_server import server_pool
from tests.faults.scenario import cli
from tests.support.anthropic_server import AnthropicServer

pytestmark = pytest.mark.integration
ROOT = Path(__file__).resolve().parents[2]
KEY_ENV = "ARENA_ANTHROPIC_TEST_KEY"


def test_an_anthropic_variant_is_run_judged_and_gated_beside_the_baseline(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(KEY_ENV, "sk-ant-local-test")
    local = server_pool().get("qwen2.5-coder-1.5b")
    with AnthropicServer(local.base_url, model="qwen2.5-coder-1.5b") as server:
        prompt = tmp_path / "baseline.md"
        prompt.write_text((ROOT / "data" / "prompts" / "baseline.md").read_text())
        variant = tmp_path / "claude.yaml"
        variant.write_text(
            "name: claude\nagent: react\n"
            f"model: {{spec: 'langchain:anthropic:claude-3-5-haiku-latest', "
            f"base_url: '{server.base_url}', api_key_env: {KEY_ENV}, max_tokens: 256, "
            "timeout: 600}\n"
            "system_prompt_file: baseline.md\nmax_steps: 4\n"
        )
        db = f"sqlite:///{tmp_path / 'arena.db'}"
        config = tmp_path / "arena.yaml"
        config.write_text("run: {tier: critical}\n")  # not the checkout's own arena.yaml
        # In this process: the baseline, the judge and the Anthropic server's upstream share
        # the one embedded server (a second one would halve the speed of both).
        code, out, err = cli(
            ["gate", "--baseline", str(ROOT / "data" / "variants" / "baseline.yaml"),
             "--candidate", str(variant), "--cases", "HP-003", "--repeats", "1",
             "--config", str(config),
             "--judge", "local:qwen2.5-coder-1.5b", "--report-dir", str(tmp_path / "reports"),
             "--db", db, "--json"]
        )  # fmt: skip
        assert code in (0, 1), out[-3000:] + err[-3000:]
        report = json.loads(out)
        assert server.counts["ok"] >= 1  # the candidate's calls went through Anthropic's API
        assert any("tools" in r for r in server.requests)
    from arena.storage import Store

    store = Store(db)
    (claude,) = [r for run in store.runs() for r in store.results(run.id) if r.variant == "claude"]
    assert claude.error is None, claude.error
    assert [s.tool for s in claude.steps] and claude.steps[0].tool == "calculate"
    assert claude.input_tokens > 0 and claude.cost_usd > 0
    assert report["compare"] is not None, report  # judged beside the baseline
