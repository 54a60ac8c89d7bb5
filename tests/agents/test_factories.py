"""Bring-your-own agent factories: only real factories returning agents; every error names the
variant file and the field ``agent``, and a run is refused before anything is written."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.agents import AgentContext, build_agent, check_agent
from arena.errors import InputError
from arena.golden import GoldenDataset
from arena.runner import RunOptions, run_suite
from arena.storage import Store
from arena.variants.variant import Variant, load_variant

pytestmark = pytest.mark.unit

HOSTILE = "tests.agents.hostile_agents"


def _variant_file(tmp_path: Path, agent: str) -> Path:
    path = tmp_path / "v.yaml"
    path.write_text(f"name: v\nagent: '{agent}'\nmodel: {{spec: 'fake:echo'}}\n")
    return path


@pytest.mark.parametrize(
    ("agent", "message"),
    [
        ("os:system", "standard library"),
        ("builtins:exit", "standard library"),
        ("subprocess:run", "standard library"),
        ("shutil:rmtree", "standard library"),
        ("os.path:join", "standard library"),
        ("code:interact", "standard library"),
        ("time:sleep", "standard library"),
        ("sys:exit", "standard library"),
        ("no_such_module_xyz:f", "cannot import no_such_module_xyz"),
        (f"{HOSTILE}:missing", "has no attribute 'missing'"),
        (f"{HOSTILE}:NOT_CALLABLE", "is a int, not a factory"),
        (f"{HOSTILE}:takes_two", "exactly one argument"),
        (f"{HOSTILE}:HOSTILE_EXPRESSION", "not a factory"),
        ("numpy:exp", "not a factory"),
    ],
)
def test_non_factories_are_refused_naming_file_and_field(
    tmp_path: Path, agent: str, message: str
) -> None:
    path = _variant_file(tmp_path, agent)
    with pytest.raises(InputError) as info:
        load_variant(path)  # the factory is imported and vetted when the variant loads
    text = str(info.value)
    assert f"file {path}" in text and "field agent" in text and message in text, text


def test_modules_that_fail_to_import_are_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "broken_factory_mod.py").write_text("raise RuntimeError('boom at import')\n")
    (tmp_path / "exiting_factory_mod.py").write_text("import sys\nsys.exit(4)\n")
    (tmp_path / "syntax_factory_mod.py").write_text("def f(:\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    for module, message in [
        ("broken_factory_mod", "RuntimeError: boom at import"),
        ("exiting_factory_mod", "SystemExit: 4"),
        ("syntax_factory_mod", "SyntaxError"),
    ]:
        path = _variant_file(tmp_path, f"{module}:factory")
        with pytest.raises(InputError) as info:
            load_variant(path)
        assert f"file {path}" in str(info.value) and message in str(info.value)


@pytest.mark.parametrize("agent", ["a..b:f", ".rel:f", "a b:f", "mod:", ":f", "mod:f:g", "1x:f"])
def test_malformed_agent_paths_fail_at_load(tmp_path: Path, agent: str) -> None:
    path = _variant_file(tmp_path, agent)
    with pytest.raises(InputError) as info:
        load_variant(path)
    assert f"file {path}" in str(info.value) and "field agent" in str(info.value)


@pytest.mark.parametrize(
    ("factory", "message"),
    [
        ("returns_none", "returned NoneType, not an agent"),
        ("returns_text", "returned str, not an agent"),
        ("exits", "tried to exit"),
    ],
)
def test_a_factory_must_return_an_agent(tmp_path: Path, factory: str, message: str) -> None:
    path = _variant_file(tmp_path, f"{HOSTILE}:{factory}")
    variant = load_variant(path)
    check_agent(variant)  # importable and well-formed: only calling it tells
    ctx = AgentContext(variant=variant, model=None, tools=[], sandbox_dir=tmp_path)  # type: ignore[arg-type]
    with pytest.raises(InputError) as info:
        build_agent(ctx)
    text = str(info.value)
    assert f"file {path}" in text and "field agent" in text and message in text


def test_a_real_factory_is_accepted(tmp_path: Path) -> None:
    variant = load_variant(_variant_file(tmp_path, f"{HOSTILE}:sandbox_prober"))
    check_agent(variant)
    ctx = AgentContext(variant=variant, model=None, tools=[], sandbox_dir=tmp_path)  # type: ignore[arg-type]
    assert callable(build_agent(ctx).ainvoke)


def test_run_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    path = _variant_file(tmp_path, "builtins:exit")
    dataset = GoldenDataset.model_validate(
        {
            "name": "t",
            "available_tools": ["calculate"],
            "test_cases": [{"id": "C", "input": "hi", "category": "happy_path"}],
        }
    )
    variant = Variant.model_validate(
        {"name": "v", "agent": "builtins:exit", "model": {"spec": "fake:echo"}}
    )
    variant._source_file = str(path)  # as if loaded: the run's own check must refuse it
    store = Store(f"sqlite:///{tmp_path / 'arena.db'}")
    with pytest.raises(InputError, match="field agent"):
        run_suite(store, dataset, [variant], RunOptions(progress=False))
    assert store.runs() == []
    with pytest.raises(InputError, match="field agent"):
        load_variant(path)


def test_a_non_agent_return_is_recorded_per_case_never_crashing_the_run(
    tmp_path: Path, store: Store
) -> None:
    variant = load_variant(_variant_file(tmp_path, f"{HOSTILE}:exits"))
    dataset = GoldenDataset.model_validate(
        {
            "name": "t",
            "available_tools": ["calculate"],
            "test_cases": [{"id": "C", "input": "hi", "category": "happy_path"}],
        }
    )
    report = run_suite(store, dataset, [variant], RunOptions(progress=False))
    (result,) = report.results
    assert result.error and "tried to exit" in result.error and "field agent" in result.error


def test_variants_built_in_code_have_no_file() -> None:
    variant = Variant.model_validate(
        {"name": "v", "agent": "os:system", "model": {"spec": "fake:echo"}}
    )
    assert variant.source_file is None
    with pytest.raises(InputError, match=r"field agent.*standard library"):
        check_agent(variant)
