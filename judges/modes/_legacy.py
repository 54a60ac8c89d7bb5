"""What a judge mode that names no templates of its own hashes: every built-in template, as
every judge's identity did until 2974a1a (:func:`legacy_surface`)."""

from __future__ import annotations

from judges import _behavior_prompts as behavior_prompts
from judges import _prompts as prompts
from judges._legacy_templates import LEGACY_NAMES
from judges.modes import _grades_prompts as grades_prompts
from judges.modes import _logprobs_prompts as logprobs_prompts
from judges.modes import _text_prompts as text_prompts
from judges.modes.checklist import _prompts as checklist_prompts


def legacy_surface() -> dict[str, str]:
    """The templates every judge's identity hashed until 2974a1a (:data:`LEGACY_NAMES`), read
    now from where they live: what a mode that declares no templates of its own hashes, so a
    plugin mode's keys stay as they were and change whenever a built-in template does."""
    found = prompts.templates_of(
        prompts, text_prompts, logprobs_prompts, grades_prompts, checklist_prompts, behavior_prompts
    )
    return {name: found[name] for name in LEGACY_NAMES}
