"""Scoring: pure functions from run records and golden cases to scores and verdicts.

No I/O, database or model calls here; an LLM behaviour grader implements
:class:`BehaviorGrader` elsewhere (``judges/``).

* per result: :func:`score_result` / :func:`score_results` -> :class:`CaseScore`
  (weights and threshold: :data:`WEIGHTS`, :data:`TRAJECTORY_WEIGHTS`,
  :data:`PASS_THRESHOLD`);
* per variant: :func:`aggregate` -> :class:`VariantScores` (pass rates, components,
  latency, tokens, cost, pass@k, pass^k, flaky cases);
* baselines: :func:`make_baseline`, :func:`should_update_baseline` (the regression verdict,
  :func:`arena.gate.check_regression`, is the gate's).
"""

from arena.scoring._aggregate import (
    GroupStats,
    VariantScores,
    aggregate,
    filter_case_scores,
    percentile,
)
from arena.scoring._args import args_fraction, score_expected_args, value_satisfied
from arena.scoring._baseline import (
    Baseline,
    CaseRecord,
    baseline_from_json,
    baseline_to_json,
    make_baseline,
    should_update_baseline,
)
from arena.scoring._behavior import (
    BehaviorGrade,
    BehaviorGrader,
    KeywordBehaviorGrader,
    RubricGrade,
    RubricGrader,
)
from arena.scoring._combined import (
    PASS_THRESHOLD,
    WEIGHTS,
    CaseScore,
    score_result,
    score_results,
)
from arena.scoring._functional import normalize_path, score_file, score_files
from arena.scoring._match import (
    ArgsMode,
    MatchMode,
    ToolCall,
    TrajectoryMatch,
    calls_from_steps,
    match_trajectory,
)
from arena.scoring._output import (
    score_contains,
    score_exact,
    score_not_contains,
    score_output,
    score_regex,
)
from arena.scoring._repeats import CaseRepeats, majority_pass, pass_at_k, pass_hat_k
from arena.scoring._required import call_failure, counts_as_call, missed_actions
from arena.scoring._rules import RULES_VERSION, older_rules_note
from arena.scoring._textmatch import contains_item, extract_numbers, first_alternative
from arena.scoring._tool_use import TRAJECTORY_WEIGHTS, score_trajectory
from arena.scoring._trajectory import (
    ToolOverlap,
    edit_distance,
    edit_similarity,
    efficiency,
    forbidden_score,
    hallucinated_tools,
    lcs_length,
    lcs_ratio,
    min_calls_score,
    tool_iou,
    tool_overlap,
)
from arena.scoring._types import Check

select_cases = filter_case_scores
"""The former name of :func:`filter_case_scores` (``arena.runner.select_cases`` picks a
dataset's cases; this filters scored ones)."""

__all__ = [
    "PASS_THRESHOLD",
    "RULES_VERSION",
    "TRAJECTORY_WEIGHTS",
    "WEIGHTS",
    "ArgsMode",
    "Baseline",
    "BehaviorGrade",
    "BehaviorGrader",
    "CaseRecord",
    "CaseRepeats",
    "CaseScore",
    "Check",
    "GroupStats",
    "KeywordBehaviorGrader",
    "MatchMode",
    "RubricGrade",
    "RubricGrader",
    "ToolCall",
    "ToolOverlap",
    "TrajectoryMatch",
    "VariantScores",
    "aggregate",
    "args_fraction",
    "baseline_from_json",
    "baseline_to_json",
    "call_failure",
    "calls_from_steps",
    "contains_item",
    "counts_as_call",
    "edit_distance",
    "edit_similarity",
    "efficiency",
    "extract_numbers",
    "filter_case_scores",
    "first_alternative",
    "forbidden_score",
    "hallucinated_tools",
    "lcs_length",
    "lcs_ratio",
    "majority_pass",
    "make_baseline",
    "match_trajectory",
    "min_calls_score",
    "missed_actions",
    "normalize_path",
    "older_rules_note",
    "pass_at_k",
    "pass_hat_k",
    "percentile",
    "score_contains",
    "score_exact",
    "score_expected_args",
    "score_file",
    "score_files",
    "score_not_contains",
    "score_output",
    "score_regex",
    "score_result",
    "score_results",
    "score_trajectory",
    "select_cases",
    "should_update_baseline",
    "tool_iou",
    "tool_overlap",
    "value_satisfied",
]
