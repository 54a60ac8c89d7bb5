"""The typed registry: one lookup and one UnknownName, a name registered once unless
replace=True, each built-in named and summarised by the decorator in its own module (found
lazily through its kind's home, so a new built-in is one new file), listings in order, and
the arena.extend surface."""

from __future__ import annotations

import ast
import importlib.metadata
import importlib.util
import inspect
import json
import subprocess
import sys
from importlib.metadata import EntryPoint
from pathlib import Path
from typing import Any

import pytest

import arena.extend
from arena.cli import build_parser
from arena.errors import InputError, NameTaken, UnknownName
from arena.extend import (
    GOLDEN_CHECKS,
    PROVIDERS,
    RATING_METHODS,
    REGISTRIES,
    GoldenCheck,
    Provider,
    golden_check,
    model_provider,
)
from arena.registry import Registry
from arena.reports._registered import registered_text
from arena.scoring.checks import golden_checks

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


BUILTINS = {
    "providers": ("local", "openai", "langchain", "fake", "human", "answers"),
    "judge_modes": ("text", "logprobs", "grades", "checklist", "rules", "blend", "auto"),
    "rating_methods": ("bt", "style-bt", "elo", "elo-median"),
    "golden_checks": (
        "trajectory",
        "contains",
        "not_contains",
        "regex",
        "exact",
        "behavior",
        "functional",
        "state",
        "rubric",
        "turns",
        "route",
        "graph_trajectory",
    ),
    "agents": ("react", "supervisor"),
    "report_formats": ("table", "json", "markdown"),
    "mutation_operators": (
        "tool_raises",
        "tool_empty",
        "tool_stale",
        "tool_removed",
        "tools_swapped",
        "prompt_dropped",
        "prompt_truncated",
        "model_weaker",
        "max_steps_one",
        "user_turn_dropped",
    ),
}
HOMES = {
    "providers": ("arena.models.providers",),
    "judge_modes": ("judges.modes",),
    "rating_methods": ("arena.ratings",),
    "golden_checks": ("arena.scoring.checks",),
    "agents": ("arena.agents._architectures",),
    "report_formats": ("arena.reports._score_formats",),
    "mutation_operators": ("arena.mutation",),
}
DECORATORS = {
    "model_provider",
    "judge_mode",
    "rating_method",
    "golden_check",
    "agent_architecture",
    "report_format",
    "mutation_operator",
}


def _decorations(module: str) -> dict[str, str]:
    """Name -> summary of each public decorator call written in ``module``'s source."""
    spec = importlib.util.find_spec(module)
    assert spec is not None and spec.origin is not None, module
    found = {}
    for node in ast.walk(ast.parse(Path(spec.origin).read_text())):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) in DECORATORS:
            name, summary = (ast.literal_eval(arg) for arg in node.args[:2])
            found[name] = summary
    return found


def _run(code: str, *args: str) -> Any:
    """What a fresh interpreter running ``code`` prints as JSON."""
    done = subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=ROOT
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("group", list(REGISTRIES))
def test_each_builtin_is_named_and_summarised_by_the_decorator_in_its_own_module(
    group: str,
) -> None:
    registry = REGISTRIES[group]
    source = (ROOT / "arena" / "registry.py").read_text()
    assert "Builtin" not in source
    summaries = registry.summaries()
    for name in BUILTINS[group]:
        module = registry.origin(name)
        assert module is not None and registry.is_builtin(name), name
        assert _decorations(module).get(name) == summaries[name] != "", (module, name)
        assert f"{module}:" not in source and summaries[name] not in source, name
        entry = registry.lookup(name)
        if group in ("judge_modes", "golden_checks", "rating_methods"):
            assert (entry.name, entry.summary) == (name, summaries[name])


def test_listings_keep_the_builtin_order_and_plugins_follow_by_order() -> None:
    assert {group: registry.names() for group, registry in REGISTRIES.items()} == BUILTINS
    formats = REGISTRIES["report_formats"]
    formats.register("late", str, "registered first, no order")
    formats.register("early", repr, "registered second, order 1", order=1)
    formats.register("first", ascii, "a plugin's order never puts it among the built-ins", order=-5)
    assert formats.names() == (*BUILTINS["report_formats"], "first", "early", "late")
    assert [check.name for check in golden_checks()] == list(BUILTINS["golden_checks"])


_NEW_MODULE = """
from arena.extend import {base}, {decorator}


@{decorator}("{name}", "a built-in added as one new file")
class New({base}):
    \"\"\"A new built-in.\"\"\"
"""

