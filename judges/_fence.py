"""Answers are data: model-written text enters a judge prompt only inside boundary tags.

Every prompt wraps each answer (and each tool-call summary) in tags such as
``<answer-1f0c9a2e>`` ... ``</answer-1f0c9a2e>``. The id is new for every prompt, yet the
same for the same prompt: it is a hash of a fixed, secret-free salt and everything the prompt
embeds, so the verdict cache and llama.cpp's prompt cache see identical prompts on a rerun,
while an answer cannot know the id of the prompt it will sit in (the id depends on the
answer itself). Forging is also ruled out without the id: before wrapping, any opening of a
tag of these names and every chat-template control token (``<|im_end|>``, ``[INST]``, ...)
in the embedded text is neutralised (its angle brackets become square ones), so the text can
neither close its own block nor end the turn.
"""

from __future__ import annotations

import hashlib
import re

#: Mixed into every boundary id; public on purpose (the ids need no secret, see above).
SALT = "agent-arena/judge-boundary/v1"
#: The tag names model-written text is wrapped in.
TAG_NAMES = ("answer", "tools")

_CONTROL = re.compile(
    r"<\|([^|<>\n]{0,40})\|>"  # Qwen/ChatML, Llama 3, Phi: <|im_end|>, <|eot_id|>
    r"|<((?:start|end)_of_turn|/?s|<SYS>|</SYS>)>"  # Gemma, Llama 2: <start_of_turn>, </s>
    r"|\[(/?INST)\]",  # Llama 2, Mistral
    re.IGNORECASE,
)


def _control(match: re.Match[str]) -> str:
    inner = next(g for g in match.groups() if g is not None)
    return f"[{inner.strip('<>')}]"


def _tag_opening(names: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile(rf"<(?=\s*/?\s*(?:{'|'.join(map(re.escape, names))})\b)", re.IGNORECASE)


_TAG = _tag_opening(TAG_NAMES)


def neutral(text: str, also: tuple[str, ...] = ()) -> str:
    """``text`` with every boundary-tag opening and chat-template control token defused:
    ``<|im_end|>`` becomes ``[im_end]``, ``</answer-x>`` becomes ``[/answer-x>``. No
    character is deleted, so no new token forms from the pieces. ``also``: more tag names
    to defuse (a prompt that fences text in tags of its own, e.g. ``path``)."""
    tag = _tag_opening(TAG_NAMES + also) if also else _TAG
    for _ in range(8):  # a token hidden in another one surfaces on the next pass
        cleaned = tag.sub("[", _CONTROL.sub(_control, text))
        if cleaned == text:
            break
        text = cleaned
    return text


def boundary_id(*parts: str | None) -> str:
    """The prompt's boundary id: 8 hex digits of sha256 over :data:`SALT` and its parts."""
    digest = hashlib.sha256(SALT.encode())
    for part in parts:
        digest.update(b"\0" + (part or "").encode())
    return digest.hexdigest()[:8]


def fenced(name: str, text: str, tag_id: str) -> str:
    """``text`` (already :func:`neutral`) between ``<name-id>`` and ``</name-id>``."""
    return f"<{name}-{tag_id}>\n{text}\n</{name}-{tag_id}>"
