"""Which variant pairs battle, and what becomes of each pair of answers: the one rule that
``arena judge`` (:mod:`arena.battles._runner`) follows and ``arena plan``
(:mod:`arena.plan._plan`) counts by, so a plan never counts a pair the judge would skip.

Every pair of a slot (a case and a repeat) gets one :class:`PairFate`, in this order: an
answer missing is not judged (nothing to decide yet); a simulated user that failed leaves the
pair out (the failure is not the agent's, so neither a loss nor a battle); a crashed answer is
decided by the crash rule without a call; identical answers made the same way (the same tool
calls, state changes and graph path) tie without a call; the same answer made differently is
decided by the case's deterministic golden checks when only one side passes them (without a
call, recorded as such) and asked of the judge otherwise, who is then shown what each side
did; any other pair is asked of the judge in both orders (through the verdict cache).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from itertools import combinations
from typing import Literal

from arena.battles._requests import same_actions, same_answer
from arena.errors import InputError
from arena.golden import GoldenCase
from arena.records.results import RunResult
from judges._battle import crashed_side


class PairFate(StrEnum):
    """What ``arena judge`` does with one pair of answers."""

    UNANSWERED = "unanswered"
    """An answer is missing: skipped (judged once the run has it)."""
    SIMULATOR = "simulator"
    """A simulated user failed: not judged at all, counted apart."""
    CRASH = "crash"
    """An answer crashed: the crash rule decides it, without a call."""
    SAME = "same"
    """Identical answers made the same way: a tie, without a call."""
    GOLDEN = "golden"
    """The same answer made differently, only one side passing its golden checks: that side
    wins, without a call."""
    JUDGE = "judge"
    """Asked of the judge, in both orders."""


#: The fates that make a battle (the judge runner's work).
BATTLE_FATES = frozenset({PairFate.CRASH, PairFate.SAME, PairFate.GOLDEN, PairFate.JUDGE})


@dataclass(frozen=True)
class SlotPair:
    """One pair of a slot (a case and a repeat) and its fate; ``a`` and ``b`` are the two
    variants' answers (None: not answered, or not yet)."""

    case: GoldenCase
    repeat: int
    a: RunResult | None
    b: RunResult | None
    fate: PairFate


def make_pairs(variants: list[str], pairs: str = "all") -> list[tuple[str, str]]:
    """``all`` (every unordered pair) or ``anchor:NAME`` (every variant against NAME)."""
    if len(variants) < 2:
        raise InputError(
            f"need at least two variants to judge, the run has {len(variants)}", field="pairs"
        )
    if pairs == "all":
        return list(combinations(variants, 2))
    if pairs.startswith("anchor:"):
        anchor = pairs.split(":", 1)[1]
        if anchor not in variants:
            raise InputError(
                f"anchor {anchor!r} is not a variant of the run ({', '.join(variants)})",
                field="pairs",
            )
        return [(anchor, v) for v in variants if v != anchor]
    raise InputError(f"pairs must be 'all' or 'anchor:NAME', got {pairs!r}", field="pairs")


def simulator_failed(a: RunResult, b: RunResult) -> bool:
    """Whether the simulated user of either result failed (``RunResult.simulator_error``).

    Such a pair is not judged at all: the failure is not the agent's, so it is neither a
    loss (as a crash is) nor a battle; the judging report counts it apart.
    """
    return a.simulator_error is not None or b.simulator_error is not None


def golden_passer(a: RunResult, b: RunResult, case: GoldenCase) -> Literal["a", "b"] | None:
    """The one side of two results that passes the case's deterministic golden checks (no
    LLM grader), or None when both or neither do."""
    from arena.scoring import score_result

    passed_a, passed_b = score_result(a, case).passed, score_result(b, case).passed
    if passed_a == passed_b:
        return None
    return "a" if passed_a else "b"


def pair_fate(
    a: RunResult | None,
    b: RunResult | None,
    *,
    answers_to_come: bool = False,
    case: GoldenCase | None = None,
) -> PairFate:
    """The fate of the pair (``a``, ``b``) (see :class:`PairFate`).

    ``answers_to_come``: a missing answer is still to be produced (a plan of a run), so a
    stored side that already decides the pair (a simulator error, a crash) does; otherwise
    (a stored run, as ``arena judge`` sees it) a missing answer leaves the pair unanswered.
    ``case``: the pair's case, whose golden checks decide the same answer made differently
    (without it such a pair is the judge's).
    """
    if a is not None and b is not None:
        if simulator_failed(a, b):
            return PairFate.SIMULATOR
        if crashed_side(a, b) is not None:
            return PairFate.CRASH
        if not same_answer(a, b):
            return PairFate.JUDGE
        if same_actions(a, b):
            return PairFate.SAME
        if case is not None and golden_passer(a, b, case) is not None:
            return PairFate.GOLDEN
        return PairFate.JUDGE
    known = a if a is not None else b
    if not answers_to_come or known is None:
        return PairFate.UNANSWERED
    if simulator_failed(known, known):  # whatever the other answer will be
        return PairFate.SIMULATOR
    return PairFate.CRASH if crashed_side(known, known) is not None else PairFate.UNANSWERED


def judgeable_pairs(
    slots: Iterable[tuple[GoldenCase, int, Mapping[str, RunResult]]],
    variants: list[str],
    pairs: str = "all",
    *,
    answers_to_come: bool = False,
) -> list[SlotPair]:
    """Every pair ``pairs`` asks for (:func:`make_pairs`) in every slot, with its fate.

    ``slots`` are (case, repeat, answers by variant name) in the order to judge them; a
    variant without an answer in a slot is missing from its mapping. The judge runner
    battles the pairs whose fate is in :data:`BATTLE_FATES`; ``arena plan`` counts them.
    """
    slots = list(slots)
    order = make_pairs(variants, pairs) if slots else []  # no answers: nothing to refuse
    found = []
    for case, repeat, answers in slots:
        for name_a, name_b in order:
            a, b = answers.get(name_a), answers.get(name_b)
            fate = pair_fate(a, b, answers_to_come=answers_to_come, case=case)
            found.append(SlotPair(case, repeat, a, b, fate))
    return found