_ADD_FILE = """
import importlib, json, pathlib, sys

home, registry = importlib.import_module(sys.argv[1]), sys.argv[2]
folder = pathlib.Path(sys.argv[3])
home.__path__.append(str(folder))  # as if the file were saved in the home package's folder
from arena.extend import REGISTRIES
found = REGISTRIES[registry]
entry = found.lookup(sys.argv[4])
print(json.dumps([found.names(), found.summaries()[sys.argv[4]], found.origin(sys.argv[4])]))
"""


@pytest.mark.parametrize(
    ("home", "registry", "group", "base", "decorator", "name"),
    [
        ("judges.modes", "judge_modes", "judge_modes", "JudgeMode", "judge_mode", "newmode"),
        (
            "arena.scoring.checks",
            "golden_checks",
            "golden_checks",
            "GoldenCheck",
            "golden_check",
            "newcheck",
        ),
    ],
)
def test_a_new_builtin_touches_one_file(
    tmp_path: Path, home: str, registry: str, group: str, base: str, decorator: str, name: str
) -> None:
    module = _NEW_MODULE.format(base=base, decorator=decorator, name=name)
    (tmp_path / f"_{name}.py").write_text(module)
    names, summary, origin = _run(_ADD_FILE, home, registry, str(tmp_path), name)
    assert names == [*BUILTINS[group], name]
    assert (summary, origin) == ("a built-in added as one new file", f"{home}._{name}")


_LAZY = """
import json, sys
from arena.extend import REGISTRIES, REPORT_FORMATS

BUILT_INS = json.loads(sys.argv[1])  # a module defining built-ins, per kind, not the registry's

def loaded():
    return sorted(m for m in BUILT_INS if m in sys.modules)

before = [loaded(), [group for group, r in REGISTRIES.items() if r._loaded]]
REPORT_FORMATS.register("mine", lambda report: "", "a plugin registered before the built-ins")
registered = [group for group, r in REGISTRIES.items() if r._loaded]
with REPORT_FORMATS.scope():
    in_scope = REPORT_FORMATS.names()
print(json.dumps([before, registered, loaded(), in_scope, REPORT_FORMATS.names()]))
"""
BUILT_IN_MODULES = [
    "arena.models.providers._openai",
    "judges.modes._text",
    "arena.ratings._methods",
    "arena.scoring.checks._turns",
    "arena.agents.research.react",
    "arena.mutation._operators",
]


def test_builtins_load_lazily_once_and_a_plugin_registered_before_lists_after_them() -> None:
    # every registry imported (arena.extend collects them): no built-in is loaded
    before, registered, after, in_scope, names = _run(_LAZY, json.dumps(BUILT_IN_MODULES))
    assert before == [[], []]
    # registering a plugin loads that kind's built-ins (so a clash is refused right there)
    assert registered == ["report_formats"] and after == []
    assert in_scope == names == [*BUILTINS["report_formats"], "mine"]
    assert {group: registry.homes for group, registry in REGISTRIES.items()} == HOMES


_REPLACED_FIRST = """
import json
from arena.extend import PROVIDERS, Provider, model_provider

@model_provider("openai", "mine instead", replace=True)
class Mine(Provider):
    \"\"\"replaces a built-in not loaded yet\"\"\"

found = PROVIDERS.lookup("openai")
print(json.dumps([PROVIDERS.names(), type(found).__name__, PROVIDERS.summaries()["openai"]]))
"""


_TAKEN_FIRST = """
import json
from arena.errors import NameTaken
from arena.extend import PROVIDERS, Provider, model_provider

try:
    @model_provider("openai", "mine")
    class Mine(Provider):
        \"\"\"takes a built-in's name without replace\"\"\"
    refused = ""
except NameTaken as exc:
    refused = str(exc)
print(json.dumps([refused, type(PROVIDERS.lookup("openai")).__name__, PROVIDERS.names()]))
"""


def test_a_plugin_taking_a_builtins_name_is_refused_at_once_and_the_builtin_stays() -> None:
    # before: registration succeeded, then every lookup raised NameTaken as the built-ins loaded
    refused, kind, names = _run(_TAKEN_FIRST)
    assert "openai" in refused and "registered already" in refused
    assert kind == "OpenAIProvider"
    assert names == list(BUILTINS["providers"])


