"""A small project for the gate's tests: a golden dataset, variants on scripted models, a judge.

Each variant's model answers a case from a table (``ANSWERS``) keyed by the ``#ID`` at the end
of the case's question, so a variant passes or fails exactly the cases the test wants.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import BaseMessage

from arena.models import register_fake

CASES: list[dict[str, Any]] = [
    {
        "id": "C-1",
        "input": "Happy critical #C-1",
        "category": "happy_path",
        "tier": "critical",
        "expected_output_contains": ["alpha"],
    },
    {
        "id": "C-2",
        "input": "Graceful critical #C-2",
        "category": "graceful_failure",
        "tier": "critical",
        "expected_output_contains": ["cannot"],
    },
    {
        "id": "S-1",
        "input": "Happy standard #S-1",
        "category": "happy_path",
        "expected_output_contains": ["beta"],
    },
    {
        "id": "S-2",
        "input": "Edge standard #S-2",
        "category": "edge_case",
        "expected_output_contains": ["gamma"],
    },
    {
        "id": "S-3",
        "input": "Multi standard #S-3",
        "category": "multi_step",
        "expected_output_contains": ["delta"],
    },
    {
        "id": "P-1",
        "input": "Pending #P-1",
        "category": "edge_case",
        "tier": "pending",
        "expected_output_contains": ["omega"],
    },
]
GOOD = {
    "C-1": "alpha",
    "C-2": "I cannot do that.",
    "S-1": "beta",
    "S-2": "gamma",
    "S-3": "delta",
    "P-1": "nope",
}


def answers(**changes: str) -> dict[str, str]:
    """The good answers with some replaced (``C_1="wrong"`` replaces C-1's)."""
    return GOOD | {key.replace("_", "-"): value for key, value in changes.items()}


def scripted(table: dict[str, str]) -> Callable[[list[BaseMessage]], str]:
    """A model step answering each case from ``table`` (by the ``#ID`` in the question)."""

    def reply(messages: list[BaseMessage]) -> str:
        case = str(messages[-1].content).rsplit("#", 1)[-1].strip()
        return table.get(case, "no idea")

    return reply


def judge_step(messages: list[BaseMessage]) -> str:
    """A text judge preferring the answer that holds a Greek letter or 'cannot'."""
    text = str(messages[-1].content)
    a = text.split("Answer A:\n", 1)[1].split("\n\n", 1)[0]
    b = text.split("Answer B:\n", 1)[1].split("\n\n", 1)[0]

    def good(answer: str) -> bool:
        return any(w in answer for w in ("alpha", "beta", "gamma", "delta", "cannot"))

    if good(a) == good(b):
        return "[[A=B]]"
    return "[[A>B]]" if good(a) else "[[B>A]]"


class Project:
    """Files of a gate project under a temporary folder."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.variants = root / "variants"
        self.variants.mkdir()
        self.dataset = root / "golden.json"
        self.write_dataset(CASES)
        register_fake("gate-judge", [judge_step], cycle=True)

    def write_dataset(self, cases: list[dict[str, Any]], version: str = "1.0.0") -> None:
        """(Re)write the golden dataset."""
        self.dataset.write_text(
            json.dumps(
                {
                    "name": "gate-golden",
                    "version": version,
                    "available_tools": [],
                    "test_cases": cases,
                }
            )
        )

    def variant(
        self, name: str, table: dict[str, str], model: str | None = None, extra: str = ""
    ) -> Path:
        """A variant file whose model answers from ``table``."""
        model = model or f"gate-{name}"
        register_fake(model, [scripted(table)], cycle=True)
        path = self.variants / f"{name}.yaml"
        path.write_text(f"name: {name}\nmodel: {{spec: 'fake:{model}'}}\ntools: []\n{extra}")
        return path

    def config(self, text: str = "") -> Path:
        """An arena.yaml pointing at this project's dataset and variants."""
        path = self.root / "arena.yaml"
        path.write_text(
            f"run:\n  dataset: golden.json\n  variants_dir: variants\n"
            f"  tier: all\ncompare:\n  judge: fake:gate-judge/text\n"
            f"  bootstrap: 200\nrules:\n  bootstrap: 500\n{text}"
        )
        return path


@pytest.fixture
def project(tmp_path: Path) -> Project:
    """A fresh gate project."""
    return Project(tmp_path)
