"""Markdown score reports for a pull-request comment or a CI step summary."""

from __future__ import annotations

import re
from collections.abc import Sequence

from arena.reports._format import is_web_url, one_line, pct
from arena.reports._render import (
    CONVERSATION_HEADERS,
    SUMMARY_HEADERS,
    category_rows,
    conversation_note,
    conversation_rows,
    failing_cases,
    label,
    simulator_note,
    summary_row,
)
from arena.scoring._aggregate import VariantScores
from arena.scoring._combined import PASS_THRESHOLD, CaseScore

MAX_CELL = 300
"""Longest table cell before it is cut."""


def md_cell(text: str, limit: int = MAX_CELL) -> str:
    """Text safe inside a Markdown table cell: pipes escaped, newlines folded, control
    characters escaped (:func:`~arena.reports._format.one_line`), cut."""
    flat = one_line(text).replace("|", "\\|")
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def md_code(text: str) -> str:
    """Text as inline code on one line (backticks inside become quotes)."""
    return "`" + one_line(text).replace("`", "'") + "`"


def md_link(label: str, url: str) -> str:
    """``[label](url)`` for an ``http(s)`` URL (:func:`~arena.reports._format.is_web_url`);
    any other URL (``javascript:``, ``data:``) is shown as inline code, never as a link."""
    return f"[{label}]({url})" if is_web_url(url) else f"{label} {md_code(url)}"


def md_fence(text: str, info: str = "text") -> str:
    """``text`` in a code fence longer than any run of backticks inside it."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    marks = "`" * max(3, longest + 1)
    return f"{marks}{info}\n{text}\n{marks}"


def md_table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A GitHub-flavoured Markdown table."""
    lines = [
        "| " + " | ".join(md_cell(h) for h in headers) + " |",
        "|" + "|".join("---" for _ in headers) + "|",
    ]
    lines += ["| " + " | ".join(md_cell(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def _extras(scores: VariantScores) -> list[str]:
    lines: list[str] = []
    pending = scores.by_tier.get("pending")
    if pending is not None:
        lines.append(
            f"- **{label(scores)}** pending (not counted): {pending.cases_passed}/"
            f"{pending.n_cases} pass ({pct(pending.pass_rate)})"
        )
    if scores.n_repeats > 1:
        at = ", ".join(f"pass@{k} {v:.3f}" for k, v in scores.pass_at_k.items())
        hat = ", ".join(f"pass^{k} {v:.3f}" for k, v in scores.pass_hat_k.items())
        flaky = ", ".join(f"`{c}`" for c in scores.flaky_cases) or "none"
        lines.append(
            f"- **{label(scores)}** {scores.n_repeats} repeats: {at}; {hat}; flaky: {flaky}"
        )
    for note in (conversation_note(scores, " "), simulator_note(scores)):
        if note:
            lines.append(f"- {note}")
    return lines


def scores_markdown(
    variant_scores: Sequence[VariantScores],
    case_scores: Sequence[CaseScore] = (),
    title: str = "Golden dataset scores",
) -> str:
    """Summary table per variant, pass rate by category, then failing cases with reasons."""
    parts = [
        f"## {title}",
        "",
        f"Pass threshold {PASS_THRESHOLD:.2f}; pass rates over counted (non-pending) "
        f"cases; {len(case_scores) or sum(v.n_results for v in variant_scores)} results.",
        "",
        md_table(SUMMARY_HEADERS, [summary_row(v) for v in variant_scores]),
    ]
    headers, rows = category_rows(variant_scores)
    if len(headers) > 1:
        parts += ["", "### Pass rate by category", "", md_table(headers, rows)]
    extras = [line for v in variant_scores for line in _extras(v)]
    if extras:
        parts += ["", *extras]
    for v in variant_scores:
        dialogues = conversation_rows(v)
        if dialogues:
            parts += [
                "",
                f"### Conversation cases — {label(v)} (pass^k: all k repeats pass)",
                "",
                md_table(CONVERSATION_HEADERS, [[f"`{r[0]}`", *r[1:]] for r in dialogues]),
            ]
    failing = [(v, failing_cases(v)) for v in variant_scores]
    if any(rows for _, rows in failing):
        parts += ["", "### Failing cases"]
        for v, rows in failing:
            if rows:
                parts += [
                    "",
                    f"**{label(v)}**",
                    "",
                    md_table(
                        ["Case", "Tier", "Category", "Passes", "Score", "Reasons"],
                        [[f"`{r[0]}`", *r[1:]] for r in rows],
                    ),
                ]
    else:
        parts += ["", "All cases pass."]
    return "\n".join(parts) + "\n"
