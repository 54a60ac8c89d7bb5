"""``arena shadow``: replay sampled production traces on a candidate and judge it against
what production answered (:mod:`arena.production`)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from arena.cli._commands import command
from arena.cli.common import add_db, add_margin
from arena.cli.executing import add_executor_flags, base_executor
from arena.defaults import DEFAULT_JUDGE
from arena.errors import InputError
from arena.reports._format import json_text, terminal_safe

EXIT_INFERIOR = 1
#: the comparison could not be made (the judge failed), never a loss
EXIT_NOT_COMPARED = 2


@command("shadow", order=210, uses_judge=True)
def register(sub: Any) -> None:
    """Add ``arena shadow``."""
    p = sub.add_parser(
        "shadow", help="is the candidate at least as good as production on real traffic?"
    )
    source = p.add_mutually_exclusive_group(required=True)
    source.add_argument(
        "--traces",
        metavar="FILE",
        help="production traces: arena JSONL, a LangSmith runs export (.json/.jsonl), "
        "arena langsmith's CSV, or OpenTelemetry spans (OTLP JSON: a file, or a folder)",
    )
    source.add_argument(
        "--langsmith-project",
        metavar="NAME",
        help="read the root runs of this LangSmith project (needs LANGSMITH_API_KEY)",
    )
    p.add_argument(
        "--since",
        default="24h",
        help="with --langsmith-project: runs started since (24h, 7d, 30m or an ISO time; "
        "default 24h)",
    )
    p.add_argument(
        "--candidate",
        default=None,
        metavar="VARIANT",
        help="a variant YAML file or name (required unless --evaluate-only)",
    )
    p.add_argument(
        "--evaluate-only",
        action="store_true",
        help="no candidate: check what production did (errors, tool errors, empty answers, "
        "injection, --max-latency, --max-trace-cost) and report its quality",
    )
    p.add_argument(
        "--rubric",
        default=None,
        metavar="TEXT",
        help="with --evaluate-only: grade every answer alone against this rubric (the judge's "
        "grades mode: P(YES) of one token, with --grader's model)",
    )
    p.add_argument(
        "--rubric-from",
        default=None,
        metavar="DATASET",
        help="with --evaluate-only: the rubric (and persona) of this golden dataset's judge: block",
    )
    p.add_argument(
        "--grader",
        default=DEFAULT_JUDGE,
        metavar="SPEC",
        help="the rubric's grader, a judge spec whose model is asked in the grades mode "
        f"(default: {DEFAULT_JUDGE})",
    )
    p.add_argument(
        "--max-latency", type=float, default=None, metavar="S", help="flag slower traces"
    )
    p.add_argument(
        "--max-trace-cost",
        type=float,
        default=None,
        metavar="USD",
        help="flag traces that cost more",
    )
    p.add_argument(
        "--variants-dir",
        default=None,
        metavar="DIR",
        help="where variant names are looked up (default: the shipped variants)",
    )
    p.add_argument(
        "--judge",
        default=DEFAULT_JUDGE,
        help="judge model SPEC[/MODE] or YAML file (default: arena.yaml's compare.judge, "
        f"else {DEFAULT_JUDGE})",
    )
    p.add_argument("--sample", type=float, default=None, metavar="F", help="fraction kept")
    p.add_argument("--max", type=int, default=None, metavar="N", help="at most N traces")
    p.add_argument("--seed", type=int, default=0, help="sampling seed (default 0)")
    p.add_argument(
        "--stratify", default=None, metavar="FIELD", help="sample each value of a metadata field"
    )
    p.add_argument(
        "--redact",
        action="store_true",
        help="replace e-mails, phone numbers and keys before anything is stored or judged",
    )
    add_margin(p, 0.05)
    p.add_argument(
        "--require",
        choices=["non-inferior"],
        default=None,
        help="exit 1 unless the candidate is non-inferior (for CI)",
    )
    p.add_argument(
        "--sequential",
        action="store_true",
        help="compare a look at a time (--look-every traces more each) and stop as soon as "
        "worse or non-inferior is settled (an anytime-valid interval)",
    )
    p.add_argument(
        "--look-every",
        type=int,
        default=10,
        metavar="N",
        help="with --sequential: traces added at each look (default 10)",
    )
    p.add_argument("--concurrency", type=int, default=2, help="agent runs and judge requests")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    add_executor_flags(p)
    add_db(p)
    p.set_defaults(handler=cmd_shadow)


def cmd_shadow(args: argparse.Namespace) -> int:
    """Run the shadow comparison and print it; exit 1 when a required verdict fails."""
    from arena.gate import resolve_variants
    from arena.production import SampleSpec, ShadowOptions, sampled_traces, shadow_sample
    from arena.runner import RunOptions
    from arena.storage import Store
    from judges import parse_judge

    for flag in ("max_cost", "dry_run"):
        if getattr(args, flag):
            raise InputError("not supported by arena shadow", field="--" + flag.replace("_", "-"))
    flags = {"fraction": "--sample", "max": "--max", "seed": "--seed", "stratify": "--stratify"}
    sampling = _options(
        SampleSpec,
        {"fraction": args.sample, "max": args.max, "seed": args.seed, "stratify": args.stratify},
        flags,
    )
    if args.evaluate_only:
        return _evaluate_only(args, sampling)
    if args.rubric or args.rubric_from:
        raise InputError("a rubric is graded with --evaluate-only", field="--rubric")
    if args.candidate is None:
        raise InputError("give the candidate variant (or --evaluate-only)", field="--candidate")
    if not 0 <= args.margin < 0.5:
        raise InputError(f"must be in [0, 0.5), got {args.margin:g}", field="--margin")
    spec = parse_judge(args.judge)
    candidate = resolve_variants([args.candidate], args.variants_dir, "--candidate")[0]
    options = ShadowOptions(
        sample=sampling,
        redact=args.redact,
        margin=args.margin,
        run=RunOptions(concurrency=args.concurrency, progress=not args.json),
        judge_concurrency=args.concurrency,
        executor=base_executor(args),
    )
    sample, counts = sampled_traces(_source(args), sampling, redact=args.redact)  # before the db
    compare = shadow_sample
    if args.sequential:
        from functools import partial

        from arena.production import shadow_sequential

        compare = partial(shadow_sequential, every=args.look_every)
    report = compare(
        Store(args.db), sample, candidate, spec, options, source=_label(args), redactions=counts
    )
    if args.json:
        print(json_text(report.summary()))
    else:
        _print(report)
    failure = report.judge_failure()
    if failure is not None:
        print(terminal_safe(f"arena: error: {failure}"), file=sys.stderr)
        return EXIT_NOT_COMPARED
    if args.require == "non-inferior" and not report.non_inferior:
        return EXIT_INFERIOR
    return 0


def _options(model: Any, values: dict[str, Any], flags: dict[str, str]) -> Any:
    """``model`` from flag values; InputError naming the flag of the first bad value."""
    from pydantic import ValidationError

    try:
        return model(**values)
    except ValidationError as exc:
        err = exc.errors()[0]
        name = str(err["loc"][0]) if err["loc"] else ""
        raise InputError(err["msg"], field=flags.get(name, "--sample")) from None


def _rubric(args: argparse.Namespace) -> Any:
    """The rubric check --rubric or --rubric-from asks for (None: no rubric)."""
    from arena.production import RubricCheck

    if args.rubric and args.rubric_from:
        raise InputError("give --rubric or --rubric-from, not both", field="--rubric")
    if args.rubric:
        return RubricCheck(criterion=args.rubric, grader=args.grader)
    if args.rubric_from:
        from arena.golden import load_dataset

        settings = load_dataset(args.rubric_from).judge
        if settings is None or not settings.rubric:
            raise InputError(
                "the dataset has no judge: rubric", file=args.rubric_from, field="judge"
            )
        return RubricCheck.from_settings(settings.persona, settings.rubric, args.grader)
    return None


def _source(args: argparse.Namespace) -> Any:
    """The traces file, or the traces of the LangSmith project."""
    if args.traces is not None:
        return args.traces
    from arena.production import langsmith_traces

    return langsmith_traces(args.langsmith_project, args.since)


def _label(args: argparse.Namespace) -> str:
    return args.traces if args.traces is not None else f"langsmith:{args.langsmith_project}"


def _evaluate_only(args: argparse.Namespace, sampling: Any) -> int:
    """``--evaluate-only``: the production quality report of the sample."""
    from arena.production import TraceLimits, check_grader, evaluate_sample, sampled_traces
    from arena.storage import Store

    if args.candidate is not None or args.require is not None:
        raise InputError("--evaluate-only takes no candidate", field="--evaluate-only")
    limits = _options(
        TraceLimits,
        {"max_latency_s": args.max_latency, "max_cost": args.max_trace_cost},
        {"max_latency_s": "--max-latency", "max_cost": "--max-trace-cost"},
    )
    rubric = _rubric(args)
    check_grader(rubric)
    sample, _ = sampled_traces(_source(args), sampling, redact=args.redact)  # before the db
    report = evaluate_sample(
        Store(args.db), sample.traces, limits, source=_label(args), rubric=rubric
    )
    if args.json:
        print(json_text(report.summary()))
        return 0
    rate = "n/a" if report.pass_rate is None else f"{report.pass_rate:.0%}"
    print(
        f"run {report.run_id}: {report.sampled} production traces checked, "
        f"{len(report.flagged)} flagged ({rate} passed every check); {report.model_calls} "
        "model calls sent"
    )
    print(", ".join(f"{name} {n}" for name, n in report.counts.items()))
    if report.grades:
        mean = sum(report.grades.values()) / len(report.grades)
        print(f"rubric: mean P(YES) {mean:.2f} over {len(report.grades)} graded answers")
    for trace in report.flagged:
        why = "; ".join(f"{k}: {v}" for k, v in trace.flags.items())
        print(terminal_safe(f"  {trace.trace_id}: {why}"))
    return 0


def _print(report: Any) -> None:
    rate = "n/a" if report.win_rate is None else f"{report.win_rate:.2f}"
    interval = (
        "" if report.interval is None else f" [{report.interval[0]:.2f}, {report.interval[1]:.2f}]"
    )
    verdict = "non-inferior" if report.non_inferior else "NOT shown non-inferior"
    verdict = f"{verdict} at margin {report.margin:g}"
    if report.judge_failure() is not None:
        verdict = "not compared (the judge failed)"
    print(
        f"run {report.run_id}: {report.sampled} traces sampled of {report.read} read "
        f"({report.duplicates} duplicate queries counted once); {report.battles} battles "
        f"judged by {report.judge_label or report.judge}; {report.model_calls} model calls sent"
    )
    if report.judge_errors:
        print(terminal_safe(f"judge errors: {report.judge_errors} (first: {report.judge_error})"))
    if report.redactions:
        found = ", ".join(f"{n} {k}" for k, n in sorted(report.redactions.items()))
        print(f"redacted: {found}")
    print(f"{report.candidate} vs production: win rate {rate}{interval}; {verdict}")
    if report.stopped:
        print(f"sequential: {report.stopped}")
    for loss in report.losses:
        print(terminal_safe(f"  lost {loss.trace_id}: {loss.query[:100]}"))
