"""The scorers and verdict readers on arbitrary model output: a result within the time
bound, never an exception, for every pattern the dataset loader accepts."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arena.inputs.linear_regex import check_pattern, nested_quantifiers, translate
from arena.scoring._behavior import REFUSAL, TRACEBACK
from arena.scoring._output import score_contains, score_exact, score_not_contains, score_regex
from arena.scoring._textmatch import extract_numbers, find_item
from judges._parsing import parse_verdict
from tests.fuzz.bounds import FUZZ, parses_or_refuses
from tests.fuzz.strategies import PATTERNS, TEXTS

pytestmark = pytest.mark.system  # bounded, but seconds: kept out of `-m unit`

ITEMS = st.lists(st.sampled_from([*"ab 0123456789.,-%$", "300", "1,000"]), max_size=8).map("".join)


@FUZZ
@given(PATTERNS, TEXTS)
def test_every_loadable_pattern_scores_any_output_in_bounded_time(pattern: str, text: str) -> None:
    try:
        check_pattern(pattern)
    except re.error:
        return  # the dataset loader refuses it, naming file, case and field
    check = parses_or_refuses(score_regex, text * 20, pattern)
    assert check is not None and check.score in (0.0, 1.0)  # type: ignore[attr-defined]


@FUZZ
@given(PATTERNS)
def test_lint_and_translation_never_fail(pattern: str) -> None:
    assert isinstance(nested_quantifiers(pattern), list)
    assert isinstance(translate(pattern), str)


@FUZZ
@given(TEXTS, st.lists(ITEMS | st.lists(ITEMS, max_size=3), max_size=4))
def test_contains_checks_never_fail(text: str, items: list[str | list[str]]) -> None:
    parses_or_refuses(score_contains, text * 20, items)
    parses_or_refuses(score_not_contains, text * 20, [i for i in items if isinstance(i, str)])
    parses_or_refuses(score_exact, text, "".join(i for i in items if isinstance(i, str)))
    for item in items:
        if isinstance(item, str):
            parses_or_refuses(find_item, text * 20, item)
    parses_or_refuses(extract_numbers, text * 20)


@FUZZ
@given(TEXTS | st.text(alphabet=st.sampled_from([*"[]AB<>=C \n"]), max_size=300))
def test_verdict_and_keyword_readers_never_fail(text: str) -> None:
    label = parses_or_refuses(parse_verdict, text * 50)
    assert label in (None, "A>>B", "A>B", "A=B", "B>A", "B>>A")
    parses_or_refuses(REFUSAL.search, text * 50)
    parses_or_refuses(TRACEBACK.search, text * 50)
