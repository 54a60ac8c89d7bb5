"""Benchmark: ties on open-ended answers, every judge mode against people who call ties.

Run:  python -m benchmarks tie_bench [--db sqlite:///tie-bench.db] [--modes auto grades
      logprobs checklist] [--held-out N] [--calibration N] [--judge local:qwen2.5-coder-1.5b]

The shipped human-preference set with ties (PandaLM's annotated pairs,
``data/human-preference/pandalm``, three annotators, majority label, about one pair in five a
tie) is stored as a run of two answer files and judged by each mode like any run from files
(``arena judge --outputs``); every verdict is cached in ``--db``, so a rerun sends nothing.
For each mode, on the **held-out** part, two rows: **margin 0** (a tie only when the two
orders balance exactly: how the default judge decided answer files before) and the margin
**learned on the calibration part** of this run (:func:`arena.trust.learn_margin`,
the highest agreement with ties there), with the margin the product ships for the mode
(:data:`arena.trust.UNLABELLED_MARGINS`) beside it, so a drift shows. Columns:
the judge's tie rate against the humans', agreement with people counting ties (a tie equals
only a tie), without ties (pairs either side tied left out), Cohen's kappa over {1, 2, tie},
each with a 95% interval (percentile bootstrap over the held-out pairs, 2000 seeded
resamples). Outcomes are the product's own: each battle recombined by its mode's rule with the
margin (:func:`arena.trust.apply_outcome`). The last line checks the issue's bar for the
default judge (``auto``): its tie rate within 10 points of the humans' and its agreement with
ties above margin 0's.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

import numpy as np

from arena.outputs import LabelledPair, load_preference_set
from arena.paths import data_dir
from arena.reports import pct, text_table
from arena.storage import Store
from arena.trust import UNLABELLED_MARGINS, apply_outcome, learn_margin
from arena.vocabulary import MODEL_A, MODEL_B
from benchmarks.common import git_commit, load_average, machine_name, timer
from benchmarks.open_ended_axis import ModeRow, judge_set
from judges import agreement_with_people

#: The margin that ties only at an exact balance of the two orders ("margin 0").
EXACT = 1e-12
#: Bootstrap resamples for the intervals.
RESAMPLES = 2000
#: The default judge's mode: the one the issue's bar is checked on.
DEFAULT_MODE = "auto"
#: The bar: the judge's tie rate within this of the humans'.
TIE_RATE_BAR = 0.10


def set_dir() -> str:
    """The shipped set with ties."""
    return str(data_dir() / "human-preference" / "pandalm")


def sides(row: ModeRow, pairs: Sequence[LabelledPair], margin: float) -> list[int | None]:
    """Each pair's outcome at ``margin`` (0 tie, 1, 2; None: no verdict), the battle recombined
    by its mode's own rule (the product's :func:`arena.trust.apply_outcome`)."""
    found: list[int | None] = []
    for pair in pairs:
        battle = row.battles.get(pair.id)
        if battle is None or battle.verdict_ab is None or battle.verdict_ba is None:
            found.append(None)
            continue
        copy = battle.model_copy(deep=True)
        apply_outcome(copy, margin)
        if copy.winner not in (MODEL_A, MODEL_B, "tie"):
            found.append(None)
            continue
        side = 0 if copy.winner == "tie" else 1 if copy.winner == MODEL_A else 2
        if side and row.flipped.get(pair.id):
            side = 3 - side
        found.append(side)
    return found


def side_p(row: ModeRow, pair: LabelledPair) -> float | None:
    """P(side 1 better) as the mode combined the two orders."""
    return row.p_first.get(pair.id)


@dataclass(frozen=True)
class Figures:
    """One row's figures on the held-out pairs, each with a 95% interval."""

    pairs: int
    ties: float
    with_ties: tuple[float, float, float]
    without_ties: tuple[float | None, float | None, float | None]
    decided: int
    kappa: tuple[float | None, float | None, float | None]


