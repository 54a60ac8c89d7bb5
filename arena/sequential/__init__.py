"""Sequential decisions: decisions valid however often one looks, with fewer cases and calls.

The statistics are pure numpy/scipy with no I/O (re-exported here):

- :class:`BettingCS` / :func:`betting_cs`: hedged-capital betting confidence sequences for
  the mean of [0, 1]-bounded outcomes, with or without replacement (Waudby-Smith & Ramdas,
  JRSS-B 2023): valid at every sample size at once, so a run may stop whenever it likes.
- :func:`decide`: the stopping rule (better, worse, non-inferior at a margin, undecided at
  the budget).
- :class:`SpendingCS`: the known-horizon interval (Lan-DeMets alpha spending of
  O'Brien-Fleming type up to a budget fixed in advance), :func:`futile` /
  :func:`decision_chance`: the predictive-power futility rule on it.
- :class:`BoundaryPlan` / :func:`make_sequence` / :func:`continuation_valid` / :func:`continued`:
  what a run's boundary is a pure function of, and which continuations keep its error rate.
- :func:`next_pair` / :func:`ranks_separated`: adaptive pair choice for ranking many variants;
  :class:`AdaptiveLoop`: the judging loop built on them (the CLI's and the benchmark's).

Their drivers over stored runs sit beside them, imported by their own paths (they sit above
the gate in the layer order, so this face does not load them):
:mod:`arena.compare.sequential._driver` (``arena compare --sequential``),
:mod:`arena.compare.sequential._gate` (``arena gate --sequential``),
:mod:`arena.compare.sequential._adaptive_judge` (``arena judge --pairs adaptive``), their report
and trace.
"""

from arena.sequential._adaptive import AdaptiveState, next_pair, ranks_separated
from arena.sequential._adaptive_loop import FUTILITY as ADAPTIVE_FUTILITY
from arena.sequential._adaptive_loop import AdaptiveLoop
from arena.sequential._betting import GRID, BettingCS, betting_cs
from arena.sequential._boundary import (
    ANYTIME,
    FUTILITY,
    SPENDING,
    BoundaryPlan,
    continuation_valid,
    continued,
    make_sequence,
)
from arena.sequential._futility import decision_chance, futile
from arena.sequential._spending import SpendingCS
from arena.sequential._stopping import (
    NON_INFERIORITY,
    THREE_WAY,
    Decision,
    Question,
    Stop,
    decide,
)

__all__ = [
    "ADAPTIVE_FUTILITY",
    "ANYTIME",
    "FUTILITY",
    "GRID",
    "NON_INFERIORITY",
    "SPENDING",
    "THREE_WAY",
    "AdaptiveLoop",
    "AdaptiveState",
    "BettingCS",
    "BoundaryPlan",
    "Decision",
    "Question",
    "SpendingCS",
    "Stop",
    "betting_cs",
    "continuation_valid",
    "continued",
    "decide",
    "decision_chance",
    "futile",
    "make_sequence",
    "next_pair",
    "ranks_separated",
]
