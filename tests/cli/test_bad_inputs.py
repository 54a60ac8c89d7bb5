"""Every bad input of issue 9, defect 7: exit 2, a message naming the file, case and field (or
the flag), no traceback, and nothing written to the database."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from arena.cli import main
from arena.models import register_fake
from tests.support.cli_args import run_argv

pytestmark = pytest.mark.unit

UNSET_KEY = "ARENA_TEST_KEY_THAT_IS_NEVER_SET"
CASES: list[dict[str, object]] = [
    {
        "id": "B-01",
        "input": "What is 2+2?",
        "category": "happy_path",
        "tier": "critical",
        "expected_output_contains": ["4"],
    },
]


@dataclass
class Inputs:
    """A folder with good files, a database holding one judged-ready run, and helpers."""

    root: Path
    db_path: Path
    dataset: Path
    variants: list[Path]

    @property
    def db(self) -> str:
        return f"sqlite:///{self.db_path}"

    def write(self, name: str, content: str | bytes) -> Path:
        path = self.root / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
        return path

    def run(
        self,
        *,
        variants: list[Path] | None = None,
        dataset: Path | None = None,
        db: str | None = None,
        extra: tuple[str, ...] = (),
    ) -> list[str]:
        return run_argv(variants or self.variants, dataset or self.dataset, db or self.db, *extra)

    def variant(self, name: str, body: str) -> Path:
        return self.write(f"{name}.yaml", f"name: {name}\n{body}")


def _dataset_json(cases: list[dict[str, object]]) -> str:
    return json.dumps(
        {"name": "bad-inputs", "available_tools": ["calculate"], "test_cases": cases},
        ensure_ascii=False,
    )


ALIAS_BOMB = (
    "\n".join(
        ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
        + [
            f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join([f'*{chr(97 + i)}'] * 10)}]"
            for i in range(6)
        ]
    )
    + "\nname: bomb\n"
)


def _not_utf8_prompt(i: Inputs) -> list[str]:
    i.write("latin1-prompt.md", "Réponds en français.".encode("latin-1"))
    return i.run(
        variants=[
            i.variant(
                "prompted",
                "model: {spec: 'fake:bad-inputs'}\nsystem_prompt_file: latin1-prompt.md\n",
            )
        ]
    )


def _dir(i: Inputs, name: str) -> Path:
    path = i.root / name
    path.mkdir(exist_ok=True)
    return path


# case id -> (how to build the command line, words the message must hold: each entry is a
# tuple of alternatives, one of which must appear).
BAD: dict[str, tuple[Callable[[Inputs], list[str]], list[tuple[str, ...]]]] = {
    "dataset not UTF-8": (
        lambda i: i.run(
            dataset=i.write(
                "latin1.json",
                _dataset_json([{**CASES[0], "input": "Qu'est-ce que ç'est?"}]).encode("latin-1"),
            )
        ),
        [("latin1.json",)],
    ),
    "variant not UTF-8": (
        lambda i: i.run(
            variants=[
                i.write(
                    "latin1.yaml",
                    "name: caf\xe9\nmodel: {spec: 'fake:bad-inputs'}\n".encode("latin-1"),
                )
            ]
        ),
        [("latin1.yaml",)],
    ),
    "prompt file not UTF-8": (_not_utf8_prompt, [("latin1-prompt.md", "prompted.yaml")]),
    "dataset is a folder": (lambda i: i.run(dataset=_dir(i, "dataset-dir")), [("dataset-dir",)]),
    "variant is a folder": (lambda i: i.run(variants=[_dir(i, "variant-dir")]), [("variant-dir",)]),
    "deeply nested JSON": (
        lambda i: i.run(dataset=i.write("deep.json", "[" * 200_000)),
        [("deep.json",)],
    ),
    "judge YAML syntax error": (
        lambda i: [
            "judge",
            "--judge",
            str(i.write("judge.yaml", "model: [unclosed\n")),
            "--db",
            i.db,
        ],
        [("judge.yaml",)],
    ),
    "judge YAML is a folder": (
        lambda i: ["judge", "--judge", str(_dir(i, "judge-dir.yaml")), "--db", i.db],
        [("judge-dir.yaml",)],
    ),
    "--db under a file": (
        lambda i: i.run(db=f"sqlite:///{i.write('notes.txt', 'notes')}/arena.db"),
        [("--db",)],
    ),
    "--db missing folder": (
        lambda i: i.run(db=f"sqlite:///{i.root}/missing/arena.db"),
        [("--db",)],
    ),
    "--db text file": (
        lambda i: i.run(db=f"sqlite:///{i.write('text.db', 'not sqlite')}"),
        [("--db",)],
    ),
    "--db refused postgres": (
        lambda i: i.run(db="postgresql+psycopg://u@127.0.0.1:1/arena"),
        [("--db",)],
    ),
    "--db not a URL": (lambda i: i.run(db="arena.db"), [("--db",)]),
    "--db unknown dialect": (lambda i: i.run(db="nosuchdb://host/arena"), [("--db",)]),
    "--reg 0": (lambda i: ["ratings", "--reg", "0", "--db", i.db], [("--reg",)]),
    "--reg negative": (lambda i: ["ratings", "--reg", "-1", "--db", i.db], [("--reg",)]),
    "--bootstrap 0": (lambda i: ["ratings", "--bootstrap", "0", "--db", i.db], [("--bootstrap",)]),
    "--timeout -1": (lambda i: i.run(extra=("--timeout", "-1")), [("--timeout",)]),
    "agent import error": (
        lambda i: i.run(
            variants=[
                i.variant(
                    "noimport",
                    "agent: nosuch_pkg_xyz.mod:factory\nmodel: {spec: 'fake:bad-inputs'}\n",
                )
            ]
        ),
        [("noimport.yaml",), ("nosuch_pkg_xyz",)],
    ),
    "api_key_env unset": (
        lambda i: i.run(
            variants=[
                i.variant(
                    "nokey",
                    "model: {spec: 'openai:gpt-x', base_url: "
                    f"'http://127.0.0.1:9/v1', api_key_env: "
                    f"{UNSET_KEY}}}\n",
                )
            ]
        ),
        [(UNSET_KEY,), ("nokey.yaml", "nokey")],
    ),
    "invalid expected_output_regex": (
        lambda i: i.run(
            dataset=i.write(
                "badregex.json", _dataset_json([{**CASES[0], "expected_output_regex": "(["}])
            )
        ),
        [("badregex.json",), ("B-01",), ("expected_output_regex",)],
    ),
    "YAML alias bomb": (
        lambda i: i.run(variants=[i.write("bomb.yaml", ALIAS_BOMB)]),
        [("bomb.yaml",)],
    ),
}


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database with one finished run of two variants (for judge and ratings)."""
    root = tmp_path_factory.mktemp("seeded")
    register_fake("bad-inputs", ["The answer is 4."], cycle=True)
    dataset = root / "golden.json"
    dataset.write_text(_dataset_json(CASES))
    variants = []
    for name in ("one", "two"):
        path = root / f"{name}.yaml"
        path.write_text(f"name: {name}\nmodel: {{spec: 'fake:bad-inputs'}}\ntools: []\n")
        variants.append(path)
    mp = pytest.MonkeyPatch()
    mp.setenv("ARENA_SANDBOX_DIR", str(root / "sandboxes"))
    try:
        assert main(run_argv(variants, dataset, f"sqlite:///{root / 'arena.db'}", "--json")) == 0
    finally:
        mp.undo()
    return root


def _dump(db: Path) -> list[str]:
    conn = sqlite3.connect(db)
    try:
        return list(conn.iterdump())
    finally:
        conn.close()


@pytest.mark.parametrize("case", list(BAD))
def test_bad_input_exits_2_naming_it(
    case: str,
    seeded: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.delenv(UNSET_KEY, raising=False)
    register_fake("bad-inputs", ["The answer is 4."], cycle=True)
    db_path = tmp_path / "arena.db"
    source = sqlite3.connect(seeded / "arena.db")
    source.execute("VACUUM INTO ?", (str(db_path),))
    source.close()
    inputs = Inputs(
        tmp_path, db_path, seeded / "golden.json", [seeded / "one.yaml", seeded / "two.yaml"]
    )
    build, words = BAD[case]
    args = build(inputs)
    before = _dump(db_path)
    capsys.readouterr()
    code = main(args)
    err = capsys.readouterr().err
    assert code == 2, f"exit {code}, stderr:\n{err[-2000:]}"
    assert "Traceback" not in err and err.startswith("arena: error:"), err
    for alternatives in words:
        assert any(word in err for word in alternatives), (alternatives, err)
    assert _dump(db_path) == before  # nothing written
