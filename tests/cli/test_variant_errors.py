"""A bad variant file is named as a variant, never as a case (issue 36, finding 5): exit 2,
`file F, variant NAME, field FIELD: ...`, nothing written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.cli import main
from tests.support.cli_args import run_argv

pytestmark = pytest.mark.unit

DATASET = {
    "name": "d",
    "available_tools": ["calculate"],
    "test_cases": [{"id": "B-01", "input": "What is 2+2?", "category": "happy_path"}],
}

BAD = {
    "unknown tool": ("tools: [reset_passwd]\n", "tools", "unknown tool(s) reset_passwd"),
    "invalid field": ("repeats_per_case: 3\n", "repeats_per_case", "Extra inputs"),
}


@pytest.mark.parametrize("name", list(BAD))
def test_a_bad_variant_is_named_as_a_variant(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    body, field, words = BAD[name]
    variant = tmp_path / "bad-tool.yaml"
    variant.write_text(f"name: bad-tool\nmodel: {{spec: 'fake:echo'}}\n{body}")
    dataset = tmp_path / "golden.json"
    dataset.write_text(json.dumps(DATASET))
    db = tmp_path / "arena.db"
    assert main(run_argv(variant, dataset, f"sqlite:///{db}")) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"arena: error: file {variant}, variant bad-tool, field {field}: "), err
    assert words in err and "case bad-tool" not in err
    assert not db.exists()
