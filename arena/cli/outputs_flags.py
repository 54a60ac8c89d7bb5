"""``arena judge --outputs A.jsonl B.jsonl [...] [--questions Q.jsonl] [--turn N]``: the
flags, and the answer files read (before the database is touched) then stored as a run."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from arena.outputs import LoadedOutputs
    from arena.storage import Store


def add_output_flags(p: argparse.ArgumentParser) -> None:
    """``--outputs A.jsonl B.jsonl [...] [--questions Q.jsonl] [--turn N]``."""
    p.add_argument(
        "--outputs",
        nargs="+",
        metavar="FILE",
        default=None,
        help="judge answers made elsewhere, one variant per file: arena JSONL "
        "(question_id, question, answer[, model, reference, expected]), alpaca_eval "
        "model_outputs.json, or FastChat MT-Bench model_answer/MODEL.jsonl",
    )
    p.add_argument(
        "--questions",
        metavar="FILE.jsonl",
        default=None,
        help="with --outputs: the questions (MT-Bench question.jsonl, or arena JSONL rows)",
    )
    p.add_argument("--turn", type=int, default=1, help="with --outputs: MT-Bench turn (1 or 2)")


def read_outputs(args: argparse.Namespace) -> LoadedOutputs | None:
    """With ``--outputs``: the answer files, read and checked; else None."""
    if not args.outputs:
        return None
    from arena.outputs import load_outputs

    return load_outputs(args.outputs, questions=args.questions, turn=args.turn)


def stored_outputs(store: Store, outputs: LoadedOutputs | None) -> int | None:
    """The answer files stored as a run (its id), or None without ``--outputs``."""
    if outputs is None:
        return None
    from arena.outputs import store_outputs

    run_id = store_outputs(store, outputs)
    print(f"stored {len(outputs.paths)} answer files as run {run_id}", file=sys.stderr)
    return run_id
