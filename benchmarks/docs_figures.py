"""Regenerate the figures quoted in README.md and docs/ from a demo run, and the README screenshot.

    python -m benchmarks docs_figures --fresh-clone           # install and demo timed in a clone
    python -m benchmarks docs_figures                         # run `arena demo` here, then docs
    python -m benchmarks docs_figures --db sqlite:///d.db     # re-read a demo database (seconds)
    python -m benchmarks docs_figures --render                # the docs again from the JSON

A run's figures go to ``benchmarks/results/demo.json`` (its stamp: date, commit, machine,
load average; and the body of every block it fills), then every ``<!-- figures:NAME -->``
block of README.md and docs/ is rendered from the JSON of ``benchmarks/results/``
(:mod:`benchmarks.figure_blocks`). The blocks print exactly what ``arena demo`` prints
(``arena.cli.demo.print_outcome``, read from the database: no model call). The screenshot is
the real app (``arena app``) on the same database in headless Chromium. ``--check`` lists any
figure quoted outside the blocks without a date and a stated variance.

It lives in ``benchmarks/`` beside the other scripts that drive the local model (``docs/`` is
the site's source: a script there would be published with it).
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import io
import os
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.common import (
    ROOT,
    children_peak_gib,
    git_commit,
    load_average,
    machine_name,
    timer,
)
from benchmarks.figure_blocks import (
    RESULTS,
    FigureSet,
    Stamp,
    doc_files,
    render_docs,
    undated_figures,
)

SCREENSHOT = "docs/leaderboard-demo.png"
#: The demo on a fresh clone of an idle 2-core machine, as issue 37 reported it: what a
#: timing measured under load is compared with.
IDLE_FRESH_CLONE = (
    "For comparison, a fresh clone on an idle 2-core machine measured install 99 s, demo "
    "7 min 24 s, 2.3 GB peak (reported in issue 37)."
)
#: README's commands on an idle 2-core machine, and ``bash .ci/run`` under load, as reported
#: (the install and the demo under load are this run's): command -> (idle, under load).
REPORTED = {
    "install": ("99 s (a fresh clone, issue 37)", None),
    "demo": ("7 min 24 s (a fresh clone, issue 37)", None),
    "ci": (
        "16 min 57 s in CI at stop 58; 18 min 19 s to 20 min 30 s on 3 fresh clones",
        "45 min (a fresh clone beside other work, issue 49)",
    ),
}


@dataclass(frozen=True)
class Timing:
    """The demo's wall time and peak memory (and the install's time, on a fresh clone)."""

    seconds: float
    peak_rss_gb: float
    note: str = ""
    install_seconds: float | None = None
    load: str = ""
    """The load average as the stamp shows it (e.g. ``9.9 at its end``)."""
    commit: str = ""
    """The commit that ran, when the run could not record it (run outside a checkout)."""
    install_note: str = ""
    """How the install was measured (e.g. its load average), when measured apart."""

    @classmethod
    def read(cls, path: Path) -> Timing:
        """A timing measured elsewhere, as JSON: ``wall_seconds``, ``peak_rss_gb``, and
        optionally ``install_seconds``, ``install_note``, ``load``, ``note`` and ``commit``."""
        import json

        data = json.loads(path.read_text(encoding="utf-8"))
        return cls(
            float(data["wall_seconds"]),
            float(data.get("peak_rss_gb", 0.0)),
            str(data.get("note", "")),
            None if data.get("install_seconds") is None else float(data["install_seconds"]),
            str(data.get("load", "")),
            str(data.get("commit", "")),
            str(data.get("install_note", "")),
        )


def run_demo(url: str) -> Timing:
    """Run ``arena demo`` into ``url`` (the local model); its wall time and peak RSS."""
    with timer() as took:
        command = [sys.executable, "-m", "arena.cli", "demo", "--db", url]
        subprocess.run(command, check=True, cwd=ROOT)
    return Timing(took.wall, children_peak_gib(), f"load average {load_average():.1f} at its end")


def fresh_clone_demo(url: str) -> Timing:
    """Clone this checkout's HEAD, time its install (README's first command) and its demo."""
    with tempfile.TemporaryDirectory(prefix="fresh-clone-") as tmp:
        clone = Path(tmp) / "agent-arena"
        subprocess.run(["git", "clone", "--quiet", "--no-local", str(ROOT), str(clone)], check=True)
        with timer() as install:
            subprocess.run(["python3", "-m", "venv", ".venv"], cwd=clone, check=True)
            pip = [".venv/bin/pip", "install", "--quiet", "-e", ".[local]"]
            subprocess.run(pip, cwd=clone, check=True)
        with timer() as demo:
            subprocess.run([".venv/bin/arena", "demo", "--db", url], cwd=clone, check=True)
    note = f"a fresh clone, load average {load_average():.1f} at its end"
    return Timing(demo.wall, children_peak_gib(), note, install.wall)


def _duration(seconds: float) -> str:
    minutes, rest = divmod(round(seconds), 60)
    return f"{minutes} min {rest} s" if minutes else f"{rest} s"


def mask(line: str) -> str:
    """A line of CLI output as its format: numbers, judge keys and spacing masked."""
    line = re.sub(r"\b[0-9a-f]{12}\b", "KEY", line)
    line = re.sub(r"\d+(?:\.\d+)?", "N", line)
    line = re.sub(r"-{2,}", "--", line)
    return " ".join(line.split())


def output_format() -> list[str]:
    """The format of what the demo prints at its end (:func:`demo_outcome`), from the scripted
    demo database of the tests (no model), numbers masked: a sample output whose recorded
    format differs from this one was rendered by an older CLI."""
    from tests.support.app_fixtures import fill_demo_db

    with tempfile.TemporaryDirectory(prefix="docs-format-") as tmp:
        url = f"sqlite:///{tmp}/format.db"
        fill_demo_db(url)
        output, _healths, _run = demo_outcome(url, ["fake:judge"])
    return [mask(line) for line in output.splitlines()]


def demo_outcome(url: str, judges: list[str]) -> tuple[str, list[Any], Any]:
    """What the demo prints at its end, re-read from the database; the judges' health; the run."""
    from arena.cli.demo import print_outcome
    from arena.cli.health import judge_health_with_accuracy
    from arena.storage import Store
    from judges import parse_judge

    store = Store(url)
    run = max(store.runs(), key=lambda r: r.id)
    specs = [parse_judge(j) for j in judges]
    battles = [store.battles(run.id, s.key) for s in specs]
    variants = sorted({r.variant for r in store.results(run.id)})
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        print_outcome(store, run.id, specs, battles, variants)
    healths = [judge_health_with_accuracy(store, run.id, b) for b in battles]
    return out.getvalue().strip("\n") + "\n", [h for h in healths if h], run