def _interval(values: list[float]) -> tuple[float | None, float | None]:
    if not values:
        return None, None
    low, high = np.percentile(values, [2.5, 97.5])
    return float(low), float(high)


def figures(people: Sequence[int], judged: Sequence[int | None]) -> Figures:
    """Agreement with and without ties and kappa, with percentile-bootstrap intervals."""
    kept = [(h, j) for h, j in zip(people, judged, strict=True) if j is not None]
    humans = [h for h, _ in kept]
    judge = [j for _, j in kept]
    point = agreement_with_people(humans, judge)  # type: ignore[arg-type]
    rng = np.random.default_rng(50)
    samples: dict[str, list[float]] = {"with": [], "without": [], "kappa": []}
    for _ in range(RESAMPLES):
        index = rng.integers(0, len(kept), len(kept))
        again = agreement_with_people(
            [humans[i] for i in index],  # type: ignore[misc]
            [judge[i] for i in index],  # type: ignore[misc]
        )
        for key, value in (
            ("with", again.with_ties),
            ("without", again.without_ties),
            ("kappa", again.kappa),
        ):
            if value is not None:
                samples[key].append(value)
    w_low, w_high = _interval(samples["with"])
    o_low, o_high = _interval(samples["without"])
    k_low, k_high = _interval(samples["kappa"])
    return Figures(
        pairs=len(kept),
        ties=sum(j == 0 for j in judge) / len(kept) if kept else 0.0,
        with_ties=(point.with_ties or 0.0, w_low or 0.0, w_high or 0.0),
        without_ties=(point.without_ties, o_low, o_high),
        decided=point.decided,
        kappa=(point.kappa, k_low, k_high),
    )


def _cell(value: tuple[float | None, float | None, float | None], percent: bool = True) -> str:
    point, low, high = value
    if point is None:
        return "-"
    if percent:
        return f"{pct(point, 0)} [{pct(low, 0, '-')[:-1]}, {pct(high, 0, '-')[:-1]}]"
    return f"{point:.2f} [{low or 0:.2f}, {high or 0:.2f}]"


@dataclass(frozen=True)
class Learned:
    """A mode's margin learned on the calibration part."""

    margin: float
    pairs: int
    agreement: float


def learned_margin(row: ModeRow, calibration: Sequence[LabelledPair]) -> Learned | None:
    """The margin :func:`learn_margin` picks on the calibration pairs the mode judged."""
    usable = [(side_p(row, p), p.preferred) for p in calibration]
    kept = [(p, h) for p, h in usable if p is not None]
    if not kept:
        return None
    probs, people = [p for p, _ in kept], [h for _, h in kept]
    margin = learn_margin(probs, people)
    judged = sides(row, [p for p in calibration if side_p(row, p) is not None], margin)
    agree = sum(j == h for j, h in zip(judged, people, strict=True)) / len(kept)
    return Learned(margin, len(kept), agree)


def rows_of(
    mode_rows: list[tuple[str, ModeRow]],
    held: Sequence[LabelledPair],
    calibration: Sequence[LabelledPair],
) -> tuple[list[list[str]], dict[str, dict[str, Figures]]]:
    """The table body (two rows per mode) and the figures by mode and row kind."""
    people = [p.preferred for p in held]
    body: list[list[str]] = []
    found: dict[str, dict[str, Figures]] = {}
    for mode, row in mode_rows:
        learned = learned_margin(row, calibration)
        shipped = UNLABELLED_MARGINS.get(mode)
        kinds: list[tuple[str, float, str]] = [("margin 0", EXACT, "0 (ties only at P = 0.5)")]
        if learned is not None:
            kinds.append(
                (
                    "learned",
                    learned.margin,
                    f"{learned.margin:g} learned on {learned.pairs} calibration pairs "
                    f"({pct(learned.agreement, 0)} there); shipped "
                    f"{'-' if shipped is None else f'{shipped:g}'}",
                )
            )
        for kind, margin, text in kinds:
            result = figures(people, sides(row, held, margin))
            found.setdefault(mode, {})[kind] = result
            body.append(
                [
                    row.name,
                    text,
                    f"{pct(result.ties, 0)} of {result.pairs}",
                    _cell(result.with_ties),
                    f"{_cell(result.without_ties)} of {result.decided}",
                    _cell(result.kappa, percent=False),
                ]
            )
    return body, found


