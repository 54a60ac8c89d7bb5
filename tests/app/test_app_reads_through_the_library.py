"""The app reads through the library: no SQL, no table names, no URL derivation in its code."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parents[2]
APP_FILES = [ROOT / "app.py", *sorted((ROOT / "arena" / "app").rglob("*.py"))]
FORBIDDEN_MODULES = (
    "sqlalchemy",
    "sqlite3",
    "arena.storage._tables",
    "arena.storage._engine",
    "os",
)
SQL = re.compile(r"\b(SELECT|INSERT|UPDATE|DELETE)\b.*\b(FROM|INTO|SET)\b", re.DOTALL)
TABLE_HELPERS = {"get_table_names", "__tablename__", "has_table", "execute"}


def _imports(tree: ast.AST) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


@pytest.mark.parametrize("path", APP_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_app_module_uses_no_database_internals(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    bad = [
        m for m in _imports(tree) if any(m == f or m.startswith(f"{f}.") for f in FORBIDDEN_MODULES)
    ]
    assert bad == [], f"{path.name} imports {bad}"
    strings = {
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    }
    assert not [s for s in strings if SQL.search(s)], f"{path.name} holds SQL"
    attributes = {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
    assert not attributes & TABLE_HELPERS, f"{path.name} inspects tables"
    assert "ARENA_DB_URL" not in {s.strip("`") for s in strings}, (
        f"{path.name} reads the database URL itself"
    )


def test_the_check_covers_the_app() -> None:
    found = {str(p.relative_to(ROOT)) for p in APP_FILES}
    assert found >= {"app.py", "arena/app/views.py", "arena/app/data/_runs.py"}
