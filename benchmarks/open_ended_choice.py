"""The choice of the open-ended mode, made on the calibration part and reported on the held-out.

Every candidate (each judged mode as it decides, and a combination fitted on labelled pairs)
is measured against people on the shipped set's calibration part; the one with the highest
agreement *with ties* there is chosen (a tie in that figure goes to the higher kappa, then to
the earlier candidate); only then is it measured on the held-out part. The held-out figures of
every candidate are printed too, for the record, never used to choose.

A fitted candidate's calibration figure is cross-fitted (leave one pair out: each calibration
pair is decided by a fit on the others), so it is not flattered by its own fit; its held-out
figure uses one fit on every calibration pair. The combination is symmetric (no intercept:
swapping the sides swaps the outcome) and never ties (a tie only at exactly P = 0.5).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from arena.outputs import LabelledPair
from arena.reports import pct, text_table
from arena.trust import Labelled, label_verdict
from arena.vocabulary import MODEL_A, MODEL_B, TIE
from judges import AgreementFigures, Choice, agreement_with_people, choice

#: The name of the answer-length feature of a fitted combination.
LENGTH = "length"


def _logit(p: float) -> float:
    p = min(max(p, 1e-6), 1 - 1e-6)
    return math.log(p / (1 - p))


@dataclass(frozen=True)
class SymmetricFit:
    """P(side 1 better) = sigmoid(sum of weight * logit(feature)), no intercept."""

    features: tuple[str, ...]
    weights: tuple[float, ...]
    pairs: int

    def p_first(self, values: Sequence[float]) -> float:
        """P(side 1 better) from each feature's P(side 1 better), in :attr:`features` order."""
        z = sum(w * _logit(v) for w, v in zip(self.weights, values, strict=True))
        return 1.0 / (1.0 + math.exp(-z))

    def literal(self) -> str:
        """The weights as ``judges.modes._blend.WEIGHTS`` spells them."""
        inner = ", ".join(
            f"{n!r}: {w:.3f}" for n, w in zip(self.features, self.weights, strict=True)
        )
        return "{" + inner + "}"


@dataclass
class Candidate:
    """A way to decide each pair: an outcome and P(side 1 better) per pair id.

    ``calibration_outcome`` (when set) decides the calibration pairs instead of ``outcome``:
    the cross-fitted outcomes of a fitted candidate.
    """

    name: str
    outcome: dict[str, Choice | None] = field(default_factory=dict)
    p_first: dict[str, float | None] = field(default_factory=dict)
    calibration_outcome: dict[str, Choice | None] | None = None
    calibration_p: dict[str, float | None] | None = None
    mode: str | None = None  # the judge mode this candidate is (None: not a registered mode)
    fit: SymmetricFit | None = None

    def figures(self, pairs: Sequence[LabelledPair], *, calibration: bool) -> AgreementFigures:
        """Agreement with people on ``pairs`` (cross-fitted outcomes on the calibration part)."""
        decide = self.calibration_outcome if calibration and self.calibration_outcome else None
        outcome = decide or self.outcome
        return agreement_with_people(
            [p.preferred for p in pairs], [outcome.get(p.id) for p in pairs]
        )


def length_feature(pair: LabelledPair) -> float:
    """len(side 1) / (len(side 1) + len(side 2)): its log-odds are the log length ratio."""
    one, two = len(pair.answer_1.strip()) + 1, len(pair.answer_2.strip()) + 1
    return one / (one + two)


def fit_symmetric(
    features: Sequence[str],
    rows: Sequence[Sequence[float]],
    preferred: Sequence[int],
    l2: float = 1.0,
    steps: int = 50,
) -> SymmetricFit:
    """Ridge logistic regression without intercept of people's choice on the features'
    log-odds (Newton steps)."""
    import numpy as np

    x = np.array([[_logit(v) for v in row] for row in rows])
    y = np.array([1.0 if c == 1 else 0.0 for c in preferred])
    beta = np.zeros(x.shape[1])
    for _ in range(steps):
        mu = 1.0 / (1.0 + np.exp(-(x @ beta)))
        gradient = x.T @ (y - mu) - l2 * beta
        hessian = x.T @ (x * (mu * (1 - mu))[:, None]) + l2 * np.eye(x.shape[1])
        step = np.linalg.solve(hessian, gradient)
        beta = beta + step
        if float(np.max(np.abs(step))) < 1e-8:
            break
    return SymmetricFit(tuple(features), tuple(float(b) for b in beta), len(rows))


