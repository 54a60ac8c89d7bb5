"""Self-preference: does a judge favour the answers of its own model?

Measured where the data allow it: on the golden-decisive pairs where exactly one answer comes
from a variant whose model is the judge's model, compare how often the judge picks that answer
with how often the golden checks say it is the better one. A judge without self-preference
picks its own model's answer about as often as the golden checks do; ``excess`` is the
difference (positive: it favours itself). Ties count as not picking it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from pydantic import BaseModel, computed_field

from arena.trust._accuracy import GoldenMark, golden_winner
from arena.vocabulary import ERROR, MODEL_A, MODEL_B
from judges._battle import Battle, judge_battles


class SelfPreference(BaseModel):
    """A judge on the decisive pairs that pit its own model's answer against another's."""

    pairs: int
    picks_own: int
    golden_own: int

    @computed_field  # type: ignore[prop-decorator]
    @property
    def excess(self) -> float | None:
        """Share picked minus share the golden checks prefer (None without pairs)."""
        return None if not self.pairs else (self.picks_own - self.golden_own) / self.pairs

    @computed_field  # type: ignore[prop-decorator]
    @property
    def summary(self) -> str:
        """:meth:`text`, stored with the figures (the app shows it as is)."""
        return self.text()

    def text(self) -> str:
        """``picks its own model's answer in 9 of 12 decisive pairs; golden checks: 6``."""
        if not self.pairs:
            return "unmeasured: no decisive pair pits the judge's own model against another"
        return (
            f"picks its own model's answer in {self.picks_own} of {self.pairs} decisive "
            f"pairs; the golden checks prefer it in {self.golden_own}"
        )


def self_preference(
    battles: Iterable[Battle], marks: Mapping[int, GoldenMark], own_variants: set[str]
) -> SelfPreference:
    """Self-preference of the judge behind ``battles`` (``own_variants``: the variants whose
    model is the judge's)."""
    pairs = picks = golden = 0
    for battle in judge_battles(list(battles)):
        own_a, own_b = battle.variant_a in own_variants, battle.variant_b in own_variants
        if own_a == own_b or battle.winner == ERROR:
            continue
        a, b = marks.get(battle.result_a_id), marks.get(battle.result_b_id)
        truth = None if a is None or b is None else golden_winner(a, b)
        if truth is None:
            continue
        own = MODEL_A if own_a else MODEL_B
        pairs += 1
        picks += battle.winner == own
        golden += truth == own
    return SelfPreference(pairs=pairs, picks_own=picks, golden_own=golden)
