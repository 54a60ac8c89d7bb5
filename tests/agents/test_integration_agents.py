"""The real local model (llama.cpp) runs the react and supervisor agents end to end."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.golden import load_dataset
from arena.runner import RunOptions, run_suite
from arena.storage import Store
from arena.variants.variant import load_variant

pytestmark = pytest.mark.integration

TOOLS = {
    "search_web",
    "search_papers",
    "calculate",
    "extract_findings",
    "compare_sources",
    "write_file",
}


def _run(store: Store, golden_path: Path, variants_dir: Path, variant: str, case: str):  # type: ignore[no-untyped-def]
    dataset = load_dataset(golden_path)
    options = RunOptions(case_ids=[case], progress=False, case_timeout_s=900)
    return run_suite(store, dataset, [load_variant(variants_dir / f"{variant}.yaml")], options)


def test_react_agent_calls_real_tools(
    local_db_url: str, golden_path: Path, variants_dir: Path
) -> None:
    store = Store(local_db_url)
    report = _run(store, golden_path, variants_dir, "baseline", "HP-003")
    (result,) = report.results
    assert result.error is None, result.error
    assert result.output.strip()
    assert result.steps and all(s.tool in TOOLS for s in result.steps)
    calc = [s for s in result.steps if s.tool == "calculate"]
    assert calc and isinstance(calc[0].args.get("expression"), str)
    assert result.input_tokens > 0 and result.output_tokens > 0 and result.model_calls >= 2
    stored = store.result(result.id or -1)
    assert stored.steps == result.steps
    again = _run(store, golden_path, variants_dir, "baseline", "HP-003")
    assert again.model_calls == 0 and again.results[0].output == result.output


def test_supervisor_routes_sub_agents_with_real_model(
    local_db_url: str, golden_path: Path, variants_dir: Path
) -> None:
    store = Store(local_db_url)
    report = _run(store, golden_path, variants_dir, "supervisor", "HP-001")
    (result,) = report.results
    assert result.error is None, result.error
    assert result.output.strip()
    assert result.steps, "the sub-agents made no tool call"
    assert {s.agent for s in result.steps} <= {"researcher", "analyst", "writer"}
    assert any(s.agent == "researcher" and s.tool.startswith("search") for s in result.steps)
    assert result.model_calls >= 4
    assert store.result(result.id or -1).steps == result.steps
