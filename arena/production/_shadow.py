"""``arena shadow``: is the candidate at least as good as production on real traffic?

The sampled traces are replayed on the candidate (:func:`arena.production.replay`), each
query's two answers are judged pairwise in both orders (:func:`arena.battles.judge_run`),
and the candidate's win rate against production (a tie is half a win) gets the 95% interval
``arena compare`` uses (:func:`arena.ratings.win_rate_interval`: queries are the unit, and
unlike a query bootstrap it never has zero width, so three ties do not prove anything). The
candidate is non-inferior when the interval's low end is at least ``0.5 - margin``.
Sampling, redaction and reading happen before anything is stored; the verdicts are cached,
so a rerun makes no model call.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from arena.battles import Battle, judge_run
from arena.errors import InputError
from arena.production._read import iter_traces
from arena.production._redact import redact_trace, scrub_trace
from arena.production._replay import PRODUCTION, replay, shadow_dataset
from arena.production._sample import Sample, SampleSpec, sample_traces
from arena.production._trace import ProductionTrace
from arena.production._unique import unique_ids
from arena.runner import RunOptions
from arena.storage import Store
from arena.variants.variant import Variant
from arena.vocabulary import ERROR, WINNER_SCORE
from judges import JudgeSpec

#: The keys of ``arena shadow --json``, in order.
SHADOW_KEYS = (
    "run_id",
    "sampled",
    "battles",
    "win_rate",
    "interval",
    "non_inferior",
    "losses",
    "model_calls",
)


#: More battles than this share erring (the judge's fault, never the candidate's) and the
#: comparison could not be made (:meth:`ShadowReport.judge_failure`).
MAX_JUDGE_ERROR_SHARE = 0.5


class ShadowLoss(BaseModel):
    """A query the candidate lost to production, with both answers side by side."""

    trace_id: str
    case_id: str
    query: str
    production: str
    candidate: str
    flip: bool = Field(False, description="The judge's two orders disagreed.")


class ShadowReport(BaseModel):
    """What ``arena shadow`` found (:meth:`summary` is its JSON)."""

    run_id: int
    candidate: str
    judge: str
    judge_label: str = Field("", description="The judge as a person reads it: SPEC/MODE.")
    read: int = Field(description="Traces read from the source.")
    sampled: int
    duplicates: int = 0
    redactions: dict[str, int] = Field(default_factory=dict)
    battles: int
    win_rate: float | None
    interval: tuple[float, float] | None
    margin: float
    non_inferior: bool
    losses: list[ShadowLoss]
    model_calls: int
    run_calls: int = 0
    judge_calls: int = 0
    stopped: str | None = Field(
        None,
        description="With --sequential: the decision and why it stopped (after how many "
        "of the sampled traces).",
    )
    judge_errors: int = Field(0, description="Battles the judge could not decide (errors).")
    judge_error: str | None = Field(None, description="The first judge error, as it said it.")
    judge_error_count: int = Field(0, description="Battles that failed with that same error.")

    def summary(self) -> dict[str, Any]:
        """The report's JSON: exactly :data:`SHADOW_KEYS`."""
        data = self.model_dump(mode="json")
        return {key: data[key] for key in SHADOW_KEYS}

    def judge_failure(self) -> str | None:
        """Why the comparison could not be made: the judge erred on more than
        :data:`MAX_JUDGE_ERROR_SHARE` of the battles (None: it could be made). A judge that
        cannot judge says nothing about the candidate, so this is never a loss."""
        total = self.battles + self.judge_errors
        if not self.judge_errors or self.judge_errors <= MAX_JUDGE_ERROR_SHARE * total:
            return None
        judge = self.judge_label or self.judge
        first = f"first error ({self.judge_error_count} battles): {self.judge_error}"
        return (
            f"the judge {judge} failed on {self.judge_errors} of {total} battles, so the "
            f"comparison could not be made; {first}. Fix the judge (--judge, or compare.judge "
            "in arena.yaml) and rerun: failed verdicts are not cached, the rerun asks again"
        )


@dataclass
class ShadowOptions:
    """The knobs of a shadow comparison."""

    sample: SampleSpec = field(default_factory=SampleSpec)
    redact: bool = False
    margin: float = 0.05
    run: RunOptions = field(default_factory=RunOptions)
    judge_concurrency: int = 2
    executor: Any = None
    """Where candidate runs and judge pairs go (an ``arena.executors.Executor``)."""


def sampled_traces(
    source: str | Path | Iterable[ProductionTrace], spec: SampleSpec, *, redact: bool = False
) -> tuple[Sample, dict[str, int]]:
    """The sample of ``source`` (a traces file, or traces already read, e.g.
    :func:`arena.production.langsmith_traces`), read in one pass (InputError before anything
    is stored; a trace id given twice anywhere in it is one), redacted when asked, and how
    many of each redaction rule fired."""
    if isinstance(source, str | Path):
        path = source
        again = (lambda: iter_traces(path)) if Path(path).is_file() else None  # not a pipe
        traces = unique_ids(iter_traces(path), file=str(path), reread=again)
    else:
        traces = unique_ids(((f"trace #{n}", t) for n, t in enumerate(source, 1)), file=None)
    try:
        sample = sample_traces(traces, spec)
    except InputError as exc:
        if exc.file is not None or not isinstance(source, str | Path):
            raise
        raise InputError(exc.message, file=str(source), field=exc.field) from None
    counts: dict[str, int] = {}
    if redact:
        sample.traces = [redact_trace(t, counts) for t in sample.traces]
    sample.traces = [scrub_trace(t) for t in sample.traces]  # keys and tokens: always
    label = str(source) if isinstance(source, str | Path) else "the traces"
    shadow_dataset(sample.traces, label)  # cases it cannot make are refused before any db
    return sample, counts


