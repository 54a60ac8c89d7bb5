"""The candidate's answers that ended in an error, for the gate report.

One :class:`Crash` per case (its repeats that erred counted): the error on one line, and the
traceback trimmed to the frames in the user's files (:mod:`arena.gate._tracebacks`); the
whole traceback stays in the stored result, which ``arena show RESULT_ID`` prints.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from arena.gate._tracebacks import error_line, trace_key, traceback_of, trim_traceback
from arena.records.results import RunResult
from arena.reports._markdown import md_code, md_fence

MAX_TRACEBACKS = 5
"""Distinct tracebacks shown in full in a report; the others are listed by case."""


class Crash(BaseModel):
    """One case whose answer raised (or timed out, or came back empty)."""

    model_config = ConfigDict(extra="forbid")

    case_id: str
    result_id: int | None = Field(None, description="The first erring result (`arena show`).")
    repeats: int = Field(1, description="Repeats of the case that erred.")
    of: int = Field(1, description="Repeats of the case run.")
    error: str = Field(description="The exception type and message, on one line.")
    traceback: str | None = Field(None, description="Trimmed to the frames in your files.")


def factory_dirs(agent: str) -> list[Path]:
    """Where the package of a factory (``pkg.module:build``) was imported from."""
    if ":" not in agent:
        return []
    module = sys.modules.get(agent.partition(":")[0].split(".")[0])
    if module is None:
        return []
    paths = list(getattr(module, "__path__", []) or [])
    if not paths and getattr(module, "__file__", None):
        paths = [module.__file__]
    return [Path(p) for p in paths]


def crashes_of(
    results: Sequence[RunResult], variant: str, agent: str = "", order: Sequence[str] = ()
) -> list[Crash]:
    """The crashes of ``variant`` among ``results``, one per case, in the case ``order`` (the
    dataset's) when given (``agent``: the variant's ``agent:``, whose package counts as the
    user's files)."""
    dirs = factory_dirs(agent)
    runs: dict[str, int] = {}
    found: dict[str, Crash] = {}
    for result in results:
        if result.variant != variant:
            continue
        runs[result.case_id] = runs.get(result.case_id, 0) + 1
        if result.error is None:
            continue
        if result.case_id in found:
            found[result.case_id].repeats += 1
            continue
        trace = traceback_of(result.error)
        found[result.case_id] = Crash(
            case_id=result.case_id,
            result_id=result.id,
            error=error_line(result.error),
            traceback=trim_traceback(trace, dirs) if trace else None,
        )
    for crash in found.values():
        crash.of = runs[crash.case_id]
    rank = {case_id: index for index, case_id in enumerate(order)}
    return sorted(found.values(), key=lambda c: rank.get(c.case_id, len(rank)))


def _where(crash: Crash) -> str:
    bits = [f"{crash.repeats} of {crash.of} repeats"] if crash.of > 1 else []
    if crash.result_id is not None:
        what = "the whole traceback: " if crash.traceback else ""
        bits.append(f"{what}`arena show {crash.result_id}`")
    return f"`{crash.case_id}`" + (f" ({'; '.join(bits)})" if bits else "")


def crashes_markdown(crashes: Sequence[Crash], level: int = 3) -> str:
    """The crashes as a report section: the same traceback once, with every case it ended."""
    if not crashes:
        return ""
    groups: dict[str, list[Crash]] = {}
    for crash in crashes:
        groups.setdefault(trace_key(crash.traceback) or crash.error, []).append(crash)
    cases = f"{len(crashes)} case{'s' * (len(crashes) != 1)}"
    parts = [f"{'#' * level} Errors in the candidate's answers: {cases}", ""]
    for shown, group in enumerate(groups.values()):
        first = group[0]
        cases = "; ".join(_where(c) for c in group)
        if first.traceback is None or shown >= MAX_TRACEBACKS:
            parts += [f"- {cases}: {md_code(first.error)}", ""]
            continue
        parts += [f"- {cases}:", "", _indent(md_fence(first.traceback)), ""]
    return "\n".join(parts).rstrip() + "\n"


def _indent(text: str) -> str:
    return "\n".join(f"  {line}" if line else line for line in text.splitlines())


def crashes_text(crashes: Sequence[Crash]) -> list[str]:
    """The crashes for the terminal, one line each."""
    return [
        f"  {c.case_id}: {c.error}"
        + (f" (arena show {c.result_id} prints the traceback)" if c.result_id else "")
        for c in crashes
    ]
