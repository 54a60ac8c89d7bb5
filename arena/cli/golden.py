"""``arena golden add|promote|lint|migrate``: grow the golden set from failures and keep it
healthy."""

from __future__ import annotations

import argparse
from typing import Any

from arena.cli._commands import command
from arena.cli.common import add_config, add_db, default_dataset
from arena.errors import InputError
from arena.reports._format import json_text

EXIT_LINT_ERRORS = 1


@command("golden", order=190)
def register(sub: Any) -> None:
    """Add the golden sub-command and its actions."""
    g = sub.add_parser("golden", help="grow and lint the golden dataset")
    gsub = g.add_subparsers(dest="action", required=True)

    add = gsub.add_parser(
        "add", help="turn a stored result (or a shadow run's traces) into new pending cases"
    )
    source = add.add_mutually_exclusive_group(required=True)
    source.add_argument(
        "--from-result",
        type=int,
        metavar="RESULT_ID",
        help="the stored result whose query becomes the case",
    )
    source.add_argument(
        "--from-shadow",
        type=int,
        metavar="RUN",
        help="a shadow run (arena shadow) whose traces --cases names become cases, "
        "production's answer as the reference",
    )
    add.add_argument(
        "--cases",
        nargs="+",
        default=None,
        metavar="CASE",
        help="with --from-shadow: the run's case ids, or `losses` (every trace the candidate lost)",
    )
    add.add_argument(
        "--category",
        default=None,
        help="with --from-shadow: the new cases' category (default: the dataset's only one; "
        "required when it has several)",
    )
    add.add_argument("--reason", required=True, help="why the case is added")
    add.add_argument("--dataset", default=default_dataset(), help="golden dataset JSON to edit")
    add.add_argument("--id", default=None, help="the new case id (default: next of its prefix)")
    add.add_argument("--input", default=None, help="a rephrased query (default: the result's)")
    add.add_argument("--tag", action="append", default=None, help="a tag (repeatable)")
    add_db(add)
    add.set_defaults(handler=cmd_add)

    pro = gsub.add_parser("promote", help="move a case to the standard or critical tier")
    pro.add_argument("case", help="the case id")
    pro.add_argument(
        "--tier", required=True, choices=["standard", "critical"], help="the tier it moves to"
    )
    pro.add_argument("--dataset", default=default_dataset(), help="golden dataset JSON to edit")
    add_config(pro)
    pro.set_defaults(handler=cmd_promote)

    lint = gsub.add_parser(
        "lint", help="duplicates, small categories, saturated or broken cases; exit 1 on errors"
    )
    lint.add_argument(
        "dataset", nargs="?", default=None, help="golden dataset JSON (default: the shipped set)"
    )
    lint.add_argument(
        "--dataset",
        dest="dataset_option",
        default=None,
        metavar="DATASET",
        help="golden dataset JSON, as the sibling commands take it (or give it positionally)",
    )
    lint.add_argument(
        "--run",
        type=int,
        action="append",
        default=None,
        metavar="RUN",
        help="check against this stored run's scores (repeatable)",
    )
    lint.add_argument(
        "--variants",
        nargs="+",
        default=None,
        metavar="VARIANT",
        help="variant YAML files whose compiled graph the route fields must name nodes of "
        "(exit 2 on an unknown node)",
    )
    lint.add_argument("--json", action="store_true", help="print the findings as JSON")
    add_db(lint)
    lint.set_defaults(handler=cmd_lint)

    mig = gsub.add_parser(
        "migrate",
        help="rewrite expected_tools/expected_args as exact expected_calls where unambiguous",
    )
    mig.add_argument("--dataset", default=default_dataset(), help="golden dataset JSON to edit")
    mig.add_argument("--dry-run", action="store_true", help="say what would change; write nothing")
    mig.set_defaults(handler=cmd_migrate)


def cmd_add(args: argparse.Namespace) -> int:
    """Add a pending case from a stored result (or cases from a shadow run)."""
    from arena.curation._grow import add_from_result
    from arena.storage import Store

    if args.from_shadow is not None or args.cases:
        return _add_from_shadow(args)
    if args.category is not None:
        raise InputError(
            "--category is for --from-shadow (a result keeps its case's)", field="--category"
        )

    dataset, case = add_from_result(
        Store(args.db),
        args.from_result,
        args.dataset,
        args.reason,
        case_id=args.id,
        query=args.input,
        tags=args.tag,
    )
    print(
        f"added {case.id} ({case.category}, pending) to {args.dataset}: version "
        f"{dataset.version}, content hash {dataset.content_hash}"
    )
    print(
        f"expected tools {case.expected_tools}, forbidden {case.forbidden_tools}; review "
        f"the case, then `arena golden promote {case.id} --tier standard`"
    )
    return 0


