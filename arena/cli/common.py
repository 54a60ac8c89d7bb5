"""Options and helpers shared by several sub-commands."""

from __future__ import annotations

import argparse
from collections.abc import Iterable
from pathlib import Path
from typing import Any, TextIO

from arena.defaults import TIER_CHOICES
from arena.paths import data_dir
from arena.reports._format import terminal_safe


def add_config(parser: argparse.ArgumentParser) -> None:
    """--config FILE: the ``arena.yaml`` this command takes its defaults from (see
    :mod:`arena.cli.config_defaults`)."""
    parser.add_argument(
        "--config",
        default=None,
        metavar="arena.yaml",
        help="the project's settings, read for this command's defaults: db, run.dataset, "
        "run.variants_dir, run.user_model, grader, compare.judge (default: the nearest "
        "arena.yaml up from here; flags win)",
    )


def add_db(parser: argparse.ArgumentParser) -> None:
    """--db URL (default $ARENA_DB_URL, else arena.yaml's ``db``, else sqlite:///arena.db),
    and --config when the command has none yet.

    The URL is checked when the store opens (:func:`arena.storage._engine.check_url`): a bad one
    is an InputError naming --db (exit 2) before anything is created or written.
    """
    parser.add_argument(
        "--db",
        default=None,
        metavar="URL",
        help="SQLAlchemy URL, e.g. sqlite:///arena.db or "
        "postgresql+psycopg://user@host/dbname; an SQLite file's folder "
        "must exist (default: $ARENA_DB_URL, else arena.yaml's db, else sqlite:///arena.db)",
    )
    if not any("--config" in a.option_strings for a in parser._actions):
        add_config(parser)


def add_case_flags(
    group: Any,
    *,
    dataset: str | None,
    tier: str | None,
    repeats: int | None,
    concurrency: int | None,
    variants_dir: bool = False,
) -> None:
    """The flags choosing which cases a run takes and how: --dataset, (--variants-dir), --tier,
    --cases, --repeats, --concurrency, with these defaults (None: left to a config file).

    One home for ``arena run``/``plan``, ``arena gate`` and ``arena compare --sequential``;
    ``group`` is a parser or an argument group.
    """
    group.add_argument("--dataset", default=dataset, metavar="FILE", help="golden dataset JSON")
    if variants_dir:
        group.add_argument(
            "--variants-dir", default=None, metavar="DIR", help="where VARIANT names are looked up"
        )
    group.add_argument(
        "--tier", default=tier, choices=TIER_CHOICES, help="the golden cases' tier to run"
    )
    group.add_argument("--cases", default=None, metavar="ID,...", help="comma-separated case ids")
    group.add_argument("--repeats", type=int, default=repeats, help="runs of each case per variant")
    group.add_argument("--concurrency", type=int, default=concurrency, help="agent runs at a time")


JUDGE_KEY_NOTE = (
    "arena: note: --judge KEY is deprecated here, use --judge-key KEY (a stored judge's key); "
    "--judge names a judge spec (`arena judge`, `gate`, `plan`, `demo`, `compare --sequential`)"
)


class _OldJudgeKey(argparse.Action):
    """``--judge KEY`` where a stored judge key is meant: stored as ``judge_key``, with a
    deprecation note in ``notes`` (printed on stderr before the command runs)."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        setattr(namespace, self.dest, values)
        namespace.notes = [*(getattr(namespace, "notes", None) or []), JUDGE_KEY_NOTE]


class TypedJudge(argparse.Action):
    """``--judge`` that also records it was typed (``judge_typed``), so a default from
    ``arena.yaml`` is told apart from the command line."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        setattr(namespace, self.dest, values)
        namespace.judge_typed = True


def add_judge_key(p: Any, *, old_spelling: bool = True) -> None:
    """``--judge-key KEY``: a stored judge (default: the latest); with ``old_spelling``,
    ``--judge KEY`` too, its deprecated spelling."""
    p.add_argument(
        "--judge-key",
        default=None,
        metavar="KEY",
        help="the stored judge whose battles are read, by key (`arena judge` prints it; "
        "default: the latest)",
    )
    if old_spelling:
        p.add_argument(
            "--judge",
            dest="judge_key",
            action=_OldJudgeKey,
            metavar="KEY",
            help="deprecated spelling of --judge-key",
        )


def add_pair_flags(
    p: Any,
    *,
    baseline: tuple[str, str],
    candidate: str,
    required: tuple[bool, bool] = (False, False),
) -> None:
    """``--baseline`` and ``--candidate`` of ``arena gate``, ``check`` and ``compare``:
    ``baseline`` is its (metavar, help), ``candidate`` its help, ``required`` says which of
    the two must be given."""
    p.add_argument(
        "--baseline", required=required[0], default=None, metavar=baseline[0], help=baseline[1]
    )
    p.add_argument(
        "--candidate", required=required[1], default=None, metavar="VARIANT", help=candidate
    )


def add_stored_run(p: Any, holding: str = "the variants") -> None:
    """``--run N``: the stored run ``holding`` the variants (``arena check``, ``compare``)."""
    p.add_argument(
        "--run",
        type=int,
        default=None,
        help=f"the stored run holding {holding} (default: the newest)",
    )


def add_report_flags(p: Any, *, what: str, markdown: bool = True) -> None:
    """``--markdown FILE`` (when ``markdown``) and ``--json``, saying what they write."""
    if markdown:
        p.add_argument(
            "--markdown", default=None, metavar="FILE", help=f"also write the {what} as Markdown"
        )
    p.add_argument("--json", action="store_true", help=f"print the {what} as JSON")


def add_margin(p: Any, default: float | None) -> None:
    """``--margin``: the non-inferiority margin of the pairwise comparison."""
    p.add_argument(
        "--margin",
        type=float,
        default=default,
        help="non-inferiority margin: the candidate's win rate may be this far below 0.5",
    )


def default_dataset() -> str:
    """The shipped golden dataset."""
    return str(data_dir() / "golden" / "research_agent.json")


def write_text(path: str, text: str) -> None:
    """Write a report file, creating its folder; control characters are escaped
    (:func:`~arena.reports._format.terminal_safe`), since the file is read in terminals too.
    The file is written whole or not at all (a temporary file beside it, then renamed): a full
    disk or a file-size limit leaves the previous report, never half of one."""
    import os
    import tempfile

    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    if not target.parent.is_dir() or (target.exists() and not target.is_file()):
        target.write_text(terminal_safe(text), encoding="utf-8")  # a device (/dev/stdout)
        return
    handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(terminal_safe(text))
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(temporary, 0o666 & ~mask)  # as a plain write would have made it
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


class TerminalSafe:
    """A text stream that passes everything written through
    :func:`~arena.reports._format.terminal_safe`: ``arena`` writes its stdout through one, so
    no command prints a model's control characters, whatever it prints. The rest (flush,
    fileno, isatty, encoding) is the wrapped stream's."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        """Write ``text`` made safe; returns the length of ``text`` (as TextIO does)."""
        self.stream.write(terminal_safe(text))
        return len(text)

    def writelines(self, lines: Iterable[str]) -> None:
        """Write each line made safe."""
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)
