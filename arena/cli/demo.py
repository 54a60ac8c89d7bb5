"""``arena demo``: the whole pipeline on the embedded defaults."""

from __future__ import annotations

import argparse
from typing import Any

from arena.cli.common import add_db, default_dataset
from arena.paths import data_dir

DEMO_VARIANTS = ("baseline", "small-model")


def register(sub: Any) -> None:
    """Add the demo sub-command."""
    p = sub.add_parser("demo", help="run the critical tier on the local model and summarise")
    p.add_argument("--variants", nargs="+", default=list(DEMO_VARIANTS), metavar="NAME",
                   help="variant names from data/variants")
    p.add_argument("--tier", default="critical")
    p.add_argument("--concurrency", type=int, default=2)
    add_db(p)
    p.set_defaults(handler=cmd_demo)


def cmd_demo(args: argparse.Namespace) -> int:
    """Run the demo variants on the critical tier and print the summary."""
    from arena.cli.run import print_summary
    from arena.golden import load_dataset
    from arena.runner import RunOptions, run_suite
    from arena.storage import Store
    from arena.variants import load_variants

    files = [str(data_dir() / "variants" / f"{name}.yaml") for name in args.variants]
    variants = load_variants(files)
    dataset_path = default_dataset()
    options = RunOptions(tier=args.tier, concurrency=args.concurrency,
                         dataset_path=dataset_path)
    report = run_suite(Store(args.db), load_dataset(dataset_path), variants, options)
    print_summary(report)
    return 0
