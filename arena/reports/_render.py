"""Score reports as a JSON-ready dict and as a plain-text table."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from arena.reports._format import pct, text_table
from arena.scoring._aggregate import VariantScores
from arena.scoring._combined import PASS_THRESHOLD, WEIGHTS, CaseScore
from arena.scoring._tool_use import TRAJECTORY_WEIGHTS

SUMMARY_HEADERS = [
    "Variant",
    "Pass rate",
    "Critical",
    "Score",
    "Completion",
    "Tool acc.",
    "p50 s",
    "p90 s",
    "Tokens/query",
    "Cost/query",
    "Errors",
]


def label(scores: VariantScores) -> str:
    """``variant@hash`` with the hash shortened to 8 characters."""
    return f"{scores.variant}@{scores.variant_hash[:8]}"


def summary_row(scores: VariantScores) -> list[str]:
    """The summary cells of one variant, in :data:`SUMMARY_HEADERS` order."""
    tokens = scores.input_tokens_mean + scores.output_tokens_mean
    return [
        label(scores),
        f"{pct(scores.pass_rate)} ({scores.n_counted_cases} cases)",
        pct(scores.critical_pass_rate),
        f"{scores.mean_score:.3f}",
        pct(scores.task_completion_rate),
        f"{scores.tool_accuracy:.3f}",
        f"{scores.latency_p50_s:.2f}",
        f"{scores.latency_p90_s:.2f}",
        f"{tokens:.0f}",
        "unknown" if scores.cost_mean_usd is None else f"${scores.cost_mean_usd:.4f}",
        f"{pct(scores.error_rate)}",
    ]


def failing_cases(scores: VariantScores) -> list[list[str]]:
    """Rows (case, tier, category, passes, score, reasons) of cases that fail or flake."""
    rows = []
    for case in scores.cases:
        if case.passed and not case.flaky:
            continue
        tier = case.tier if case.counted else f"{case.tier} (not counted)"
        reasons = "; ".join(case.fail_reasons) or "—"
        rows.append(
            [
                case.case_id,
                tier,
                case.category,
                f"{case.passes}/{case.n}",
                f"{case.score_mean:.3f}",
                reasons,
            ]
        )
    return rows


def scores_json(
    variant_scores: Sequence[VariantScores], case_scores: Sequence[CaseScore]
) -> dict[str, Any]:
    """Every aggregate figure per variant and every case score, JSON-serialisable."""
    return {
        "pass_threshold": PASS_THRESHOLD,
        "weights": dict(WEIGHTS),
        "trajectory_weights": dict(TRAJECTORY_WEIGHTS),
        "variants": [v.model_dump(mode="json") for v in variant_scores],
        "cases": [c.model_dump(mode="json") for c in case_scores],
    }


def category_rows(
    variant_scores: Sequence[VariantScores],
) -> tuple[list[str], list[list[str]]]:
    """Headers and rows of the pass rate per category (counted cases) per variant."""
    names = sorted({c for v in variant_scores for c in v.by_category})
    rows = [
        [label(v), *[pct(v.by_category[c].pass_rate) if c in v.by_category else "—" for c in names]]
        for v in variant_scores
    ]
    return ["Variant", *names], rows


def _pending(scores: VariantScores) -> str | None:
    pending = scores.by_tier.get("pending")
    if pending is None:
        return None
    return (
        f"{label(scores)}: pending {pending.cases_passed}/{pending.n_cases} cases pass "
        f"({pct(pending.pass_rate)}), not counted"
    )


def _repeats(scores: VariantScores) -> str | None:
    if scores.n_repeats <= 1:
        return None
    at = ", ".join(f"pass@{k}={v:.3f}" for k, v in scores.pass_at_k.items())
    hat = ", ".join(f"pass^{k}={v:.3f}" for k, v in scores.pass_hat_k.items())
    flaky = ", ".join(scores.flaky_cases) or "none"
    return f"{label(scores)}: {at}; {hat}; flaky: {flaky}"


def simulator_note(scores: VariantScores) -> str | None:
    """``N simulator errors (not agent failures)`` of one variant, and their cases."""
    n = scores.simulator_errors
    if not n:
        return None
    cases = ", ".join(scores.simulator_error_cases)
    return (
        f"{label(scores)}: {n} simulator error{'s' if n != 1 else ''} (not agent failures; "
        f"left out of the pass figures): {cases}"
    )


def ks_text(values: dict[int, float], mark: str, sep: str = "=") -> str:
    """``pass@1=0.500, pass@2=1.000`` (``mark`` ``@`` or ``^``)."""
    return ", ".join(f"pass{mark}{k}{sep}{v:.3f}" for k, v in values.items())


def conversation_note(scores: VariantScores, sep: str = "=") -> str | None:
    """pass@k and pass^k over the conversation cases (with repeats), else None."""
    if scores.n_repeats <= 1 or not scores.conversation_pass_hat_k:
        return None
    n = sum(c.conversation and c.counted for c in scores.cases)
    return (
        f"{label(scores)}: conversation cases ({n}): "
        f"{ks_text(scores.conversation_pass_at_k, '@', sep)}; "
        f"{ks_text(scores.conversation_pass_hat_k, '^', sep)}"
    )


def conversation_rows(scores: VariantScores) -> list[list[str]]:
    """Rows (case, tier, passes, pass^k for each k, simulator errors) of the conversation
    cases of a variant run with repeats; none without repeats."""
    if scores.n_repeats <= 1:
        return []
    return [
        [
            case.case_id,
            case.tier,
            f"{case.passes}/{case.n}",
            ks_text(case.pass_hat_k, "^", " "),
            str(case.simulator_errors),
        ]
        for case in scores.cases
        if case.conversation
    ]


CONVERSATION_HEADERS = ["Case", "Tier", "Passes", "pass^k", "Simulator errors"]


def scores_table(
    variant_scores: Sequence[VariantScores], case_scores: Sequence[CaseScore] = ()
) -> str:
    """A readable text report: summary, categories, pending, repeats, failing cases."""
    parts = [
        f"Golden scores (pass threshold {PASS_THRESHOLD:.2f})",
        "",
        text_table(SUMMARY_HEADERS, [summary_row(v) for v in variant_scores]),
    ]
    headers, rows = category_rows(variant_scores)
    if len(headers) > 1:
        parts += ["", "Pass rate by category (counted cases)", text_table(headers, rows)]
    notes = [
        n
        for v in variant_scores
        for n in (_pending(v), _repeats(v), conversation_note(v), simulator_note(v))
        if n
    ]
    if notes:
        parts += ["", *notes]
    for v in variant_scores:
        dialogues = conversation_rows(v)
        if dialogues:
            parts += [
                "",
                f"Conversation cases — {label(v)} (pass^k: all k repeats pass)",
                text_table(CONVERSATION_HEADERS, dialogues),
            ]
    for v in variant_scores:
        failing = failing_cases(v)
        if failing:
            parts += [
                "",
                f"Failing or flaky cases — {label(v)}",
                text_table(["Case", "Tier", "Category", "Passes", "Score", "Reasons"], failing),
            ]
    if case_scores:
        parts += ["", f"{len(case_scores)} results scored"]
    return "\n".join(parts) + "\n"
