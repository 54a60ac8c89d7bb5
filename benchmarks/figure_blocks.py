"""The figure blocks of README.md and docs/: their stamps, their JSON, and how old they may be.

A block is the lines between ``<!-- figures:NAME -->`` and ``<!-- /figures -->``. Its body is
rendered from a JSON file of ``benchmarks/results/`` (one measured run: its stamp and the
bodies of the blocks it fills) and opens with the stamp's line: the date, commit, machine and
load of the run, and, when the code has changed since and nobody measured again, that it was
not measured again.

The rule (:func:`stamp_problems`): every block carries a stamp naming a commit of this
history, and either at most :data:`TOLERANCE` commits since that one touch the paths the block
describes (:data:`DEPENDS`), or its stamp says plainly that it was not measured again.
"""

from __future__ import annotations

import json
import re
import subprocess
from dataclasses import asdict, dataclass, field
from pathlib import Path

from benchmarks.common import ROOT

DOCS = ("README.md", "docs/*.md")
RESULTS = "benchmarks/results"
VARIANCE_ANCHOR = "getting-started.md#how-much-the-demo-varies"
BEGIN = re.compile(r"^<!-- figures:(?P<name>[a-z0-9-]+) -->$")
END = "<!-- /figures -->"
STAMP = re.compile(
    r"^_(?P<source>[A-Z].*?) of (?P<date>\d{4}-\d\d-\d\d) "
    r"\(commit (?P<commit>[0-9a-f]{7,40}), (?P<machine>[^;]+?), load average (?P<load>[^)]+)\)",
    re.M,
)
#: The longest a stamp may read (links counted by their text): one short line.
STAMP_CHARS = 160
MARKDOWN_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
NOT_MEASURED_AGAIN = "not measured again"
# A figure quoted from a run: an accuracy with its interval, a rating with its interval in a
# table (aligned columns), a wall time, an agreement kappa.
FIGURE = re.compile(
    r"\d+% \[\d+, \d+\]|\b\d{3,4} {2,}\[\d{3,4}, \d{3,4}\]|\b\d+ min \d+ s\b|kappa \d"
)
DATE = re.compile(r"\b20\d\d-\d\d-\d\d\b")
VARIANCE = re.compile(r"\bvar(y|ies|ied|iance)\b", re.IGNORECASE)
#: How many commits touching a block's paths may follow the commit its figures name.
TOLERANCE = 20
_DEMO = ("arena", "judges", "data", "benchmarks/docs_figures.py")
#: The code each block's figures describe: a commit touching one of these paths ages them.
DEPENDS: dict[str, tuple[str, ...]] = {
    "demo-time": _DEMO,
    "command-times": (*_DEMO, "pyproject.toml", ".ci"),
    "demo-output": _DEMO,
    "demo-health": _DEMO,
    "demo-judges": _DEMO,
    "demo-app": (*_DEMO, "app.py"),
    "judge-table": (
        "judges",
        "arena/battles",
        "arena/agents",
        "data/golden",
        "data/variants",
        "benchmarks/judge_bench.py",
    ),
    "graph-path-cost": ("arena/runner", "arena/records", "benchmarks/runner_bench.py"),
    "tie-bench": (
        "judges",
        "arena/trust",
        "data/human-preference/pandalm",
        "benchmarks/tie_bench.py",
    ),
}


@dataclass(frozen=True)
class Stamp:
    """Where a block's figures come from, and whether they were measured again since."""

    source: str
    date: str
    commit: str
    machine: str
    load: str
    stale: str = ""

    def line(self, link: str | None = None) -> str:
        """The italic line that opens the block: one short line (:func:`stamp_length`)."""
        text = (
            f"_{self.source[:1].upper()}{self.source[1:]} of {self.date} (commit {self.commit}, "
            f"{self.machine}, load average {self.load})"
        )
        if self.stale:
            text += f"; {NOT_MEASURED_AGAIN}: {self.stale}"
        if link:
            text += f"; [how much runs vary]({link})"
        return text + "._"


def stamp_length(line: str) -> int:
    """How long a stamp line reads: its text, each Markdown link counted by its words."""
    return len(MARKDOWN_LINK.sub(r"\1", line).strip("_"))


@dataclass(frozen=True)
class FigureSet:
    """One measured run as the docs quote it: its stamp and the body of each block it fills."""

    stamp: Stamp
    blocks: dict[str, str]
    output_format: list[str] = field(default_factory=list)
    """The format of the CLI output the blocks quote, when they quote one: what the CLI printed
    on a scripted database when they were rendered, numbers masked (tests compare it with what
    the CLI prints now, so a sample output cannot drift from the CLI's format)."""

    @classmethod
    def load(cls, path: Path) -> FigureSet:
        """Read ``path`` (written by :meth:`save`)."""
        data = json.loads(path.read_text(encoding="utf-8"))
        return cls(Stamp(**data["stamp"]), dict(data["blocks"]), data.get("output_format", []))

    def save(self, path: Path) -> None:
        """Write the set as JSON."""
        path.parent.mkdir(parents=True, exist_ok=True)
        data: dict[str, object] = {"stamp": asdict(self.stamp), "blocks": self.blocks}
        if self.output_format:
            data["output_format"] = self.output_format
        path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def figure_sets(root: Path = ROOT) -> dict[str, FigureSet]:
    """Every set under ``benchmarks/results/``, by block name."""
    by_block: dict[str, FigureSet] = {}
    for path in sorted((root / RESULTS).glob("*.json")):
        figures = FigureSet.load(path)
        by_block.update(dict.fromkeys(figures.blocks, figures))
    return by_block


def doc_files(root: Path = ROOT) -> list[Path]:
    """README.md and every page of docs/."""
    return sorted(p for pattern in DOCS for p in root.glob(pattern))


