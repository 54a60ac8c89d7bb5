"""The runner with scripted models: trajectories, storage, caching, resume, retries, timeouts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.golden import GoldenDataset, load_dataset
from arena.models import TransientModelError, register_fake
from arena.runner import RunOptions, run_suite
from arena.storage import Store
from arena.variants.variant import Variant
from tests.support.agents import calculator_script

pytestmark = pytest.mark.unit

TOOLS = [
    "search_web",
    "search_papers",
    "calculate",
    "extract_findings",
    "compare_sources",
    "write_file",
]


def _dataset(n: int = 2) -> GoldenDataset:
    cases = [
        {
            "id": f"C-{i}",
            "input": f"What's 25% of 1200? ({i})",
            "category": "happy_path",
            "tier": "critical",
            "expected_tools": ["calculate"],
        }
        for i in range(n)
    ]
    return GoldenDataset.model_validate(
        {"name": "t", "available_tools": TOOLS, "test_cases": cases}
    )


def _variant(script: str, name: str = "calc", **extra: object) -> Variant:
    return Variant.model_validate(
        {"name": name, "model": {"spec": f"fake:{script}"}, "system_prompt": "Use tools.", **extra}
    )


def test_react_run_records_trajectory_tokens_and_output(store: Store) -> None:
    register_fake("calc", [calculator_script], cycle=True)
    report = run_suite(store, _dataset(1), [_variant("calc")], RunOptions(progress=False))
    (result,) = report.results
    assert result.error is None
    assert result.output == "The answer is 300."
    assert [(s.tool, s.args, s.observation, s.agent) for s in result.steps] == [
        ("calculate", {"expression": "0.25 * 1200"}, "300", "agent")
    ]
    assert result.model_calls == 2 and result.fresh_model_calls == 2
    assert result.input_tokens > 0 and result.output_tokens > 0
    stored = store.result(result.id or -1)
    assert stored.steps == result.steps and stored.output == result.output


def test_unchanged_rerun_makes_zero_model_calls(store: Store) -> None:
    script = register_fake("calc-rerun", [calculator_script], cycle=True)
    first = run_suite(store, _dataset(2), [_variant("calc-rerun")], RunOptions(progress=False))
    calls = len(script.calls)
    second = run_suite(store, _dataset(2), [_variant("calc-rerun")], RunOptions(progress=False))
    assert first.model_calls == 4 and second.model_calls == 0
    assert second.resumed and second.reused == 2 and second.run_id == first.run_id
    assert len(script.calls) == calls
    assert [r.output for r in second.results] == [r.output for r in first.results]


def test_response_cache_replays_a_half_finished_case(store: Store, db_url: str) -> None:
    script = register_fake("calc-cache", [calculator_script], cycle=True)
    first = run_suite(store, _dataset(1), [_variant("calc-cache")], RunOptions(progress=False))
    with store.session() as s:  # forget the result but keep the cached replies
        from sqlalchemy import text

        s.execute(text("DELETE FROM steps"))
        s.execute(text("DELETE FROM node_paths"))  # the calculator's graph path
        s.execute(text("DELETE FROM run_facts"))  # its replies
        s.execute(text("DELETE FROM results"))
        s.commit()
    calls = len(script.calls)
    again = run_suite(
        Store(db_url), _dataset(1), [_variant("calc-cache")], RunOptions(progress=False)
    )
    assert len(script.calls) == calls and again.model_calls == 0
    assert again.results[0].output == first.results[0].output
    assert again.results[0].latency_s >= 0


def test_changed_prompt_is_a_new_version_and_new_calls(store: Store) -> None:
    register_fake("calc-v", [calculator_script], cycle=True)
    run_suite(store, _dataset(1), [_variant("calc-v")], RunOptions(progress=False))
    changed = _variant("calc-v", system_prompt="Use tools, carefully.")
    report = run_suite(store, _dataset(1), [changed], RunOptions(progress=False))
    assert not report.resumed and report.model_calls == 2


def test_repeats_are_separate_samples(store: Store) -> None:
    register_fake("calc-rep", [calculator_script], cycle=True)
    report = run_suite(
        store, _dataset(1), [_variant("calc-rep")], RunOptions(repeats=3, progress=False)
    )
    assert sorted(r.repeat for r in report.results) == [0, 1, 2]
    assert report.model_calls == 6


def test_transient_errors_are_retried(store: Store) -> None:
    steps = [TransientModelError("503"), TransientModelError("429"), calculator_script]
    register_fake("calc-flaky", steps + [calculator_script] * 5)
    report = run_suite(store, _dataset(1), [_variant("calc-flaky")], RunOptions(progress=False))
    assert report.results[0].error is None and report.results[0].output == "The answer is 300."


def test_persistent_errors_are_recorded_and_the_suite_goes_on(store: Store) -> None:
    register_fake("down", [TransientModelError("503 service unavailable")], cycle=True)
    register_fake("calc-ok", [calculator_script], cycle=True)
    report = run_suite(
        store,
        _dataset(2),
        [_variant("down", name="down"), _variant("calc-ok", name="ok")],
        RunOptions(progress=False),
    )
    by_variant = {(r.variant, r.case_id): r for r in report.results}
    assert all("503" in (by_variant[("down", f"C-{i}")].error or "") for i in range(2))
    assert all(by_variant[("ok", f"C-{i}")].error is None for i in range(2))
    assert store.run(report.run_id).errors == 2


def test_case_timeout_is_recorded(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARENA_TEST_SLEEP", "2")
    variant = Variant.model_validate(
        {"name": "slow", "agent": "tests.support.agents:slow_agent", "model": {"spec": "fake:echo"}}
    )
    report = run_suite(
        store, _dataset(1), [variant], RunOptions(case_timeout_s=0.1, progress=False)
    )
    assert report.results[0].error is not None and "timeout" in report.results[0].error


def test_bring_your_own_agent(store: Store) -> None:
    variant = Variant.model_validate(
        {"name": "byo", "agent": "tests.support.agents:slow_agent", "model": {"spec": "fake:echo"}}
    )
    report = run_suite(store, _dataset(1), [variant], RunOptions(progress=False))
    assert report.results[0].output.startswith("slow answer to What's 25%")


def test_unknown_tool_call_is_recorded_as_an_error(store: Store) -> None:
    register_fake(
        "emailer",
        [{"tool": "send_email", "args": {"to": "juan@example.com"}}, "I cannot send email."],
    )
    report = run_suite(store, _dataset(1), [_variant("emailer")], RunOptions(progress=False))
    (step,) = report.results[0].steps
    assert step.tool == "send_email" and step.error
    assert report.results[0].output == "I cannot send email."


def test_max_steps_forces_a_final_answer(store: Store) -> None:
    def looping(messages: list) -> object:  # type: ignore[type-arg]
        if any(m.type == "system" and "budget" in str(m.content) for m in messages):
            return "final after budget"
        return {"tool": "calculate", "args": {"expression": "1+1"}}

    register_fake("loop", [looping], cycle=True)
    report = run_suite(
        store, _dataset(1), [_variant("loop", max_steps=3)], RunOptions(progress=False)
    )
    result = report.results[0]
    assert len(result.steps) == 3 and result.output == "final after budget"


def test_write_file_lands_in_the_result(store: Store) -> None:
    register_fake(
        "writer",
        [
            {"tool": "write_file", "args": {"path": "notes/a.txt", "content": "MCP is a protocol"}},
            "Saved.",
        ],
    )
    report = run_suite(store, _dataset(1), [_variant("writer")], RunOptions(progress=False))
    assert report.results[0].files == {"notes/a.txt": "MCP is a protocol"}


def test_tier_and_case_selection(golden_path: Path, store: Store) -> None:
    register_fake("calc-sel", [calculator_script], cycle=True)
    dataset = load_dataset(golden_path)
    report = run_suite(
        store,
        dataset,
        [_variant("calc-sel")],
        RunOptions(tier="critical", case_ids=["HP-003"], progress=False),
    )
    assert [r.case_id for r in report.results] == ["HP-003"]


def test_cli_run_json_shape(
    db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from arena.cli import main

    register_fake("calc-cli", [calculator_script], cycle=True)
    variant = tmp_path / "v.yaml"
    variant.write_text("name: calc-cli\nmodel: {spec: 'fake:calc-cli'}\n")
    dataset = tmp_path / "d.json"
    dataset.write_text(_dataset(1).model_dump_json())
    code = main(
        ["run", "--variants", str(variant), "--dataset", str(dataset), "--db", db_url, "--json"]
    )
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["model_calls"] == 2 and isinstance(out["run_id"], int)
    (result,) = out["results"]
    assert {
        "variant",
        "variant_hash",
        "case_id",
        "repeat",
        "output",
        "tool_calls",
        "steps",
        "latency_s",
        "input_tokens",
        "output_tokens",
        "cost_usd",
        "error",
    } <= set(result)
    assert result["tool_calls"] == [
        {
            "name": "calculate",
            "args": {"expression": "0.25 * 1200"},
            "agent": "agent",
            "error": None,
        }
    ]
    assert main(["show", str(result["id"]), "--db", db_url]) == 0
    assert "calculate" in capsys.readouterr().out


def test_cli_bad_input_exit_code(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from arena.cli import main

    bad = tmp_path / "v.yaml"
    bad.write_text("name: v\nmodel: {spec: 'nope'}\n")
    assert main(["run", "--variants", str(bad), "--db", f"sqlite:///{tmp_path}/x.db"]) == 2
    assert "field model.spec" in capsys.readouterr().err


def test_unimportable_factory_fails_before_anything_is_written(store: Store) -> None:
    from arena.errors import InputError

    variant = Variant.model_validate(
        {"name": "ghost", "agent": "no_such_pkg.agents:build", "model": {"spec": "fake:echo"}}
    )
    with pytest.raises(InputError, match="cannot import no_such_pkg"):
        run_suite(store, _dataset(1), [variant], RunOptions(progress=False))
    assert store.runs() == []
