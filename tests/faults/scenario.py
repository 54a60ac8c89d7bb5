"""The fault tests' shared setup: a dataset, variants and judges pointing at a fault server."""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.cli import main

API_KEY = "sk-fault-test-5b1c0d9e8f7a"
"""The key the fault server may echo in an error body: never stored, never printed."""
KEY_ENV = "ARENA_FAULT_TEST_KEY"
MODES = ("text", "logprobs", "grades")
RATES = (0.2, 0.5)


@dataclass
class Files:
    """Input files of one scenario and its database."""

    root: Path
    base_url: str
    db: str
    dataset: Path
    variants: list[Path]
    inputs: dict[str, str]

    def judge(self, mode: str, timeout: float = 3.0) -> Path:
        """A judge YAML for ``mode`` on the fault server."""
        path = self.root / f"judge-{mode}.yaml"
        path.write_text(
            f"model: {{spec: 'openai:judge', base_url: '{self.base_url}', "
            f"api_key_env: {KEY_ENV}, timeout: {timeout}}}\nmode: {mode}\n"
        )
        return path

    def run_args(self, *extra: str) -> list[str]:
        """``arena run`` over every variant and case, as JSON."""
        return [
            "run",
            "--variants",
            *map(str, self.variants),
            "--dataset",
            str(self.dataset),
            "--concurrency",
            "4",
            "--db",
            self.db,
            "--json",
            *extra,
        ]

    def judge_args(self, mode: str, *extra: str) -> list[str]:
        """``arena judge`` of the latest run, as JSON."""
        return [
            "judge",
            "--judge",
            str(self.judge(mode)),
            "--concurrency",
            "4",
            "--db",
            self.db,
            "--json",
            *extra,
        ]


def write_files(
    root: Path,
    base_url: str,
    db: str,
    *,
    cases: int = 8,
    models: tuple[str, ...] = ("strong", "weak", "plain"),
    timeout: float = 3.0,
) -> Files:
    """A dataset of ``cases`` questions and one variant per model name."""
    root.mkdir(parents=True, exist_ok=True)
    inputs = {f"F-{i:02d}": f"Fault question number {i}?" for i in range(1, cases + 1)}
    dataset = root / "faults.json"
    dataset.write_text(
        json.dumps(
            {
                "name": "faults",
                "available_tools": ["calculate"],
                "test_cases": [
                    {"id": cid, "input": text, "category": "happy_path", "tier": "critical"}
                    for cid, text in inputs.items()
                ],
            }
        )
    )
    variants = []
    for name in models:
        path = root / f"{name}.yaml"
        path.write_text(
            f"name: {name}\nagent: react\nmodel: {{spec: 'openai:{name}', "
            f"base_url: '{base_url}', api_key_env: {KEY_ENV}, "
            f"timeout: {timeout}}}\ntools: []\nmax_steps: 2\n"
        )
        variants.append(path)
    return Files(root, base_url, db, dataset, variants, inputs)


def expected_answer(model: str, question: str) -> str:
    """What the fault server answers ``model`` for ``question`` (see its docstring)."""
    return f"{model} answer: {hashlib.sha256(question.encode()).hexdigest()[:8]}"


def cli(args: list[str]) -> tuple[int, str, str]:
    """``arena ARGS`` in-process: (exit code, stdout, stderr); a crash is exit code -1."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(args)
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
        except Exception:
            import traceback

            traceback.print_exc()
            code = -1
    return code, out.getvalue(), err.getvalue()


def cli_json(args: list[str]) -> tuple[dict[str, Any], str]:
    """``arena ARGS --json``: the document and stderr; fails on a non-zero exit."""
    code, out, err = cli(args)
    assert code == 0, f"arena {' '.join(args[:1])} exited {code}:\n{err[-3000:]}"
    return json.loads(out), out + err


def resent(before: list[tuple[str, str, str]], after: list[tuple[str, str, str]]) -> list[str]:
    """Request bodies of ``after`` that were already answered usably in ``before``, or sent
    twice in ``after``: a rerun on a healthy server that sends exactly the missing calls has
    none."""
    answered = {body for body, kind, _ in before if kind == "ok"}
    counts = Counter(body for body, _, _ in after)
    return sorted({body for body in counts if body in answered or counts[body] > 1})
