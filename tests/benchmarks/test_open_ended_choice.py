"""The choice of the open-ended mode (benchmarks/open_ended_choice.py): chosen on the
calibration part only, fitted rows cross-fitted there, reported on the held-out part."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import ModuleType

import pytest

from arena.outputs import LabelledPair
from tests.support.benchmarks import load_benchmark

pytestmark = pytest.mark.unit


@pytest.fixture(scope="module")
def oc() -> ModuleType:
    return load_benchmark("open_ended_choice")


def _pairs(n: int, prefix: str, long_side: int = 1) -> list[LabelledPair]:
    """People prefer side 1 on even pairs, side 2 on odd ones; ``long_side`` is longer."""
    found = []
    for i in range(n):
        one, two = ("a long answer " * 5, "short") if long_side == 1 else ("short", "long " * 9)
        found.append(
            LabelledPair(
                id=f"{prefix}{i}",
                question="q",
                answer_1=one,
                answer_2=two,
                preferred=1 if i % 2 == 0 else 2,
                held_out=prefix == "h",
            )
        )
    return found


@dataclass
class _Row:
    name: str
    outcome: dict[str, int | None] = field(default_factory=dict)
    p_first: dict[str, float | None] = field(default_factory=dict)


def _row(name: str, pairs: list[LabelledPair], right: set[str], p: float = 0.8) -> _Row:
    """A mode right on the pairs in ``right``, wrong on the others, with confidence ``p``."""
    row = _Row(name)
    for pair in pairs:
        good = pair.id in right
        side1 = (pair.preferred == 1) == good
        row.p_first[pair.id] = p if side1 else 1 - p
        row.outcome[pair.id] = 1 if side1 else 2
    return row


def test_the_choice_is_made_on_the_calibration_part_never_the_held_out(oc: ModuleType) -> None:
    cal, held = _pairs(20, "c"), _pairs(20, "h")
    # "good-on-calibration" is right on 15 of 20 calibration pairs, 5 of 20 held-out ones;
    # "good-on-held-out" the reverse. Choosing on the held-out part would pick the second.
    first = {p.id for p in cal[:15]} | {p.id for p in held[:5]}
    second = {p.id for p in cal[:5]} | {p.id for p in held[:15]}
    rows = [_row("j/first", cal + held, first), _row("j/second", cal + held, second)]
    found = oc.candidates(rows, cal, held)
    chosen = oc.choose(found, cal)
    assert chosen.name == "j/first"
    lines, picked = oc.choice_lines(rows, cal, held)
    assert picked is not None and picked.name == "j/first"
    assert "chosen: j/first; on the 20 held-out pairs: 25% with ties" in "\n".join(lines)


def test_a_tie_counts_as_a_disagreement_with_people(oc: ModuleType) -> None:
    cal = _pairs(10, "c")
    row = _row("j/ties", cal, {p.id for p in cal})
    for pair in cal[:4]:
        row.outcome[pair.id] = 0
    figures = oc.Candidate("x", row.outcome, row.p_first).figures(cal, calibration=True)
    assert figures.with_ties == pytest.approx(0.6) and figures.without_ties == 1.0


def test_a_fitted_combination_is_cross_fitted_on_calibration_and_never_ties(
    oc: ModuleType,
) -> None:
    cal, held = _pairs(20, "c"), _pairs(10, "h")
    # The length feature alone says side 1 everywhere: half right. A fit on all calibration
    # pairs still predicts every pair; left-one-out fits leave each pair out of its own fit.
    fitted = oc.combination("length only", {oc.LENGTH: oc.length_feature}, cal, held)
    assert fitted is not None and fitted.fit is not None
    assert fitted.fit.pairs == 20 and "fitted on 20 calibration pairs" in fitted.name
    assert set(fitted.calibration_outcome) == {p.id for p in cal}
    assert set(fitted.outcome) == {p.id for p in held}
    # Balanced evidence (people split evenly, every pair alike) is the one tie: P = 0.5.
    assert fitted.fit.weights == (0.0,) and set(fitted.outcome.values()) == {0}
    # A feature that tells people's choice apart: the fit follows it on both parts.
    signal = {p.id: (0.7 if p.preferred == 1 else 0.3) for p in cal + held}
    good = oc.combination("signal", {"m": lambda pair: signal[pair.id]}, cal, held)
    assert good is not None and good.fit.weights[0] > 0
    assert good.figures(cal, calibration=True).with_ties == 1.0
    assert good.figures(held, calibration=False).with_ties == 1.0
    assert 0 not in good.outcome.values() and 0 not in good.calibration_outcome.values()


def test_each_calibration_pair_is_decided_by_a_fit_without_it(oc: ModuleType) -> None:
    cal = _pairs(12, "c")
    noise = {p.id: 0.2 + 0.6 * ((i * 7) % 11) / 10 for i, p in enumerate(cal)}
    fitted = oc.combination("noise", {"m": lambda pair: noise[pair.id]}, cal, [])
    assert fitted is not None
    for i, pair in enumerate(cal):
        rest = cal[:i] + cal[i + 1 :]
        alone = oc.fit_symmetric(["m"], [[noise[p.id]] for p in rest], [p.preferred for p in rest])
        assert fitted.calibration_p[pair.id] == pytest.approx(alone.p_first([noise[pair.id]]))
    in_sample = {p.id: fitted.fit.p_first([noise[p.id]]) for p in cal}
    assert in_sample != pytest.approx(fitted.calibration_p)


def test_the_longer_answer_is_a_reference_never_chosen(oc: ModuleType) -> None:
    cal, held = _pairs(10, "c"), _pairs(10, "h")
    bad = _row("j/bad", cal + held, set())  # always wrong: 0% on calibration
    lines, chosen = oc.choice_lines([bad], cal, held)
    assert chosen is not None and not chosen.name.startswith("the longer answer")
    assert any("the longer answer (reference, not a candidate)" in line for line in lines)


def test_the_selective_items_of_a_fitted_row_are_out_of_sample(oc: ModuleType) -> None:
    cal, held = _pairs(20, "c"), _pairs(6, "h")
    signal = {p.id: (0.7 if p.preferred == 1 else 0.3) for p in cal + held}
    fitted = oc.combination("signal", {"m": lambda pair: signal[pair.id]}, cal, held)
    items = oc.selective_items(fitted, cal + held)
    assert len(items) == 26 and all(x is not None and x.agrees for x in items)
    loo = fitted.calibration_p[cal[0].id]
    assert items[0].score == pytest.approx(abs(2 * loo - 1))


def test_a_forced_choice_takes_the_side_the_probability_leans_to(oc: ModuleType) -> None:
    cal = _pairs(4, "c")
    row = _Row("j/grades")
    for pair, p in zip(cal, (0.51, 0.49, 0.5, None), strict=True):
        row.p_first[pair.id] = p
        row.outcome[pair.id] = None if p is None else 0  # all ties inside the margin
    found = oc.candidates([row], cal, [])
    names = [c.name for c in found]
    assert "j/grades, forced choice" in names
    forced = found[names.index("j/grades, forced choice")]
    assert [forced.outcome[p.id] for p in cal] == [1, 2, 0, None]


def test_candidates_are_compared_on_the_calibration_pairs_every_mode_judged(
    oc: ModuleType,
) -> None:
    cal, held = _pairs(20, "c"), _pairs(4, "h")
    full = _row("j/full", cal + held, {p.id for p in cal[10:]})  # wrong on the first 10
    part = _row("j/part", cal[:12] + held, {p.id for p in cal[:12]})  # judged 12, all right
    lines, chosen = oc.choice_lines([full, part], cal, held)
    assert "on the 12 calibration pairs every mode judged (of 20" in lines[0]
    assert chosen is not None and chosen.name == "j/part"
    held_only = _row("j/held", held, set())
    lines, _ = oc.choice_lines([full, part, held_only], cal, held)
    assert "not judged on calibration, so not candidates: j/held" in lines[0]
