"""Sequential decisions: anytime-valid decisions with fewer cases and judge calls.

The statistics are pure numpy/scipy with no I/O (re-exported here):

- :class:`BettingCS` / :func:`betting_cs`: hedged-capital betting confidence sequences for
  the mean of [0, 1]-bounded outcomes, with or without replacement (Waudby-Smith & Ramdas,
  JRSS-B 2023): valid at every sample size at once, so a run may stop whenever it likes.
- :func:`decide`: the stopping rule (better, worse, non-inferior at a margin, undecided at
  the budget).
- :func:`next_pair` / :func:`ranks_separated`: adaptive pair choice for ranking many variants.

Their drivers over stored runs sit beside them, imported by their own paths (they sit above
the gate in the layer order, so this face does not load them): :mod:`arena.sequential._driver`
(``arena compare --sequential``), :mod:`arena.sequential._gate` (``arena gate --sequential``),
:mod:`arena.sequential._adaptive_judge` (``arena judge --pairs adaptive``), their report and
trace.
"""

from arena.sequential._adaptive import AdaptiveState, next_pair, ranks_separated
from arena.sequential._betting import GRID, BettingCS, betting_cs
from arena.sequential._stopping import (
    NON_INFERIORITY,
    THREE_WAY,
    Decision,
    Question,
    Stop,
    decide,
)

__all__ = [
    "GRID",
    "NON_INFERIORITY",
    "THREE_WAY",
    "AdaptiveState",
    "BettingCS",
    "Decision",
    "Question",
    "Stop",
    "betting_cs",
    "decide",
    "next_pair",
    "ranks_separated",
]