Feature = Callable[[LabelledPair], float | None]


def combination(
    name: str,
    features: dict[str, Feature],
    calibration: Sequence[LabelledPair],
    held: Sequence[LabelledPair],
) -> Candidate | None:
    """A fitted candidate: cross-fitted (leave one out) on ``calibration``, fitted on all of
    it for ``held``; None when fewer than 10 calibration pairs have every feature."""

    def row(pair: LabelledPair) -> list[float] | None:
        values = [f(pair) for f in features.values()]
        return None if any(v is None for v in values) else [float(v or 0) for v in values]

    usable = [(p, r) for p in calibration if (r := row(p)) is not None]
    if len(usable) < 10:
        return None
    names = list(features)
    fit = fit_symmetric(names, [r for _, r in usable], [p.preferred for p, _ in usable])
    found = Candidate(
        f"{name} (fitted on {fit.pairs} calibration pairs)",
        calibration_outcome={},
        calibration_p={},
        fit=fit,
    )
    assert found.calibration_outcome is not None and found.calibration_p is not None
    for i, (pair, values) in enumerate(usable):
        rest = usable[:i] + usable[i + 1 :]
        loo = fit_symmetric(names, [r for _, r in rest], [p.preferred for p, _ in rest])
        found.calibration_p[pair.id] = loo.p_first(values)
        found.calibration_outcome[pair.id] = choice(found.calibration_p[pair.id], 0.0)
    for pair in held:
        shown = row(pair)
        p = None if shown is None else fit.p_first(shown)
        found.p_first[pair.id] = p
        found.outcome[pair.id] = choice(p, 0.0)
    return found


def choose(candidates: Sequence[Candidate], calibration: Sequence[LabelledPair]) -> Candidate:
    """The candidate with the highest agreement with ties on the calibration part (then the
    higher kappa, then the earlier one)."""

    def rank(item: tuple[int, Candidate]) -> tuple[float, float, int]:
        index, candidate = item
        figures = candidate.figures(calibration, calibration=True)
        return (figures.with_ties or 0.0, figures.kappa or -1.0, -index)

    return max(enumerate(candidates), key=rank)[1]


def _cells(figures: AgreementFigures) -> list[str]:
    return [
        f"{pct(figures.with_ties, 0, '-')} of {figures.pairs}",
        f"{pct(figures.without_ties, 0, '-')} of {figures.decided}",
        "-" if figures.kappa is None else f"{figures.kappa:.2f}",
    ]


def choice_table(
    candidates: Sequence[Candidate],
    calibration: Sequence[LabelledPair],
    held: Sequence[LabelledPair],
    references: Sequence[Candidate] = (),
) -> tuple[str, Candidate]:
    """Every candidate (and reference row, never chosen) on both parts, the chosen one
    marked; and the chosen one."""
    chosen = choose(candidates, calibration)
    body = [
        [
            ("* " if c is chosen else "  ") + c.name,
            *_cells(c.figures(calibration, calibration=True)),
            *_cells(c.figures(held, calibration=False)),
        ]
        for c in [*candidates, *references]
    ]
    headers = [
        "candidate (* chosen on calibration)",
        "calibration: with ties",
        "without ties",
        "kappa",
        "held-out: with ties",
        "without ties",
        "kappa",
    ]
    return text_table(headers, body), chosen


def longer_answer(pairs: Sequence[LabelledPair]) -> Candidate:
    """The reference rule "the longer answer wins" (not a candidate: no judge at all)."""
    found = Candidate("the longer answer (reference, not a candidate)")
    for pair in pairs:
        share = length_feature(pair)
        found.p_first[pair.id] = share
        found.outcome[pair.id] = choice(share, 0.0)
    return found


class Row(Protocol):
    """What the choice reads of a judged mode (``open_ended_axis.ModeRow``)."""

    name: str
    outcome: dict[str, Choice | None]
    p_first: dict[str, float | None]


#: Modes left out of the fitted combination: ``logprobs`` (its orders are averaged, which a
#: per-order combination cannot reproduce) and the modes that are themselves combinations.
NOT_COMBINED = frozenset({"logprobs", "blend", "auto"})


def _mode(label: str) -> str:
    return label.split("/")[1] if "/" in label else label


