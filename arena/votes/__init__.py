"""People's votes: blind pairs shown to people and their ballots (:func:`cast_vote`, one
vote per person per unordered pair), people's votes joined to a run's battles, and the
escalation queue of pairs the judge left to people."""

from arena.errors import AlreadyVoted
from arena.votes._ballots import (
    VOTE_CHOICES,
    VotePair,
    cast_vote,
    default_voter,
    next_pair,
    open_pairs,
    vote_counts,
)
from arena.votes._escalation import Escalation, RankInterval, escalation_queue, queue_counts
from arena.votes._people import (
    labelled_battles,
    labelled_pairs,
    pending_escalations,
    with_people_votes,
)

__all__ = [
    "VOTE_CHOICES",
    "AlreadyVoted",
    "Escalation",
    "RankInterval",
    "VotePair",
    "cast_vote",
    "default_voter",
    "escalation_queue",
    "labelled_battles",
    "labelled_pairs",
    "next_pair",
    "open_pairs",
    "pending_escalations",
    "queue_counts",
    "vote_counts",
    "with_people_votes",
]
