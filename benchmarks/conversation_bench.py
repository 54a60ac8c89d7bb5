"""What conversations cost on the local model: calls and seconds per case and per turn, beside
single-turn cases.

    .venv/bin/python -m benchmarks conversation_bench [--variant FILE] [--user-model SPEC]
        [--single K-1,K-3] [--dialogues KD-1,KD-3] [--no-rerun] [--markdown]

The kitchen helper of examples/own-agent (its baseline variant, the local 1.5B model unless
``--variant`` says otherwise) runs, one case at a time on a fresh SQLite database, the
example's single-turn cases named by ``--single`` (golden/kitchen.json) and its conversation
cases named by ``--dialogues`` (golden/kitchen-dialogues.json: KD-1 is scripted, 3 user
turns; KD-3 has a simulated user, at most 4; the simulated user plays on ``--user-model``,
the local model by default). Each case is timed
from the outside (wall seconds: the agent's turns and, for the simulated user, its own
calls); the local server is started before the first case so its start is not counted.
Then the same cases run again as a new run on the same database (``rerun``): every reply
comes from the response cache, so that row shows what a cached rerun costs (zero calls).

The table has one row per case: its kind, user turns, the agent's calls (sent), the
simulated user's calls (sent), wall seconds, and the same per turn. ``--markdown`` prints it
as a Markdown table. A second table sums the first pass per kind of case (single,
scripted, simulated): means per case, and calls (the agent's and the user's) and seconds per
turn. With arena's scripted models (``ARENA_FAKE_SCRIPTS=examples/own-agent/fake_models.yaml``)
it runs in seconds without a model, to check that it works.
"""

from __future__ import annotations

import argparse
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.common import timer

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "own-agent"


@dataclass
class Row:
    """One case's figures in one pass."""

    case: str
    kind: str
    turns: int
    agent_calls: int
    user_calls: int
    seconds: float
    ended_by: str

    def per_turn(self, value: float) -> float:
        return value / max(self.turns, 1)


def dataset(single: list[str], dialogues: list[str]) -> Any:
    """The example's single-turn cases ``single`` and its conversation cases ``dialogues``
    (golden/kitchen.json and golden/kitchen-dialogues.json) as one golden set."""
    from arena.golden import GoldenDataset, load_dataset

    golden = EXAMPLE / "golden"
    one = load_dataset(golden / "kitchen.json")
    talks = load_dataset(golden / "kitchen-dialogues.json")
    cases = [c for c in one.test_cases if c.id in single]
    cases += [c for c in talks.test_cases if c.id in dialogues]
    missing = set(single + dialogues) - {c.id for c in cases}
    if missing:
        raise SystemExit(f"no such case in the example: {', '.join(sorted(missing))}")
    return GoldenDataset(
        name="conversation-bench",
        categories=sorted({*(one.categories or []), *(talks.categories or [])}),
        available_tools=one.available_tools,
        test_cases=cases,
    )


def start_server(spec: str) -> float:
    """Start the local model's server (if ``spec`` is local) and return the seconds it took."""
    # private on purpose: the local server is started (and timed) apart from the answers, and
    # only the model factory, no public name, starts it on its own
    from arena.models._fake_files import played_by

    with timer() as took:
        if spec.startswith("local:") and played_by(spec) is None:
            from arena.models._local_server import server_pool

            server_pool().get(spec.partition(":")[2])
    return took.wall


def run_pass(store: Any, data: Any, variant: Any, user_model: str | None, rerun: bool) -> list[Row]:
    """Each case on its own (so it can be timed); ``rerun``: as a new run, from the cache."""
    from arena.runner import RunOptions, run_suite

    rows = []
    for case in data.test_cases:
        options = RunOptions(
            case_ids=[case.id],
            progress=False,
            concurrency=1,
            case_timeout_s=900,
            rerun=rerun,
            user_model=user_model,
        )
        with timer() as took:
            (result,) = run_suite(store, data, [variant], options).results
        seconds = took.wall
        dialogue = result.dialogue
        kind = "single" if dialogue is None else "simulated" if dialogue.user_model else "scripted"
        rows.append(
            Row(
                case=case.id,
                kind=kind,
                turns=1 if dialogue is None else len(dialogue.turns),
                agent_calls=result.fresh_model_calls,
                user_calls=0 if dialogue is None else dialogue.simulator_fresh_calls,
                seconds=seconds,
                ended_by="-" if dialogue is None else _ended(dialogue),
            )
        )
    return rows


