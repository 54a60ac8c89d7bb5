"""The arena: pairwise battles judged in both orders, judge health, pairings."""

from arena.judging.battle import Battle
from arena.judging.health import (
    HEALTH_CHECKS,
    Agreement,
    JudgeHealth,
    cohen_kappa,
    health_warnings,
    human_agreement,
    judge_agreement,
    judge_health,
    load_human_labels,
)
from arena.judging.pairing import make_pairs
from arena.judging.runner import JudgeReport, judge_pair, judge_run, judge_run_async
from judges.orders import Outcome, combine

__all__ = [
    "HEALTH_CHECKS",
    "Agreement",
    "Battle",
    "JudgeHealth",
    "JudgeReport",
    "Outcome",
    "cohen_kappa",
    "combine",
    "health_warnings",
    "human_agreement",
    "judge_agreement",
    "judge_health",
    "judge_pair",
    "judge_run",
    "judge_run_async",
    "load_human_labels",
    "make_pairs",
]
