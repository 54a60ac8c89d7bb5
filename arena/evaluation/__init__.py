"""A stored run evaluated: its golden scores per variant (:mod:`arena.evaluation.run_scores`);
the ratings beside them are :mod:`arena.leaderboard`."""
