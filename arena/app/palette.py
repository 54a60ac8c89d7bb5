"""Colours of the app: one per variant name (never per rank, so a variant keeps its colour
whatever the judge or the filter), from a colour-blind-safe palette, and text colours that
pass WCAG AA contrast (4.5:1) on the page's white background."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

OKABE_ITO: tuple[str, ...] = (
    "#0072B2",  # blue
    "#E69F00",  # orange
    "#009E73",  # bluish green
    "#CC79A7",  # reddish purple
    "#56B4E9",  # sky blue
    "#D55E00",  # vermillion
    "#000000",  # black
    "#F0E442",  # yellow
)
"""Okabe and Ito's palette, distinguishable with every common colour-vision deficiency."""

TEXT = "#262730"
"""Body text (Streamlit's)."""
MUTED_TEXT = "#4A4F5C"
"""Captions and help text: 8:1 on white (Streamlit's own grey is about 3.9:1)."""
BACKGROUND = "#FFFFFF"
AA = 4.5
"""WCAG AA's least contrast for normal-size text."""

PAGE_CSS = f"""<style>
[data-testid="stCaptionContainer"], [data-testid="stCaptionContainer"] p,
[data-testid="stWidgetLabel"] p, [data-testid="stMetricLabel"] p,
[data-testid="stMarkdownContainer"] small {{ color: {MUTED_TEXT} !important; opacity: 1; }}
[data-testid="stCode"] code span {{ color: {TEXT} !important; }}
</style>"""
"""The page's only style: captions, widget and metric labels in :data:`MUTED_TEXT`; code
in :data:`TEXT` (the syntax colours of JSON keys and strings are below 3:1)."""


def _slot(name: str) -> int:
    return int(hashlib.sha256(name.encode()).hexdigest(), 16) % len(OKABE_ITO)


def variant_colors(names: Iterable[str]) -> dict[str, str]:
    """A colour per variant name: its own slot of :data:`OKABE_ITO` (from a hash of the
    name), the next free one when two names of the set want the same slot (in name order,
    so the same set always gets the same colours, whatever the ranking)."""
    taken: dict[str, str] = {}
    used: set[int] = set()
    for name in sorted(set(names)):
        slot = _slot(name)
        for step in range(len(OKABE_ITO)):
            candidate = (slot + step) % len(OKABE_ITO)
            if candidate not in used or len(used) >= len(OKABE_ITO):
                break
        used.add(candidate)
        taken[name] = OKABE_ITO[candidate]
    return taken


def _channel(value: int) -> float:
    c = value / 255
    return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4


def luminance(color: str) -> float:
    """The relative luminance (WCAG) of ``#RRGGBB``."""
    hex_ = color.lstrip("#")
    r, g, b = (int(hex_[i : i + 2], 16) for i in (0, 2, 4))
    return 0.2126 * _channel(r) + 0.7152 * _channel(g) + 0.0722 * _channel(b)


def contrast(foreground: str, background: str = BACKGROUND) -> float:
    """The WCAG contrast ratio of two ``#RRGGBB`` colours (1 to 21)."""
    a, b = sorted((luminance(foreground), luminance(background)), reverse=True)
    return (a + 0.05) / (b + 0.05)


def text_on(fill: str) -> str:
    """Black or white, whichever reads better on ``fill``."""
    return "#000000" if contrast("#000000", fill) >= contrast("#FFFFFF", fill) else "#FFFFFF"