def _loss(
    battle: Battle, traces: dict[str, ProductionTrace], outputs: dict[int, str]
) -> ShadowLoss:
    trace = traces[battle.case_id]
    cand_id = battle.result_a_id if battle.variant_a != PRODUCTION else battle.result_b_id
    return ShadowLoss(
        trace_id=trace.trace_id,
        case_id=battle.case_id,
        query=trace.query,
        production=trace.answer,
        candidate=outputs.get(cand_id, ""),
        flip=battle.flip,
    )


def candidate_score(battle: Battle, candidate: str) -> float | None:
    """The candidate's score in a battle (win 1, tie 0.5, loss 0); None when undecided."""
    if battle.winner not in WINNER_SCORE or battle.abstained:
        return None
    score = WINNER_SCORE[battle.winner]
    return score if battle.variant_a == candidate else 1.0 - score


def win_rate_of(
    battles: list[Battle], candidate: str
) -> tuple[list[Battle], float | None, tuple[float, float] | None]:
    """The battles with a verdict, and the candidate's win rate against production with its
    95% interval (None without a verdict)."""
    from arena.leaderboard import battles_to_arrays
    from arena.ratings import win_rate_interval

    scored = [b for b in battles if candidate_score(b, candidate) is not None]
    if not scored:
        return scored, None, None
    rate = win_rate_interval(battles_to_arrays(scored), candidate, PRODUCTION)
    return scored, rate.win_rate, (rate.ci_low, rate.ci_high)


def shadow(
    store: Store,
    source: str | Path,
    candidate: Variant,
    judge: JudgeSpec,
    options: ShadowOptions | None = None,
) -> ShadowReport:
    """Compare ``candidate`` with production on traces sampled from ``source``.

    Raises:
        InputError: bad traces, options or variant, before anything is stored or called.
    """
    opts = options or ShadowOptions()
    sample, counts = sampled_traces(source, opts.sample, redact=opts.redact)
    return shadow_sample(
        store, sample, candidate, judge, opts, source=str(source), redactions=counts
    )


def shadow_sample(
    store: Store,
    sample: Sample,
    candidate: Variant,
    judge: JudgeSpec,
    options: ShadowOptions,
    *,
    source: str,
    redactions: dict[str, int] | None = None,
) -> ShadowReport:
    """:func:`shadow` of a sample already read (:func:`sampled_traces`), so that a caller
    can read it before opening the database."""
    opts = options
    if not 0 <= opts.margin < 0.5:
        raise InputError(f"must be in [0, 0.5), got {opts.margin:g}", field="margin")
    from arena.models import check_model

    try:
        check_model(judge.model)  # a judge that cannot be built fails before the candidate runs
    except InputError as exc:
        raise InputError(f"the judge {judge.model.spec}: {exc.message}", field="judge") from None
    opts.run.executor = opts.executor if opts.run.executor is None else opts.run.executor
    extra = {**opts.sample.model_dump(), "redact": opts.redact}
    ran = replay(
        store, sample.traces, candidate, source=source, options=opts.run, extra_config=extra
    )
    judged = judge_run(
        store,
        ran.run_id,
        judge,
        concurrency=opts.judge_concurrency,
        progress=opts.run.progress,
        executor=opts.executor,
    )
    counts = redactions or {}
    return _report(
        store, ran.run_id, sample, counts, candidate, judge, judged, ran.model_calls, opts
    )


def _report(
    store: Store,
    run_id: int,
    sample: Sample,
    counts: dict[str, int],
    candidate: Variant,
    judge: JudgeSpec,
    judged: Any,
    run_calls: int,
    opts: ShadowOptions,
) -> ShadowReport:
    battles, win_rate, interval = win_rate_of(judged.battles, candidate.name)
    traces = {t.case_id: t for t in sample.traces}
    outputs = {r.id: r.output for r in store.results(run_id) if r.id is not None}
    order = {t.case_id: i for i, t in enumerate(sample.traces)}  # not the judge's finish order
    lost = [b for b in battles if candidate_score(b, candidate.name) == 0]
    lost.sort(key=lambda b: (order.get(b.case_id, len(order)), b.repeat))
    losses = [_loss(b, traces, outputs) for b in lost]
    erred = [b for b in judged.battles if b.winner == ERROR and not b.by_rule]
    erred.sort(key=lambda b: (order.get(b.case_id, len(order)), b.repeat))
    errors = [_error_text(b) for b in erred]
    return ShadowReport(
        run_id=run_id,
        candidate=candidate.name,
        judge=judge.key,
        judge_label=judge.label,
        read=sample.read,
        sampled=len(sample.traces),
        duplicates=sample.duplicates,
        redactions=counts,
        battles=len(battles),
        win_rate=win_rate,
        interval=interval,
        margin=opts.margin,
        non_inferior=interval is not None and interval[0] >= 0.5 - opts.margin,
        losses=losses,
        model_calls=run_calls + judged.model_calls,
        run_calls=run_calls,
        judge_calls=judged.model_calls,
        judge_errors=len(errors),
        judge_error=errors[0] if errors else None,
        judge_error_count=errors.count(errors[0]) if errors else 0,
    )


def _error_text(battle: Battle) -> str:
    """What the judge said went wrong in an errored battle."""
    verdicts = (battle.verdict_ab, battle.verdict_ba)
    found = [v.error for v in verdicts if v is not None and v.error]
    return battle.error or (found[0] if found else "no verdict")
