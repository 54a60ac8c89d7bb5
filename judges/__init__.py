"""LLM judges behind one small async protocol; every verdict carries its judge's spec.

Public names load lazily, so reading the mode registry (e.g. for ``arena --help``) does not
load LangChain.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the real names, for type checkers
    from judges.human import human_judge
    from judges.identity import judge_identity, verdict_key
    from judges.modes import MODES, combine, get_mode, mode_names
    from judges.modes.base import JudgeMode
    from judges.orders import (
        Outcome,
        agreement_rule,
        averaging_rule,
        logit_rule,
        probability_rule,
    )
    from judges.pairwise import Judge, PairwiseJudge, judge_model_config
    from judges.parsing import first_token_probs, label_from_probability, parse_verdict
    from judges.spec import parse_judge
    from judges.types import (
        COMBINATIONS,
        DEFAULT_TIE_MARGIN,
        LABELS,
        JudgeSpec,
        Label,
        PairRequest,
        Verdict,
    )

_EXPORTS = {
    "judge_identity": "judges.identity",
    "verdict_key": "judges.identity",
    "MODES": "judges.modes",
    "get_mode": "judges.modes",
    "mode_names": "judges.modes",
    "JudgeMode": "judges.modes.base",
    "Outcome": "judges.orders",
    "agreement_rule": "judges.orders",
    "averaging_rule": "judges.orders",
    "combine": "judges.modes",
    "logit_rule": "judges.orders",
    "probability_rule": "judges.orders",
    "human_judge": "judges.human",
    "COMBINATIONS": "judges.types",
    "DEFAULT_TIE_MARGIN": "judges.types",
    "Judge": "judges.pairwise",
    "PairwiseJudge": "judges.pairwise",
    "judge_model_config": "judges.pairwise",
    "first_token_probs": "judges.parsing",
    "label_from_probability": "judges.parsing",
    "parse_verdict": "judges.parsing",
    "parse_judge": "judges.spec",
    "LABELS": "judges.types",
    "JudgeSpec": "judges.types",
    "Label": "judges.types",
    "PairRequest": "judges.types",
    "Verdict": "judges.types",
}

__all__ = [
    "COMBINATIONS",
    "DEFAULT_TIE_MARGIN",
    "LABELS",
    "MODES",
    "Judge",
    "JudgeMode",
    "JudgeSpec",
    "Label",
    "Outcome",
    "PairRequest",
    "PairwiseJudge",
    "Verdict",
    "agreement_rule",
    "averaging_rule",
    "combine",
    "first_token_probs",
    "get_mode",
    "human_judge",
    "judge_identity",
    "judge_model_config",
    "label_from_probability",
    "logit_rule",
    "mode_names",
    "parse_judge",
    "parse_verdict",
    "probability_rule",
    "verdict_key",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'judges' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
