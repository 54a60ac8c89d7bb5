"""Exact value matching and matchers (issue 45): strings exactly, lists as lists, numbers by
value, and the matchers a team writes when it wants less."""

from __future__ import annotations

from typing import Any

import pytest

from arena.scoring._matchers import check_expected, is_matcher, match_value

pytestmark = pytest.mark.unit


@pytest.mark.parametrize(
    ("expected", "actual"),
    [
        ("60621", "60621"),
        (1, 1.0),
        (2.5, 2.5),
        (True, True),
        (None, None),
        (["a", "b"], ["a", "b"]),
        ({"zip": "60621", "city": "Chicago"}, {"city": "Chicago", "zip": "60621"}),
        ([{"id": 1}], [{"id": 1.0}]),
    ],
)
def test_exact_values_match(expected: Any, actual: Any) -> None:
    assert match_value(expected, actual) is None


@pytest.mark.parametrize(
    ("expected", "actual", "said"),
    [
        ("60621", "60621-1234", 'expected "60621", got "60621-1234"'),
        ("#W2", "#W21", 'expected "#W2", got "#W21"'),
        ("Pending", "pending", 'expected "Pending", got "pending"'),
        ("5", 5, 'expected "5", got 5'),
        (1, True, "expected 1, got true"),
        (True, 1, "expected true, got 1"),
        (0, False, "expected 0, got false"),
        (None, "", 'expected null, got ""'),
        (["a"], ["a", "b"], "expected a list of 1, got 2"),
        (["a", "b"], ["b", "a"], 'item 0: expected "a", got "b"'),
        (["a"], "a", 'expected ["a"], got "a"'),
        ({"zip": "1"}, {"zip": "1", "city": "x"}, "city not expected"),
        ({"zip": "1", "city": "x"}, {"zip": "1"}, "city missing"),
        ({"a": {"b": 1}}, {"a": {"b": 2}}, "a: b: expected 1, got 2"),
    ],
)
def test_exact_misses_say_what_differs(expected: Any, actual: Any, said: str) -> None:
    reason = match_value(expected, actual)
    assert reason is not None and said in reason


def test_contains_matcher() -> None:
    assert match_value({"contains": "60621"}, "60621-1234") is None
    assert match_value({"contains": "W2"}, "#w2") is None  # case-insensitive, as outputs
    assert match_value({"contains": "1200"}, "0.25 * 1200") is None
    assert match_value({"contains": "1200"}, "11200") is not None  # numbers by value
    assert match_value({"contains": "b"}, ["a", "b"]) is None
    assert match_value({"contains": "c"}, ["a", "b"]) is not None
    assert match_value({"contains": "5"}, 5) is not None


def test_regex_matcher_runs_like_the_output_regex() -> None:
    assert match_value({"regex": r"^#W\d+$"}, "#W12") is None
    assert match_value({"regex": r"^#W\d+$"}, "#W12 and #W3") is not None
    assert match_value({"regex": "refund"}, "REFUND issued") is None  # case-insensitive
    assert "expected a string" in (match_value({"regex": "1"}, 1) or "")


def test_any_matcher_accepts_every_value() -> None:
    for value in ("", 0, None, [1], {"a": 1}):
        assert match_value({"any": True}, value) is None


def test_unordered_matcher_is_a_multiset() -> None:
    assert match_value({"unordered": ["a", "b"]}, ["b", "a"]) is None
    assert match_value({"unordered": ["a", "b"]}, ["b", "a", "c"]) is not None
    assert match_value({"unordered": ["a", "a"]}, ["a", "b"]) is not None
    assert match_value({"unordered": ["a"]}, "a") is not None
    # elements may be matchers; each takes a different actual element
    assert match_value({"unordered": [{"contains": "a"}, "ab"]}, ["ab", "ca"]) is None
    assert match_value({"unordered": [{"contains": "a"}, "ab"]}, ["ab", "cd"]) is not None


def test_approx_matcher() -> None:
    assert match_value({"approx": 12.5, "tol": 0.01}, 12.505) is None
    assert match_value({"approx": 12.5, "tol": 0.01}, 12.52) is not None
    assert match_value({"approx": 12.5}, 12.5000000000001) is None
    assert match_value({"approx": 1}, True) is not None
    assert match_value({"approx": 1}, "1") is not None


def test_exact_matcher_takes_a_mapping_literally() -> None:
    literal = {"contains": "x"}
    assert match_value({"exact": literal}, {"contains": "x"}) is None
    assert match_value({"exact": literal}, "xyz") is not None
    nested = {"a": {"any": True}}
    assert match_value({"exact": nested}, {"a": {"any": True}}) is None
    assert match_value({"exact": nested}, {"a": 3}) is not None


def test_matchers_nest_inside_lists_and_mappings() -> None:
    expected = {"items": [{"id": "I1", "qty": {"any": True}}], "note": {"regex": "gift"}}
    assert match_value(expected, {"items": [{"id": "I1", "qty": 4}], "note": "a gift"}) is None
    assert match_value(expected, {"items": [{"id": "I2", "qty": 4}], "note": "a gift"})


def test_is_matcher() -> None:
    assert is_matcher({"any": True})
    assert is_matcher({"approx": 1, "tol": 0.5})
    assert not is_matcher({"tol": 0.5})
    assert not is_matcher({"contains": "a", "other": 1})
    assert not is_matcher("contains")


@pytest.mark.parametrize(
    ("value", "said"),
    [
        ({"any": False}, "any: true"),
        ({"regex": "(a"}, "invalid regular expression"),
        ({"regex": r"(?=a)"}, "look-ahead"),
        ({"regex": 3}, "string pattern"),
        ({"unordered": "ab"}, "needs a list"),
        ({"approx": "1"}, "approx needs a number"),
        ({"approx": 1, "tol": -1}, "approx needs a number"),
        ({"contains": "a", "zip": "1"}, "{exact: {...}}"),
        ({"tol": 1}, "{exact: {...}}"),
        ({"outer": [{"regex": "(a"}]}, "where.outer.0: invalid regular expression"),
    ],
)
def test_check_expected_refuses_malformed_matchers(value: Any, said: str) -> None:
    with pytest.raises(ValueError, match=None) as info:
        check_expected(value, where="where")
    assert said in str(info.value)


def test_check_expected_accepts_good_values() -> None:
    for value in (
        "a",
        [1, {"any": True}],
        {"exact": {"contains": "a", "zip": 1}},
        {"approx": 1, "tol": 0.1},
        {"unordered": [{"regex": "a"}]},
        {"zip": "60621", "lines": ["a"]},
    ):
        check_expected(value)
