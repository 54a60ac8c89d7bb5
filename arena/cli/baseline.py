"""``arena baseline save|export|list|propose`` and ``arena check`` (the gate on stored results)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from arena.cli._commands import command
from arena.cli.common import add_db
from arena.cli.common import write_text as _write
from arena.reports._format import json_text, text_table


@command("baseline", order=130)
def register(sub: Any) -> None:
    """Add baseline and check."""
    b = sub.add_parser("baseline", help="save, export, list or propose golden baselines")
    bsub = b.add_subparsers(dest="action", required=True)
    save = bsub.add_parser("save", help="store a variant's current scores as a baseline")
    save.add_argument("variant", help="the variant whose scores are stored")
    save.add_argument("--name", default=None, help="baseline name (default: the variant)")
    save.add_argument(
        "--run",
        type=int,
        default=None,
        help="the run holding the variant (default: the newest golden run; a shadow run only "
        "when named)",
    )
    save.add_argument("--export", default=None, metavar="FILE", help="also write it as JSON")
    save.add_argument("--force", action="store_true", help="allow the baseline to move down")
    add_db(save)
    save.set_defaults(handler=cmd_baseline_save)
    export = bsub.add_parser("export", help="write a stored baseline to a JSON file")
    export.add_argument("name", help="stored baseline name (`arena baseline list`)")
    export.add_argument("file", help="the JSON file to write")
    add_db(export)
    export.set_defaults(handler=cmd_baseline_export)
    lst = bsub.add_parser("list", help="list stored baselines")
    add_db(lst)
    lst.set_defaults(handler=cmd_baseline_list)
    propose = bsub.add_parser(
        "propose", help="write a new baseline when the candidate's improvement is sustained"
    )
    propose.add_argument(
        "--config",
        default=None,
        metavar="arena.yaml",
        help="where --candidate and --baseline default from",
    )
    propose.add_argument(
        "--candidate",
        default=None,
        metavar="VARIANT",
        help="the variant whose runs may replace the baseline (default: arena.yaml's)",
    )
    propose.add_argument(
        "--baseline",
        default=None,
        metavar="NAME|FILE",
        help="stored baseline name or JSON file (default: arena.yaml's)",
    )
    propose.add_argument(
        "--runs",
        type=int,
        default=1,
        help="stored runs of the candidate that must all improve (default 1)",
    )
    propose.add_argument(
        "--min-gain",
        type=float,
        default=0.0,
        help="suite-score gain each run must exceed (default 0)",
    )
    propose.add_argument(
        "--write",
        default=None,
        metavar="FILE",
        help="where the new baseline goes (default: the --baseline file, or "
        "the stored baseline of that name)",
    )
    propose.add_argument(
        "--markdown",
        default=None,
        metavar="FILE",
        help="write a pull-request body here, only when proposing",
    )
    propose.add_argument("--json", action="store_true", help="print the proposal as JSON")
    add_db(propose)
    propose.set_defaults(handler=cmd_baseline_propose)


def cmd_baseline_save(args: argparse.Namespace) -> int:
    """Store a baseline; it only moves up unless --force."""
    from arena.ci._baseline_side import uncommitted_warning
    from arena.gate._baselines import run_snapshot
    from arena.scoring import baseline_to_json, should_update_baseline
    from arena.storage import Store

    store = Store(args.db)
    name = args.name or args.variant
    new, _ = run_snapshot(store, args.variant, args.run, name=name)
    old = store.baseline(name)
    if not should_update_baseline(old, new, args.force):
        assert old is not None
        print(
            f"baseline {name!r} kept: its suite score {old.suite_score:.3f} is above "
            f"{new.suite_score:.3f} (use --force to lower it)"
        )
    else:
        store.save_baseline(new)
        print(
            f"baseline {name!r} saved from run {new.source_run_id}: suite score "
            f"{new.suite_score:.3f}, pass rate {new.pass_rate:.1%}, {len(new.cases)} cases, "
            f"{new.n_repeats} repeat(s), dataset {new.dataset_label}"
        )
    if args.export:
        _write(args.export, baseline_to_json(store.baseline(name) or new))
        print(f"exported to {args.export}")
    warning = uncommitted_warning(new)
    if warning:
        print(f"warning: {warning}", file=sys.stderr)
    return 0


def cmd_baseline_export(args: argparse.Namespace) -> int:
    """Write a stored baseline to JSON."""
    from arena.errors import InputError
    from arena.scoring import baseline_to_json
    from arena.storage import Store

    baseline = Store(args.db, read_only=True).baseline(args.name)
    if baseline is None:
        raise InputError(f"no baseline named {args.name!r}", field="name")
    _write(args.file, baseline_to_json(baseline))
    print(f"baseline {args.name!r} written to {args.file}")
    return 0


def cmd_baseline_list(args: argparse.Namespace) -> int:
    """List stored baselines."""
    from arena.storage import Store

    rows = [
        [
            b.name,
            b.variant,
            b.variant_hash,
            b.dataset_label,
            f"{b.suite_score:.3f}",
            f"{b.pass_rate:.1%}",
            len(b.cases),
            b.n_repeats,
            b.source_run_id,
        ]
        for b in Store(args.db, read_only=True).baselines()
    ]
    print(
        text_table(
            [
                "name",
                "variant",
                "version",
                "dataset",
                "suite score",
                "pass rate",
                "cases",
                "repeats",
                "run",
            ],
            rows,
        )
        if rows
        else "no baselines stored: `arena baseline save VARIANT`"
    )
    return 0


def _propose_refs(args: argparse.Namespace) -> tuple[str, str]:
    from pathlib import Path

    from arena.errors import InputError
    from arena.project._config import GateConfig, load_config

    config = load_config(args.config) if args.config else GateConfig()
    candidate = args.candidate or config.candidate
    baseline = args.baseline or config.baseline
    if not candidate or not baseline:
        missing = "--candidate" if not candidate else "--baseline"
        raise InputError("give it, or set it in arena.yaml (--config)", field=missing)
    if args.baseline is None and baseline.endswith(".json") and not Path(baseline).is_absolute():
        baseline = config.path(baseline)
    if candidate.endswith((".yaml", ".yml")):
        from arena.variants.variant import load_variant

        candidate = load_variant(config.path(candidate)).name
    return candidate, baseline


def cmd_baseline_propose(args: argparse.Namespace) -> int:
    """Propose (write) a new baseline when the improvement is sustained; exit 0 either way."""
    from arena.errors import InputError
    from arena.gate._baselines import load_baseline, proposal_markdown, propose_baseline
    from arena.scoring import baseline_to_json
    from arena.storage import Store

    if args.runs < 1:
        raise InputError("must be at least 1", field="--runs")
    candidate, ref = _propose_refs(args)
    store = Store(args.db)
    old = load_baseline(store, ref)
    proposal = propose_baseline(store, candidate, old, runs=args.runs, min_gain=args.min_gain)
    target = args.write or (ref if ref.endswith(".json") else None)
    if proposal.propose and proposal.baseline is not None:
        if target:
            _write(target, baseline_to_json(proposal.baseline))
        else:
            store.save_baseline(proposal.baseline)
        if args.markdown:
            _write(args.markdown, proposal_markdown(proposal, old, target or old.name))
    if args.json:
        print(
            json_text(
                {
                    **proposal.model_dump(mode="json", exclude={"baseline"}),
                    "written": (target or old.name) if proposal.propose else None,
                },
                indent=2,
            )
        )
        return 0
    for reason in proposal.reasons:
        print(f"  {reason}")
    if proposal.propose and proposal.baseline is not None:
        print(
            f"baseline update proposed: suite score {old.suite_score:.3f} -> "
            f"{proposal.baseline.suite_score:.3f}, written to {target or repr(old.name)}"
        )
    else:
        print("no sustained improvement: the baseline stays")
    return 0
