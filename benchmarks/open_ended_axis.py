"""The open-ended axis of ``judge_bench.py``: every mode against people on the shipped set.

The shipped human-preference set (LLMBar's short pairs, ``data/human-preference/llmbar``) is
stored as a run of two answer files (side 1 and side 2, one variant each) and judged by each
mode like any run from files (``arena judge --outputs``). For every mode, and for a logistic
combination of the modes fitted on the calibration part, the table gives on the held-out part:
agreement with people with and without ties, Cohen's kappa, the coverage and agreement of
the verdicts given when the judge abstains below a confidence ``|2 P - 1|``, and the same for
the selective judge (:func:`guaranteed_coverage`): the product's :func:`arena.trust.calibrate`
on the calibration part's labelled verdicts (target 0.8, error level 0.1) and its threshold
applied to the held-out part. The footer repeats that over :data:`SPLITS` seeded random
calibration / test splits of every judged pair (:func:`repeated_splits`): how often the
agreement on the verdicts given reaches the target, in how many splits no verdict is given
(the guarantee is then vacuous), and the mean coverage.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

import numpy as np

from arena.battles import Battle, judge_run
from arena.outputs import LabelledPair, load_outputs, load_preference_set, store_outputs
from arena.reports import pct, text_table
from arena.storage import Store
from arena.trust import Labelled, PairId, calibrate, label_verdict, verdict_score
from arena.vocabulary import MODEL_A, MODEL_B, TIE
from benchmarks.common import load_average, machine_name, timer
from judges import (
    Choice,
    FittedCombination,
    SelectiveSettings,
    agreement_with_people,
    choice,
    coverage_at,
    fit_combination,
    parse_judge,
)

#: Confidences ``|2 P - 1|`` at which coverage is also reported (no guarantee behind them).
THRESHOLDS = (0.0, 0.2, 0.4, 0.6)
#: Seeded random calibration / test splits over which the guarantee is checked.
SPLITS = 200
#: The label source of the shipped set's verdicts.
SOURCE = "llmbar"


@dataclass
class ModeRow:
    """One mode's outcome and P(side 1 better) per pair id."""

    name: str
    outcome: dict[str, Choice | None] = field(default_factory=dict)
    p_first: dict[str, float | None] = field(default_factory=dict)
    score: dict[str, float | None] = field(default_factory=dict)
    seconds: float = 0.0
    calls: int = 0
    battles: dict[str, Battle] = field(default_factory=dict)  # as stored, per pair id
    flipped: dict[str, bool] = field(default_factory=dict)  # side 1 is the battle's B


@dataclass(frozen=True)
class Guaranteed:
    """The selective judge on a test part: the threshold :func:`arena.trust.calibrate` chose
    on the calibration part (None: it abstains on everything), and what it gives on the test
    part (``pairs`` test pairs, ``given`` verdicts given, ``agreed`` of them agreeing)."""

    threshold: float | None
    pairs: int
    given: int
    agreed: int

    @property
    def coverage(self) -> float:
        """Share of the test pairs given a verdict."""
        return self.given / self.pairs if self.pairs else 0.0

    @property
    def agreement(self) -> float | None:
        """Agreement with people on the verdicts given (None when none is given)."""
        return self.agreed / self.given if self.given else None

    def text(self) -> str:
        """``12% / 80%``: coverage / agreement on the verdicts given."""
        return f"{pct(self.coverage, 0)} / {pct(self.agreement, 0, '-')}"


def guaranteed_coverage(
    calibration: Sequence[Labelled | None],
    test: Sequence[Labelled | None],
    settings: SelectiveSettings | None = None,
) -> Guaranteed:
    """Calibrate the selective judge on the calibration part's labelled verdicts (the
    product's own :func:`arena.trust.calibrate`, one label per pair) and apply
    its threshold to the test part. A pair without a labelled verdict (a judge error) counts as
    a test pair not given."""
    found = calibrate([x for x in calibration if x is not None], settings or SelectiveSettings())
    given = [x for x in test if x is not None and found is not None and found.gives(x.score)]
    return Guaranteed(
        threshold=None if found is None else found.threshold_score,
        pairs=len(test),
        given=len(given),
        agreed=sum(x.agrees for x in given),
    )


@dataclass(frozen=True)
class SplitFigures:
    """The selective judge over repeated seeded random calibration / test splits."""

    splits: int
    vacuous: int
    met: int
    mean_coverage: float
    calibration_pairs: int
    test_pairs: int

    def text(self, target: float, error: float) -> str:
        """How often the guarantee held, said plainly."""
        decided = self.splits - self.vacuous
        head = (
            f"{self.splits} random splits ({self.calibration_pairs} calibration / "
            f"{self.test_pairs} test pairs): no verdict given in {self.vacuous}"
        )
        if not decided:
            return f"{head}, i.e. in every split (guarantee vacuous: all pairs go to people)"
        return (
            f"{head} (guarantee vacuous there); agreement on the verdicts given >= "
            f"{target:.0%} in {self.met} of the other {decided} (the guarantee promises "
            f">= {1 - error:.0%}); mean coverage {pct(self.mean_coverage, 1)}"
        )


