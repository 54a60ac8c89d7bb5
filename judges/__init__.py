"""LLM judges behind one small async protocol; every verdict carries its judge's spec.

Public names load lazily, so ``import judges`` does not load LangChain (reading the mode
registry does: it imports the modes).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the real names, for type checkers
    from judges._graph_prompts import path_text
    from judges._human import human_judge
    from judges._identity import judge_identity, verdict_key
    from judges._open_ended import (
        AgreementFigures,
        Choice,
        FittedCombination,
        agreement_with_people,
        choice,
        coverage_at,
        fit_combination,
    )
    from judges._orders import (
        Outcome,
        agreement_rule,
        averaging_rule,
        logit_rule,
        probability_rule,
    )
    from judges._pairwise import Judge, PairwiseJudge, judge_model_config, judge_reply_cached
    from judges._parsing import first_token_probs, label_from_probability, parse_verdict
    from judges._spec import check_cascade, parse_judge
    from judges._types import (
        COMBINATIONS,
        DEFAULT_TIE_MARGIN,
        LABELS,
        Exchange,
        JudgeSpec,
        Label,
        PairRequest,
        SelectiveSettings,
        Verdict,
    )
    from judges.modes import MODES, combine, get_mode, mode_names
    from judges.modes._base import JudgeMode
    from judges.modes.checklist._items import ItemGrade, item_grades
    from judges.modes.checklist._score import DEFAULT_RULE, RULES, answer_score, p_first_better

_EXPORTS = {
    "DEFAULT_RULE": "judges.modes.checklist._score",
    "RULES": "judges.modes.checklist._score",
    "answer_score": "judges.modes.checklist._score",
    "p_first_better": "judges.modes.checklist._score",
    "ItemGrade": "judges.modes.checklist._items",
    "item_grades": "judges.modes.checklist._items",
    "AgreementFigures": "judges._open_ended",
    "Choice": "judges._open_ended",
    "FittedCombination": "judges._open_ended",
    "agreement_with_people": "judges._open_ended",
    "choice": "judges._open_ended",
    "coverage_at": "judges._open_ended",
    "fit_combination": "judges._open_ended",
    "judge_identity": "judges._identity",
    "path_text": "judges._graph_prompts",
    "verdict_key": "judges._identity",
    "MODES": "judges.modes",
    "get_mode": "judges.modes",
    "mode_names": "judges.modes",
    "JudgeMode": "judges.modes._base",
    "Outcome": "judges._orders",
    "agreement_rule": "judges._orders",
    "averaging_rule": "judges._orders",
    "combine": "judges.modes",
    "logit_rule": "judges._orders",
    "probability_rule": "judges._orders",
    "human_judge": "judges._human",
    "COMBINATIONS": "judges._types",
    "DEFAULT_TIE_MARGIN": "judges._types",
    "SelectiveSettings": "judges._types",
    "Exchange": "judges._types",
    "Judge": "judges._pairwise",
    "PairwiseJudge": "judges._pairwise",
    "judge_model_config": "judges._pairwise",
    "judge_reply_cached": "judges._pairwise",
    "first_token_probs": "judges._parsing",
    "label_from_probability": "judges._parsing",
    "parse_verdict": "judges._parsing",
    "parse_judge": "judges._spec",
    "check_cascade": "judges._spec",
    "LABELS": "judges._types",
    "JudgeSpec": "judges._types",
    "Label": "judges._types",
    "PairRequest": "judges._types",
    "Verdict": "judges._types",
}

__all__ = [
    "COMBINATIONS",
    "DEFAULT_RULE",
    "DEFAULT_TIE_MARGIN",
    "LABELS",
    "MODES",
    "RULES",
    "AgreementFigures",
    "Choice",
    "Exchange",
    "FittedCombination",
    "ItemGrade",
    "Judge",
    "JudgeMode",
    "JudgeSpec",
    "Label",
    "Outcome",
    "PairRequest",
    "PairwiseJudge",
    "SelectiveSettings",
    "Verdict",
    "agreement_rule",
    "agreement_with_people",
    "answer_score",
    "averaging_rule",
    "check_cascade",
    "choice",
    "combine",
    "coverage_at",
    "first_token_probs",
    "fit_combination",
    "get_mode",
    "human_judge",
    "item_grades",
    "judge_identity",
    "judge_model_config",
    "judge_reply_cached",
    "label_from_probability",
    "logit_rule",
    "mode_names",
    "p_first_better",
    "parse_judge",
    "parse_verdict",
    "path_text",
    "probability_rule",
    "verdict_key",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'judges' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
