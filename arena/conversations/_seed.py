"""The simulated user's seed: a function of the case and the repeat, never of the variant."""

from __future__ import annotations

import hashlib

#: Seeds stay below 2**31 so every provider's integer field accepts them.
SEED_RANGE = 2**31 - 1


def simulator_seed(case_id: str, repeat: int) -> int:
    """The seed the simulated user's model is called with for ``case_id``'s ``repeat``.

    It depends on the case and the repeat only, so two variants meet the same simulated user
    (the same seed, hence the same cached replies) whenever the agents' replies are the same,
    and every repeat meets a differently seeded one.
    """
    digest = hashlib.sha256(f"arena-simulated-user\x00{case_id}\x00{repeat}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % SEED_RANGE
