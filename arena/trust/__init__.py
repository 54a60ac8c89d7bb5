"""Trusting the judge: its health (position bias, agreement between orders), accuracy on
golden answers, agreement with other judges and with people, self-preference, the tie margin
(calibration), and selective verdicts (a calibrated confidence per battle, abstention with a
guaranteed agreement, :mod:`arena.trust._guarantee`, and the escalation cascade).

Pure functions over battles, plus their readers over a stored run (:func:`run_health`,
:func:`select_run`) and labelled files (people's vote files, :func:`load_votes`)."""

from arena.trust._accuracy import (
    GoldenMark,
    JudgeAccuracy,
    golden_marks,
    golden_winner,
    judge_accuracy,
)
from arena.trust._agreement import (
    AgreementRow,
    Vote,
    cross_agreement,
    judge_kind,
    log_agreement,
    within_agreement,
)
from arena.trust._calibration import (
    TieMargin,
    apply_outcome,
    calibrated_margin,
    decide_tie_margin,
    tie_margin,
)
from arena.trust._cascade import CascadeHealth, calibrate_cascade, cascade_health
from arena.trust._combinations import CombinationFigures, compare_combinations
from arena.trust._health import (
    HEALTH_CHECKS,
    Agreement,
    JudgeHealth,
    cohen_kappa,
    health_warnings,
    judge_agreement,
    judge_health,
)
from arena.trust._label_pairs import PairId, one_per_pair
from arena.trust._labelled_file import LabelledRow, labelled_for, read_labelled
from arena.trust._run_health import HumanAgreement, RunHealth, judges_of_run, run_health
from arena.trust._selective import (
    Labelled,
    SelectiveCalibration,
    apply_selective,
    calibrate,
    label_verdict,
    verdict_score,
)
from arena.trust._selective_run import SelectiveHealth, selective_health
from arena.trust._selective_store import select_run
from arena.trust._self_preference import SelfPreference, self_preference
from arena.trust._unlabelled import UNLABELLED_MARGINS, learn_margin, unlabelled_margin
from arena.trust._vote_files import battle_votes, human_agreement, load_votes, order_votes

__all__ = [
    "HEALTH_CHECKS",
    "UNLABELLED_MARGINS",
    "Agreement",
    "AgreementRow",
    "CascadeHealth",
    "CombinationFigures",
    "GoldenMark",
    "HumanAgreement",
    "JudgeAccuracy",
    "JudgeHealth",
    "Labelled",
    "LabelledRow",
    "PairId",
    "RunHealth",
    "SelectiveCalibration",
    "SelectiveHealth",
    "SelfPreference",
    "TieMargin",
    "Vote",
    "apply_outcome",
    "apply_selective",
    "battle_votes",
    "calibrate",
    "calibrate_cascade",
    "calibrated_margin",
    "cascade_health",
    "cohen_kappa",
    "compare_combinations",
    "cross_agreement",
    "decide_tie_margin",
    "golden_marks",
    "golden_winner",
    "health_warnings",
    "human_agreement",
    "judge_accuracy",
    "judge_agreement",
    "judge_health",
    "judge_kind",
    "judges_of_run",
    "label_verdict",
    "labelled_for",
    "learn_margin",
    "load_votes",
    "log_agreement",
    "one_per_pair",
    "order_votes",
    "read_labelled",
    "run_health",
    "select_run",
    "selective_health",
    "self_preference",
    "tie_margin",
    "unlabelled_margin",
    "verdict_score",
    "within_agreement",
]
