"""examples/own-agent on the real local model: one case, one variant; the model calls the
kitchen helper's own tool and the call is recorded with its result and no false error."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.golden import load_dataset
from arena.runner import RunOptions, run_suite
from arena.storage import Store
from arena.variants.variant import load_variant

pytestmark = pytest.mark.integration

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "own-agent"
KITCHEN_TOOLS = {"convert_units", "scale_recipe", "oven_temperature"}


def test_the_local_model_calls_the_examples_own_tool(local_db_url: str) -> None:
    shipped = load_variant(EXAMPLE / "variants" / "baseline.yaml")
    # CI's two cores are shared: a slow reply is no failure of what this test proves
    variant = shipped.model_copy(
        update={"model": shipped.model.model_copy(update={"timeout": 900})}
    )
    assert variant.source_file == shipped.source_file
    dataset = load_dataset(EXAMPLE / "golden" / "kitchen.json")
    options = RunOptions(case_ids=["K-1"], progress=False, case_timeout_s=900)
    (result,) = run_suite(Store(local_db_url), dataset, [variant], options).results
    assert result.error is None, result.error
    assert result.steps, "the model made no tool call"
    assert {s.tool for s in result.steps} <= KITCHEN_TOOLS
    convert = [s for s in result.steps if s.tool == "convert_units"]
    assert convert and convert[0].error is None and " = " in convert[0].observation
    assert all(s.error is None for s in result.steps), [s.error for s in result.steps]