def repeated_splits(
    labelled: Sequence[Labelled | None],
    calibration_pairs: int,
    splits: int = SPLITS,
    settings: SelectiveSettings | None = None,
) -> SplitFigures:
    """:func:`guaranteed_coverage` on ``splits`` seeded random splits of ``labelled`` (one item
    per judged pair) into ``calibration_pairs`` calibration pairs and the rest as test."""
    settings = settings or SelectiveSettings()
    vacuous = met = 0
    coverage = 0.0
    for seed in range(splits):
        order = np.random.default_rng(seed).permutation(len(labelled))
        cal = [labelled[i] for i in order[:calibration_pairs]]
        test = [labelled[i] for i in order[calibration_pairs:]]
        found = guaranteed_coverage(cal, test, settings)
        coverage += found.coverage
        if found.agreement is None:
            vacuous += 1
        elif found.agreement >= settings.target - 1e-12:
            met += 1
    return SplitFigures(
        splits=splits,
        vacuous=vacuous,
        met=met,
        mean_coverage=coverage / splits if splits else 0.0,
        calibration_pairs=calibration_pairs,
        test_pairs=len(labelled) - calibration_pairs,
    )


def _winner(side: Choice) -> str:
    return {1: MODEL_A, 2: MODEL_B}.get(side, TIE)


def labelled(row: ModeRow, pairs: Sequence[LabelledPair]) -> list[Labelled | None]:
    """``row``'s verdict on each pair labelled with people's choice (None: no scored verdict)."""
    found: list[Labelled | None] = []
    for pair in pairs:
        side, score = row.outcome.get(pair.id), row.score.get(pair.id)
        found.append(
            None
            if side is None or score is None
            else label_verdict(
                score,
                _winner(side),
                _winner(pair.preferred),
                SOURCE,
                PairId.of(None, pair.id, 0, "1", "2"),
            )
        )
    return found


def _write_sides(pairs: list[LabelledPair], models: tuple[str, str], folder: Path) -> list[str]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for side, model in enumerate(models, 1):
        path = folder / f"output-{side}.jsonl"
        rows = [
            {
                "question_id": p.id,
                "question": p.question,
                "answer": p.answer_1 if side == 1 else p.answer_2,
                "model": model,
            }
            for p in pairs
        ]
        path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
        paths.append(str(path))
    return paths


def judge_set(
    store: Store,
    db: str,
    pairs: list[LabelledPair],
    judge: str,
    modes: list[str],
    concurrency: int,
    models: tuple[str, str] | None = None,
) -> list[ModeRow]:
    """Judge ``pairs`` with every mode (cached in ``store``); one row per mode. ``models``:
    the set's two side names (default: the shipped LLMBar set's)."""
    models = models or load_preference_set().models
    folder = Path(db.removeprefix("sqlite:///") + f".open-ended-{models[0]}-{len(pairs)}")
    run_id = store_outputs(store, load_outputs(_write_sides(pairs, models, folder)))
    rows = []
    for mode in modes:
        spec = parse_judge(f"{judge}/{mode}")
        with timer() as took:
            report = judge_run(store, run_id, spec, concurrency=concurrency, progress=True)
        row = ModeRow(spec.label, seconds=took.wall, calls=report.model_calls)
        for battle in report.battles:
            flip = battle.variant_a != models[0]
            p = battle.p_a if battle.p_a is None or not flip else 1 - battle.p_a
            row.p_first[battle.case_id] = p
            row.score[battle.case_id] = verdict_score(battle)
            winner = battle.winner
            side: Choice | None = None if winner == "error" else 0
            if winner in ("model_a", "model_b"):
                side = 1 if (winner == "model_a") != flip else 2
            row.outcome[battle.case_id] = side
            row.battles[battle.case_id] = battle
            row.flipped[battle.case_id] = flip
        rows.append(row)
    return rows


def _combined(
    rows: list[ModeRow], calibration: list[LabelledPair], held: list[LabelledPair]
) -> tuple[ModeRow | None, FittedCombination | None]:
    usable = [p for p in calibration if all(r.p_first.get(p.id) is not None for r in rows)]
    if len(usable) < 10:
        return None, None
    fit = fit_combination(
        [r.name for r in rows],
        [[float(r.p_first[p.id] or 0.5) for r in rows] for p in usable],
        [p.preferred for p in usable],
    )
    row = ModeRow(f"combination of {len(rows)} modes (fitted on {fit.pairs} pairs)")
    for p in held:
        ps = [r.p_first.get(p.id) for r in rows]
        value = None if any(v is None for v in ps) else fit.p_first([float(v or 0) for v in ps])
        row.p_first[p.id] = value
        row.score[p.id] = None if value is None else abs(2 * value - 1)
        row.outcome[p.id] = choice(value, 0.0)
    return row, fit


