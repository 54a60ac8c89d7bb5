"""What is registered, kind by kind, with each entry's one-line summary (for ``arena --help``)."""

from __future__ import annotations

from arena.registry import REGISTRIES

WIDTH = 100


def _line(name: str, summary: str, pad: int) -> str:
    text = f"    {name.ljust(pad)}  {summary}"
    return text if len(text) <= WIDTH else text[: WIDTH - 3] + "..."


def registered_text() -> str:
    """Every extension kind with its entries (built-ins, run-time and entry-point ones)."""
    lines = ["extensions (built-in and installed; see docs/extending.md):"]
    for group, registry in REGISTRIES.items():
        summaries = registry.summaries()
        pad = max((len(name) for name in summaries), default=0)
        lines.append(f"  {registry.kind}s (agent_arena.{group}):")
        lines.extend(_line(name, text, pad) for name, text in summaries.items())
    return "\n".join(lines)
