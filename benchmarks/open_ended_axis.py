"""The open-ended axis of ``judge_bench.py``: every mode against people on the shipped set.

The shipped human-preference set (LLMBar's short pairs, ``data/human-preference/llmbar``) is
stored as a run of two answer files (side 1 and side 2, one variant each) and judged by each
mode like any run from files (``arena judge --outputs``). For every mode, and for a logistic
combination of the modes fitted on the calibration part, the table gives on the held-out part:
agreement with people with and without ties, Cohen's kappa, and the coverage and agreement of
the verdicts given when the judge abstains below a confidence ``|2 P - 1|``.
"""

from __future__ import annotations

import json
import os
import platform
import time
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from arena.battles import judge_run
from arena.outputs import LabelledPair, load_outputs, load_preference_set, store_outputs
from arena.reports._format import pct, text_table
from arena.storage import Store
from judges import parse_judge
from judges._open_ended import (
    Choice,
    FittedCombination,
    agreement_with_people,
    choice,
    coverage_at,
    fit_combination,
)

#: Confidences at which coverage is reported until the selective-verdict threshold exists.
THRESHOLDS = (0.0, 0.2, 0.4, 0.6)


@dataclass
class ModeRow:
    """One mode's outcome and P(side 1 better) per pair id."""

    name: str
    outcome: dict[str, Choice | None] = field(default_factory=dict)
    p_first: dict[str, float | None] = field(default_factory=dict)
    seconds: float = 0.0
    calls: int = 0


def guaranteed_coverage(
    people: list[Choice], p_first: list[float | None]
) -> tuple[float, float] | None:
    """Hook for the selective-verdict statistics (issue 26, point 2): (coverage, guaranteed
    agreement) at the threshold a calibration set picks. None until that function lands; the
    table then shows coverage at fixed confidences (:data:`THRESHOLDS`) instead."""
    return None


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
    store: Store, db: str, pairs: list[LabelledPair], judge: str, modes: list[str], concurrency: int
) -> list[ModeRow]:
    """Judge ``pairs`` with every mode (cached in ``store``); one row per mode."""
    models = load_preference_set().models
    folder = Path(db.removeprefix("sqlite:///") + f".open-ended-{len(pairs)}")
    run_id = store_outputs(store, load_outputs(_write_sides(pairs, models, folder)))
    rows = []
    for mode in modes:
        spec = parse_judge(f"{judge}/{mode}")
        started = time.perf_counter()
        report = judge_run(store, run_id, spec, concurrency=concurrency, progress=True)
        row = ModeRow(spec.label, seconds=time.perf_counter() - started, calls=report.model_calls)
        for battle in report.battles:
            flip = battle.variant_a != models[0]
            p = battle.p_a if battle.p_a is None or not flip else 1 - battle.p_a
            row.p_first[battle.case_id] = p
            winner = battle.winner
            side: Choice | None = None if winner == "error" else 0
            if winner in ("model_a", "model_b"):
                side = 1 if (winner == "model_a") != flip else 2
            row.outcome[battle.case_id] = side
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
        row.outcome[p.id] = choice(value, 0.0)
    return row, fit


def _seconds(row: ModeRow) -> str:
    if not row.seconds:
        return "-"
    if not row.calls:
        return "cached"
    return f"{row.seconds / max(len(row.p_first), 1):.1f}"


def table(rows: list[ModeRow], held: list[LabelledPair]) -> str:
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
        guaranteed = guaranteed_coverage(people, probs)
        body.append(
            [
                row.name,
                f"{pct(figures.with_ties, 0, '-')} of {figures.pairs}",
                f"{pct(figures.without_ties, 0, '-')} of {figures.decided}",
                "-" if figures.kappa is None else f"{figures.kappa:.2f}",
                *cover,
                "-"
                if guaranteed is None
                else f"{pct(guaranteed[0], 0)} at {pct(guaranteed[1], 0)}",
                _seconds(row),
            ]
        )
    headers = [
        "judge",
        "agree with ties",
        "without ties",
        "kappa",
        *[f"cover/agree >= {t:.1f}" for t in THRESHOLDS],
        "guaranteed",
        "s/pair",
    ]
    return text_table(headers, body)


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
    started = time.perf_counter()
    shipped = load_preference_set()
    held = shipped.held_out()[:held_limit]
    calibration = shipped.calibration()[:calibration_limit] if calibration_limit != 0 else []
    rows = judge_set(store, db, held + calibration, judge, modes, concurrency)
    lines = []
    combined, fit = _combined(rows, calibration, held) if len(rows) > 1 else (None, None)
    shown = rows + ([combined] if combined is not None else [])
    lines.append(
        f"open-ended bench: {len(held)} held-out pairs of {shipped.source.get('repository', '')}"
        f" ({len(calibration)} calibration pairs judged for the combination); judge {judge}; "
        f"{date.today()}, {platform.machine()}, {os.cpu_count()} cores, load average "
        f"{os.getloadavg()[0]:.1f}, {time.perf_counter() - started:.0f} s"
    )
    lines.append(table(shown, held))
    if fit is not None:
        weights = ", ".join(f"{m} {w:+.2f}" for m, w in zip(fit.modes, fit.weights, strict=True))
        lines.append(f"combination: bias {fit.bias:+.2f}; weights on log-odds: {weights}")
    return "\n".join(lines)
