"""The app's Extensions tab lists what is registered (AppTest, in-process, no model calls)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.extend import REGISTRIES, REPORT_FORMATS
from arena.reports._registered import registered_kinds, registered_text
from tests.support.app_fixtures import fill_demo_db

pytestmark = pytest.mark.system

APP = Path(__file__).resolve().parents[2] / "app.py"
EXTRA = "test-extra-format"


@pytest.fixture
def extra_format() -> Iterator[str]:
    """A report format registered at run time, removed afterwards."""
    REPORT_FORMATS.register(EXTRA, str, summary="Registered by the Extensions test.")
    yield EXTRA
    del REPORT_FORMATS[EXTRA]


def _section() -> None:
    from arena.app.extensions_view import extensions_section

    extensions_section()


def test_the_listing_is_the_registry_and_the_help_text_shares_it(extra_format: str) -> None:
    kinds = registered_kinds(REGISTRIES)
    assert [k.group for k in kinds] == list(REGISTRIES)
    formats = next(k for k in kinds if k.group == "report_formats")
    assert formats.entries[extra_format] == "Registered by the Extensions test."
    assert all(summary for kind in kinds for summary in kind.entries.values())
    text = registered_text(REGISTRIES)
    for kind in kinds:
        assert f"{kind.kind}s ({kind.entry_point_group}):" in text
        assert all(name in text for name in kind.entries)


def test_the_section_shows_every_kind_with_names_and_summaries(extra_format: str) -> None:
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_function(_section, default_timeout=60)
    at.run(timeout=60)
    assert not at.exception, [e.value for e in at.exception]
    tables = [frame.value for frame in at.dataframe]
    kinds = registered_kinds(REGISTRIES)
    assert len(tables) == len(kinds)  # every kind has built-ins: one table each
    for kind, table in zip(kinds, tables, strict=True):
        assert list(table.columns) == ["Name", "Summary"]
        assert dict(zip(table["Name"], table["Summary"], strict=True)) == kind.entries
    headings = "\n".join(m.value for m in at.markdown)
    assert all(f"`{kind.entry_point_group}`" in headings for kind in kinds)
    formats = [k.group for k in kinds].index("report_formats")
    assert EXTRA in set(tables[formats]["Name"])


def test_the_app_has_an_extensions_tab(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    url = f"sqlite:///{tmp_path / 'arena.db'}"
    fill_demo_db(url)
    monkeypatch.setenv("ARENA_DB_URL", url)
    from streamlit.testing.v1 import AppTest

    from arena.app import data

    try:
        at = AppTest.from_file(str(APP), default_timeout=60)
        at.run(timeout=60)
        assert not at.exception, [e.value for e in at.exception]
        assert [t.label for t in at.tabs][-1] == "Extensions"
        names = {
            name
            for frame in at.dataframe
            if "Summary" in frame.value.columns
            for name in frame.value["Name"]
        }
        assert {"fake", "bt", "elo"} <= names
    finally:
        data.get_store.clear()
