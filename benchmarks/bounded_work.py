"""How long bounded work takes, against the bound a test once asserted: each line prints the
measured seconds, that bound and their ratio (under 1 keeps the old promise).

    python -m benchmarks bounded_work [--repeats N]

The tests assert only what the work does (a hostile calculator expression is an error, an
alias bomb or a hostile YAML text is refused, a long text without a match is kept as is, a
hostile calculation does not stop a run): a duration asserted in a test fails on a loaded
machine, so it is measured here, where the machine's load average is printed beside it. The
worst of ``--repeats`` runs of each is reported.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path

from benchmarks.common import ROOT, load_average, timer


def _worst(work: Callable[[], object], repeats: int) -> float:
    worst = 0.0
    for _ in range(repeats):
        with timer() as took:
            work()
        worst = max(worst, took.wall)
    return worst


def _calculator() -> list[tuple[str, Callable[[], object], float]]:
    from arena.agents.research.calculator import safe_calculate
    from tests.agents.test_calculator_bounds import BOUNDED_BUT_VALID, HOSTILE

    table = [e for e, _ in HOSTILE + BOUNDED_BUT_VALID]
    slowest = max(table, key=lambda e: _worst(lambda: safe_calculate(e), 1))
    return [
        ("calculator: the slowest of the hostile table", lambda: safe_calculate(slowest), 1.0),
        ("calculator: the whole table", lambda: [safe_calculate(e) for e in table], 2.0),
    ]


def _yaml(folder: Path) -> list[tuple[str, Callable[[], object], float]]:
    from arena.errors import InputError
    from arena.inputs.files import parse_yaml
    from arena.variants.variant import load_variant
    from tests.variants.test_hostile_variants import BOMB, HOSTILE_YAML

    bomb = folder / "bomb.yaml"
    bomb.write_text(BOMB)

    def refuse_bomb() -> None:
        try:
            load_variant(bomb)
        except InputError:
            return
        raise AssertionError("the alias bomb was not refused")

    def refuse_all() -> None:
        for text, _ in HOSTILE_YAML:
            try:
                parse_yaml(text, file="x.yaml")
            except InputError:
                continue
            raise AssertionError(f"not refused: {text[:40]!r}")

    return [
        ("YAML: an alias bomb refused", refuse_bomb, 1.0),
        (f"YAML: {len(HOSTILE_YAML)} hostile texts refused", refuse_all, 1.0 * len(HOSTILE_YAML)),
    ]


def _redact() -> list[tuple[str, Callable[[], object], float]]:
    from arena.production import redact_text
    from tests.production.test_redact import LONG_WITHOUT_A_MATCH

    return [
        (
            "redaction: 600,000 characters without a match",
            lambda: redact_text(LONG_WITHOUT_A_MATCH),
            5.0,
        )
    ]


def _hostile_run(folder: Path) -> list[tuple[str, Callable[[], object], float]]:
    from tests.agents.test_hostile_run import hostile_run_files
    from tests.support.cli_args import arena_command, run_argv

    def run() -> None:
        work = Path(tempfile.mkdtemp(dir=folder))
        variant, dataset = hostile_run_files(work)
        env = {**os.environ, "PYTHONPATH": str(ROOT), "ARENA_SANDBOX_DIR": str(work / "sb")}
        argv = run_argv(
            variant,
            dataset,
            f"sqlite:///{work / 'arena.db'}",
            "--timeout",
            "5",
            "--concurrency",
            "2",
            "--json",
        )
        subprocess.run(arena_command(*argv), cwd=ROOT, env=env, capture_output=True, check=True)

    return [("arena run: six cases, one hostile calculation (a subprocess)", run, 100.0)]


def main(argv: list[str] | None = None) -> int:
    """Time each piece of bounded work; print seconds, the old bound and the ratio."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--repeats", type=int, default=3, help="runs of each (the worst is shown)")
    args = p.parse_args(argv)
    print(f"load average {load_average():.1f} at the start")
    with tempfile.TemporaryDirectory(prefix="bounded-work-") as tmp:
        folder = Path(tmp)
        works = [*_calculator(), *_yaml(folder), *_redact(), *_hostile_run(folder)]
        width = max(len(name) for name, _, _ in works)
        print(f"{'work':{width}}  {'worst s':>8}  {'bound s':>8}  ratio")
        for name, work, bound in works:
            seconds = _worst(work, args.repeats)
            print(f"{name:{width}}  {seconds:8.3f}  {bound:8.1f}  {seconds / bound:.3f}")
    print(f"load average {load_average():.1f} at the end")
    return 0