def blocks_of(text: str) -> list[tuple[str, list[str]]]:
    """Every block of ``text``: its name and the lines inside it.

    Raises:
        ValueError: a block never closed, or nested.
    """
    lines = text.split("\n")
    found = []
    for i, line in enumerate(lines):
        match = BEGIN.match(line)
        if not match:
            continue
        end = next((j for j in range(i + 1, len(lines)) if lines[j] == END), None)
        if end is None or any(BEGIN.match(x) for x in lines[i + 1 : end]):
            raise ValueError(f"figures:{match['name']} is not closed by {END}")
        found.append((match["name"], lines[i + 1 : end]))
    return found


def rewrite(text: str, sets: dict[str, FigureSet], link: str | None) -> str:
    """``text`` with every block ``sets`` fills rendered again; everything else kept as is."""
    blocks_of(text)  # refuse unclosed or nested blocks before writing anything
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        match = BEGIN.match(lines[i])
        out.append(lines[i])
        i += 1
        if not match:
            continue
        end = lines.index(END, i)
        figures = sets.get(match["name"])
        if figures is None:
            out += lines[i:end]
        else:
            out += [figures.stamp.line(link), "", *figures.blocks[match["name"]].split("\n")]
        i = end
    return "\n".join(out)


def _link(path: Path, root: Path, name: str) -> str | None:
    if not name.startswith("demo-"):
        return None
    return VARIANCE_ANCHOR if path.parent == root / "docs" else f"docs/{VARIANCE_ANCHOR}"


def render_docs(root: Path = ROOT, sets: dict[str, FigureSet] | None = None) -> list[Path]:
    """Render every block from the JSON of ``benchmarks/results/``; the files that changed."""
    sets = figure_sets(root) if sets is None else sets
    changed = []
    for path in doc_files(root):
        text = path.read_text(encoding="utf-8")
        new = text
        for name in {n for n, _ in blocks_of(text)} & set(sets):
            new = rewrite(new, {name: sets[name]}, _link(path, root, name))
        if new != text:
            path.write_text(new, encoding="utf-8")
            changed.append(path)
    return changed


def commits_since(root: Path, commit: str, paths: tuple[str, ...]) -> int | None:
    """Commits after ``commit`` up to HEAD touching ``paths``; None if it is no ancestor."""
    ancestor = subprocess.run(
        ["git", "-C", str(root), "merge-base", "--is-ancestor", commit, "HEAD"],
        capture_output=True,
    )
    if ancestor.returncode != 0:
        return None
    count = subprocess.run(
        ["git", "-C", str(root), "rev-list", "--count", f"{commit}..HEAD", "--", *paths],
        capture_output=True,
        text=True,
        check=True,
    )
    return int(count.stdout)


def block_problem(root: Path, name: str, body: list[str], tolerance: int = TOLERANCE) -> str | None:
    """Why one block breaks the rule (None when it keeps it)."""
    stamp = STAMP.match(body[0]) if body else None
    if stamp is None:
        return f"figures:{name} has no stamp line (date, commit, machine, load average)"
    if stamp_length(body[0]) > STAMP_CHARS:
        return (
            f"figures:{name}'s stamp reads {stamp_length(body[0])} characters, more than one "
            f"short line ({STAMP_CHARS}): shorten its JSON's source, load or stale reason"
        )
    if name not in DEPENDS:
        return f"figures:{name} declares no paths in benchmarks/figure_blocks.py DEPENDS"
    since = commits_since(root, stamp["commit"], DEPENDS[name])
    if since is None:
        return (
            f"figures:{name} names commit {stamp['commit']}, which is not in this history "
            "(a shallow clone? git fetch --unshallow)"
        )
    if since > tolerance and NOT_MEASURED_AGAIN not in body[0]:
        return (
            f"figures:{name} is from commit {stamp['commit']}, {since} commits touching "
            f"{', '.join(DEPENDS[name])} ago (tolerance {tolerance}): measure again "
            f"(python -m benchmarks docs_figures) or say it was {NOT_MEASURED_AGAIN}"
        )
    return None


def stamp_problems(root: Path = ROOT, tolerance: int = TOLERANCE) -> list[str]:
    """Every block of README.md and docs/ that breaks the rule, with its file."""
    problems = []
    for path in doc_files(root):
        for name, body in blocks_of(path.read_text(encoding="utf-8")):
            problem = block_problem(root, name, body, tolerance)
            if problem:
                problems.append(f"{path.relative_to(root)}: {problem}")
    return problems


def _blocks_of(text: str) -> list[tuple[str, bool]]:
    """The file's blocks (paragraphs, tables, fenced code), each with whether it is generated."""
    found: list[tuple[str, bool]] = []
    current: list[str] = []
    fenced = generated = False

    def close() -> None:
        if current:
            found.append(("\n".join(current), generated))
            current.clear()

    for line in text.split("\n"):
        if not fenced and (BEGIN.match(line) or line == END):
            close()
            generated = line != END
            continue
        if line.startswith("```"):
            fenced = not fenced
        if not line.strip() and not fenced:
            close()
        else:
            current.append(line)
    close()
    return found


def undated_figures(text: str) -> list[str]:
    """Blocks quoting a run's figure that are neither generated nor dated with a variance.

    A block passes when its section (from the last heading down to the block) names a date
    (YYYY-MM-DD) and says how the figures vary.
    """
    bad = []
    section = ""
    for block, generated in _blocks_of(text):
        if block.startswith("#"):
            section = ""
        section += "\n" + block
        dated = DATE.search(section) and VARIANCE.search(section)
        if not generated and FIGURE.search(block) and not dated:
            bad.append(block)
    return bad
