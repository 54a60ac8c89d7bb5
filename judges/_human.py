"""People as judges: ``human:NAME`` specs and voter names.

A person is the model provider ``human`` (:mod:`arena.models.providers._human`), so
``human:alice`` is a valid spec and every human vote is a battle like any other, with its own
judge key (and its own Bradley-Terry ratings).
"""

from __future__ import annotations

import re
import unicodedata
from typing import TYPE_CHECKING

from arena.errors import InputError
from arena.models.providers._human import HUMAN

if TYPE_CHECKING:
    from judges._types import JudgeSpec

_NAME = re.compile(r"^[\w.@+-]{1,64}$")
# Unicode categories never allowed in a name: controls, format characters (zero-width,
# direction marks), private use, unassigned, line and paragraph separators.
_HIDDEN = frozenset({"Cc", "Cf", "Co", "Cn", "Cs", "Zl", "Zp"})
_CJK = frozenset({"CJK", "HIRAGANA", "KATAKANA", "HANGUL", "HALFWIDTH", "IDEOGRAPHIC"})


def voter_name(name: str) -> str:
    """A voter's name as one person: NFKC-normalised, case-folded, stripped, inner spaces as
    ``_`` (``Ann Lee``, ``ANN LEE`` and full-width ``ＡＮＮ ＬＥＥ`` are all ``ann_lee``).

    Raises:
        InputError: (field ``name``) for an invisible or control character (a zero-width
            space, a direction mark), letters of two scripts (a Cyrillic ``а`` among Latin
            letters), or anything but 1-64 letters, digits and ``._@+-``.
    """
    clean = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    clean = clean.strip().replace(" ", "_")
    hidden = [c for c in clean if unicodedata.category(c) in _HIDDEN]
    if hidden:
        codes = ", ".join(f"U+{ord(c):04X}" for c in dict.fromkeys(hidden))
        raise InputError(
            f"voter name {name!r} holds an invisible or control character ({codes})", field="name"
        )
    if not _NAME.match(clean):
        raise InputError(
            f"voter name must be 1-64 letters, digits or . _ @ + -, got {name!r}", field="name"
        )
    scripts = sorted({_script(c) for c in clean if c.isalpha()})
    if len(scripts) > 1:
        raise InputError(
            f"voter name {name!r} mixes letters of scripts {', '.join(scripts)} "
            "(a look-alike of another name)",
            field="name",
        )
    return clean


def _script(letter: str) -> str:
    """The script a letter belongs to, as the first word of its Unicode name (Chinese,
    Japanese and Korean count as one, as their names mix them)."""
    head = unicodedata.name(letter, "UNKNOWN").split()[0]
    return "CJK" if head in _CJK else head


def same_person(label: str, voter: str) -> bool:
    """Whether a stored ``human:NAME`` judge label is ``voter`` (both names normalised by
    :func:`voter_name`; a stored name that no longer validates is nobody's)."""
    head, _, name = label.partition(":")
    if head != HUMAN:
        return False
    try:
        return voter_name(name) == voter_name(voter)
    except InputError:
        return False


def human_judge(name: str) -> JudgeSpec:
    """The judge spec of one person: ``human:NAME`` (kind ``human``).

    Args:
        name: the voter's name.

    Returns:
        The spec their votes are stored under.
    """
    from arena.models._config import ModelConfig
    from judges._types import JudgeSpec

    return JudgeSpec(kind="human", model=ModelConfig(spec=f"{HUMAN}:{voter_name(name)}"))


def is_human_label(judge: str) -> bool:
    """A person's judge as it appears in a battle log (``human:NAME``): a label whose
    provider declares :attr:`~arena.models.providers._base.Provider.person`."""
    from arena.models.providers._registry import PROVIDERS

    head, sep, _ = judge.partition(":")
    if not sep or "/" in judge or head not in PROVIDERS:
        return False
    return bool(getattr(PROVIDERS.lookup(head), "person", False))
