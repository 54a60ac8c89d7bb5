"""The desk team's own agent (``deskbot/``: its package, variant, golden set and scripted
models), loaded in place or copied to a folder of its own."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.golden import GoldenDataset, load_dataset
from arena.variants.variant import Variant, load_variant

DESK = Path(__file__).resolve().parent / "deskbot"


@pytest.fixture
def desk() -> tuple[Variant, GoldenDataset]:
    """The desk variant and golden set, with the desk's scripted models playing."""
    from arena.models._fake_files import use_fake_scripts

    use_fake_scripts(DESK / "fake_models.yaml")  # the env var is restored after the test
    return load_variant(DESK / "variants" / "baseline.yaml"), load_dataset(
        DESK / "golden" / "desk.json"
    )


SHOP = Path(__file__).resolve().parent / "shopbot"


@pytest.fixture
def shop() -> tuple[Variant, GoldenDataset]:
    """The shop team's variant and golden set (router -> a compiled ``shop`` sub-graph with a
    ToolNode -> audit, from a new user's trial), with its scripted models playing."""
    from arena.models._fake_files import use_fake_scripts

    use_fake_scripts(SHOP / "fake_models.yaml")
    return load_variant(SHOP / "variants" / "baseline.yaml"), load_dataset(
        SHOP / "golden" / "shop.json"
    )