def _seconds(row: ModeRow) -> str:
    if not row.seconds:
        return "-"
    if not row.calls:
        return "cached"
    return f"{row.seconds / max(len(row.p_first), 1):.1f}"


def _guaranteed(row: ModeRow, held: list[LabelledPair], calibration: list[LabelledPair]) -> str:
    """The selective column: calibrated on the calibration part, measured on the held-out part
    ("-" for a row without scored calibration verdicts, e.g. the combination fitted on them)."""
    cal = labelled(row, calibration)
    if not any(x is not None for x in cal):
        return "-"
    return guaranteed_coverage(cal, labelled(row, held)).text()


def table(
    rows: list[ModeRow], held: list[LabelledPair], calibration: list[LabelledPair] | None = None
) -> str:
    """Each row's figures on the held-out pairs."""
    people: list[Choice] = [p.preferred for p in held]
    body = []
    for row in rows:
        figures = agreement_with_people(people, [row.outcome.get(p.id) for p in held])
        probs = [row.p_first.get(p.id) for p in held]
        cover = []
        for t in THRESHOLDS:
            coverage, agree = coverage_at(people, probs, t)
            cover.append(f"{pct(coverage, 0)} / {pct(agree, 0, '-')}")
        body.append(
            [
                row.name,
                f"{pct(figures.with_ties, 0, '-')} of {figures.pairs}",
                f"{pct(figures.without_ties, 0, '-')} of {figures.decided}",
                "-" if figures.kappa is None else f"{figures.kappa:.2f}",
                *cover,
                _guaranteed(row, held, calibration or []),
                _seconds(row),
            ]
        )
    settings = SelectiveSettings()
    headers = [
        "judge",
        "agree with ties",
        "without ties",
        "kappa",
        *[f"cover/agree >= {t:.1f}" for t in THRESHOLDS],
        f"guaranteed {settings.target:.0%} (err {settings.error:g}): cover/agree",
        "s/pair",
    ]
    return text_table(headers, body)


def split_lines(
    rows: list[ModeRow], held: list[LabelledPair], calibration: list[LabelledPair]
) -> list[str]:
    """The footer: for each mode, the guarantee over :data:`SPLITS` random splits of every
    judged pair, with as many calibration pairs as the shipped split's calibration part."""
    settings = SelectiveSettings()
    lines = []
    for row in rows:
        items = labelled(row, held + calibration)
        if not calibration or not any(x is not None for x in labelled(row, calibration)):
            continue
        figures = repeated_splits(items, len(calibration), SPLITS, settings)
        lines.append(f"selective {row.name}: {figures.text(settings.target, settings.error)}")
    return lines


def measure(
    store: Store,
    db: str,
    judge: str,
    modes: list[str],
    concurrency: int,
    held_limit: int | None = None,
    calibration_limit: int | None = None,
) -> str:
    """Judge the held-out part (and the calibration part, for the combination); the report."""
    with timer() as took:
        shipped = load_preference_set()
        held = shipped.held_out()[:held_limit]
        calibration = shipped.calibration()[:calibration_limit] if calibration_limit != 0 else []
        rows = judge_set(store, db, held + calibration, judge, modes, concurrency)
        combined, fit = _combined(rows, calibration, held) if len(rows) > 1 else (None, None)
        shown = rows + ([combined] if combined is not None else [])
    lines = []
    lines.append(
        f"open-ended bench: {len(held)} held-out pairs of {shipped.source.get('repository', '')}"
        f" ({len(calibration)} calibration pairs judged for the combination); judge {judge}; "
        f"{date.today()}, {machine_name()}, load average "
        f"{load_average():.1f}, {took.wall:.0f} s"
    )
    lines.append(table(shown, held, calibration))
    lines.extend(split_lines(rows, held, calibration))
    if fit is not None:
        weights = ", ".join(f"{m} {w:+.2f}" for m, w in zip(fit.modes, fit.weights, strict=True))
        lines.append(f"combination: bias {fit.bias:+.2f}; weights on log-odds: {weights}")
    lines.extend(chosen_lines(rows, held, calibration))
    return "\n".join(lines)


def chosen_lines(
    rows: list[ModeRow], held: list[LabelledPair], calibration: list[LabelledPair]
) -> list[str]:
    """The choice step (:mod:`open_ended_choice`) and the chosen candidate's selective judge
    over the repeated random splits."""
    from benchmarks import open_ended_choice

    lines, chosen = open_ended_choice.choice_lines(rows, calibration, held)
    if chosen is None:
        return lines
    row = next((r for r in rows if r.name == chosen.name), None)
    pairs = held + calibration
    items = (
        labelled(row, pairs)
        if row is not None and chosen.calibration_p is None
        else open_ended_choice.selective_items(chosen, pairs)
    )
    settings = SelectiveSettings()
    figures = repeated_splits(items, len(calibration), SPLITS, settings)
    lines.append(f"selective, chosen: {figures.text(settings.target, settings.error)}")
    return lines
