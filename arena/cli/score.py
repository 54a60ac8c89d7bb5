"""``arena score``, ``arena baseline save|export|list`` and ``arena check`` (the CI gate)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from arena.cli.common import add_db
from arena.cli.common import write_text as _write
from arena.reports.format import text_table

EXIT_REGRESSION = 1


def register(sub: Any) -> None:
    """Add score, baseline and check."""
    p = sub.add_parser("score", help="golden scores, benchmarks and pass rates of a run")
    p.add_argument("run", nargs="?", type=int, default=None, help="run id (default: latest)")
    p.add_argument("--grader", default=None, metavar="JUDGE",
                   help="judge model spec for the behaviour rubric (default: keyword rules)")
    fmt = p.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true")
    fmt.add_argument("--markdown", action="store_true")
    add_db(p)
    p.set_defaults(handler=cmd_score)

    b = sub.add_parser("baseline", help="save, export or list golden baselines")
    bsub = b.add_subparsers(dest="action", required=True)
    save = bsub.add_parser("save", help="store a variant's current scores as a baseline")
    save.add_argument("variant")
    save.add_argument("--name", default=None, help="baseline name (default: the variant)")
    save.add_argument("--run", type=int, default=None)
    save.add_argument("--export", default=None, metavar="FILE", help="also write it as JSON")
    save.add_argument("--force", action="store_true", help="allow the baseline to move down")
    add_db(save)
    save.set_defaults(handler=cmd_baseline_save)
    export = bsub.add_parser("export", help="write a stored baseline to a JSON file")
    export.add_argument("name")
    export.add_argument("file")
    add_db(export)
    export.set_defaults(handler=cmd_baseline_export)
    lst = bsub.add_parser("list", help="list stored baselines")
    add_db(lst)
    lst.set_defaults(handler=cmd_baseline_list)

    c = sub.add_parser("check", help="regression gate: exit 1 when the candidate regressed")
    c.add_argument("--candidate", required=True, metavar="VARIANT")
    c.add_argument("--baseline", default="baseline", metavar="NAME|FILE")
    c.add_argument("--run", type=int, default=None, help="run holding the candidate")
    c.add_argument("--max-drop", type=float, default=0.05)
    c.add_argument("--markdown", default=None, metavar="FILE", help="write a Markdown report")
    c.add_argument("--json", action="store_true")
    add_db(c)
    c.set_defaults(handler=cmd_check)


def cmd_score(args: argparse.Namespace) -> int:
    """Score a run and print a table, JSON or Markdown."""
    from arena.evaluate import make_grader, score_run
    from arena.reports import scores_json, scores_markdown, scores_table
    from arena.scoring.difficulty import (
        difficulty_breakdown,
        difficulty_markdown,
        difficulty_rows,
    )
    from arena.storage import Store

    store = Store(args.db)
    run_id = store.run(args.run).id
    scores = score_run(store, run_id, make_grader(args.grader, store))
    levels = {c.id: c.difficulty.value for c in store.run_dataset(run_id).test_cases}
    by_difficulty = difficulty_breakdown(scores.variants, levels)
    if args.json:
        doc = scores_json(scores.variants, scores.cases)
        doc["by_difficulty"] = {v: {d: s.model_dump() for d, s in levels_.items()}
                                for v, levels_ in by_difficulty.items()}
        print(json.dumps({"run_id": run_id, "grader": scores.grader, **doc}, indent=2))
    elif args.markdown:
        from arena.secrets import redact

        print(redact(scores_markdown(scores.variants, scores.cases,
                                     title=f"Golden scores, run {run_id}")))
        print("\n" + difficulty_markdown(by_difficulty))
    else:
        print(f"run {run_id}, behaviour grader: {scores.grader}")
        print(scores_table(scores.variants, scores.cases))
        header, *rows = difficulty_rows(by_difficulty)
        print("\npass rate by difficulty (counted cases, passed/cases)")
        print(text_table(header, rows))
    return 0


def _candidate(store: Any, variant: str, run: int | None) -> tuple[int, Any, list[Any]]:
    from arena.evaluate import load_run_scores
    from arena.runner import run_with_variant

    run_id = run_with_variant(store, variant, run)
    scores = load_run_scores(store, run_id)
    return run_id, scores.variant(variant), [c for c in scores.cases if c.variant == variant]


def cmd_baseline_save(args: argparse.Namespace) -> int:
    """Store a baseline; it only moves up unless --force."""
    from arena.scoring import baseline_to_json, make_baseline, should_update_baseline
    from arena.storage import Store

    store = Store(args.db)
    run_id, scores, cases = _candidate(store, args.variant, args.run)
    name = args.name or args.variant
    new = make_baseline(scores, cases, name=name, dataset=store.run(run_id).dataset,
                        source_run_id=run_id)
    old = store.baseline(name)
    if not should_update_baseline(old, new, args.force):
        assert old is not None
        print(f"baseline {name!r} kept: its suite score {old.suite_score:.3f} is above "
              f"{new.suite_score:.3f} (use --force to lower it)")
    else:
        store.save_baseline(new)
        print(f"baseline {name!r} saved from run {run_id}: suite score {new.suite_score:.3f}, "
              f"pass rate {new.pass_rate:.1%}, {len(new.case_pass)} cases")
    if args.export:
        _write(args.export, baseline_to_json(store.baseline(name) or new))
        print(f"exported to {args.export}")
    return 0


def cmd_baseline_export(args: argparse.Namespace) -> int:
    """Write a stored baseline to JSON."""
    from arena.errors import InputError
    from arena.scoring import baseline_to_json
    from arena.storage import Store

    baseline = Store(args.db).baseline(args.name)
    if baseline is None:
        raise InputError(f"no baseline named {args.name!r}", field="name")
    _write(args.file, baseline_to_json(baseline))
    print(f"baseline {args.name!r} written to {args.file}")
    return 0


def cmd_baseline_list(args: argparse.Namespace) -> int:
    """List stored baselines."""
    from arena.storage import Store

    rows = [[b.name, b.variant, b.variant_hash, f"{b.suite_score:.3f}", f"{b.pass_rate:.1%}",
             len(b.case_pass), b.source_run_id] for b in Store(args.db).baselines()]
    print(text_table(["name", "variant", "version", "suite score", "pass rate", "cases", "run"],
                     rows)
          if rows else "no baselines stored: `arena baseline save VARIANT`")
    return 0


def load_baseline(store: Any, ref: str) -> Any:
    """A baseline by name from the database, or from a JSON file."""
    from arena.errors import InputError
    from arena.scoring import baseline_from_json

    path = Path(ref)
    if path.suffix == ".json" or path.exists():
        try:
            return baseline_from_json(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise InputError("no such file", file=ref) from None
        except ValueError as exc:
            raise InputError(f"not a baseline: {str(exc).splitlines()[0]}", file=ref) from None
    baseline = store.baseline(ref)
    if baseline is None:
        raise InputError(f"no baseline named {ref!r}; save one with `arena baseline save`",
                         field="baseline")
    return baseline


def cmd_check(args: argparse.Namespace) -> int:
    """Apply the regression rules; exit 1 on regression."""
    from arena.reports import regression_markdown, regression_text
    from arena.scoring import check_regression
    from arena.storage import Store

    store = Store(args.db)
    baseline = load_baseline(store, args.baseline)
    _, scores, cases = _candidate(store, args.candidate, args.run)
    report = check_regression(baseline, scores, cases, max_drop=args.max_drop)
    if args.markdown:
        _write(args.markdown, regression_markdown(report))
    if args.json:
        print(report.model_dump_json(indent=2))
    else:
        print(regression_text(report))
    return EXIT_REGRESSION if report.regressed else 0
