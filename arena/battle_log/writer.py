"""Write a run's judged battles as a battle log in Chatbot Arena's public schema.

One JSON object per line: ``model_a``, ``model_b``, ``winner``, ``question_id`` (the golden
case, the bootstrap unit), ``len_a`` / ``len_b`` (answer lengths in characters) and
``conv_metadata`` with FastChat's nested markdown counts (``header_count_a``,
``list_count_a``, ``bold_count_a`` and the ``_b`` twins), plus ``turn`` (always 1),
``tstamp`` (when the battle was judged, Unix seconds), ``repeat``, ``strong``, ``judge`` (the
judge key, or ``human:NAME`` for a person), ``judge_label``, ``run_id`` and ``crashed`` (the
models whose answer crashed: the crash rule decided the battle, no judge saw it; empty for
judged battles) and ``arena_format`` (the row format's version,
:data:`arena.records.log_rows.LOG_FORMAT`: a newer agent-arena's rows are refused by an older
one, naming the version, never misread). Errored battles are left out; crash battles are
kept. With ``orders`` each battle gives one row per order as the judge saw it (``model_a``
shown first) instead of the combined verdict (a crash battle keeps its one row). ``arena
ratings --battles`` reads it back, style counts included; ``arena agree`` compares its
judges.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arena.errors import ROW_FORMAT_KEY, InputError
from arena.ratings._style_counts import markdown_metadata
from arena.records.log_rows import LOG_FORMAT

if TYPE_CHECKING:
    from arena.storage import Store
    from judges._battle import Battle


def battle_log_rows(
    battles: list[Battle], outputs: Mapping[int, str], *, orders: bool = False
) -> list[dict[str, Any]]:
    """Battle-log rows of the rated battles; ``outputs`` maps result id -> answer.

    With ``orders``, one row per order the judge saw (see
    :func:`arena.trust._vote_files.order_votes`) instead of the combined verdict.
    """
    from arena.leaderboard._rating_inputs import rated
    from arena.trust._vote_files import judge_name, order_votes

    rows = []
    for b in rated(battles):
        seats = {b.variant_a: (b.result_a_id, b.len_a), b.variant_b: (b.result_b_id, b.len_b)}
        shown = order_votes(b) if orders else [(b.variant_a, b.variant_b, b.winner)]
        for first, second, winner in shown:
            meta: dict[str, Any] = {}
            for side, name in (("a", first), ("b", second)):
                for stem, counts in markdown_metadata(outputs.get(seats[name][0], "")).items():
                    meta[f"{stem}_{side}"] = counts
            rows.append(
                {
                    "model_a": first,
                    "model_b": second,
                    "winner": winner,
                    "question_id": b.case_id,
                    "turn": 1,
                    "tstamp": round(b.created_at.timestamp(), 3),
                    "repeat": b.repeat,
                    "strong": b.strong and not orders,
                    "len_a": seats[first][1],
                    "len_b": seats[second][1],
                    "conv_metadata": meta,
                    "judge": judge_name(b),
                    "judge_label": b.judge.label,
                    "run_id": b.run_id,
                    "crashed": _crashed(b),
                    ROW_FORMAT_KEY: LOG_FORMAT,
                }
            )
    return rows


def _crashed(battle: Battle) -> list[str]:
    """The models whose answer crashed in ``battle`` (none for a judged battle)."""
    sides = {"a": [battle.variant_a], "b": [battle.variant_b]}
    sides["both"] = sides["a"] + sides["b"]
    return sides[battle.crashed] if battle.crashed else []


def run_battle_log(
    store: Store, run_id: int | None = None, *, judge_key: str | None = None, orders: bool = False
) -> list[dict[str, Any]]:
    """The rows of a run's battles from one judge (default: latest run, latest judge): the
    verdicts it gave (battles it abstained on are left out; people's votes on them export
    under their own ``human:NAME`` judge).

    Raises:
        InputError: when the run has no rated battles from that judge.
    """
    from arena.leaderboard._rating_inputs import run_outputs, select_battles

    run = store.run(run_id)
    rows = battle_log_rows(
        select_battles(store, run.id, judge_key, people=False),
        run_outputs(store, run.id),
        orders=orders,
    )
    if not rows:
        raise InputError(f"run {run.id} has no judged battles to export: run `arena judge` first")
    return rows


def jsonl(rows: list[dict[str, Any]]) -> str:
    """One JSON object per line."""
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)


def export_battle_log(
    store: Store,
    path: str | Path,
    run_id: int | None = None,
    *,
    judge_key: str | None = None,
    orders: bool = False,
) -> int:
    """Write :func:`run_battle_log` as JSONL to ``path``; returns the number of rows written.

    Raises:
        InputError: when the run has no rated battles from that judge, or the file cannot be
            written.
    """
    rows = run_battle_log(store, run_id, judge_key=judge_key, orders=orders)
    target = Path(path)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(jsonl(rows), encoding="utf-8")
    except OSError as exc:
        raise InputError(
            f"cannot write the battle log: {exc.strerror or exc}", file=str(path)
        ) from None
    return len(rows)
