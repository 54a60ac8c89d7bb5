"""Battles: a judge run over a stored run's pairs of answers, in both orders.

How one pair is judged (prompts, modes, reading a verdict) is the LLM judge, :mod:`judges`;
this package makes the pairs a run can judge (:func:`judgeable_pairs`, the one rule the
runner and ``arena plan`` share), the judge's requests, and runs the judge over them
(:func:`judge_run`). Whether to trust the verdicts is :mod:`arena.trust`; people's votes are
:mod:`arena.votes`; battle logs in and out are :mod:`arena.battle_log`; battles as rating
inputs are :mod:`arena.leaderboard`."""

from arena.battles._pairing import PairFate, SlotPair, judgeable_pairs, make_pairs, pair_fate
from arena.battles._requests import pair_request
from arena.battles._runner import (
    JudgeReport,
    calibrate_run,
    judge_both_orders,
    judge_request,
    judge_run,
    judge_run_async,
    stored_pairs,
)
from judges._battle import Battle
from judges._orders import Outcome
from judges.modes import combine

__all__ = [
    "Battle",
    "JudgeReport",
    "Outcome",
    "PairFate",
    "SlotPair",
    "calibrate_run",
    "combine",
    "judge_both_orders",
    "judge_request",
    "judge_run",
    "judge_run_async",
    "judgeable_pairs",
    "make_pairs",
    "pair_fate",
    "pair_request",
    "stored_pairs",
]
