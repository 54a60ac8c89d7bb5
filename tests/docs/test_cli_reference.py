"""The generated CLI reference page names every sub-command and every flag of the parser."""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from arena.cli import build_parser

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.unit


def _hook(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, ROOT / "docs" / "hooks" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_subcommand_and_flag_is_on_the_page() -> None:
    hook = _hook("cli_reference")
    page = hook.render_cli_reference(build_parser())
    commands = list(hook.subcommands(build_parser()))
    assert {" ".join(words) for words, _, _ in commands} >= {"run", "gate", "baseline save"}
    for words, _, parser in commands:
        assert f"\n## arena {' '.join(words)}\n" in page
        for action in parser._actions:
            if isinstance(action, argparse._HelpAction) or action.help == argparse.SUPPRESS:
                continue  # hidden flags (kept for old scripts) are not documented
            for flag in action.option_strings:
                assert f"`{flag}" in page or f", {flag}" in page, (words, flag)


def test_the_page_follows_the_parser() -> None:
    hook = _hook("cli_reference")
    parser = build_parser()
    sub = next(p for words, _, p in hook.subcommands(parser) if words == ("runs",))
    sub.add_argument("--brand-new-flag", action="store_true", help="added after the docs")
    assert "`--brand-new-flag`" in hook.render_cli_reference(parser)


def test_the_api_page_lists_every_public_name() -> None:
    import arena

    page = _hook("api_reference").render_api_reference()
    for name, module in arena._EXPORTS.items():
        assert f"::: {module}.{name}\n" in page


@pytest.mark.system
def test_the_site_builds_strict(tmp_path: Path) -> None:
    """`mkdocs build --strict` (also a step of .ci/run): broken links, missing nav pages,
    a bad docstring reference all fail."""
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "NO_MKDOCS_2_WARNING": "1"},
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert (tmp_path / "cli" / "index.html").is_file()
    assert "arena gate" in (tmp_path / "cli" / "index.html").read_text(encoding="utf-8")
