"""Per-role models in the supervisor: one variant file puts only the writer on another model."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import BaseMessage

from arena.errors import InputError
from arena.golden import GoldenDataset
from arena.models import register_fake
from arena.runner import RunOptions, run_suite
from arena.storage import Store
from arena.variants.variant import Variant, load_variant
from tests.agents.gdp_supervisor import gdp_supervisor_reply

pytestmark = pytest.mark.unit

DATASET = GoldenDataset.model_validate(
    {
        "name": "t",
        "available_tools": ["search_web", "calculate", "write_file"],
        "test_cases": [
            {
                "id": "MS",
                "input": "Look up Japan's GDP and calculate 5% of it",
                "category": "multi_step",
            }
        ],
    }
)


def _boss(messages: list[BaseMessage]) -> Any:
    """Supervisor, researcher and analyst: never the writer."""
    assert "Writer" not in str(messages[0].content), "the writer must use its own model"
    reply = gdp_supervisor_reply(messages)
    assert reply is not None, f"unexpected call: {messages[-1].content!r}"
    return reply


def _variant(tmp_path: Path, roles: str) -> Path:
    path = tmp_path / "roles.yaml"
    path.write_text(
        "name: sup-small-writer\nagent: supervisor\n"
        "model: {spec: 'fake:roles-boss', max_tokens: 200}\n" + roles
    )
    return path


def test_only_the_writer_uses_the_smaller_model(tmp_path: Path, store: Store) -> None:
    register_fake("roles-boss", [_boss], cycle=True)
    writer = register_fake("roles-writer", ["Final: 210 billion US dollars."], cycle=True)
    path = _variant(
        tmp_path, "roles:\n  writer: {spec: 'fake:roles-writer', price_output_per_mtok: 1000000}\n"
    )
    variant = load_variant(path)
    assert variant.model_for("writer").spec == "fake:roles-writer"
    assert variant.model_for("writer").max_tokens == 200  # inherited from `model`
    assert variant.model_for("analyst").spec == "fake:roles-boss"
    (result,) = run_suite(store, DATASET, [variant], RunOptions(progress=False)).results
    assert result.error is None and result.output == "Final: 210 billion US dollars."
    assert [(s.agent, s.tool) for s in result.steps] == [
        ("researcher", "search_web"),
        ("analyst", "calculate"),
    ]
    assert len(writer.calls) == 1 and "Writer" in str(writer.calls[0][0].content)
    # only the writer's output tokens are priced ($1 per token): its reply is 5 words
    assert result.cost_usd == pytest.approx(5.0)


def test_roles_are_part_of_the_version(tmp_path: Path) -> None:
    plain = load_variant(_variant(tmp_path, ""))
    small = load_variant(_variant(tmp_path, "roles:\n  writer: {spec: 'fake:roles-writer'}\n"))
    assert plain.version_hash != small.version_hash
    assert "roles" not in plain.model_dump()  # variants without roles keep their old hash


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("roles:\n  chef: {spec: 'fake:x'}\n", r"field roles: .*unknown role\(s\) chef"),
        ("roles:\n  writer: {spec: 'nope'}\n", "field roles.writer.spec: .*PROVIDER:NAME"),
    ],
)
def test_bad_roles_name_the_file(tmp_path: Path, body: str, message: str) -> None:
    path = _variant(tmp_path, body)
    with pytest.raises(InputError, match=message) as err:
        load_variant(path)
    assert str(path) in str(err.value)


def test_react_has_no_roles() -> None:
    with pytest.raises(ValueError, match="roles apply to the supervisor"):
        Variant.model_validate(
            {"name": "r", "model": {"spec": "fake:x"}, "roles": {"writer": {"spec": "fake:y"}}}
        )
