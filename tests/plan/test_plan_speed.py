"""`arena plan`'s wall time comes from the model's measured speed (issue 19, item 5): a
``local:`` model without stored results is timed with one short request, its server's
slots cap how many workers run at once, and the judge's estimate uses the same speed. The
server is replaced by a stand-in that reports llama.cpp's timings."""

from __future__ import annotations

from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest

from arena.cli import main
from arena.models import ModelConfig
from arena.models.providers import _local_speed as speed
from arena.plan import plan_run
from arena.plan._speed import CALL_LATENCY_S
from arena.variants.variant import Variant
from judges import JudgeSpec
from tests.plan.helpers import dataset, write_inputs

pytestmark = pytest.mark.unit

PREFILL, DECODE = 50.0, 5.0  # tokens per second the stand-in server reports
SPEC = "local:qwen2.5-coder-0.5b"


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[dict[str, Any]]]:
    """A stand-in llama.cpp server: records each probe request, reports fixed speeds."""
    sent: list[dict[str, Any]] = []

    def post(base_url: str, model: str, **sizes: int) -> dict[str, Any]:
        if sizes.get("max_tokens") == 1:
            return {}  # the warm-up request
        sent.append({"url": base_url, "model": model})
        return {
            "timings": {
                "prompt_n": 100,
                "prompt_ms": 100 / PREFILL * 1000,
                "predicted_n": 16,
                "predicted_ms": 16 / DECODE * 1000,
            }
        }

    pool = SimpleNamespace(get=lambda name: SimpleNamespace(base_url="http://127.0.0.1:9/v1"))
    monkeypatch.setattr(speed, "_post", post)
    monkeypatch.setattr("arena.models._local_server.server_pool", lambda: pool)
    speed.probe_local.cache_clear()
    yield sent
    speed.probe_local.cache_clear()


def _local(name: str = "agent") -> Variant:
    return Variant.model_validate({"name": name, "model": {"spec": SPEC}, "tools": []})


def test_a_local_model_is_timed_and_its_slots_cap_the_workers(
    server: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ARENA_LLAMA_PARALLEL", "2")
    plan = plan_run(None, dataset(4), [_local()], concurrency=8)
    line = plan.variants[0]
    each = line.per_task
    # no tools: one call, the prompt processed once, one reply
    assert each.calls == 1
    expected = each.input_tokens / PREFILL + each.output_tokens / DECODE
    assert each.latency_s == pytest.approx(expected)
    assert line.wall_s == pytest.approx(4 * each.latency_s / 2)  # two slots, not eight workers
    assert "measured on local:qwen2.5-coder-0.5b: 50 tok/s prompt, 5.0 tok/s output" in (
        each.source
    )
    assert len(server) == 1  # one probe, however many variants use the model


def test_the_judge_is_timed_at_its_model_speed(
    server: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ARENA_LLAMA_PARALLEL", "2")
    judge = JudgeSpec(model=ModelConfig(spec=SPEC))
    plan = plan_run(None, dataset(2), [_local("a"), _local("b")], judge=judge, concurrency=2)
    assert plan.judge is not None
    per = plan.judge.per_call
    assert per.latency_s == pytest.approx(per.input_tokens / PREFILL + per.output_tokens / DECODE)
    # both orders of a pair at once, in the server's two slots
    assert plan.judge.wall_s == pytest.approx(plan.judge.to_send * per.latency_s / 2)
    assert per.latency_s > 5 * CALL_LATENCY_S  # a slow CPU: far from the old 2 s guess
    assert len(server) == 1


def test_no_measure_assumes_the_per_call_time(server: list[dict[str, Any]]) -> None:
    plan = plan_run(None, dataset(4), [_local()], concurrency=2, measure=False)
    each = plan.variants[0].per_task
    assert each.latency_s == CALL_LATENCY_S and each.source == "dataset" and not server


def test_the_cli_flag(
    server: list[dict[str, Any]], tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    data, _ = write_inputs(tmp_path)
    file = tmp_path / "local.yaml"
    file.write_text(f"name: agent\nmodel: {{spec: '{SPEC}'}}\ntools: []\n")
    argv = ["plan", "--variants", str(file), "--dataset", str(data), "--json"]
    assert main([*argv, "--db", f"sqlite:///{tmp_path / 'none.db'}"]) == 0
    assert "measured on" in capsys.readouterr().out and len(server) == 1
    assert main([*argv, "--no-measure", "--db", f"sqlite:///{tmp_path / 'none.db'}"]) == 0
    assert "measured on" not in capsys.readouterr().out and len(server) == 1


def test_stored_latencies_are_shared_by_at_most_the_server_slots(
    server: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    from arena.plan._estimate import History, Usage

    monkeypatch.setenv("ARENA_LLAMA_PARALLEL", "2")
    agent = _local()
    usage = Usage(results=1, calls=2, input_tokens=500, output_tokens=50, latency_s=30.0)
    history = History(by_version={agent.version_hash: usage})
    monkeypatch.setattr("arena.plan._plan.read_history", lambda store, variants: history)
    plan = plan_run(None, dataset(4), [agent], concurrency=8)
    # 4 tasks of 30 s, two at a time: the server's two slots, not the eight workers
    assert plan.variants[0].wall_s == pytest.approx(60.0) and not server
