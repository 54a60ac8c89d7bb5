"""``arena shadow --traces spans.json`` on OpenTelemetry spans (GenAI and OpenInference in
one file exporter's output): sampled, replayed and judged like the JSONL path, production's
tool calls, tokens and cost stored, a rerun making no call, the losses turned into golden
cases with ``arena golden add --from-shadow``; a hostile span file exits 2, storing nothing."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from arena.cli import main
from arena.cli.common import default_dataset
from arena.golden import load_dataset
from arena.production import PRODUCTION, SHADOW_KEYS
from arena.storage import Store
from tests.production.helpers import DATA
from tests.production.otlp import agent_trace, document
from tests.production.scripted import register_models, variant_file

pytestmark = pytest.mark.system  # end to end through the CLI, on scripted models

JUDGE = "fake:prefers-good/text"
REFUND = "4bf92f3577b34da6a3ce929d0e0e4736"  # the GenAI fixture's agent trace
ORDER = "a3ce929d0e0e47364bf92f3577b34da6"  # the OpenInference trace on an unpriced model


def _spans(tmp_path: Path) -> str:
    """The GenAI fixture's lines, the OpenInference fixture as one line, and three agent
    traces whose production answer is GOOD (the scripted judge prefers it)."""
    lines = (DATA / "otel_genai.jsonl").read_text().splitlines()
    lines.append(json.dumps(json.loads((DATA / "otel_openinference.json").read_text())))
    for n in range(3):
        query = f"What is the capital of country number {n}?"
        lines.append(json.dumps(document(agent_trace(100 + n, query, f"GOOD answer {n}"))))
    path = tmp_path / "spans.json"
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def _argv(tmp_path: Path, traces: str, model: str) -> list[str]:
    db = f"sqlite:///{tmp_path / 'arena.db'}"
    candidate = variant_file(tmp_path, "cand", model)
    return ["shadow", "--traces", traces, "--candidate", candidate, "--judge", JUDGE,
            "--db", db, "--json"]  # fmt: skip


def test_shadow_on_otlp_spans_samples_replays_and_judges(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    register_models()
    argv = _argv(tmp_path, _spans(tmp_path), "worse")
    assert main(argv) == 0
    report = json.loads(capsys.readouterr().out)
    assert list(report) == list(SHADOW_KEYS)
    assert report["sampled"] == 7 and report["battles"] == 7
    assert report["model_calls"] == 7 * 3  # one candidate call, two judge orders each
    lost = {loss["production"] for loss in report["losses"]}
    assert lost == {f"GOOD answer {n}" for n in range(3)}  # the fixtures' answers tie
    store = Store(f"sqlite:///{tmp_path / 'arena.db'}")
    (run,) = store.runs()
    production = {r.case_id: r for r in store.results(run.id) if r.variant == PRODUCTION}
    refund = production[REFUND]
    assert [(s.tool, s.args) for s in refund.steps] == [("search_docs", {"query": "refund window"})]
    assert (refund.input_tokens, refund.output_tokens, refund.latency_s) == (892, 38, 2.5)
    assert refund.cost_usd == pytest.approx((892 * 0.15 + 38 * 0.60) / 1e6)
    assert production[ORDER].steps[0].error == "TimeoutError: orders API timed out"
    assert production[ORDER].cost_usd is None  # its model has no price: unknown, never $0
    assert main(argv) == 0  # the same spans: the same run, nothing called again
    assert json.loads(capsys.readouterr().out)["model_calls"] == 0


def test_golden_add_from_a_shadow_run_of_otlp_spans(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    register_models()
    assert main(_argv(tmp_path, _spans(tmp_path), "worse")) == 0
    capsys.readouterr()
    dataset = tmp_path / "golden.json"
    shutil.copy(default_dataset(), dataset)
    db = f"sqlite:///{tmp_path / 'arena.db'}"
    base = ["golden", "add", "--from-shadow", "1", "--dataset", str(dataset), "--reason",
            "lost to production", "--category", "happy_path", "--db", db]  # fmt: skip
    assert main([*base, "--cases", "losses"]) == 0
    assert main([*base, "--cases", REFUND]) == 0
    capsys.readouterr()
    added = {c.reference_answer: c for c in load_dataset(dataset).test_cases if c.notes}
    assert {f"GOOD answer {n}" for n in range(3)} <= set(added)
    refund = added["Yes: refunds are accepted within 30 days of purchase."]
    assert refund.input == "Can I get a refund after 20 days?" and REFUND in refund.notes
    assert refund.tier.value == "pending"


def test_a_hostile_span_file_exits_2_and_stores_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    register_models()
    spans = agent_trace(5, "q?", "GOOD")
    spans[0]["attributes"].append({"key": "llm.cost.total", "value": {"doubleValue": "Infinity"}})
    path = tmp_path / "spans.json"
    path.write_text((DATA / "otel_genai.jsonl").read_text() + json.dumps(document(spans)) + "\n")
    assert main(_argv(tmp_path, str(path), "better")) == 2
    err = capsys.readouterr().err
    assert f"file {path}, line 4, field resourceSpans[0].scopeSpans[0].spans[0]" in err
    assert "attributes[llm.cost.total].doubleValue: 'Infinity' is not a finite number" in err
    assert not (tmp_path / "arena.db").exists()