def _add_from_shadow(args: argparse.Namespace) -> int:
    from arena.production import add_from_shadow
    from arena.storage import Store

    if args.from_shadow is None or not args.cases:
        raise InputError("give --from-shadow RUN with --cases", field="--cases")
    report = add_from_shadow(
        Store(args.db), args.from_shadow, args.dataset, args.cases, args.reason, args.category
    )
    for case_id, trace_id in report.added.items():
        category = next(c.category for c in report.dataset.test_cases if c.id == case_id)
        print(f"added {case_id} ({category}, pending) from production trace {trace_id}")
    for trace_id, why in report.skipped.items():
        print(f"skipped trace {trace_id}: {why}")
    if report.none_added is not None:
        print(f"no case added: {report.none_added}; {args.dataset} is unchanged")
        return 0
    print(
        f"{args.dataset}: version {report.dataset.version}, content hash "
        f"{report.dataset.content_hash}; review the cases, then `arena golden promote`"
    )
    return 0


def cmd_promote(args: argparse.Namespace) -> int:
    """Promote a case."""
    from arena.curation._grow import promote_case

    dataset = promote_case(args.dataset, args.case, args.tier)
    print(
        f"{args.case} is now {args.tier} in {args.dataset}: version {dataset.version}, "
        f"content hash {dataset.content_hash}"
    )
    return 0


def cmd_lint(args: argparse.Namespace) -> int:
    """Print the findings; exit 1 when any is an error."""
    from arena.curation._lint import lint_dataset, scores_for_lint
    from arena.golden import load_dataset

    path = _lint_dataset(args)
    dataset = load_dataset(path)
    if args.variants:
        _check_nodes(dataset, path, args.variants)
    scores: list[Any] = []
    stale: list[str] = []
    runs = list(args.run or [])
    if runs:
        from arena.storage import Store

        store = Store(args.db)
        for run_id in runs:
            store.run(run_id)  # NotFound (exit 2) for an unknown run
        scores, stale = scores_for_lint(store, runs, dataset)
    report = lint_dataset(dataset, scores, runs, stale)
    if args.json:
        print(json_text({**report.model_dump(mode="json"), "errors": report.errors}))
    else:
        print(lint_text(report))
    return EXIT_LINT_ERRORS if report.errors else 0


def cmd_migrate(args: argparse.Namespace) -> int:
    """Rewrite the dataset's unambiguous cases as expected_calls; say which were left, why."""
    from arena.curation._migrate import migrate_dataset

    report = migrate_dataset(args.dataset, write=not args.dry_run)
    verb = "would migrate" if args.dry_run else "migrated"
    print(f"{verb} {len(report.migrated)} case(s): {', '.join(report.migrated) or 'none'}")
    for case_id, why in report.skipped.items():
        print(f"left {case_id}: {why}")
    if report.written:
        print(f"{args.dataset}: version {report.version}; review the diff (ids are now exact)")
    return 0


def _check_nodes(dataset: Any, path: str, variant_files: list[str]) -> None:
    """Refuse (InputError, exit 2) a route field naming a node the variants' graphs lack."""
    from arena.curation._lint_routes import check_route_nodes
    from arena.runner import variants_node_names
    from arena.variants.variant import load_variants

    known, graphs = variants_node_names(load_variants(variant_files))
    if not graphs:
        raise InputError(
            "no variant's agent is a compiled LangGraph graph: its nodes cannot be read",
            field="--variants",
        )
    check_route_nodes(dataset.test_cases, known, file=path, graph=", ".join(graphs))


def _lint_dataset(args: argparse.Namespace) -> str:
    """The dataset to lint: positional or ``--dataset`` (both: the same file), else the
    shipped set."""
    given, option = args.dataset, args.dataset_option
    if given is not None and option is not None and given != option:
        raise InputError(
            f"two datasets given ({given} and {option}); give one, positionally or with --dataset",
            field="--dataset",
        )
    return option or given or default_dataset()


def lint_text(report: Any) -> str:
    """The findings as text, errors first."""
    from arena.reports._format import text_table

    where = f" against run(s) {', '.join(map(str, report.runs))}" if report.runs else ""
    head = f"{report.dataset} {report.version}: {report.n_cases} cases{where}"
    if not report.findings:
        return f"{head}: no findings"
    rows = [[f.severity, f.rule, _ids(f.cases), f.message] for f in report.findings]
    warnings = sum(f.severity == "warning" for f in report.findings)
    return f"{head}: {report.errors} error(s), {warnings} warning(s)\n" + text_table(
        ["severity", "rule", "cases", "message"], rows
    )


def _ids(ids: list[str], limit: int = 6) -> str:
    shown = ", ".join(ids[:limit])
    return f"{shown}, ... (+{len(ids) - limit})" if len(ids) > limit else shown
