"""A small priced arena on scripted fake models, for the plan and --max-cost tests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from arena.executors import TaskOutcome
from arena.golden import GoldenDataset
from arena.models import register_fake
from arena.runner._tasks import Task
from arena.storage import Store
from arena.variants.variant import Variant

PRICE_IN, PRICE_OUT = 1000.0, 2000.0  # dollars per million tokens: a task costs cents
CASES = 4
NAMES = ("good", "bad", "same")


def dataset(cases: int = CASES) -> GoldenDataset:
    """``cases`` questions of the same length (so every task costs the same)."""
    return GoldenDataset.model_validate(
        {
            "name": "plan",
            "available_tools": ["calculate"],
            "test_cases": [
                {
                    "id": f"P-{i}",
                    "input": f"What is 25% of 1200? case {i}",
                    "category": "happy_path",
                    "tier": "critical",
                }
                for i in range(cases)
            ],
        }
    )


def register_models() -> None:
    """good and same answer alike (their battles tie without a call); bad differs."""
    register_fake("good", ["The answer is 300 exactly."], cycle=True)
    register_fake("same", ["The answer is 300 exactly."], cycle=True)
    register_fake("bad", ["The answer is 250 I think."], cycle=True)


def variant(name: str) -> Variant:
    """A priced variant on ``fake:NAME``, answering at once (no tools)."""
    return Variant.model_validate(
        {
            "name": name,
            "model": {
                "spec": f"fake:{name}",
                "price_input_per_mtok": PRICE_IN,
                "price_output_per_mtok": PRICE_OUT,
            },
            "tools": [],
        }
    )


def write_inputs(root: Path) -> tuple[Path, list[Path]]:
    """The dataset and variant files for the CLI."""
    root.mkdir(parents=True, exist_ok=True)
    data = root / "plan.json"
    data.write_text(dataset().model_dump_json())
    files = []
    for name in NAMES:
        path = root / f"{name}.yaml"
        path.write_text(
            f"name: {name}\nagent: react\ntools: []\nmodel: {{spec: 'fake:{name}', "
            f"price_input_per_mtok: {PRICE_IN}, "
            f"price_output_per_mtok: {PRICE_OUT}}}\n"
        )
        files.append(path)
    return data, files


class OnlySome:
    """An executor running only the tasks ``allow`` accepts (the rest: not started), to leave
    a run partly done the way a stopped run is."""

    name = "only-some"

    def __init__(self, allow: Any) -> None:
        from arena.executors import LocalExecutor

        self.inner, self.allow = LocalExecutor(), allow

    async def run_task(
        self, store: Store, run_id: int, task: Task, timeout_s: float
    ) -> TaskOutcome | None:
        if not self.allow(task):
            return None
        return await self.inner.run_task(store, run_id, task, timeout_s)

    async def judge_pair(self, *args: Any) -> Any:
        raise AssertionError("not used")

    def close(self) -> None:
        pass