def test_a_builtin_replaced_before_it_loads_stays_replaced_in_its_place() -> None:
    names, kind, summary = _run(_REPLACED_FIRST)
    assert (names, kind, summary) == (list(BUILTINS["providers"]), "Mine", "mine instead")


def test_help_and_listings_show_exactly_the_registry_summaries(
    capsys: pytest.CaptureFixture[str],
) -> None:
    text = registered_text(REGISTRIES)
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


_HELP_IMPORTS = """
import contextlib, io, json, sys
from arena.cli import build_parser, main

commands = [[]] + [[name] for name in build_parser()._subparsers._group_actions[0].choices]
for words in commands:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):
        main([*words, "--help"])
heavy = ("langchain_core", "langchain_openai", "langgraph", "numpy", "scipy", "sqlalchemy")
print(json.dumps([len(commands), sorted(m for m in sys.modules if m.split(".")[0] in heavy)]))
"""


def test_help_of_every_command_imports_no_model_or_numeric_library() -> None:
    # before: building the parser read the registries, importing LangChain and NumPy (4 s)
    commands, imported = _run(_HELP_IMPORTS)
    assert commands > 20 and imported == []


_LISTED = """
import json, sys
from arena.extend import REGISTRIES

listed = {group: registry.listing() for group, registry in REGISTRIES.items()}
homes = [m for m in json.loads(sys.argv[1]) if m in sys.modules]
summaries = {group: registry.summaries() for group, registry in REGISTRIES.items()}
print(json.dumps([homes, [list(v.items()) for v in listed.values()],
                  [list(v.items()) for v in summaries.values()]]))
"""


def test_listings_read_from_source_are_the_loaded_summaries_in_order() -> None:
    homes_imported, listed, loaded = _run(_LISTED, json.dumps(BUILT_IN_MODULES))
    assert homes_imported == []  # read without importing a built-in's module
    assert listed == loaded


def test_a_declaration_that_is_not_constant_is_loaded_instead(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from arena._declared import declared

    package = tmp_path / "homepkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "_a.py").write_text(
        '@mutation_operator("one", order=2)\nclass One:\n    """First line.\n\n    More."""\n'
        '    summary = ""\n    default_judge_mode = "auto"\n'
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    (entry,) = declared(("homepkg",), "mutation_operator") or ()
    assert (entry.name, entry.summary, entry.order) == ("one", "First line.", 2)
    assert entry.attributes == {"summary": "", "default_judge_mode": "auto"}
    (package / "_b.py").write_text('NAME = "two"\n@mutation_operator(NAME)\ndef two(): ...\n')
    assert declared(("homepkg",), "mutation_operator") is None


_ALONE = """
import importlib, json, sys
from pydantic import ValidationError

importlib.import_module(sys.argv[1])  # the package alone, nothing before it
from arena.golden import GoldenCase

case = {"id": "c1", "input": "q", "category": "happy_path", "expected_output_contains": ["a"]}
valid = GoldenCase.model_validate(case).id
try:
    GoldenCase.model_validate({**case, "expected_output_max_words": 3})
    refused = ""
except ValidationError as exc:
    refused = exc.errors()[0]["type"]
scoring = sorted(m for m in sys.modules if m.startswith("arena.scoring"))
accepted = None
if sys.argv[1] == "arena.scoring":  # a check registered from outside declares its field
    from typing import Any, ClassVar
    from arena.extend import GoldenCheck, golden_check

    @golden_check("max_words", "a check from outside")
    class MaxWords(GoldenCheck):
        fields = ("expected_output_max_words",)
        extra_fields: ClassVar[dict[str, tuple[Any, Any]]] = {
            "expected_output_max_words": (int, None)
        }

    accepted = GoldenCase.model_validate({**case, "expected_output_max_words": 3}).id
print(json.dumps([valid, refused, scoring, accepted]))
"""


def test_golden_validates_a_case_alone_and_scoring_hands_it_the_checks_fields() -> None:
    # before: validating a case with an unknown field read GOLDEN_CHECKS, which imported
    # arena.scoring.checks, which imports arena.golden (a cycle at run time)
    valid, refused, scoring, accepted = _run(_ALONE, "arena.golden")
    assert (valid, refused, scoring, accepted) == ("c1", "extra_forbidden", [], None)
    valid, refused, scoring, accepted = _run(_ALONE, "arena.scoring")
    assert (valid, refused, accepted) == ("c1", "extra_forbidden", "c1")
    assert "arena.scoring.checks._base" in scoring
