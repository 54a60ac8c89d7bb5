"""``arena schema KIND``: the JSON Schema of a golden dataset, variant, judge or arena.yaml."""

from __future__ import annotations

import argparse
from typing import Any

from arena.inputs.schemas import SCHEMAS


def register(sub: Any) -> None:
    """Add the schema sub-command."""
    p = sub.add_parser(
        "schema",
        help="print the JSON Schema of a file kind (golden, variant, judge, config, "
        "fake-scripts), or write them all with --write DIR",
    )
    p.add_argument("kind", nargs="?", choices=list(SCHEMAS), help="which file")
    p.add_argument(
        "--write", default=None, metavar="DIR", help="write every schema into DIR (docs/schema)"
    )
    p.set_defaults(handler=cmd_schema)


def cmd_schema(args: argparse.Namespace) -> int:
    """Print one schema, or write them all."""
    from arena.errors import InputError
    from arena.inputs.schemas import schema_text, write_schemas

    if args.write:
        for path in write_schemas(args.write):
            print(f"written: {path}")
        return 0
    if args.kind is None:
        raise InputError(f"give a kind ({', '.join(SCHEMAS)}) or --write DIR", field="kind")
    print(schema_text(args.kind), end="")
    return 0