def _accuracy(health: Any) -> str:
    acc = health.accuracy
    if acc is None or acc.accuracy is None:
        return "no decisive pair"
    return (
        f"{acc.accuracy * 100:.0f}% [{acc.ci_low * 100:.0f}, {acc.ci_high * 100:.0f}] "
        f"of {acc.pairs}"
    )


def _judges_sentence(healths: list[Any]) -> str:
    parts = []
    for health in healths:
        beats = health.accuracy and health.accuracy.beats_chance
        verdict = "beats chance" if beats else "cannot beat chance"
        parts.append(
            f"`{health.judge}` is right on {_accuracy(health)} decisive pairs: it {verdict}"
        )
    return "On this run the judge " + "; the judge ".join(parts) + "."


def _banner(healths: list[Any]) -> str:
    """What the app shows above the table: the main judge's accuracy, or a warning."""
    if not healths:
        return "The run was not judged, so the leaderboard has no ratings."
    main = healths[0]
    beats = bool(main.accuracy and main.accuracy.beats_chance)
    shows = "shows its accuracy without a warning" if beats else "is the judge-accuracy warning"
    return (
        f"On that run the `{main.judge}` judge {'beats' if beats else 'cannot beat'} chance "
        f"({_accuracy(main)} decisive pairs), so the banner above the table {shows}."
    )


