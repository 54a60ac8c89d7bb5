"""A case requiring a tool that no variant's agent has can never pass: the run refuses it
before anything runs (exit 2 naming the dataset file, the case, the field and the tool, and
what each variant has), in `arena run` and `arena gate` alike (user trial after issue 36: a
per-turn `tools: [refund_flight]`, with refund_flight in `available_tools` but in no agent,
passed lint and the gate). A variant that drops a tool its factory declares is no bad input:
it runs and fails the case (a regression the gate judges)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from arena.cli import main
from arena.storage import Store

pytestmark = pytest.mark.system  # the example agent, built and run: over 0.5 s

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "own-agent"
DECLARED = "convert_units, oven_temperature, scale_recipe"  # kitchen.agent:build's tools


@pytest.fixture
def project(tmp_path: Path) -> Path:
    folder = tmp_path / "own-agent"
    shutil.copytree(EXAMPLE, folder)
    return folder


def _edit(path: Path, case_id: str, change: Callable[[dict[str, Any]], None]) -> None:
    """Add ``weigh_flour`` to the dataset's available tools and apply ``change`` to a case."""
    data = json.loads(path.read_text())
    data["available_tools"].append("weigh_flour")
    change(next(c for c in data["test_cases"] if c["id"] == case_id))
    path.write_text(json.dumps(data))


def _run(project: Path, *variants: str) -> list[str]:
    files = [str(project / "variants" / f"{name}.yaml") for name in variants]
    dataset = str(project / "golden" / "kitchen-dialogues.json")
    return [
        *("--fake-scripts", str(project / "fake_models.yaml"), "run", "--variants", *files),
        *("--dataset", dataset, "--cases", "KD-1", "--db", f"sqlite:///{project / 'a.db'}"),
    ]


def _per_turn(case: dict[str, Any]) -> None:
    case["conversation"]["expect"][1]["tools"] = ["weigh_flour"]


def test_a_per_turn_tool_no_variant_has_is_exit_2_naming_case_field_tool_and_variants(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dataset = project / "golden" / "kitchen-dialogues.json"
    _edit(dataset, "KD-1", _per_turn)
    assert main(["golden", "lint", "--dataset", str(dataset)]) == 0  # lint knows no variant
    capsys.readouterr()
    assert main(_run(project, "baseline", "no-oven")) == 2
    err = capsys.readouterr().err
    where = f"arena: error: file {dataset}, case KD-1, field conversation.expect.1.tools: "
    assert err.startswith(where), err
    assert "tool(s) weigh_flour offered by no variant, so the case can never pass" in err
    assert f"(baseline: {DECLARED}; no-oven: convert_units, scale_recipe)" in err
    assert Store(f"sqlite:///{project / 'a.db'}").runs() == []
    # KD-1 also needs oven_temperature, which no-oven drops: a regression, not bad input
    shutil.copy(EXAMPLE / "golden" / dataset.name, dataset)
    assert main([*_run(project, "no-oven"), "--json"]) == 0, capsys.readouterr().err
    (result,) = json.loads(capsys.readouterr().out)["results"]
    assert result["case_id"] == "KD-1" and result["error"] is None


def test_a_case_level_tool_no_variant_has_fails_the_gate_as_bad_input(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dataset = project / "golden" / "kitchen.json"
    _edit(dataset, "K-1", lambda case: case["expected_tools"].append("weigh_flour"))
    argv = ["--fake-scripts", str(project / "fake_models.yaml"), "gate"]
    argv += ["--config", str(project / "arena.yaml"), "--baseline", "baseline", "--judge", "none"]
    argv += ["--db", f"sqlite:///{project / 'a.db'}"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert f"file {dataset}, case K-1, field expected_tools: tool(s) weigh_flour" in err, err
    assert f"prompt-v2: {DECLARED}" in err
