"""Build the shipped human-preference set **with ties** ``data/human-preference/pandalm/``.

Run:  python -m benchmarks pandalm_subset --repo /path/to/PandaLM [--out FOLDER]

``--repo`` is a clone of github.com/WeOpenML/PandaLM (a bare git directory works: the file is
read from ``HEAD`` with ``git show``). Its human-annotated test set (:data:`PATH`) holds 999
pairs of answers by 7B models to one instruction each, every pair labelled by three
annotators: 1 or 2 (that response is better) or 0 (a tie). The selection is deterministic:

- both responses are text (six pairs hold a JSON ``true`` instead and are left out);
- instruction + input + both responses fit in :data:`MAX_CHARS` characters (short pairs, so
  the embedded 1.5B model judges each in seconds), in the file's order;
- the label is the **majority** of the three annotators (at least two agree); a pair where all
  three differ would be dropped (none is, at the pinned commit: every pair has a majority).

The held-out part is a seeded draw of :data:`HELD_OUT_PAIRS` pairs
(``random.Random(HELD_OUT_SEED)``), stored, so the split never depends on the run that reads
it. Nothing is tuned on them. (Drawn by pairs, not by whole questions: ties cluster on a few
questions, and a draw of whole questions held out no tie at all.)

Written: ``output-1.jsonl`` and ``output-2.jsonl`` (arena JSONL answer files, one per PandaLM
response column, read by ``arena judge --outputs``), ``votes.jsonl`` (the majority label of
every pair as a battle-log row, ``winner`` ``tie`` for a tie, read by ``arena agree``),
``held_out.json``, ``SOURCE.json`` (repository, commit, path, rule, licence) and ``LICENSE``
(copied from the repository).
"""

from __future__ import annotations

import json
import random
import subprocess
from collections import Counter
from pathlib import Path

from benchmarks.common import build_set_main

REPOSITORY = "https://github.com/WeOpenML/PandaLM"
PATH = "data/testset-v1.json"
#: Most characters of instruction + input + both responses.
MAX_CHARS = 400
HELD_OUT_SEED = 50
#: The size of the held-out part.
HELD_OUT_PAIRS = 50
MODELS = ("pandalm-response-1", "pandalm-response-2")
VOTER = "human:pandalm"
ANNOTATORS = ("annotator1", "annotator2", "annotator3")
WINNERS = {0: "tie", 1: "model_a", 2: "model_b"}


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "--git-dir", str(_git_dir(repo)), *args],
        check=True,
        capture_output=True,
        text=True,
    ).stdout


def _git_dir(repo: Path) -> Path:
    return repo / ".git" if (repo / ".git").exists() else repo


def question(item: dict[str, object]) -> str:
    """The question shown to the judge: the instruction, then its input when it has one."""
    instruction, given = str(item["instruction"]).strip(), str(item["input"]).strip()
    return f"{instruction}\n\n{given}" if given else instruction


def majority(item: dict[str, object]) -> int | None:
    """The label at least two of the three annotators gave (0 tie, 1, 2), else None."""
    label, count = Counter(int(str(item[a])) for a in ANNOTATORS).most_common(1)[0]
    return label if count >= 2 else None


def select(items: list[dict[str, object]]) -> tuple[list[dict[str, object]], dict[str, int]]:
    """The selected pairs in file order (``id``, ``question``, both responses, ``label``) and
    how many were left out for each reason."""
    chosen: list[dict[str, object]] = []
    dropped = Counter({"not text": 0, "too long": 0, "no majority": 0})
    for item in items:
        one, two = item["response1"], item["response2"]
        if not isinstance(one, str) or not isinstance(two, str):
            dropped["not text"] += 1
            continue
        size = sum(len(str(item[k])) for k in ("instruction", "input")) + len(one) + len(two)
        if size > MAX_CHARS:
            dropped["too long"] += 1
            continue
        label = majority(item)
        if label is None:
            dropped["no majority"] += 1
            continue
        chosen.append(
            {
                "id": f"pandalm-{int(str(item['idx'])):03d}",
                "question": question(item),
                "response1": one,
                "response2": two,
                "label": label,
            }
        )
    return chosen, dict(dropped)


def held_out(pairs: list[dict[str, object]]) -> list[str]:
    """A seeded draw of :data:`HELD_OUT_PAIRS` of the ids, sorted."""
    ids = sorted(str(p["id"]) for p in pairs)
    return sorted(random.Random(HELD_OUT_SEED).sample(ids, HELD_OUT_PAIRS))


def _jsonl(rows: list[dict[str, object]]) -> str:
    return "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)


def write(repo: Path, out: Path) -> int:
    """Write the set into ``out``; returns the number of pairs."""
    pairs, dropped = select(json.loads(_git(repo, "show", f"HEAD:{PATH}")))
    commit = _git(repo, "rev-parse", "HEAD").strip()
    out.mkdir(parents=True, exist_ok=True)
    for column, model in zip(("response1", "response2"), MODELS, strict=True):
        rows = [
            {"question_id": p["id"], "question": p["question"], "answer": p[column], "model": model}
            for p in pairs
        ]
        (out / f"output-{model[-1]}.jsonl").write_text(_jsonl(rows))
    votes = [
        {
            "question_id": p["id"],
            "model_a": MODELS[0],
            "model_b": MODELS[1],
            "winner": WINNERS[int(str(p["label"]))],
            "judge": VOTER,
            "turn": 1,
        }
        for p in pairs
    ]
    (out / "votes.jsonl").write_text(_jsonl(votes))
    held = held_out(pairs)
    (out / "held_out.json").write_text(json.dumps(held, indent=1) + "\n")
    labels = Counter(WINNERS[int(str(p["label"]))] for p in pairs)
    source = {
        "repository": REPOSITORY,
        "commit": commit,
        "path": PATH,
        "licence": "Apache-2.0 (LICENSE beside this file, copied from the repository)",
        "max_chars": MAX_CHARS,
        "rule": "every pair whose response1 and response2 are text and whose instruction + "
        "input + response1 + response2 has at most max_chars characters, in file order; "
        "question = instruction, then a blank line and the input when there is one; "
        "label = the one at least two of annotator1-3 gave (0 = tie), a pair without a "
        "majority dropped; id = 'pandalm-' + the pair's idx",
        "dropped": dropped,
        "held_out": f"random.Random({HELD_OUT_SEED}).sample(sorted ids, {HELD_OUT_PAIRS}), sorted",
        "pairs": len(pairs),
        "held_out_pairs": len(held),
        "labels": {k: labels[k] for k in ("model_a", "model_b", "tie")},
        "built_by": "benchmarks/pandalm_subset.py",
    }
    (out / "SOURCE.json").write_text(json.dumps(source, indent=1) + "\n")
    (out / "LICENSE").write_text(_git(repo, "show", "HEAD:LICENSE"))
    return len(pairs)


def main(argv: list[str] | None = None) -> int:
    """Build the set."""
    return build_set_main(__doc__, write, "pandalm", argv)


if __name__ == "__main__":
    raise SystemExit(main())