def blocks(url: str, judges: list[str], timing: Timing | None) -> dict[str, str]:
    """Each generated block's body (without its stamp), by name."""
    output, healths, _run = demo_outcome(url, judges)
    health = output.split("\nleaderboard, run", 1)[0]
    out = {
        "demo-output": f"```text\n{output}```",
        "demo-health": f"```text\n{health.strip(chr(10))}\n```",
        "demo-judges": _judges_sentence(healths),
        "demo-app": f"{_banner(healths)}\n\n![leaderboard after arena demo](leaderboard-demo.png)",
    }
    if timing is not None:
        out["demo-time"] = demo_time(timing)
        out["command-times"] = command_times(timing)
    return out


def command_times(timing: Timing) -> str:
    """README's table: how long each of its commands takes, idle and under load, as measured."""
    install = None if timing.install_seconds is None else _duration(timing.install_seconds)
    load = f"load average {timing.load}" if timing.load else "a loaded machine"
    rows = [
        (
            "1. `python3 -m venv .venv && .venv/bin/pip install -e '.[local]'`",
            REPORTED["install"][0],
            f"{install} ({timing.install_note or load})" if install else "not measured",
        ),
        (
            "1. `.venv/bin/arena demo`",
            REPORTED["demo"][0],
            f"{_duration(timing.seconds)} (this run, {load}"
            + (f"; {timing.note}" if timing.note else "")
            + ")",
        ),
        ("2. `bash .ci/run`", REPORTED["ci"][0], REPORTED["ci"][1] or "not measured"),
    ]
    lines = ["| command | idle 2-core machine | under load |", "|---|---|---|"]
    lines += [f"| {a} | {b} | {c} |" for a, b, c in rows]
    return "\n".join(lines)


def demo_time(timing: Timing) -> str:
    """The demo-time block's body: the timed run, and the idle fresh clone beside it."""
    rss = f", peak RSS {timing.peak_rss_gb:.1f} GB" if timing.peak_rss_gb else ""
    note = f" ({timing.note})" if timing.note else ""
    if timing.install_seconds is not None:
        return (
            f"Install {_duration(timing.install_seconds)}, then {_duration(timing.seconds)} "
            f"wall for the whole demo on a fresh database{rss}{note}."
        )
    return (
        f"{_duration(timing.seconds)} wall for the whole demo on a fresh database (the model "
        f"weights already installed){rss}{note}. {IDLE_FRESH_CLONE}"
    )


def demo_stamp(run: Any, machine: str, load: str, commit: str = "") -> Stamp:
    """The stamp of a stored demo run: its date and the commit it recorded (``commit`` when
    it recorded none: a demo run outside a checkout)."""
    recorded = str(run.config.get("provenance", {}).get("commit") or "")[:7]
    commit = recorded or commit[:7] or "unknown"
    now = git_commit().removesuffix("+dirty")
    stale = "" if now in (commit, "unknown") else f"rendered from it at {now}"
    return Stamp("the demo run", run.created_at.strftime("%Y-%m-%d"), commit, machine, load, stale)


