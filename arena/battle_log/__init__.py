"""Battle logs in Chatbot Arena's public JSONL schema, both ways: rate any log
(:func:`load_battle_log`) and export a run's judged battles (:func:`export_battle_log`)."""

from arena.battle_log.options import LogCounts, Where, anchor_score, parse_where
from arena.battle_log.reader import load_battle_log
from arena.battle_log.writer import battle_log_rows, export_battle_log, jsonl, run_battle_log

__all__ = [
    "LogCounts",
    "Where",
    "anchor_score",
    "battle_log_rows",
    "export_battle_log",
    "jsonl",
    "load_battle_log",
    "parse_where",
    "run_battle_log",
]
