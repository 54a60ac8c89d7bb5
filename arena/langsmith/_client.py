"""The LangSmith SDK client, only when configured, and datasets up and down through it.

LangSmith is configured when ``LANGSMITH_API_KEY`` (or the older ``LANGCHAIN_API_KEY``) is
set; ``LANGSMITH_ENDPOINT`` points at a self-hosted instance. Nothing else in arena needs it.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any
from uuid import UUID, uuid4

from pydantic import BaseModel, Field

from arena.errors import InputError
from arena.golden._models import GoldenDataset
from arena.langsmith._examples import case_to_example

if TYPE_CHECKING:
    from langsmith import Client

KEY_VARIABLES = ("LANGSMITH_API_KEY", "LANGCHAIN_API_KEY")
ENDPOINT_VARIABLES = ("LANGSMITH_ENDPOINT", "LANGCHAIN_ENDPOINT")


def langsmith_configured() -> bool:
    """True when an API key variable is set (the only switch arena looks at)."""
    return any(os.environ.get(name) for name in KEY_VARIABLES)


def make_client(flag: str = "--langsmith") -> Client:
    """A LangSmith client from the environment; InputError naming ``flag`` when unset."""
    key = next((os.environ[n] for n in KEY_VARIABLES if os.environ.get(n)), None)
    if key is None:
        raise InputError(
            "LangSmith is not configured: set LANGSMITH_API_KEY (and "
            "LANGSMITH_ENDPOINT for a self-hosted instance)",
            field=flag,
        )
    from langsmith import Client

    endpoint = next((os.environ[n] for n in ENDPOINT_VARIABLES if os.environ.get(n)), None)
    return Client(api_url=endpoint, api_key=key)


class DatasetSync(BaseModel):
    """A dataset in LangSmith after an upload: its id and each case's example id."""

    name: str
    dataset_id: UUID
    created: bool
    added: list[str] = Field(default_factory=list)
    updated: list[str] = Field(default_factory=list)
    unchanged: int = 0
    example_ids: dict[str, UUID] = Field(default_factory=dict)


def _dataset(client: Client, dataset: GoldenDataset, name: str) -> tuple[Any, bool]:
    from langsmith.utils import LangSmithNotFoundError

    try:
        return client.read_dataset(dataset_name=name), False
    except LangSmithNotFoundError:
        pass
    metadata = {
        "arena_dataset": dataset.name,
        "arena_version": dataset.version,
        "available_tools": list(dataset.available_tools),
    }
    return client.create_dataset(
        name, description=dataset.description or None, metadata=metadata
    ), True


def upload_dataset(client: Client, dataset: GoldenDataset, name: str | None = None) -> DatasetSync:
    """Create the LangSmith dataset (named after the golden set) or bring it up to date.

    Examples are matched by ``metadata.case_id``: missing cases are created, changed ones
    updated, others left alone. Returns each case's example id.
    """
    name = name or dataset.name
    remote, created = _dataset(client, dataset, name)
    existing = (
        {}
        if created
        else {
            str((e.metadata or {}).get("case_id")): e
            for e in client.list_examples(dataset_id=remote.id)
            if (e.metadata or {}).get("case_id")
        }
    )
    sync = DatasetSync(name=name, dataset_id=remote.id, created=created)
    new: list[dict[str, Any]] = []
    for case in dataset.test_cases:
        example = case_to_example(case, dataset)
        old = existing.get(case.id)
        if old is None:
            example_id = uuid4()
            new.append(
                {
                    "id": example_id,
                    "inputs": example["inputs"],
                    "reference_outputs": example["outputs"],
                    "metadata": example["metadata"],
                }
            )
            sync.added.append(case.id)
            sync.example_ids[case.id] = example_id
            continue
        sync.example_ids[case.id] = old.id
        if (old.inputs, old.outputs, old.metadata) == (
            example["inputs"],
            example["outputs"],
            example["metadata"],
        ):
            sync.unchanged += 1
            continue
        client.update_example(
            old.id,
            inputs=example["inputs"],
            outputs=example["outputs"],
            metadata=example["metadata"],
            dataset_id=remote.id,
        )
        sync.updated.append(case.id)
    if new:
        client.create_examples(dataset_id=remote.id, examples=new)
    return sync


def fetch_examples(client: Client, name: str) -> tuple[list[dict[str, Any]], list[str]]:
    """A LangSmith dataset's examples as dicts (and the dataset's available tools, if any)."""
    from langsmith.utils import LangSmithNotFoundError

    try:
        remote = client.read_dataset(dataset_name=name)
    except LangSmithNotFoundError:
        raise InputError(f"no LangSmith dataset named {name!r}", field="source") from None
    examples = [
        {
            "id": str(e.id),
            "inputs": e.inputs or {},
            "outputs": e.outputs or {},
            "metadata": e.metadata or {},
        }
        for e in client.list_examples(dataset_id=remote.id)
    ]
    tools = list((remote.metadata or {}).get("available_tools") or [])
    return examples, tools
