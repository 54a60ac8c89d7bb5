"""Finding the run that holds a variant (shared by `arena score`, baselines and checks)."""

from __future__ import annotations

import pytest

from arena.errors import InputError
from arena.golden import GoldenDataset
from arena.models import register_fake
from arena.runner import RunOptions, run_suite, run_with_variant
from arena.storage import Store
from arena.variants.variant import Variant

pytestmark = pytest.mark.unit


def _run(store: Store, *names: str, case: str = "C-1") -> int:
    register_fake("lookup", ["an answer"], cycle=True)
    dataset = GoldenDataset.model_validate(
        {
            "name": "t",
            "available_tools": ["calculate"],
            "test_cases": [{"id": case, "input": "hi", "category": "happy_path"}],
        }
    )
    variants = [
        Variant.model_validate({"name": n, "model": {"spec": "fake:lookup"}}) for n in names
    ]
    return run_suite(store, dataset, variants, RunOptions(progress=False)).run_id


def test_newest_run_with_the_variant_or_the_given_one(store: Store) -> None:
    first = _run(store, "a", "b")
    second = _run(store, "a", case="C-2")
    assert run_with_variant(store, "a") == second
    assert run_with_variant(store, "b") == first
    assert run_with_variant(store, "a", first) == first
    with pytest.raises(InputError, match="field variant: variant 'b' is not in run"):
        run_with_variant(store, "b", second)
    with pytest.raises(InputError, match="not in any stored run"):
        run_with_variant(store, "zzz")
