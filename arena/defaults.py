"""Names and defaults shared across layers, each declared once: the golden tiers, the default
pairwise judge, the bootstrap rounds of a rating's intervals and the built-in agent's tools.

A foundation module (stdlib only), so the CLI can build its parsers without heavy imports.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal, get_args


class Tier(StrEnum):
    """Critical cases gate every change; standard run nightly; pending are shown, never counted."""

    CRITICAL = "critical"
    STANDARD = "standard"
    PENDING = "pending"


ALL_TIERS = "all"
"""The tier choice that selects every case."""
TierChoice = Literal["critical", "standard", "pending", "all"]
"""A tier selection (a :class:`Tier` value or ``all``), as a type."""
TIER_NAMES: tuple[str, ...] = tuple(t.value for t in Tier)
"""The tiers in their gate order: critical, standard, pending."""
TIER_CHOICES: tuple[str, ...] = (*TIER_NAMES, ALL_TIERS)
"""Every valid tier selection (the ``--tier`` choices)."""
if get_args(TierChoice) != TIER_CHOICES:  # pragma: no cover - a guard on the two spellings
    raise AssertionError("TierChoice and Tier disagree")

DEFAULT_JUDGE = "local:qwen2.5-coder-1.5b"
"""The pairwise judge of ``arena judge``, ``arena gate`` and ``arena demo`` unless one is given."""

BOOTSTRAP_ROUNDS = 1000
"""Default bootstrap rounds of a rating's (or a judge accuracy's) 95% interval."""

TOOL_NAMES: tuple[str, ...] = (
    "search_web",
    "search_papers",
    "calculate",
    "extract_findings",
    "compare_sources",
    "write_file",
)
"""The built-in research agent's tools, in their order: a variant's ``tools:`` chooses among
them, and an agent that declares none is given all of them. Declared here, below the agents,
for the layers that check a variant; :mod:`arena.agents.research.tools` builds the same names
(its bytes are part of the built-in agent's version, so it keeps its own spelling; a test
holds the two equal)."""
