"""Production traffic: read real traces, sample them, redact them, and replay them on a
candidate against what production answered (``arena shadow``).

- records and readers: :class:`ProductionTrace`, :func:`iter_traces` (our JSONL streamed, a
  LangSmith runs export, ``arena langsmith``'s CSV);
- :func:`sample_traces` (deterministic by a hash of the trace id and the seed) and
  :func:`redact_trace` (e-mails, phone numbers, keys);
- :func:`replay` (the sampled queries as a run beside production's answers) and
  :func:`shadow` (judged pairwise in both orders: win rate, interval, non-inferiority, losses);
- :func:`evaluate_sample` (``--evaluate-only``: reference-free checks, a rubric graded in the
  judge's ``grades`` mode) and :func:`shadow_history` / :func:`shadow_losses` (stored shadow
  runs read back for the app).
"""

from __future__ import annotations

from arena.production._evaluate import (
    CHECKS,
    GRADER,
    FlaggedTrace,
    QualityReport,
    TraceLimits,
    evaluate_sample,
    evaluate_traces,
    store_checks,
    trace_flags,
)
from arena.production._golden import (
    FLAGGED,
    LOSSES,
    ShadowCases,
    add_from_shadow,
    flagged_cases,
    lost_cases,
    scheme_id,
    shadow_category,
)
from arena.production._grading import (
    GRADES_MODE,
    PASS_GRADE,
    RubricCheck,
    check_grader,
    grade_answers,
    grade_request,
    grading_judge,
    rubric_flags,
)
from arena.production._history import (
    ShadowPoint,
    shadow_block,
    shadow_history,
    shadow_losses,
    shadow_point,
)
from arena.production._langsmith_online import langsmith_traces, since_time
from arena.production._langsmith_runs import example_to_trace, run_to_trace
from arena.production._read import TRACE_FORMATS, iter_traces, read_traces, trace_format
from arena.production._redact import RULES, RedactionRule, redact_text, redact_trace
from arena.production._replay import (
    PRODUCTION,
    TRACE_TAG,
    production_variant,
    replay,
    shadow_dataset,
    trace_case,
)
from arena.production._sample import Sample, SampleSpec, sample_key, sample_traces
from arena.production._sequential import EVERY, shadow_sequential
from arena.production._shadow import (
    MAX_JUDGE_ERROR_SHARE,
    SHADOW_KEYS,
    ShadowLoss,
    ShadowOptions,
    ShadowReport,
    sampled_traces,
    shadow,
    shadow_sample,
    win_rate_of,
)
from arena.production._trace import Message, ProductionTrace, ToolUse

__all__ = [
    "CHECKS",
    "EVERY",
    "FLAGGED",
    "GRADER",
    "GRADES_MODE",
    "LOSSES",
    "MAX_JUDGE_ERROR_SHARE",
    "PASS_GRADE",
    "PRODUCTION",
    "RULES",
    "SHADOW_KEYS",
    "TRACE_FORMATS",
    "TRACE_TAG",
    "FlaggedTrace",
    "Message",
    "ProductionTrace",
    "QualityReport",
    "RedactionRule",
    "RubricCheck",
    "Sample",
    "SampleSpec",
    "ShadowCases",
    "ShadowLoss",
    "ShadowOptions",
    "ShadowPoint",
    "ShadowReport",
    "ToolUse",
    "TraceLimits",
    "add_from_shadow",
    "check_grader",
    "evaluate_sample",
    "evaluate_traces",
    "example_to_trace",
    "flagged_cases",
    "grade_answers",
    "grade_request",
    "grading_judge",
    "iter_traces",
    "langsmith_traces",
    "lost_cases",
    "production_variant",
    "read_traces",
    "redact_text",
    "redact_trace",
    "replay",
    "rubric_flags",
    "run_to_trace",
    "sample_key",
    "sample_traces",
    "sampled_traces",
    "scheme_id",
    "shadow",
    "shadow_block",
    "shadow_category",
    "shadow_dataset",
    "shadow_history",
    "shadow_losses",
    "shadow_point",
    "shadow_sample",
    "shadow_sequential",
    "since_time",
    "store_checks",
    "trace_case",
    "trace_flags",
    "trace_format",
    "win_rate_of",
]