def _wait_until_serving(url: str, app: subprocess.Popen[bytes], timeout: float = 120) -> None:
    import urllib.request

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if app.poll() is not None:
            raise RuntimeError(f"arena app exited with {app.returncode}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as reply:
                if reply.status == 200:
                    return
        except OSError:
            time.sleep(0.5)
    raise RuntimeError(f"arena app did not answer within {timeout:.0f} s")


def save_screenshot(url: str, target: Path) -> None:
    """The app's Leaderboard tab on ``url``, served by ``arena app``, in headless Chromium."""
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    port = 8600 + os.getpid() % 300
    cwd = ROOT
    if url.startswith("sqlite:///"):  # the sidebar shows the file as a user's would be shown
        path = Path(url.removeprefix("sqlite:///"))
        cwd, url = path.parent, f"sqlite:///{path.name}"
    app = subprocess.Popen(
        [sys.executable, "-m", "arena.cli", "app", "--db", url, "--port", str(port)],
        cwd=cwd,
        env={
            **os.environ,
            "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
        },
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    options = Options()
    options.binary_location = "/usr/bin/chromium"
    with tempfile.TemporaryDirectory() as profile:
        for arg in (
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-dev-shm-usage",
            f"--user-data-dir={profile}",
            "--window-size=1400,1800",
        ):
            options.add_argument(arg)
        driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        try:
            _wait_until_serving(f"http://127.0.0.1:{port}", app)
            driver.get(f"http://127.0.0.1:{port}")

            def settled(d: Any) -> bool:
                running = d.find_elements(By.CSS_SELECTOR, '[data-testid="stStatusWidget"]')
                charts = d.find_elements(By.CSS_SELECTOR, '[data-testid="stVegaLiteChart"]')
                return not running and len(charts) >= 2

            WebDriverWait(driver, 120).until(settled)
            time.sleep(2)
            if not driver.save_screenshot(str(target)):
                raise RuntimeError(f"the screenshot {target} could not be written")
        finally:
            driver.quit()
            app.terminate()
            app.wait(timeout=15)


def main(argv: list[str] | None = None) -> int:
    """Run (or re-read) the demo, record its figures, render the blocks and the screenshot."""
    args = _parser().parse_args(argv)
    if args.check:
        bad = [(f, b) for f in doc_files(args.root) for b in undated_figures(f.read_text())]
        for path, block in bad:
            print(f"{path}: undated figure:\n{block}\n")
        return 1 if bad else 0
    if not args.render:
        _record_demo(args)
    changed = render_docs(args.root)
    print("\n".join(f"rewrote {p}" for p in changed) or "no block changed")
    if not args.render and not args.no_screenshot:
        save_screenshot(args.db, args.root / SCREENSHOT)
        print(f"wrote {args.root / SCREENSHOT}")
    return 0


def _parser() -> argparse.ArgumentParser:
    from arena.cli.demo import DEMO_JUDGE, SECOND_JUDGE

    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--db", help="a filled demo database (default: run the demo into a fresh one)")
    p.add_argument("--fresh-clone", action="store_true", help="time install and demo in a clone")
    p.add_argument("--render", action="store_true", help="only render the docs from the JSON")
    p.add_argument("--judges", nargs="+", default=[DEMO_JUDGE, SECOND_JUDGE], metavar="SPEC")
    p.add_argument("--machine", default=machine_name(), help="default: %(default)s")
    p.add_argument("--load", help="the load average of a run measured elsewhere (--db)")
    p.add_argument("--wall-seconds", type=float, help="the demo's wall time, when run elsewhere")
    p.add_argument("--peak-rss-gb", type=float, default=0.0)
    p.add_argument(
        "--timing",
        type=Path,
        metavar="FILE",
        help="the timing of a run measured elsewhere (--db), as JSON: wall_seconds, "
        "peak_rss_gb, install_seconds, load, note, commit (when the run recorded none)",
    )
    p.add_argument("--note", default="", help="how the timed run went (e.g. the machine's load)")
    p.add_argument("--root", type=Path, default=ROOT, help="the checkout whose docs to rewrite")
    p.add_argument("--no-screenshot", action="store_true")
    p.add_argument("--check", action="store_true", help="only list undated figures; exit 1 if any")
    return p


def _record_demo(args: argparse.Namespace) -> None:
    """Run or re-read the demo into ``args.db``; write ``benchmarks/results/demo.json``."""
    from arena.storage import Store

    timing = None
    if args.db is None:
        args.db = f"sqlite:///{tempfile.mkdtemp(prefix='docs-figures-')}/demo.db"
        timing = fresh_clone_demo(args.db) if args.fresh_clone else run_demo(args.db)
        load = f"{load_average():.1f} at its end"
        timing = dataclasses.replace(timing, load=load)
    elif args.timing is not None:
        timing = Timing.read(args.timing)
        load = timing.load or args.load or "not recorded"
    else:
        load = args.load or "not recorded"
        if args.wall_seconds is not None:
            timing = Timing(args.wall_seconds, args.peak_rss_gb, args.note, load=load)
    run = max(Store(args.db).runs(), key=lambda r: r.id)
    stamp = demo_stamp(run, args.machine, load, timing.commit if timing else "")
    figures = FigureSet(stamp, blocks(args.db, args.judges, timing), output_format())
    figures.save(args.root / RESULTS / "demo.json")


if __name__ == "__main__":
    sys.exit(main())
