"""The arena: pairwise battles judged in both orders, judge health, pairings."""

from arena.judging.battles import JudgeReport, judge_pair, judge_run, judge_run_async
from arena.judging.health import (
    Agreement,
    JudgeHealth,
    cohen_kappa,
    human_agreement,
    judge_agreement,
    judge_health,
    load_human_labels,
)
from arena.judging.pairing import make_pairs
from arena.judging.records import Battle
from arena.judging.swap import Outcome, combine

__all__ = [
    "Agreement",
    "Battle",
    "JudgeHealth",
    "JudgeReport",
    "Outcome",
    "cohen_kappa",
    "combine",
    "human_agreement",
    "judge_agreement",
    "judge_health",
    "judge_pair",
    "judge_run",
    "judge_run_async",
    "load_human_labels",
    "make_pairs",
]
