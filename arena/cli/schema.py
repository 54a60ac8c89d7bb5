"""``arena schema KIND``: the JSON Schema of a golden dataset, variant, judge or arena.yaml."""

from __future__ import annotations

import argparse
from typing import Any

from arena.cli._commands import command
from arena.inputs.schemas import SCHEMAS


@command("schema", order=220)
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


def schema_models() -> dict[str, Any]:
    """The pydantic model loading each kind of file of :data:`~arena.inputs.schemas.SCHEMAS`."""
    from arena.golden._models import GoldenDataset
    from arena.models._fake_files import FakeScriptsFile
    from arena.project._config import GateConfig
    from arena.variants.variant import Variant
    from judges._types import JudgeSpec

    return {
        "golden": GoldenDataset,
        "variant": Variant,
        "judge": JudgeSpec,
        "config": GateConfig,
        "fake-scripts": FakeScriptsFile,
    }


def cmd_schema(args: argparse.Namespace) -> int:
    """Print one schema, or write them all."""
    from arena.errors import InputError
    from arena.inputs.schemas import schema_text, write_schemas

    if args.write:
        for path in write_schemas(schema_models(), args.write):
            print(f"written: {path}")
        return 0
    if args.kind is None:
        raise InputError(f"give a kind ({', '.join(SCHEMAS)}) or --write DIR", field="kind")
    print(schema_text(args.kind, schema_models()[args.kind]), end="")
    return 0
