"""Style counts of one answer: markdown headers, list items and bold spans.

Counted the way FastChat's arena analysis counts them (``add_markdown_info.py``): fenced code
blocks are removed first; a header is a line starting with one to six ``#`` and a space; a
list item is a line starting with ``1.`` or ``-``/``*``/``+`` and a space (indented or not);
bold is ``**text**`` or ``__text__`` within one line. These feed style control
(``--style-control markdown``) next to answer length.
"""

from __future__ import annotations

import re

_CODE = re.compile(r"```[^`]*```")
_HEADERS = {f"h{k}": re.compile(rf"^#{{{k}}}\s", re.MULTILINE) for k in range(1, 7)}
_LISTS = {
    "ordered": re.compile(r"^\s*\d+\.\s", re.MULTILINE),
    "unordered": re.compile(r"^\s*[-*+]\s", re.MULTILINE),
}
_BOLD = {"**": re.compile(r"\*\*[^*\n]+\*\*"), "__": re.compile(r"__[^_\n]+__")}
#: Style count name -> FastChat's ``conv_metadata`` key stem (``<stem>_a`` / ``<stem>_b``).
METADATA_KEYS: dict[str, str] = {
    "headers": "header_count",
    "lists": "list_count",
    "bold": "bold_count",
}


def markdown_metadata(text: str) -> dict[str, dict[str, int]]:
    """FastChat's nested counts of one answer: ``{"header_count": {"h1": 0, ...}, ...}``."""
    plain = _CODE.sub("", text)
    groups = (("header_count", _HEADERS), ("list_count", _LISTS), ("bold_count", _BOLD))
    return {
        stem: {key: len(pattern.findall(plain)) for key, pattern in patterns.items()}
        for stem, patterns in groups
    }


def markdown_counts(text: str) -> dict[str, int]:
    """Totals of one answer by style count name: ``headers``, ``lists``, ``bold``."""
    meta = markdown_metadata(text)
    return {name: sum(meta[stem].values()) for name, stem in METADATA_KEYS.items()}
