"""The same figure reads the same in the CLI and every tab of the app: `arena ratings` and
`arena compare` against the leaderboard table, the decision card, the Compare tab and the
Judge health tab (AppTest, in-process, on the scripted demo database)."""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.cli import main
from tests.support.app_fixtures import fill_demo_db

pytestmark = pytest.mark.system

APP = Path(__file__).resolve().parents[2] / "app.py"


@pytest.fixture(scope="module")
def demo_url() -> Iterator[str]:
    shm = Path("/dev/shm")
    parent = str(shm) if shm.is_dir() and os.access(shm, os.W_OK) else None
    with tempfile.TemporaryDirectory(dir=parent, prefix="arena-figures-") as folder:
        url = f"sqlite:///{Path(folder) / 'arena.db'}"
        fill_demo_db(url)
        yield url
        from arena.app import data

        data.get_store.clear()


def _cli_rows(out: str) -> dict[str, dict[str, str]]:
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("rank "))
    headers = re.split(r"\s{2,}", lines[start].strip())
    rows = {}
    for line in lines[start + 2 :]:
        if not line.strip() or (not line[0].isdigit() and not line.startswith("-")):
            break
        cells = dict(zip(headers, re.split(r"\s{2,}", line.strip()), strict=True))
        rows[cells["variant"]] = cells
    return rows


def _plain(text: str) -> str:
    return text.replace("\\", "")


def test_the_same_figure_reads_the_same_in_the_cli_and_every_tab(
    demo_url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from streamlit.testing.v1 import AppTest

    assert main(["ratings", "--db", demo_url]) == 0
    cli = _cli_rows(capsys.readouterr().out)
    assert set(cli) == {"prompt-v2", "baseline", "small-model", "broken-no-tools"}
    assert main(["compare", "--baseline", "baseline", "--candidate", "small-model",
                 "--db", demo_url]) == 1  # fmt: skip
    summary = capsys.readouterr().out.splitlines()[0]
    assert "golden pass rate 66.7% vs 100%" in summary

    monkeypatch.setenv("ARENA_DB_URL", demo_url)
    at = AppTest.from_file(str(APP), default_timeout=90)
    at.run(timeout=90)
    assert not at.exception, [e.value for e in at.exception]
    at.toggle(key="board_advanced").set_value(True).run(timeout=90)
    board = next(f.value for f in at.dataframe if "Rating (95% CI)" in f.value.columns)
    for name, row in board.set_index("Variant").iterrows():
        line = cli[str(name)]
        assert row["Rank"] == line["rank"], name
        assert row["Rating (95% CI)"] == f"{line['rating']} ({line['95% CI']})", name
        assert row["Pass rate"] == line["critical pass"], name  # the sidebar's critical tier
        assert row["Win rate"] == line["win rate"] and row["Elo"] == line["elo"], name
        assert row["Cost / query"] == line["$/query"], name
        assert row["Tokens / query"] == line["tokens/query"], name
        assert row["p90"] == f"{line['p90 s']} s", name
    assert board.set_index("Variant")["Win rate"]["baseline"] == "55.6%"

    # The decision card and the Compare tab give the CLI's compare verdict, same figures.
    card = _plain(next(m.value for m in at.markdown if "cheaper model good enough" in m.value))
    assert "small-model vs baseline is WORSE" in card
    assert "golden cases passed 4/6 (66.7%) vs 6/6 (100%)" in card
    assert (
        f"{cli['small-model']['tokens/query']} vs {cli['baseline']['tokens/query']} tokens" in card
    )
    assert f"{cli['small-model']['$/query']} vs {cli['baseline']['$/query']}" in card
    at.selectbox(key="cmp_candidate").select("small-model").run(timeout=90)
    assert not at.exception
    assert any(_plain(e.value) == f"**{summary}**" for e in at.error)
    metric = next(m for m in at.metric if m.label == "Golden pass rate")
    assert metric.value == "4/6 (66.7%)"

    # Judge health: the accuracy the card quotes, counted the same way.
    trust = _plain(next(m.value for m in at.markdown if "judge be trusted" in m.value))
    health = next(f.value for f in at.dataframe if "Trust" in f.value.columns)
    accuracy = health["Decisive-pair accuracy"].iloc[0]
    k, n = re.match(r"(\d+)/(\d+) \(", accuracy).groups()  # type: ignore[union-attr]
    assert f"right on {k} of {n} clear-cut pairs" in trust
    rendered = "\n".join(str(e.value) for e in [*at.markdown, *at.caption, *at.success])
    assert "None" not in _plain(rendered) and "nan" not in rendered


def test_compare_presets_badges_counts_and_the_regressions_filter(
    demo_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from streamlit.testing.v1 import AppTest

    monkeypatch.setenv("ARENA_DB_URL", demo_url)
    at = AppTest.from_file(str(APP), default_timeout=90)
    at.run(timeout=90)
    assert at.selectbox(key="cmp_candidate").value == "prompt-v2"  # the best by rating
    next(b for b in at.button if b.label == "Cheaper model vs baseline").click().run(timeout=90)
    assert not at.exception, [e.value for e in at.exception]
    assert at.selectbox(key="cmp_baseline").value == "baseline"
    assert at.selectbox(key="cmp_candidate").value == "small-model"
    assert any("do not apply to it" in c.value for c in at.caption)  # says it does not
    at.selectbox(key="tier").select("all").run(timeout=90)
    cases = next(f.value for f in at.dataframe if "Change" in f.value.columns)
    assert list(cases.columns[:5]) == ["Case", "Change", "Judge winner", "baseline", "small-model"]
    assert set(cases["baseline"]) == {"✓ pass"}
    row = cases.set_index("Case").loc["MS-001"]
    assert row["small-model"] == "✗ fail" and row["Change"] == "⬇ regressed"
    assert any(_plain(m.value).startswith("**0 improved / 2 regressed / 4 same**")
               for m in at.markdown)  # fmt: skip
    at.toggle(key="cmp_regressions").set_value(True).run(timeout=90)
    shown = next(f.value for f in at.dataframe if "Change" in f.value.columns)
    assert set(shown["Case"]) == {"MS-001", "AM-001"}
    assert set(shown["Change"]) == {"⬇ regressed"}
    next(b for b in at.button if b.label == "Best vs baseline").click().run(timeout=90)
    assert at.selectbox(key="cmp_candidate").value == "prompt-v2"
