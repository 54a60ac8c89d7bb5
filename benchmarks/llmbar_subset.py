"""Build the shipped human-preference set ``data/human-preference/llmbar/`` from LLMBar.

Run:  python -m benchmarks llmbar_subset --repo /path/to/LLMBar [--out data/human-preference/llmbar]

``--repo`` is a clone of github.com/princeton-nlp/LLMBar (a bare git directory works: files are
read from ``HEAD`` with ``git show``). The selection is deterministic: every pair of the
subsets in :data:`SUBSETS` whose question plus both outputs fit in that subset's character
budget (short items, so the embedded 1.5B model judges them in seconds), in the file's order.
The held-out ids are drawn once with ``random.Random(HELD_OUT_SEED)`` and stored, so the split
never depends on the run that reads it.

Written: ``output-1.jsonl`` and ``output-2.jsonl`` (arena JSONL answer files, one per LLMBar
output column, read by ``arena judge --outputs``), ``votes.jsonl`` (the human label of every
pair as a battle-log row, read by ``arena agree``), ``held_out.json`` and ``SOURCE.json``
(repository, commit, paths, selection rule).
"""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path

from benchmarks.common import build_set_main

REPOSITORY = "https://github.com/princeton-nlp/LLMBar"
#: (LLMBar path, id prefix, most characters of question + both outputs)
SUBSETS = (
    ("Dataset/LLMBar/Natural/dataset.json", "natural", 900),
    ("Dataset/LLMBar/Adversarial/GPTOut/dataset.json", "gptout", 600),
)
HELD_OUT_SEED = 26
HELD_OUT_SHARE = 0.4
MODELS = ("llmbar-output-1", "llmbar-output-2")
VOTER = "human:llmbar"


def _git_show(repo: Path, path: str) -> str:
    return subprocess.run(
        ["git", "-C", str(repo), "show", f"HEAD:{path}"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout


def select(repo: Path) -> list[dict[str, object]]:
    """The selected pairs, in order: ``id``, ``input``, ``output_1``, ``output_2``, ``label``."""
    chosen: list[dict[str, object]] = []
    for path, prefix, budget in SUBSETS:
        for index, item in enumerate(json.loads(_git_show(repo, path))):
            size = len(item["input"]) + len(item["output_1"]) + len(item["output_2"])
            if size <= budget:
                chosen.append({"id": f"{prefix}-{index:03d}", **item})
    return chosen


def held_out(ids: list[str]) -> list[str]:
    """The held-out ids: a seeded draw of :data:`HELD_OUT_SHARE` of them, sorted."""
    count = round(len(ids) * HELD_OUT_SHARE)
    return sorted(random.Random(HELD_OUT_SEED).sample(sorted(ids), count))


def _jsonl(rows: list[dict[str, object]]) -> str:
    return "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)


def write(repo: Path, out: Path) -> int:
    """Write the set into ``out``; returns the number of pairs."""
    pairs = select(repo)
    commit = subprocess.run(
        ["git", "-C", str(repo), "rev-parse", "HEAD"], check=True, capture_output=True, text=True
    ).stdout.strip()
    out.mkdir(parents=True, exist_ok=True)
    for column, model in zip(("output_1", "output_2"), MODELS, strict=True):
        rows = [
            {"question_id": p["id"], "question": p["input"], "answer": p[column], "model": model}
            for p in pairs
        ]
        (out / f"{model.removeprefix('llmbar-')}.jsonl").write_text(_jsonl(rows))
    votes = [
        {
            "question_id": p["id"],
            "model_a": MODELS[0],
            "model_b": MODELS[1],
            "winner": "model_a" if p["label"] == 1 else "model_b",
            "judge": VOTER,
            "turn": 1,
        }
        for p in pairs
    ]
    (out / "votes.jsonl").write_text(_jsonl(votes))
    ids = [str(p["id"]) for p in pairs]
    (out / "held_out.json").write_text(json.dumps(held_out(ids), indent=1) + "\n")
    source = {
        "repository": REPOSITORY,
        "commit": commit,
        "licence": "MIT (LICENSE beside this file, copied from the repository)",
        "subsets": [{"path": p, "id_prefix": x, "max_chars": b} for p, x, b in SUBSETS],
        "rule": "every pair whose input + output_1 + output_2 has at most max_chars characters, "
        "in file order; id = prefix + the pair's 0-based index in its file",
        "held_out": f"random.Random({HELD_OUT_SEED}).sample(sorted ids, "
        f"round({HELD_OUT_SHARE} * n)), sorted",
        "pairs": len(pairs),
        "built_by": "benchmarks/llmbar_subset.py",
    }
    (out / "SOURCE.json").write_text(json.dumps(source, indent=1) + "\n")
    (out / "LICENSE").write_text(_git_show(repo, "LICENSE"))
    return len(pairs)


def main(argv: list[str] | None = None) -> int:
    """Build the set."""
    return build_set_main(__doc__, write, "llmbar", argv)


if __name__ == "__main__":
    raise SystemExit(main())
