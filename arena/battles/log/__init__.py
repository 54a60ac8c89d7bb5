"""Battle logs in Chatbot Arena's public JSONL schema, both ways: rate any log
(:func:`arena.battles.log.reader.load_battle_log`) and export a run's judged battles
(:mod:`arena.battles.log.writer`); :mod:`arena.battles.log.rows` reads one row, for vote files
too."""
