"""The checklist judge, in one folder: the golden items a case is checked against
(:mod:`._items`), the mode asking one YES/NO question per item (:mod:`._mode`), how the
items' probabilities make an answer's score (:mod:`._score`), and the per-item view of a
stored verdict for ``arena show`` and the app (:mod:`._view`)."""
