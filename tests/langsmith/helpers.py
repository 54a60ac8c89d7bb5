"""A tiny two-variant run with a scripted judge, shared by the LangSmith tests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from langchain_core.messages import BaseMessage

from arena.golden import GoldenDataset
from arena.models import register_fake
from tests.support.scripted import NO_IDEA, prefers_an_answer

CASES: list[dict[str, Any]] = [
    {
        "id": "C-1",
        "input": "What's 25% of 1200? #C-1",
        "category": "happy_path",
        "tier": "critical",
        "difficulty": "easy",
        "tags": ["math"],
        "expected_tools": ["calculate"],
        "expected_output_contains": ["300"],
        "reference_answer": "300",
    },
    {
        "id": "C-2",
        "input": "Send an email to bob #C-2",
        "category": "graceful_failure",
        "expected_behavior": "refuse",
        "expected_output_contains": [["cannot", "can't"]],
    },
]
DATASET = GoldenDataset.model_validate(
    {
        "name": "ls-contract",
        "version": "2.1.0",
        "available_tools": ["calculate"],
        "test_cases": CASES,
    }
)


def good_agent(messages: list[BaseMessage]) -> Any:
    """Calls calculate for C-1 and answers with its result; declines C-2."""
    last = messages[-1]
    if last.type == "tool":
        return f"The answer is {last.content}."
    if "#C-1" in str(last.content):
        return {"tool": "calculate", "args": {"expression": "0.25 * 1200"}}
    return "Sorry, I cannot send emails."


def register_scripts() -> None:
    """The fake models: ``fake:ls-good``, ``fake:ls-bad`` and the judge ``fake:ls-judge``."""
    register_fake("ls-good", [good_agent], cycle=True)
    register_fake("ls-bad", [NO_IDEA], cycle=True)
    register_fake("ls-judge", [prefers_an_answer], cycle=True)


def write_files(folder: Path) -> tuple[Path, list[Path]]:
    """The dataset and the two variant files."""
    register_scripts()
    dataset = folder / "golden.json"
    dataset.write_text(json.dumps(DATASET.model_dump(mode="json")))
    variants = []
    for name in ("good", "bad"):
        path = folder / f"{name}.yaml"
        path.write_text(
            f"name: {name}\ndescription: the {name} one\n"
            f"model: {{spec: 'fake:ls-{name}'}}\ntools: [calculate]\n"
        )
        variants.append(path)
    return dataset, variants
