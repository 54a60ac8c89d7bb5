"""The verdict and winner vocabulary, in one place.

A judge reads two answers, the first shown as ``A`` and the second as ``B``, and gives a
**label** from the first-shown answer's point of view. A battle's **winner** is named from
the stored seats (``model_a`` is the battle's variant A, whichever order it was shown in), in
the Chatbot Arena schema. Grading judges answer one **grade token**, ``YES`` or ``NO``.

Every module that reads or writes labels, winners or grade tokens imports them from here.
"""

from __future__ import annotations

from typing import Literal

# Labels, from the first-shown answer's point of view (A is shown first).
Label = Literal["A>>B", "A>B", "A=B", "B>A", "B>>A"]
LABELS: tuple[Label, ...] = ("A>>B", "A>B", "A=B", "B>A", "B>>A")
STRONG_LABELS: frozenset[str] = frozenset({"A>>B", "B>>A"})
# +1: the first-shown answer is better, 0: a tie, -1: the second-shown answer is better.
LABEL_DIRECTION: dict[str, int] = {"A>>B": 1, "A>B": 1, "A=B": 0, "B>A": -1, "B>>A": -1}
# One-token answers of the short verdict forms: [[A]], [[B]] and [[C]] (a tie, MT-Bench).
SHORT_LABELS: dict[str, Label] = {"A": "A>B", "B": "B>A", "C": "A=B"}
# Tokens read from log-probabilities in the pairwise logprobs mode.
SEAT_TOKENS: dict[str, tuple[str, ...]] = {"A": ("A",), "B": ("B",)}

# Winners, from the stored seats (Chatbot Arena schema), plus ``error`` for unread verdicts.
Winner = Literal["model_a", "model_b", "tie", "tie (bothbad)", "error"]
MODEL_A: Literal["model_a"] = "model_a"
MODEL_B: Literal["model_b"] = "model_b"
TIE: Literal["tie"] = "tie"
TIE_BOTHBAD: Literal["tie (bothbad)"] = "tie (bothbad)"
ERROR: Literal["error"] = "error"
DECISIVE: tuple[str, str] = (MODEL_A, MODEL_B)
# What a winner scores for model_a in a rating; errors are never rated.
WINNER_SCORE: dict[str, float] = {MODEL_A: 1.0, MODEL_B: 0.0, TIE: 0.5, TIE_BOTHBAD: 0.5}
# Winners a battle log may hold (everything but ``error``).
LOG_WINNERS: tuple[str, ...] = tuple(WINNER_SCORE)

# Winner values other tools write in logs and judgment files, and what each means here.
TIE_INCONSISTENT = "tie (inconsistent)"
WRITTEN_WINNERS: dict[str, str] = {
    **{winner: winner for winner in LOG_WINNERS},
    # FastChat's MT-Bench judgment files: the seats are model_1 / model_2 ...
    "model_1": MODEL_A,
    "model_2": MODEL_B,
    # ... the judge's two orders disagreed: "tie (inconsistent)" in the released
    # gpt4_pair judgments, "inconsistent" in FastChat's own loader; it counts as a tie there.
    TIE_INCONSISTENT: TIE,
    "inconsistent": TIE,
    # ... no verdict could be read: FastChat's show_result leaves the row out.
    ERROR: ERROR,
}

# Grade tokens of single-answer grading, with the token spellings that count as each.
YES = "YES"
NO = "NO"
GRADE_TOKENS: dict[str, tuple[str, ...]] = {YES: ("YES", "Y"), NO: ("NO", "N")}


def swap_label(label: Label) -> Label:
    """The same judgement with the seats exchanged: ``A>B`` becomes ``B>A``."""
    swapped: dict[str, Label] = {
        "A>>B": "B>>A",
        "A>B": "B>A",
        "A=B": "A=B",
        "B>A": "A>B",
        "B>>A": "A>>B",
    }
    return swapped[label]


def is_tie(winner: str) -> bool:
    """``tie`` and ``tie (bothbad)`` are both ties."""
    return winner in (TIE, TIE_BOTHBAD)


def is_decisive(winner: str) -> bool:
    """One side won."""
    return winner in DECISIVE


def swap_winner(winner: str) -> str:
    """The winner with the seats exchanged; ties and errors are unchanged."""
    return {MODEL_A: MODEL_B, MODEL_B: MODEL_A}.get(winner, winner)


def winner_from_direction(direction: int) -> str:
    """``model_a`` for +1, ``model_b`` for -1, ``tie`` for 0."""
    return MODEL_A if direction > 0 else MODEL_B if direction < 0 else TIE


def label_words(label: str | None, first: str, second: str, error: str = "") -> str:
    """A label read with names: ``A>B`` with first=x is ``x better``."""
    if label is None:
        return f"error: {error}" if error else "no call (identical answers)"
    return {
        "A>>B": f"{first} much better",
        "A>B": f"{first} better",
        "A=B": "tie",
        "B>A": f"{second} better",
        "B>>A": f"{second} much better",
    }.get(label, label)


def winner_words(winner: str, name_a: str, name_b: str) -> str:
    """A winner read with the variants' names."""
    return {
        MODEL_A: name_a,
        MODEL_B: name_b,
        TIE: "tie",
        TIE_BOTHBAD: "tie (both bad)",
        ERROR: "error (not counted)",
    }.get(winner, winner)
