"""A variant's version covers everything that decides its answers: config, the agent's own code
(and the project packages it imports), its tools and its models (a scripted model's replies).
Before, only the config was hashed, so editing a factory kept the version and a rerun reused the
old answers."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.golden import GoldenDataset
from arena.models._fake_files import use_fake_scripts
from arena.runner import RunOptions, run_suite
from arena.runner._versions import changes_since_stored, version_story
from arena.storage import Store
from arena.variants.variant import Variant
from arena.variants.version import VariantVersion
from tests.support.shop_project import Project, shop_project

pytestmark = pytest.mark.unit


@pytest.fixture
def project(tmp_path: Path) -> Iterator[Project]:
    yield from shop_project(tmp_path)


def test_the_version_lists_the_factory_its_project_imports_and_its_tools(project: Project) -> None:
    version = project.variant().version
    assert set(version.code) == {
        f"{project.pkg}/__init__.py",
        f"{project.pkg}/agent.py",
        f"{project.pkg}/tools.py",
        f"{project.common}/__init__.py",
        f"{project.common}/faq.py",
    }  # the project package it imports, not the unrelated one, nor langgraph or arena
    assert set(version.tools) == {"lookup_order"}
    assert set(version.models) == {"model"}


@pytest.mark.parametrize(
    ("relative", "old", "new", "said"),
    [
        ("{pkg}/agent.py", '" REPLY"', '" REPLIED"', "agent code changed: {pkg}/agent.py"),
        ("{common}/faq.py", "2 days", "3 days", "agent code changed: {common}/faq.py"),
        ("{pkg}/tools.py", '" shipped"', '" lost"', "tool changed: lookup_order"),
    ],
)
def test_editing_the_agents_code_changes_the_version_and_says_where(
    project: Project, relative: str, old: str, new: str, said: str
) -> None:
    before = project.variant().version  # computed now, before the edit
    path = relative.format(pkg=project.pkg, common=project.common)
    project.edit(path, old, new)
    after = project.variant()
    assert after.version_hash != before.hash
    assert said.format(pkg=project.pkg, common=project.common) in after.version.changes_since(
        before
    )


def test_code_the_agent_does_not_import_leaves_the_version_alone(project: Project) -> None:
    before = project.variant().version_hash
    project.edit(project.unrelated, "X = 1", "X = 2")
    (project.root / project.pkg / "__pycache__").mkdir(exist_ok=True)
    (project.root / project.pkg / "__pycache__" / "agent.cpython-311.pyc").write_bytes(b"\0")
    assert project.variant().version_hash == before


def test_the_built_in_agent_is_versioned_by_its_code_and_corpus() -> None:
    variant = Variant.model_validate({"name": "r", "model": {"spec": "fake:echo"}})
    code = variant.version.code
    assert "arena/agents/research/tools.py" in code and "data/corpus/papers.yaml" in code
    assert variant.version.config[:12] == variant.version.config[:12].lower()


def test_a_scripted_models_replies_are_part_of_the_version(tmp_path: Path) -> None:
    scripts = tmp_path / "fake.yaml"
    body = {"scripts": {"shop": [{"replies": ["It ships today."]}], "other": [{"replies": ["x"]}]}}
    scripts.write_text(json.dumps(body))
    use_fake_scripts(scripts)
    shop = {"name": "s", "model": {"spec": "fake:shop"}}
    other = {"name": "o", "model": {"spec": "fake:other"}}
    first, first_other = Variant.model_validate(shop), Variant.model_validate(other)
    hashes = (first.version_hash, first_other.version_hash)  # computed now, before the edit
    body["scripts"]["shop"][0]["replies"] = ["It ships next week."]
    scripts.write_text(json.dumps(body))
    use_fake_scripts(scripts)
    second, second_other = Variant.model_validate(shop), Variant.model_validate(other)
    assert second.version_hash != hashes[0]
    assert second_other.version_hash == hashes[1]  # only the edited script's users change
    (line,) = second.version.changes_since(first.version)
    assert line.startswith("model changed: model") and "scripted replies" in line


def test_an_edited_copy_computes_its_own_version() -> None:
    variant = Variant.model_validate({"name": "a", "model": {"spec": "fake:echo"}})
    renamed = variant.model_copy(update={"name": "b"})
    assert renamed.version_hash != variant.version_hash
    assert variant.model_copy().version_hash == variant.version_hash


def test_a_stored_variant_keeps_the_version_it_was_stored_under(
    store: Store, project: Project
) -> None:
    variant = project.variant()
    store.ensure_variant(variant)
    project.edit(f"{project.pkg}/agent.py", '" REPLY"', '" NEW"')
    (stored,) = store.variants()
    assert stored.version == variant.version  # not recomputed from today's code
    assert changes_since_stored(store, project.variant()) == [
        f"agent code changed: {project.pkg}/agent.py"
    ]
    assert changes_since_stored(store, variant) == []


def test_a_version_stored_before_code_was_versioned_asks_for_one_run() -> None:
    old = VariantVersion.legacy("6cfb9dcf4ebd")
    variant = Variant.model_validate({"name": "a", "model": {"spec": "fake:echo"}})
    (line,) = variant.version.changes_since(old)
    assert "before agent code was versioned" in line


def _dataset() -> GoldenDataset:
    return GoldenDataset.model_validate(
        {
            "name": "shop",
            "available_tools": ["lookup_order"],
            "test_cases": [
                {
                    "id": "S-1",
                    "input": "Where is my order?",
                    "category": "happy_path",
                    "expected_output_contains": ["2 days"],
                }
            ],
        }
    )


def test_a_run_after_a_code_edit_runs_the_agent_again(store: Store, project: Project) -> None:
    options = RunOptions(progress=False)
    first = run_suite(store, _dataset(), [project.variant()], options)
    assert first.changes == {"shop": ["first run of this variant"]}
    again = run_suite(store, _dataset(), [project.variant()], options)
    assert again.resumed and again.reused == 1 and again.changes == {"shop": []}
    project.edit(f"{project.common}/faq.py", "2 days", "3 days")
    project.forget_modules()  # a new process would import the edited code
    edited = run_suite(store, _dataset(), [project.variant()], options)
    assert not edited.resumed and edited.reused == 0  # before: resumed, the old answer reused
    assert edited.changes == {"shop": [f"agent code changed: {project.common}/faq.py"]}
    assert "3 days" in (edited.results[0].output or "")
    story = version_story(store, "shop", edited.results[0].variant_hash)
    assert f"agent code changed: {project.common}/faq.py" in story


def test_rerun_starts_a_new_run_even_when_nothing_changed(store: Store) -> None:
    variant = Variant.model_validate({"name": "e", "model": {"spec": "fake:echo"}, "tools": []})
    first = run_suite(store, _dataset(), [variant], RunOptions(progress=False))
    forced = run_suite(store, _dataset(), [variant], RunOptions(progress=False, rerun=True))
    assert forced.run_id != first.run_id and not forced.resumed and forced.reused == 0