def _ended(dialogue: Any) -> str:
    if dialogue.simulator_error:
        return f"{dialogue.ended_by} ({dialogue.simulator_error_kind})"
    return str(dialogue.ended_by)


HEADER = (
    "pass",
    "case",
    "kind",
    "turns",
    "agent calls",
    "user calls",
    "seconds",
    "agent calls/turn",
    "seconds/turn",
    "ended by",
)


def cells(label: str, row: Row) -> list[str]:
    return [
        label,
        row.case,
        row.kind,
        str(row.turns),
        str(row.agent_calls),
        str(row.user_calls),
        f"{row.seconds:.1f}",
        f"{row.per_turn(row.agent_calls):.1f}",
        f"{row.per_turn(row.seconds):.1f}",
        row.ended_by,
    ]


KIND_HEADER = (
    "kind",
    "cases",
    "turns/case",
    "agent calls/case",
    "user calls/case",
    "seconds/case",
    "calls/turn",
    "seconds/turn",
)


def by_kind(rows: list[Row]) -> list[list[str]]:
    """Per kind of case (first pass): means per case, and per user turn (all calls)."""
    table = []
    for kind in ("single", "scripted", "simulated"):
        some = [r for r in rows if r.kind == kind]
        if not some:
            continue
        n, turns = len(some), sum(r.turns for r in some)
        agent, user = sum(r.agent_calls for r in some), sum(r.user_calls for r in some)
        seconds = sum(r.seconds for r in some)
        table.append(
            [
                kind,
                str(n),
                f"{turns / n:.1f}",
                f"{agent / n:.1f}",
                f"{user / n:.1f}",
                f"{seconds / n:.1f}",
                f"{(agent + user) / turns:.1f}",
                f"{seconds / turns:.1f}",
            ]
        )
    return table


def render(header: tuple[str, ...], table: list[list[str]], markdown: bool) -> str:
    """``table`` under ``header``, aligned text or Markdown."""
    if markdown:
        lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        return "\n".join([*lines, *("| " + " | ".join(r) + " |" for r in table)])
    widths = [max(len(h), *(len(r[i]) for r in table)) for i, h in enumerate(header)]
    fmt = "  ".join(f"{{:<{w}}}" for w in widths)
    return "\n".join([fmt.format(*header), *(fmt.format(*r) for r in table)])


def main(argv: list[str] | None = None) -> None:
    """Parse the options, run the passes, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", type=Path, default=EXAMPLE / "variants" / "baseline.yaml")
    parser.add_argument("--user-model", default=None, help="the simulated user's model spec")
    parser.add_argument("--single", default="K-1,K-3", help="single-turn case ids, comma-separated")
    parser.add_argument(
        "--dialogues", default="KD-1,KD-3", help="conversation case ids, comma-separated"
    )
    parser.add_argument("--no-rerun", action="store_true", help="skip the cached rerun")
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args(argv)

    from arena.storage import Store
    from arena.variants.variant import load_variant

    variant = load_variant(args.variant)
    variant = variant.model_copy(
        update={"model": variant.model.model_copy(update={"timeout": 900})}
    )
    data = dataset(_ids(args.single), _ids(args.dialogues))
    startup = start_server(variant.model.spec)
    with tempfile.TemporaryDirectory() as folder:
        store = Store(f"sqlite:///{Path(folder) / 'bench.db'}")
        passes = [("first", run_pass(store, data, variant, args.user_model, rerun=False))]
        if not args.no_rerun:
            passes.append(("rerun", run_pass(store, data, variant, args.user_model, rerun=True)))
    print(f"model {variant.model.spec}; server start {startup:.1f} s (not counted)")
    print(render(HEADER, [cells(label, r) for label, rows in passes for r in rows], args.markdown))
    print()
    print(render(KIND_HEADER, by_kind(passes[0][1]), args.markdown))


def _ids(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


if __name__ == "__main__":
    main()
