"""Figures quoted in the docs are generated or dated with their variance; no Elo intervals.

``python -m benchmarks docs_figures`` records a demo database's figures as JSON and renders
only the ``<!-- figures:NAME -->`` blocks from it; here it runs on a scripted database (no
model) in a copy of a docs tree. Every block is stamped and no older than the code it
describes allows (:mod:`benchmarks.figure_blocks`).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from benchmarks import figure_blocks as blocks
from tests.support.app_fixtures import fill_demo_db
from tests.support.benchmarks import load_benchmark

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parents[2]
figures = load_benchmark("docs_figures")

PAGE = """# A page

Prose before, with 79% [57, 93] measured on 2026-12-01 (it varies from run to run).

<!-- figures:demo-output -->
stale output
<!-- /figures -->

Prose between.
<!-- figures:demo-judges -->
stale sentence
<!-- /figures -->
<!-- figures:not-generated-here -->
kept as written
<!-- /figures -->
Prose after.
"""
README = (
    "# Readme\n\n<!-- figures:command-times -->\n<!-- /figures -->\n\n"
    "<!-- figures:demo-time -->\nold time\n<!-- /figures -->\n\nThe end.\n"
)


def _tree(root: Path) -> Path:
    (root / "docs").mkdir(parents=True)
    (root / "docs" / "page.md").write_text(PAGE, encoding="utf-8")
    (root / "README.md").write_text(README, encoding="utf-8")
    return root


def _generate(root: Path, url: str) -> None:
    argv = ["--db", url, "--judges", "fake:judge", "--machine", "test box", "--root", str(root)]
    assert figures.main([*argv, "--no-screenshot", "--wall-seconds", "400.4"]) == 0


def _outside(text: str) -> str:
    return re.sub(r"(<!-- figures:[a-z-]+ -->\n).*?(<!-- /figures -->)", r"\1\2", text, flags=re.S)


@pytest.mark.system  # fills a scripted database: a few seconds
def test_the_blocks_are_rewritten_from_the_database_and_nothing_else(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'demo.db'}"
    fill_demo_db(url)
    root = _tree(tmp_path / "first")
    _generate(root, url)
    page = (root / "docs" / "page.md").read_text(encoding="utf-8")
    readme = (root / "README.md").read_text(encoding="utf-8")

    assert _outside(page) == _outside(PAGE) and _outside(readme) == _outside(README)
    assert "stale" not in page and "kept as written" in page
    assert "6 min 40 s wall" in readme and "demo 7 min 24 s" in readme
    assert (
        "| 1. `.venv/bin/arena demo` | 7 min 24 s (a fresh clone, issue 37) | 6 min 40 s" in readme
    )
    ci_row = (
        "| 2. `bash .ci/run` | 16 min 57 s in CI at stop 58; "
        "18 min 19 s to 20 min 30 s on 3 fresh clones |"
    )
    assert f"{ci_row} 45 min" in readme
    stamps = [line for line in readme.split("\n") if blocks.STAMP.match(line)]
    assert len(stamps) == 2 and max(map(blocks.stamp_length, stamps)) <= blocks.STAMP_CHARS
    stamp = blocks.STAMP.search(page)
    assert stamp and stamp["source"] == "The demo run" and stamp["machine"] == "test box"
    assert re.fullmatch(r"\d{4}-\d\d-\d\d", stamp["date"]) and stamp["load"] == "not recorded"
    recorded = json.loads((root / blocks.RESULTS / "demo.json").read_text(encoding="utf-8"))
    assert recorded["stamp"]["commit"] == stamp["commit"]
    assert recorded["blocks"]["demo-judges"] in page
    assert "(getting-started.md#how-much-the-demo-varies)" in page
    assert "(docs/getting-started.md#how-much-the-demo-varies)" in readme
    output = page.split("<!-- figures:demo-output -->", 1)[1].split("<!-- /figures -->")[0]
    assert "judge health" in output and "leaderboard, run 2" in output
    for name in ("baseline", "prompt-v2", "small-model", "broken-no-tools"):
        assert name in output
    assert "Is the cheaper model good enough? small-model vs baseline" in output
    assert "`fake:judge/text` is right on" in page

    again = _tree(tmp_path / "second")  # the same run read again: the same bytes
    _generate(again, url)
    assert (again / "docs" / "page.md").read_text(encoding="utf-8") == page
    _generate(root, url)  # and regenerating in place changes nothing
    assert (root / "docs" / "page.md").read_text(encoding="utf-8") == page


def test_an_unclosed_block_is_refused() -> None:
    stamp = blocks.Stamp("the demo run", "2026-12-02", "abc1234", "box", "0.5")
    sets = {"demo-time": blocks.FigureSet(stamp, {"demo-time": "y"})}
    with pytest.raises(ValueError, match="figures:demo-time is not closed"):
        blocks.rewrite("<!-- figures:demo-time -->\nx\n", sets, "l")


@pytest.mark.parametrize(
    ("text", "bad"),
    [
        ("Right on 79% [57, 93] of 14 pairs.\n", True),
        ("On 2026-12-01 right on 79% [57, 93] of 14 pairs.\n", True),  # no variance
        ("On 2026-12-01 right on 79% [57, 93]; a second run varies by 7 points.\n", False),
        ("Measured on 2026-12-01; runs vary:\n\n```text\nkappa 0.42\n```\n", False),
        ("Measured on 2026-12-01.\n\nRuns vary.\n\n```text\nkappa 0.42\n```\n", False),
        ("## A\n\nOn 2026-12-01; runs vary.\n\n## B\n\n```text\nkappa 0.42\n```\n", True),
        ("<!-- figures:x -->\n```text\n1029    [850, 1209]\n```\n<!-- /figures -->\n", False),
        ("It took 4 min 23 s.\n", True),
        ("No figure from a run: 94% of the code, 3 s.\n", False),
    ],
)
def test_the_rule_for_quoted_figures(text: str, bad: bool) -> None:
    assert bool(blocks.undated_figures(text)) is bad


def test_every_figure_in_the_docs_is_generated_or_dated_with_its_variance() -> None:
    problems = [
        f"{path.relative_to(ROOT)}: {block[:200]}"
        for path in blocks.doc_files(ROOT)
        for block in blocks.undated_figures(path.read_text(encoding="utf-8"))
    ]
    assert problems == [], "\n\n".join(problems)


def test_the_readme_image_is_the_generated_demo_screenshot() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert re.findall(r"!\[[^\]]*\]\(([^)]+)\)", readme) == [figures.SCREENSHOT]
    assert (ROOT / figures.SCREENSHOT).stat().st_size > 10_000


HONEST = r"no intervals?|Bradley-Terry's intervals|point estimate"


def _prose(text: str) -> str:
    return re.sub(r"```.*?```", "", text, flags=re.S)


def test_no_page_promises_elo_intervals() -> None:
    """The Elo methods report no interval (arena/registry.py), so no sentence may give Elo one."""
    claims = []
    for path in blocks.doc_files(ROOT):
        prose = re.sub(r"\s+", " ", _prose(path.read_text(encoding="utf-8")))
        for sentence in re.split(r"(?<=[.;])\s", prose):
            says = re.search(r"\bElo\b", sentence) and re.search(r"\bintervals\b", sentence)
            if says and not re.search(HONEST, sentence):
                claims.append(f"{path.name}: {sentence}")
    assert claims == []


def test_every_block_of_the_docs_is_stamped_and_no_older_than_its_code_allows() -> None:
    assert blocks.stamp_problems(ROOT) == []


@pytest.mark.system  # fills a scripted database: a few seconds
def test_the_sample_outputs_are_in_the_current_cli_format() -> None:
    """The demo's output quoted in the docs was rendered by the CLI as it prints today: its
    recorded format (the scripted database's output then, numbers masked) is the format now.
    After a change to what the demo prints, render the blocks again from a demo database
    (`python -m benchmarks docs_figures --db URL`: no model call)."""
    recorded = blocks.FigureSet.load(ROOT / blocks.RESULTS / "demo.json").output_format
    assert recorded, "benchmarks/results/demo.json records no output format: render it again"
    assert recorded == figures.output_format()


def test_a_changed_output_format_is_told_apart() -> None:
    old = "(the x judge's leaderboard: `arena ratings --judge 2062042dae8a`)"
    new = "(the x judge's leaderboard: `arena ratings --judge-key 2062042dae8a`)"
    assert figures.mask(old) != figures.mask(new)
    same = figures.mask("1     baseline     1062    [908, 1235]  1007  62%")
    assert same == figures.mask("2  baseline  876  [524, 1109]  985   25%")


def test_a_stamp_longer_than_one_short_line_is_refused(tmp_path: Path) -> None:
    stamp = blocks.Stamp("the demo run", "2026-12-02", "abc1234", "box", "0.5", "x" * 200)
    assert blocks.stamp_length(stamp.line()) > blocks.STAMP_CHARS
    problem = blocks.block_problem(tmp_path, "demo-time", [stamp.line()])
    assert problem is not None and "one short line" in problem
    short = blocks.Stamp("the demo run", "2026-12-06", "abc1234", "x86_64, 2 cores", "9.9")
    assert blocks.stamp_length(short.line("getting-started.md#how")) <= blocks.STAMP_CHARS


def test_every_block_of_the_docs_is_what_its_recorded_json_renders(tmp_path: Path) -> None:
    sets = blocks.figure_sets(ROOT)
    named = {
        name for path in blocks.doc_files(ROOT) for name, _ in blocks.blocks_of(path.read_text())
    }
    assert named and named <= set(sets), sorted(named - set(sets))
    (tmp_path / "docs").mkdir()
    for path in blocks.doc_files(ROOT):
        shutil.copy(path, tmp_path / path.relative_to(ROOT))
    assert blocks.render_docs(tmp_path, sets) == []  # rendering again changes no byte


def _git(repo: Path, *args: str) -> str:
    who = ["-c", "user.name=t", "-c", "user.email=t@example.org", "-c", "commit.gpgsign=false"]
    done = subprocess.run(["git", "-C", str(repo), *who, *args], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def _commit(repo: Path, path: str, text: str) -> str:
    (repo / path).parent.mkdir(parents=True, exist_ok=True)
    (repo / path).write_text(text, encoding="utf-8")
    _git(repo, "add", path)
    _git(repo, "commit", "-q", "-m", f"edit {path}")
    return _git(repo, "rev-parse", "--short=7", "HEAD")


def _page(commit: str, stale: str = "", name: str = "judge-table") -> str:
    stamp = blocks.Stamp("the judge_bench run", "2026-12-01", commit, "box", "0.4", stale)
    return f"<!-- figures:{name} -->\n{stamp.line()}\n\n| a |\n<!-- /figures -->\n"


@pytest.mark.system  # a throwaway git history: a few dozen git calls
def test_a_block_older_than_its_code_by_more_than_the_tolerance_fails(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q")
    measured = _commit(repo, "judges/mode.py", "v0\n")
    for i in range(3):  # three commits touch the code the judge table describes
        _commit(repo, "judges/mode.py", f"v{i + 1}\n")
    _commit(repo, "docs/other.md", "not the table's code\n")

    def problems(page: str, tolerance: int) -> list[str]:
        (repo / "README.md").write_text(page, encoding="utf-8")
        return blocks.stamp_problems(repo, tolerance)

    assert problems(_page(measured), tolerance=3) == []
    (too_old,) = problems(_page(measured), tolerance=2)
    assert f"commit {measured}, 3 commits touching" in too_old and "tolerance 2" in too_old
    assert problems(_page(measured, stale="the prompts changed since"), tolerance=0) == []
    (unknown,) = problems(_page("1234567"), tolerance=3)
    assert "not in this history" in unknown
    (unstamped,) = problems("<!-- figures:judge-table -->\n| a |\n<!-- /figures -->\n", 3)
    assert "has no stamp line" in unstamped
    (undeclared,) = problems(_page(measured, name="new-figure"), tolerance=3)
    assert "declares no paths" in undeclared
