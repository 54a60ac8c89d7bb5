"""Golden regexes on model output run in linear time (RE2) with Python's meaning, and the
constructs RE2 cannot run are refused when the dataset loads, naming file, case and field."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from arena.curation._lint import static_findings
from arena.errors import InputError
from arena.golden import load_dataset
from arena.inputs.linear_regex import UnsupportedPattern, check_pattern, nested_quantifiers, search
from arena.scoring._behavior import TRACEBACK
from arena.scoring._output import score_regex
from tests.support.time_limit import time_limit

pytestmark = pytest.mark.unit

# The two patterns of issue 20: each froze `arena score` on Python's backtracking `re`.
CATASTROPHIC = [
    (r"(\w+\s?)+\.", "The answer is definitely unknown here sorry about that"),
    (r"^(a|a)+$", "a" * 28 + "!"),
    (r"(x+x+)+y", "x" * 40),
]


@pytest.mark.parametrize(("pattern", "output"), CATASTROPHIC)
def test_a_near_miss_on_a_catastrophic_pattern_fails_the_check_at_once(
    pattern: str, output: str
) -> None:
    with time_limit(5):
        check = score_regex(output, pattern)
    assert check.passed is False
    assert check.score == 0.0


def test_the_same_patterns_still_match_what_they_should() -> None:
    assert score_regex("The answer is 42.", r"(\w+\s?)+\.").passed
    assert score_regex("a" * 28, r"^(a|a)+$").passed


@pytest.mark.parametrize(
    ("pattern", "text", "found"),
    [
        (r"caf\w", "CAFÉ au lait", "CAFÉ"),  # \w is Unicode, matching is case-insensitive
        (r"\d+", "answer: ٣٤", "٣٤"),  # \d is any decimal digit, as in Python
        (r"a\sb", "a\u00a0b", "a\u00a0b"),  # \s includes no-break space, as in Python
        (r"^total: \d+$", "x\ntotal: 7\ny", "total: 7"),  # ^ and $ at line ends
        (r"end\Z", "the end", "end"),  # Python's \Z is RE2's \z
        (r"[\w-]+@x", "jean-luc@x", "jean-luc@x"),
        (r"[^]]+", "ab]", "ab"),
    ],
)
def test_patterns_keep_their_python_meaning(pattern: str, text: str, found: str) -> None:
    match = search(pattern, text)
    assert match is not None and match.group(0) == found
    python = re.search(pattern, text, re.IGNORECASE | re.MULTILINE)
    assert python is not None and python.group(0) == found


@pytest.mark.parametrize(
    ("pattern", "construct"),
    [
        (r"(a)\1", "backreferences"),
        (r"(?P<w>a)(?P=w)", "named backreferences"),
        (r"foo(?=bar)", "look-ahead"),
        (r"foo(?!bar)", "negative look-ahead"),
        (r"(?<=a)b", "look-behind"),
        (r"(?<!a)b", "negative look-behind"),
        (r"(?>a+)b", "atomic groups"),
        (r"a++", "possessive quantifiers"),
    ],
)
def test_backtracking_only_constructs_are_refused_by_name(pattern: str, construct: str) -> None:
    with pytest.raises(UnsupportedPattern, match=re.escape(construct)):
        check_pattern(pattern)


def test_an_unsupported_pattern_is_a_load_error_naming_file_case_and_field(
    tmp_path: Path,
) -> None:
    path = tmp_path / "golden.json"
    case = {"id": "R-1", "input": "q", "category": "happy_path"}
    case["expected_output_regex"] = r"(\w+) \1"
    path.write_text(json.dumps({"name": "t", "available_tools": [], "test_cases": [case]}))
    with pytest.raises(InputError) as info:
        load_dataset(path)
    assert (info.value.file, info.value.case, info.value.field) == (
        str(path),
        "R-1",
        "expected_output_regex",
    )
    assert "backreferences" in str(info.value)


@pytest.mark.parametrize(
    ("pattern", "nested"),
    [
        (r"(\w+\s?)+\.", [r"(\w+\s?)+"]),
        (r"((ab)*c)+", ["((ab)*c)+"]),
        (r"(?:x{2,})*", ["(?:x{2,})*"]),
        (r"(?P<n>\d+){1,5}", [r"(?P<n>\d+){1,5}"]),
        (r"^(a|a)+$", []),  # ambiguous, but no repeat inside the repeat
        (r"(a+)?", []),  # repeated at most once
        (r"(a{2})+", []),  # the inner count is fixed
        (r"[(]a+[)]+", []),  # brackets in a class are not groups
        (r"\(a+\)+", []),  # nor are escaped ones
    ],
)
def test_nested_quantifiers_are_found(pattern: str, nested: list[str]) -> None:
    assert nested_quantifiers(pattern) == nested


def test_lint_warns_on_a_nested_quantifier(tmp_path: Path) -> None:
    from arena.golden._models import GoldenDataset

    case = {"id": "R-1", "input": "q", "category": "happy_path"}
    dataset = GoldenDataset.model_validate(
        {
            "name": "t",
            "available_tools": [],
            "test_cases": [{**case, "expected_output_regex": r"(\w+\s?)+\."}],
        }
    )
    found = [f for f in static_findings(dataset) if f.rule == "nested_quantifier"]
    assert [(f.severity, f.cases) for f in found] == [("warning", ["R-1"])]
    assert r"(\w+\s?)+" in found[0].message


def test_the_traceback_keyword_pattern_is_not_quadratic_in_blank_lines() -> None:
    # `^\s*file` let \s* run across newlines from every line start: 40,000 blank lines took
    # 2 s and a million would take about 20 minutes.
    with time_limit(5):
        assert TRACEBACK.search("\n" * 1_000_000) is None
    assert TRACEBACK.search('  file "x.py", line 3, in f')  # it reads casefolded text
