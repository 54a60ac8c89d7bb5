"""Battles: judges run over a run's pairs of answers, in both orders, and what the battles say.

How one pair is judged (prompts, modes, reading a verdict) is the LLM judge, :mod:`judges`;
this package runs judges over a stored run's pairs, and holds judge health and accuracy,
agreement between judges (and with people), selective verdicts (a calibrated confidence per
battle and abstention with a guaranteed agreement, :mod:`arena.battles._guarantee`), votes,
pairings, battle logs
(:mod:`arena.battles.log`) and battles as rating inputs."""

from arena.battles._accuracy import (
    GoldenMark,
    JudgeAccuracy,
    golden_marks,
    golden_winner,
    judge_accuracy,
)
from arena.battles._agreement import (
    AgreementRow,
    Vote,
    cross_agreement,
    judge_kind,
    log_agreement,
    within_agreement,
)
from arena.battles._battle import Battle
from arena.battles._calibration import (
    TieMargin,
    apply_outcome,
    calibrated_margin,
    decide_tie_margin,
    tie_margin,
)
from arena.battles._cascade import CascadeHealth, calibrate_cascade, cascade_health
from arena.battles._combinations import CombinationFigures, compare_combinations
from arena.battles._escalation import Escalation, RankInterval, escalation_queue, queue_counts
from arena.battles._health import (
    HEALTH_CHECKS,
    Agreement,
    JudgeHealth,
    cohen_kappa,
    health_warnings,
    judge_agreement,
    judge_health,
)
from arena.battles._label_pairs import PairId, one_per_pair
from arena.battles._labelled_file import LabelledRow, labelled_for, read_labelled
from arena.battles._pairing import PairFate, SlotPair, judgeable_pairs, make_pairs, pair_fate
from arena.battles._people_votes import (
    labelled_battles,
    labelled_pairs,
    pending_escalations,
    with_people_votes,
)
from arena.battles._requests import pair_request
from arena.battles._run_health import HumanAgreement, RunHealth, judges_of_run, run_health
from arena.battles._runner import (
    JudgeReport,
    calibrate_run,
    judge_both_orders,
    judge_request,
    judge_run,
    judge_run_async,
    stored_pairs,
)
from arena.battles._selective import (
    Labelled,
    SelectiveCalibration,
    apply_selective,
    calibrate,
    label_verdict,
    verdict_score,
)
from arena.battles._selective_run import SelectiveHealth, selective_health
from arena.battles._selective_store import select_run
from arena.battles._self_preference import SelfPreference, self_preference
from arena.battles.votes.ballots import (
    VOTE_CHOICES,
    VotePair,
    cast_vote,
    default_voter,
    next_pair,
    open_pairs,
    vote_counts,
)
from arena.battles.votes.reading import battle_votes, human_agreement, load_votes, order_votes
from arena.errors import AlreadyVoted
from judges._orders import Outcome
from judges.modes import combine

__all__ = [
    "HEALTH_CHECKS",
    "VOTE_CHOICES",
    "Agreement",
    "AgreementRow",
    "AlreadyVoted",
    "Battle",
    "CascadeHealth",
    "CombinationFigures",
    "Escalation",
    "GoldenMark",
    "HumanAgreement",
    "JudgeAccuracy",
    "JudgeHealth",
    "JudgeReport",
    "Labelled",
    "LabelledRow",
    "Outcome",
    "PairFate",
    "PairId",
    "RankInterval",
    "RunHealth",
    "SelectiveCalibration",
    "SelectiveHealth",
    "SelfPreference",
    "SlotPair",
    "TieMargin",
    "Vote",
    "VotePair",
    "apply_outcome",
    "apply_selective",
    "battle_votes",
    "calibrate",
    "calibrate_cascade",
    "calibrate_run",
    "calibrated_margin",
    "cascade_health",
    "cast_vote",
    "cohen_kappa",
    "combine",
    "compare_combinations",
    "cross_agreement",
    "decide_tie_margin",
    "default_voter",
    "escalation_queue",
    "golden_marks",
    "golden_winner",
    "health_warnings",
    "human_agreement",
    "judge_accuracy",
    "judge_agreement",
    "judge_both_orders",
    "judge_health",
    "judge_kind",
    "judge_request",
    "judge_run",
    "judge_run_async",
    "judgeable_pairs",
    "judges_of_run",
    "label_verdict",
    "labelled_battles",
    "labelled_for",
    "labelled_pairs",
    "load_votes",
    "log_agreement",
    "make_pairs",
    "next_pair",
    "one_per_pair",
    "open_pairs",
    "order_votes",
    "pair_fate",
    "pair_request",
    "pending_escalations",
    "queue_counts",
    "read_labelled",
    "run_health",
    "select_run",
    "selective_health",
    "self_preference",
    "stored_pairs",
    "tie_margin",
    "verdict_score",
    "vote_counts",
    "with_people_votes",
    "within_agreement",
]
