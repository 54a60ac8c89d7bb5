"""LLM judges behind one small async protocol; every verdict carries its judge's spec."""

from judges.pairwise import Judge, PairwiseJudge, judge_model_config
from judges.parsing import first_token_probs, label_from_probability, parse_verdict
from judges.records import LABELS, JudgeSpec, Label, PairRequest, Verdict
from judges.spec import parse_judge

__all__ = [
    "LABELS",
    "Judge",
    "JudgeSpec",
    "Label",
    "PairRequest",
    "PairwiseJudge",
    "Verdict",
    "first_token_probs",
    "judge_model_config",
    "label_from_probability",
    "parse_judge",
    "parse_verdict",
]
