"""Benchmark: hashing an agent's code for its version, every file parsed on each call (before)
against the imports remembered by content (after), side by side in one run.

Run:  python -m benchmarks agent_version_bench [--files N] [--rounds R]

A project of N Python files (default 550, the size of this repository's ``tests`` package,
under which the test suite's agents live) is written to a temporary folder: a package whose
modules import each other, a few installed packages and the standard library. Its agent's
version (:func:`arena.factories.package_files`) is computed R times each way, alternating:

- before: the remembered imports are forgotten before each call, so every file is read and
  parsed again (what each call did before);
- after: the remembered imports are kept (what a process that runs many variants or cases
  does now: only a file whose content changed is parsed again).

It checks that both give the same digests, then prints the best wall and CPU seconds of each.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from benchmarks.common import ROOT, module_command, timer

PACKAGE = "benchproj_agent"


def write_project(root: Path, files: int) -> None:
    """A package of ``files`` modules, each importing its neighbour and installed packages."""
    package = root / PACKAGE
    package.mkdir()
    (package / "__init__.py").write_text("")
    for i in range(files - 1):
        body = [
            "import json",
            "import numpy",
            "import pydantic",
            f"from {PACKAGE} import mod_{(i + 1) % (files - 1)}",
            "",
            *(f"def f_{j}(x):\n    return json.dumps([x, {j}])\n" for j in range(20)),
        ]
        (package / f"mod_{i}.py").write_text("\n".join(body))


def best(call: Callable[[], dict[str, str]], rounds: int) -> tuple[float, float, dict[str, str]]:
    """The best wall and CPU seconds of ``rounds`` calls, and the last result."""
    walls, cpus, result = [], [], {}
    for _ in range(rounds):
        with timer() as took:
            result = call()
        walls.append(took.wall)
        cpus.append(took.cpu)
    return min(walls), min(cpus), result


def measure(files: int, rounds: int) -> str:
    """Both ways on the project (importable from this process), the report."""
    from arena.factories import _fingerprint, package_files

    agent = f"{PACKAGE}.mod_0"

    def before() -> dict[str, str]:
        _fingerprint._IMPORTS_BY_CONTENT.clear()
        return package_files(agent)

    package_files(agent)  # the after side starts remembered, as from a second run on
    cold = best(before, rounds)
    package_files(agent)
    warm = best(lambda: package_files(agent), rounds)
    assert cold[2] == warm[2] and len(cold[2]) == files, "the two ways differ"
    return "\n".join(
        [
            f"agent version of a {files}-file project, best of {rounds}:",
            f"  before (every file parsed each call): {cold[0]:.3f} s wall, {cold[1]:.3f} s CPU",
            f"  after (imports remembered by content): {warm[0]:.3f} s wall, {warm[1]:.3f} s CPU",
            f"  same digests: yes; {cold[1] / max(warm[1], 1e-9):.0f}x less CPU",
        ]
    )


def main(argv: list[str] | None = None) -> int:
    """Write the project, then time both ways in a process that imports it like a user's."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=550)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.inner:
        print(measure(args.files, args.rounds))
        return 0
    with tempfile.TemporaryDirectory() as folder:
        write_project(Path(folder), args.files)
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([folder, str(ROOT)]))
        command = module_command(
            "benchmarks.agent_version_bench", "--inner", *(argv or sys.argv[1:])
        )
        return subprocess.run(command, env=env, check=False).returncode


if __name__ == "__main__":
    raise SystemExit(main())