def candidates(
    rows: Sequence[Row], calibration: Sequence[LabelledPair], held: Sequence[LabelledPair]
) -> list[Candidate]:
    """Each judged mode as it decides, and the symmetric combination of the combinable modes
    and the length ratio (fitted on ``calibration`` only). A ``blend`` row (whose weights were
    fitted on the calibration part) is measured there by the cross-fitted combination."""

    def feature(row: Row) -> Feature:
        return lambda pair: row.p_first.get(pair.id)

    combinable = [r for r in rows if _mode(r.name) not in NOT_COMBINED]
    features: dict[str, Feature] = {_mode(r.name): feature(r) for r in combinable}
    features[LENGTH] = length_feature
    fitted = combination(f"combination of {' + '.join(features)}", features, calibration, held)
    found = []
    for row in rows:
        mode = _mode(row.name)
        candidate = Candidate(row.name, dict(row.outcome), dict(row.p_first), mode=mode)
        if mode == "blend" and fitted is not None:
            candidate.calibration_outcome = fitted.calibration_outcome
            candidate.calibration_p = fitted.calibration_p
        found.append(candidate)
    for row in rows:
        if _mode(row.name) in FORCIBLE:
            found.append(forced(row))
    return found + ([fitted] if fitted is not None else [])


#: Modes whose verdicts tie inside a margin; each is also a candidate as a forced choice.
FORCIBLE = frozenset({"grades", "checklist", "logprobs"})


def forced(row: Row) -> Candidate:
    """``row``'s mode made to choose: the side its P(side 1 better) leans to, a tie only at
    exactly 0.5. The same outcomes as ``blend`` with the weight 1 on that mode alone (a
    positive weight keeps the sign of the log-odds of both orders combined)."""
    found = Candidate(f"{row.name}, forced choice", mode=_mode(row.name))
    for pair_id, p in row.p_first.items():
        found.p_first[pair_id] = p
        found.outcome[pair_id] = choice(p, 0.0) if row.outcome.get(pair_id) is not None else None
    return found


def choice_lines(
    rows: Sequence[Row], calibration: Sequence[LabelledPair], held: Sequence[LabelledPair]
) -> tuple[list[str], Candidate | None]:
    """The choice step's report, and the chosen candidate (None without calibration pairs)."""
    judged = [r for r in rows if any(r.outcome.get(p.id) is not None for p in calibration)]
    common = [p for p in calibration if all(r.outcome.get(p.id) is not None for r in judged)]
    if not common:
        return ["choice of the open-ended mode: no calibration pairs judged"], None
    left = [r.name for r in rows if r not in judged]
    found = candidates(judged, common, held)
    reference = longer_answer([*common, *held])
    table, chosen = choice_table(found, common, held, [reference])
    figures = chosen.figures(held, calibration=False)
    kappa = "-" if figures.kappa is None else f"{figures.kappa:.2f}"
    lines = [
        f"choice of the open-ended mode: highest agreement with ties on the {len(common)} "
        f"calibration pairs every mode judged (of {len(calibration)}; fitted rows "
        "cross-fitted there, leave one out)"
        + (f"; not judged on calibration, so not candidates: {', '.join(left)}" if left else ""),
        table,
        f"chosen: {chosen.name}; on the {len(held)} held-out pairs: "
        f"{pct(figures.with_ties, 0, '-')} with ties, {pct(figures.without_ties, 0, '-')} of "
        f"{figures.decided} without, kappa {kappa}",
    ]
    fit = next((c.fit for c in found if c.fit is not None), None)
    if fit is not None:
        lines.append(f"fitted weights (judges.modes._blend.WEIGHTS): {fit.literal()}")
    return lines, chosen


def selective_items(candidate: Candidate, pairs: Sequence[LabelledPair]) -> list[Labelled | None]:
    """A fitted candidate's verdict on each pair, labelled with people's choice, scored by its
    confidence ``|2 P - 1|``: out of sample everywhere (cross-fitted P on the calibration
    pairs, the full fit's P on the others), so the selective judge's calibration on any split
    of them does not see a verdict fitted on its own label."""
    winner = {1: MODEL_A, 2: MODEL_B}
    found: list[Labelled | None] = []
    for pair in pairs:
        p = (candidate.calibration_p or {}).get(pair.id, candidate.p_first.get(pair.id))
        side = choice(p, 0.0)
        if p is None or side is None:
            found.append(None)
            continue
        said = winner.get(side, TIE)
        found.append(label_verdict(abs(2 * p - 1), said, winner[pair.preferred], "llmbar"))
    return found
