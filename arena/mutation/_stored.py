"""The latest stored mutation pass of a dataset, as ``arena health`` shows it."""

from __future__ import annotations

from typing import Any

from arena.display import percent
from arena.storage import Store


def latest_mutation_summary(store: Store, dataset: str) -> dict[str, Any] | None:
    """The newest mutation pass of the dataset named ``dataset``: its score (and the mutants
    ``killed`` of those ``counted``), variant, date and survivors (id and why), or None when
    none is stored."""
    stored = store.latest_mutation(dataset)
    if stored is None:
        return None
    mutants = stored.report.get("mutants", [])
    survivors = [
        {"id": m["id"], "why_survived": m["why_survived"]}
        for m in mutants
        if not m.get("killed") and not m.get("equivalent") and not m.get("errored")
    ]
    return {
        "score": stored.score,
        "dataset": stored.dataset,
        "variant": stored.variant,
        "created_at": stored.created_at.isoformat(),
        "mutants": len(mutants),
        "killed": sum(1 for m in mutants if m.get("killed")),
        "counted": sum(1 for m in mutants if not m.get("equivalent") and not m.get("errored")),
        "survivors": survivors,
    }


def mutation_lines(summary: dict[str, Any] | None, dataset: str) -> list[str]:
    """The lines ``arena health`` prints about the dataset's latest mutation pass."""
    if summary is None:
        return [f"mutation score of {dataset}: none stored (run `arena mutate`)"]
    count = len(summary["survivors"])
    lines = [
        f"mutation score of {dataset}: {percent(summary['score'])}, {summary['killed']} of "
        f"{summary['counted']} mutants killed ({summary['variant']}, "
        f"{summary['created_at'][:10]}; {count} survivor{'' if count == 1 else 's'} of "
        f"{summary['mutants']} mutants)"
    ]
    lines += [f"  survived {s['id']}: {s['why_survived']}" for s in summary["survivors"]]
    return lines