def verdict_line(found: dict[str, dict[str, Figures]], human_ties: float) -> str:
    """The issue's bar on the default judge, said plainly."""
    rows = found.get(DEFAULT_MODE, {})
    zero, learned = rows.get("margin 0"), rows.get("learned")
    if zero is None or learned is None:
        return f"bar: the default mode {DEFAULT_MODE} was not measured"
    close = abs(learned.ties - human_ties) <= TIE_RATE_BAR + 1e-12
    higher = learned.with_ties[0] > zero.with_ties[0]
    return (
        f"bar ({DEFAULT_MODE}, learned margin, held-out): tie rate {pct(learned.ties, 0)} vs "
        f"people's {pct(human_ties, 0)} (within {TIE_RATE_BAR:.0%}: {'yes' if close else 'no'}); "
        f"agreement with ties {pct(learned.with_ties[0], 0)} vs margin 0's "
        f"{pct(zero.with_ties[0], 0)} (higher: {'yes' if higher else 'no'})"
    )


def measure(
    store: Store,
    db: str,
    judge: str,
    modes: list[str],
    concurrency: int,
    held_limit: int | None = None,
    calibration_limit: int | None = None,
) -> str:
    """Judge the held-out and calibration pairs with every mode; the report."""
    shipped = load_preference_set(set_dir())
    held = shipped.held_out()[:held_limit]
    calibration = shipped.calibration()[:calibration_limit]
    with timer() as took:
        mode_rows = [
            (
                mode,
                judge_set(
                    store, db, held + calibration, judge, [mode], concurrency, shipped.models
                )[0],
            )
            for mode in modes
        ]
    body, found = rows_of(mode_rows, held, calibration)
    human_ties = sum(p.preferred == 0 for p in held) / max(len(held), 1)
    cal_ties = sum(p.preferred == 0 for p in calibration) / max(len(calibration), 1)
    head = (
        f"tie bench: {len(held)} held-out pairs of {shipped.source.get('repository', '')} "
        f"(commit {str(shipped.source.get('commit', ''))[:12]}), people's tie rate "
        f"{pct(human_ties, 0)} ({pct(cal_ties, 0)} on the {len(calibration)} calibration pairs "
        f"the margins are learned on); judge {judge}; arena commit {git_commit()}; "
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {machine_name()}, load average "
        f"{load_average():.1f}, {took.wall:.0f} s"
    )
    headers = [
        "judge",
        "margin",
        "ties",
        "agree with ties [95%]",
        "without ties [95%]",
        "kappa [95%]",
    ]
    return "\n".join([head, text_table(headers, body), verdict_line(found, human_ties)])


def main(argv: list[str] | None = None) -> int:
    """Judge the set with every mode, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", default="sqlite:///tie-bench.db")
    parser.add_argument("--judge", default="local:qwen2.5-coder-1.5b")
    parser.add_argument("--modes", nargs="+", default=["auto", "grades", "logprobs", "checklist"])
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--held-out", type=int, default=None, help="the first N held-out pairs")
    parser.add_argument(
        "--calibration", type=int, default=40, help="the first N calibration pairs (default 40)"
    )
    args = parser.parse_args(argv)
    store = Store(args.db)
    print(
        measure(
            store,
            args.db,
            args.judge,
            args.modes,
            args.concurrency,
            args.held_out,
            args.calibration,
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
