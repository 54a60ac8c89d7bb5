"""The Architecture page is generated from the file tests/test_layers.py enforces."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.unit


def _hook() -> ModuleType:
    path = ROOT / "docs" / "hooks" / "architecture.py"
    spec = importlib.util.spec_from_file_location("architecture", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_page_lists_every_layer_in_order_and_every_package() -> None:
    hook = _hook()
    data = hook.load()
    page = hook.render_architecture(data)
    positions = [page.index(f". **{layer['name']}**") for layer in data["layers"]]
    assert positions == sorted(positions)
    for layer in data["layers"]:
        listed = page.split(f". **{layer['name']}**", 1)[1].split("\n", 1)[0]
        for module in layer["modules"]:  # a package once, for its patterns `pkg` and `pkg.*`
            assert f"`{module.removesuffix('.*')}`" in listed
    for entry in data["packages"]:
        assert f"`{entry['path']}`" in page


def test_the_layers_the_test_enforces_are_the_layers_on_the_page() -> None:
    from tests.test_layers import LAYERS

    assert [name for name, _ in LAYERS] == [layer["name"] for layer in _hook().load()["layers"]]
    assert "1. foundations" not in (ROOT / "docs" / "extending.md").read_text()  # not twice
