"""Which scoring rules made a score: :data:`RULES_VERSION`.

Every stored score and every baseline records the version of the rules that graded it, so a
grade made by older rules is never compared with today's as if equal: keyword grades are
re-scored from the stored results (no model call), other grades are marked "graded by older
rules". Bump :data:`RULES_VERSION` (and say so in CHANGELOG.md) in the same change as any edit
to ``arena/scoring`` or a golden check that can change a score, a pass or a fail reason of the
same result against the same case (docs/extending.md, "Changing the scoring rules").
"""

from __future__ import annotations

RULES_VERSION = 1
"""The scoring rules' version (1: agent-arena 0.2.0). 0 marks a grade stored before rules
were versioned (agent-arena 0.1.0): made by older rules, whichever they were."""


def older_rules_note(what: str, version: int, command: str) -> str:
    """The line saying ``what`` was graded by older rules, and the command that re-grades it."""
    return (
        f"{what} graded by older rules (scoring rules {version}, this is {RULES_VERSION}): "
        f"run `{command}`"
    )
