"""Battle logs in Chatbot Arena's public JSONL schema, both ways: rate any log
(:func:`arena.battle_log.reader.load_battle_log`) and export a run's judged battles
(:mod:`arena.battle_log.writer`); :mod:`arena.records.log_rows` reads one row, for vote files
too."""
