"""Write a run's judged battles as a battle log in Chatbot Arena's public schema.

One JSON object per line: ``model_a``, ``model_b``, ``winner``, ``question_id`` (the golden
case, the bootstrap unit), ``len_a`` / ``len_b`` (answer lengths in characters) and
``conv_metadata`` with FastChat's nested markdown counts (``header_count_a``,
``list_count_a``, ``bold_count_a`` and the ``_b`` twins), plus ``repeat``, ``judge`` and
``run_id``. Errored battles are left out. ``arena ratings --battles`` reads it back, style
counts included.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arena.errors import InputError
from arena.judged_battles import rated, run_outputs, select_battles
from arena.style_counts import markdown_metadata

if TYPE_CHECKING:
    from arena.judging.battle import Battle
    from arena.storage import Store


def battle_log_rows(battles: list[Battle], outputs: Mapping[int, str]) -> list[dict[str, Any]]:
    """Battle-log rows of the rated battles; ``outputs`` maps result id -> answer."""
    rows = []
    for b in rated(battles):
        meta: dict[str, Any] = {}
        for side, result_id in (("a", b.result_a_id), ("b", b.result_b_id)):
            for stem, counts in markdown_metadata(outputs.get(result_id, "")).items():
                meta[f"{stem}_{side}"] = counts
        rows.append(
            {
                "model_a": b.variant_a,
                "model_b": b.variant_b,
                "winner": b.winner,
                "question_id": b.case_id,
                "repeat": b.repeat,
                "len_a": b.len_a,
                "len_b": b.len_b,
                "conv_metadata": meta,
                "judge": b.judge.key,
                "run_id": b.run_id,
            }
        )
    return rows


def export_battle_log(
    store: Store, path: str | Path, run_id: int | None = None, *, judge_key: str | None = None
) -> int:
    """Write the run's battles from one judge (default: latest run, latest judge) as JSONL.

    Returns the number of battles written.

    Raises:
        InputError: when the run has no rated battles from that judge.
    """
    run = store.run(run_id)
    rows = battle_log_rows(select_battles(store, run.id, judge_key), run_outputs(store, run.id))
    if not rows:
        raise InputError(f"run {run.id} has no judged battles to export: run `arena judge` first")
    text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)
    target = Path(path)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise InputError(
            f"cannot write the battle log: {exc.strerror or exc}", file=str(path)
        ) from None
    return len(rows)
