"""``python -m benchmarks --list`` | ``python -m benchmarks NAME [--json [--out FILE]] [FLAGS]``.

``--json`` prints one JSON record instead of the benchmark's text: the stamp (date, commit,
machine, Python, load average before and after), wall and CPU seconds, peak RSS, and the
text it printed. Every other flag is the benchmark's own (``python -m benchmarks NAME -h``).
"""

from __future__ import annotations

import contextlib
import importlib
import io
import sys
from pathlib import Path

from benchmarks import BENCHMARKS, TOOLS, summary
from benchmarks.common import Record, Stamp, peak_rss_gib, timer, write_json

USAGE = "usage: python -m benchmarks --list | NAME [--json [--out FILE]] [its own flags]"


def listing() -> str:
    """Every benchmark and tool with its one-line summary."""
    width = max(map(len, BENCHMARKS + TOOLS))
    lines = ["benchmarks:"]
    lines += [f"  {name:{width}}  {summary(name)}" for name in BENCHMARKS]
    lines += ["tools:"]
    lines += [f"  {name:{width}}  {summary(name)}" for name in TOOLS]
    return "\n".join(lines)


def _split(argv: list[str]) -> tuple[bool, Path | None, list[str]]:
    """``--json`` and ``--out FILE`` (taken only before the benchmark's own flags), the rest."""
    as_json, out, rest = False, None, list(argv)
    while rest and rest[0] in ("--json", "--out"):
        flag = rest.pop(0)
        if flag == "--json":
            as_json = True
        elif not rest:
            raise SystemExit(f"--out needs a file\n{USAGE}")
        else:
            out = Path(rest.pop(0))
    return as_json, out, rest


def run(name: str, argv: list[str], as_json: bool, out: Path | None = None) -> int:
    """Run the benchmark ``name`` with ``argv``; with ``as_json``, its JSON record."""
    module = importlib.import_module(f"benchmarks.{name}")
    sys.argv = [f"python -m benchmarks {name}", *argv]  # the name argparse shows in --help
    if not as_json:
        return int(module.main(argv) or 0)
    stamp = Stamp.now()
    text = io.StringIO()
    with timer() as took, contextlib.redirect_stdout(text):
        code = int(module.main(argv) or 0)
    record = Record(name, argv, stamp.ended(), took.wall, took.cpu, peak_rss_gib(), text.getvalue())
    write_json(record, out)
    return code


def main(argv: list[str] | None = None) -> int:
    """The suite's command line."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help"):
        print(f"{__doc__}\n{USAGE}")
        return 0 if args else 2
    if args[0] == "--list":
        print(listing())
        return 0
    name, rest = args[0], args[1:]
    if name not in BENCHMARKS + TOOLS:
        print(
            f"unknown benchmark {name!r}; `python -m benchmarks --list` lists them", file=sys.stderr
        )
        return 2
    as_json, out, rest = _split(rest)
    return run(name, rest, as_json, out)


if __name__ == "__main__":
    sys.exit(main())
