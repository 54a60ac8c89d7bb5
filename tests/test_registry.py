"""The typed registry: one lookup and one UnknownName, a name registered once unless
replace=True, each built-in named and summarised once, and the arena.extend surface."""

from __future__ import annotations

import ast
import importlib.metadata
import inspect
from importlib.metadata import EntryPoint
from pathlib import Path
from typing import Any

import pytest

import arena.extend
from arena.cli import build_parser
from arena.errors import InputError, NameTaken, UnknownName
from arena.extend import (
    GOLDEN_CHECKS,
    JUDGE_MODES,
    PROVIDERS,
    RATING_METHODS,
    GoldenCheck,
    Provider,
    golden_check,
    model_provider,
)
from arena.registry import REGISTRIES, Registry
from arena.reports._registered import registered_text

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parents[1]


class _Mine(Provider):
    """a provider of the tests"""


@pytest.mark.parametrize("group", list(REGISTRIES))
def test_every_kind_has_one_lookup_and_one_unknown_name_error(group: str) -> None:
    registry = REGISTRIES[group]
    with pytest.raises(UnknownName) as caught:
        registry.lookup("no-such-thing")
    error = caught.value
    assert isinstance(error, InputError)
    assert (error.kind, error.name, error.known) == (registry.kind, "no-such-thing", error.known)
    assert error.known == registry.names() and error.known
    assert str(error) == (
        f"unknown {registry.kind} 'no-such-thing'; known: {', '.join(registry.names())}"
    )


def test_a_builtin_name_is_not_replaced_silently() -> None:
    with pytest.raises(NameTaken, match=r"model provider 'openai' is registered already"):

        @model_provider("openai")
        class _Shadow(Provider):
            """would shadow the built-in"""

    with pytest.raises(NameTaken):
        PROVIDERS.register("fake", _Mine())
    with pytest.raises(NameTaken):
        PROVIDERS["local"] = _Mine()
    with pytest.raises(NameTaken, match="golden check 'contains'"):
        golden_check("contains")(type("C", (GoldenCheck,), {}))
    assert type(PROVIDERS.lookup("openai")).__name__ == "OpenAIProvider"
    assert type(GOLDEN_CHECKS.lookup("contains")).__name__ == "ContainsCheck"


def test_replace_true_replaces_and_names_the_entry() -> None:
    @model_provider("openai", "mine instead", replace=True)
    class _Replacement(Provider):
        """replaces the built-in"""

    provider = PROVIDERS.lookup("openai")
    assert isinstance(provider, _Replacement) and provider.name == "openai"
    assert PROVIDERS.summaries()["openai"] == "mine instead"


def test_an_entry_point_named_like_a_builtin_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    clash = EntryPoint("openai", "my_pkg.provider:Mine", "agent_arena.providers")
    fresh = EntryPoint("mine", "tests.test_registry:_Mine", "agent_arena.providers")

    def points(group: str) -> list[EntryPoint]:
        return [fresh, clash] if group == "agent_arena.providers" else []

    monkeypatch.setattr(importlib.metadata, "entry_points", points)
    with pytest.raises(NameTaken, match=r"by entry point my_pkg\.provider:Mine"):
        PROVIDERS.discover()
    assert isinstance(PROVIDERS.lookup("mine"), _Mine)


def test_a_module_registers_over_the_import_path_naming_it() -> None:
    registry: Registry[Any] = Registry("thing", "agent_arena.things", base=None)
    registry.register("mine", "tests.test_registry:_Mine")
    registry.register("mine", _Mine)  # the decorator in the module the path names: the same
    assert registry.lookup("mine") is _Mine
    with pytest.raises(NameTaken):
        registry.register("mine", print)


def test_an_entry_of_the_wrong_type_is_refused() -> None:
    with pytest.raises(TypeError, match=r"golden check 'odd' must be a .*:GoldenCheck"):
        GOLDEN_CHECKS.register("odd", object())
    RATING_METHODS.register("odd", "tests.test_registry:ROOT")
    with pytest.raises(TypeError, match=r"rating method 'odd' must be a"):
        RATING_METHODS.lookup("odd")


def _class_level_names(path: Path) -> set[str]:
    assigned = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                targets = item.targets if isinstance(item, ast.Assign) else []
                assigned.update(t.id for t in targets if isinstance(t, ast.Name))
    return assigned


@pytest.mark.parametrize("folder", ["arena/scoring/checks", "judges/modes"])
def test_builtins_are_named_and_summarised_only_in_the_registry(folder: str) -> None:
    for path in sorted((ROOT / folder).glob("*.py")):
        if path.name in ("_base.py", "__init__.py"):
            continue
        assert not {"name", "summary"} & _class_level_names(path), path
        assert "@golden_check(" not in path.read_text() and "@judge_mode(" not in path.read_text()
    registry = GOLDEN_CHECKS if "checks" in folder else JUDGE_MODES
    for name, summary in registry.summaries().items():
        entry = registry.lookup(name)
        assert (entry.name, entry.summary) == (name, summary)


def test_help_and_listings_show_exactly_the_registry_summaries(
    capsys: pytest.CaptureFixture[str],
) -> None:
    text = registered_text()
    help_text = build_parser().format_help()
    for registry in REGISTRIES.values():
        for name, summary in registry.summaries().items():
            line = f"    {name}"
            found = [ln for ln in text.splitlines() if ln.startswith(line + " ")]
            assert found and found[0].split(maxsplit=1)[1].rstrip(".") in summary, (name, found)
            assert found[0] in help_text
    for name, method in ((n, RATING_METHODS.lookup(n)) for n in RATING_METHODS.names()):
        assert method.name == name and method.summary == RATING_METHODS.summaries()[name]


def test_the_extension_surface_names_everything_and_documents_its_functions() -> None:
    for name in arena.extend.__all__:
        value = getattr(arena.extend, name)
        if inspect.isfunction(value):
            doc = inspect.getdoc(value) or ""
            assert "Args:" in doc and "Returns:" in doc, name
    assert set(arena.extend.__all__) >= {
        "Provider",
        "JudgeMode",
        "GoldenCheck",
        "RatingMethod",
        "UnknownName",
        "InputError",
        "NotFound",
        "agent_factory",
        "model_provider",
        "judge_mode",
        "golden_check",
        "rating_method",
    }


def test_the_extension_guide_imports_only_from_arena_extend() -> None:
    text = (ROOT / "docs" / "extending.md").read_text()
    modules = {
        line.split()[1]
        for line in text.splitlines()
        if line.startswith(("from arena", "from judges", "import arena", "import judges"))
    }
    assert modules == {"arena.extend"}
