"""What makes two judgements interchangeable: the judge's identity and the verdict cache key.

A judge's identity hashes everything that shapes what it sees and how it reads it: its spec
(mode, tie margin, trajectories, prompt version; not how the two orders combine, nor
whether it shows graph paths, which only the requests that show them carry), its
model's cache identity (spec, sampling, endpoint, chat template), the text of its mode's
prompt templates (:func:`identity_templates`) and the version of the injection detector. A
verdict's key adds the conversations the mode opens for that ordered pair, fully rendered:
the case's query, reference and expectations and both answers as the judge reads them (with
their paths through the graph and the graph templates, and what their agents did and the
action templates, when shown). Editing any of these makes the next ``arena judge`` ask
again; nothing else does.

Each mode owns its templates (:meth:`~judges.modes._base.JudgeMode.templates`): editing one
mode's template re-asks that mode's verdicts (and those of the modes that ask through it:
``blend`` and ``auto`` through ``checklist``), never another's. Until 2974a1a every judge's
identity hashed one dict, every template of ``judges/_prompts.py`` (:data:`LEGACY_NAMES`);
so that no cached verdict is lost, a mode whose templates are all, byte for byte, as they
were then keeps hashing that same dict, frozen (:mod:`judges._legacy_templates`), and a mode
whose templates changed hashes its own instead (:func:`identity_templates`).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from langchain_core.messages import BaseMessage

from judges import _action_prompts as action_prompts
from judges import _conversation_prompts as conversation_prompts
from judges import _graph_prompts as graph_prompts
from judges import _prompts as prompts
from judges._injection import DETECTOR_VERSION
from judges._legacy_templates import LEGACY_NAMES, TEMPLATES
from judges._parsing import reading_margin
from judges._types import JudgeSpec, PairRequest
from judges.modes import get_mode
from judges.modes._base import JudgeMode

# Bumped whenever what a verdict key covers changes.
KEY_FORMAT = 3


def _sha(value: Any) -> str:
    blob = json.dumps(value, sort_keys=True, default=str)
    return hashlib.sha256(blob.encode()).hexdigest()


def identity_templates(mode: JudgeMode) -> dict[str, str]:
    """The templates ``mode``'s judge identity hashes.

    While every template of the mode (:meth:`~judges.modes._base.JudgeMode.templates`) is
    byte-equal to the one of that name at 2974a1a, the dict every identity hashed then
    (frozen: an edit of another mode's template leaves it alone); once one differs, or is
    new, the mode's own templates. So an unchanged mode keeps its keys, and an edited one
    changes its own only.
    """
    own = mode.templates()
    if all(TEMPLATES.get(name) == text for name, text in own.items()):
        return {name: TEMPLATES[name] for name in LEGACY_NAMES}
    return own


def conversation_templates() -> dict[str, str]:
    """Every template of :mod:`judges._conversation_prompts`, read now: part of the key of a
    conversation verdict only, so one-message verdict keys stay as they were."""
    examples = repr(conversation_prompts.CHECKLIST_EXAMPLES)
    return {**prompts.templates_of(conversation_prompts), "CHECKLIST_EXAMPLES": examples}


def graph_templates() -> dict[str, str]:
    """Every template of :mod:`judges._graph_prompts`, read now: part of the key of a
    verdict whose request shows both answers' paths only, so every other key stays as it
    was."""
    return prompts.templates_of(graph_prompts)


def action_templates() -> dict[str, str]:
    """Every template of :mod:`judges._action_prompts`, read now: part of the key of a
    verdict whose request shows both answers' actions only, so every other key stays as it
    was."""
    return prompts.templates_of(action_prompts)


def judge_identity(spec: JudgeSpec) -> str:
    """Hash of the judge spec, its model's cache identity and its mode's prompt templates.

    Args:
        spec: the judge.

    Returns:
        A hex digest that changes whenever the judge would judge differently.
    """
    mode = get_mode(spec.mode)
    model = mode.model_config(spec.model)
    # How the two orders combine changes no single verdict, and a margin calibrated on the
    # run applies to the combined outcome only: each order is read with reading_margin.
    # Selective settings only decide which verdicts are given afterwards. Showing paths is
    # in the rendered request and the graph templates of the verdict key: a pair without
    # paths is judged as without the option, and shares its verdicts.
    fields = spec.model_dump(mode="json", exclude={"combine", "selective", "with_graph_path"})
    fields["tie_margin"] = reading_margin(spec)
    return _sha(
        {
            "format": KEY_FORMAT,
            "spec": fields,
            "model": model.cache_identity(),
            "templates": identity_templates(mode),
            "detector": DETECTOR_VERSION,  # cached verdicts carry its marks
        }
    )


def _rendered(messages: list[BaseMessage]) -> list[list[Any]]:
    return [[m.type, m.content] for m in messages]


def verdict_key(spec: JudgeSpec, request: PairRequest) -> str:
    """Cache key of one ordered judgement.

    Args:
        spec: the judge.
        request: the pair, in the order shown.

    Returns:
        A hex digest of the judge's identity and the rendered request.
    """
    conversations = get_mode(spec.mode).conversations(request)
    key: dict[str, Any] = {
        "judge": judge_identity(spec),
        "requests": [_rendered(c) for c in conversations],
    }
    if request.is_conversation:
        key["conversation_templates"] = conversation_templates()
    if graph_prompts.shows_paths(request):
        key["graph_templates"] = graph_templates()
    if action_prompts.shows_actions(request):
        key["action_templates"] = action_templates()
    if request.query_untrusted:  # its verdicts carry other injection marks
        key["query_untrusted"] = True
    return _sha(key)
