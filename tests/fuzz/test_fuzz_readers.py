"""Every reader on arbitrary input: it parses, or raises the project's InputError, within
the time bound; never another exception, never a hang, never a crash."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from arena.battle_log.fast_reader import read_fast
from arena.battle_log.reader import load_battle_log, read_rows
from arena.golden import load_dataset
from arena.inputs.files import parse_json, parse_yaml, read_json_rows
from arena.langsmith._files import read_examples
from arena.project._config import load_config
from arena.trust import load_votes
from arena.variants.variant import load_variant
from judges import parse_judge
from tests.fuzz.bounds import FEW, FUZZ, parses_or_refuses, scratch
from tests.fuzz.strategies import JSON_VALUES, YAML_TEXTS, arena_rows, jsonl_texts

pytestmark = pytest.mark.system  # bounded, but seconds: kept out of `-m unit`


@FUZZ
@given(st.text(max_size=300) | jsonl_texts())
def test_parse_json_parses_or_refuses(text: str) -> None:
    parses_or_refuses(parse_json, text)


@FUZZ
@given(YAML_TEXTS | st.text(max_size=200))
def test_parse_yaml_parses_or_refuses(text: str) -> None:
    parses_or_refuses(parse_yaml, text)


@FUZZ
@given(jsonl_texts() | st.binary(max_size=200).map(lambda b: b.decode("latin-1")))
def test_log_readers_parse_or_refuse(text: str) -> None:
    with scratch() as folder:
        path = folder / "log.jsonl"
        path.write_bytes(text.encode("utf-8", "surrogatepass"))
        parses_or_refuses(lambda: read_json_rows(path, kind="battle log"))
        parses_or_refuses(load_battle_log, path)
        parses_or_refuses(load_votes, path)


@FUZZ
@given(st.lists(arena_rows(), min_size=1, max_size=8))
def test_the_fast_path_reads_exactly_what_the_row_reader_reads(rows: list[dict[str, Any]]) -> None:
    """When pyarrow's columnar path takes a log, the strict row reader gives the same battles."""
    with scratch() as folder:
        path = folder / "log.jsonl"
        path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
        fast = parses_or_refuses(read_fast, path, ())
        slow = parses_or_refuses(read_rows, path)
        if fast is None:
            return
        assert slow is not None, "the fast path read a log the row reader refuses"
        assert fast.models == slow.models  # type: ignore[attr-defined]
        for name in ("model_a", "model_b", "outcome", "query"):
            assert np.array_equal(getattr(fast, name), getattr(slow, name)), name


@FEW
@given(JSON_VALUES, st.lists(JSON_VALUES, max_size=3))
def test_golden_datasets_load_or_refuse(header: Any, cases: list[Any]) -> None:
    with scratch() as folder:
        path = folder / "golden.json"
        doc = {"name": "t", "available_tools": ["calculate"], "test_cases": cases}
        if isinstance(header, dict):
            doc.update(header)
        path.write_text(json.dumps(doc), encoding="utf-8")
        parses_or_refuses(load_dataset, path)


@FEW
@given(YAML_TEXTS)
def test_yaml_files_load_or_refuse(text: str) -> None:
    with scratch() as folder:
        path = folder / "file.yaml"
        path.write_text(text, encoding="utf-8")
        parses_or_refuses(load_variant, path)
        parses_or_refuses(parse_judge, str(path))
        parses_or_refuses(load_config, path)


@FEW
@given(jsonl_texts(), st.sampled_from([".jsonl", ".json", ".csv"]))
def test_langsmith_example_files_load_or_refuse(text: str, suffix: str) -> None:
    with scratch() as folder:
        path = folder / f"examples{suffix}"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        parses_or_refuses(read_examples, path)
