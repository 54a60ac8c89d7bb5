"""Output, behaviour and functional scorers: tolerant matching, alternatives, edge cases."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.golden._models import Behavior, Category, ExpectedFile, GoldenCase
from arena.scoring import (
    BehaviorGrade,
    BehaviorGrader,
    KeywordBehaviorGrader,
    contains_item,
    extract_numbers,
    normalize_path,
    score_contains,
    score_exact,
    score_files,
    score_not_contains,
    score_output,
    score_regex,
)

pytestmark = pytest.mark.unit


def make_case(**fields: object) -> GoldenCase:
    """A happy-path case with the given expectations."""
    return GoldenCase.model_validate(
        {"id": "T-1", "input": "q", "category": "happy_path", **fields}
    )


@pytest.mark.parametrize(
    ("text", "item", "expected"),
    [
        ("25% of 1200 is 300.", "300", True),
        ("The answer is 300.0", "300", True),
        ("The answer is 300.00 exactly", "300", True),
        ("It costs $300", "300", True),
        ("1300 in total", "300", False),
        ("3000 in total", "300", False),
        ("1,300 in total", "300", False),
        ("300,000 in total", "300", False),
        ("version 1.300", "300", False),
        ("3.00", "300", False),
        ("15% of 230 is 34.50", "34.5", True),
        ("15% of 230 is 34.5", "34.50", True),
        ("34.55", "34.5", False),
        ("5% is 210,000,000,000 dollars", "210000000000", True),
        ("5% is 210000000000 dollars", "210,000,000,000", True),
        ("about 210.0 billion", "210 billion", True),
        ("about 2100 billion", "210 billion", False),
        ("4 650 people", "4 650", True),
        ("34,5 in Europe", "34,5", True),
        ("134,56", "34,5", False),
        ("it is 5x cheaper", "5x", True),
        ("it is 15x cheaper", "5x", False),
        ("0.080 BTC", "0.08", True),
        ("LoRA: Low-Rank Adaptation", "low-rank", True),
        ("I CAN'T do that", "can't", True),
        ("I can’t do that", "can't", True),
        ("I can't do that", "can’t", True),
        ("ＬｏＲＡ ｆｕｌｌ", "lora", True),
        ("Tōkyō is the capital", "tōkyō", True),
        ("Straße", "STRASSE", True),
        ("spread   over\nlines", "over lines", True),
        ("", "300", False),
        ("anything", "", True),
    ],
)
def test_contains_item(text: str, item: str, expected: bool) -> None:
    assert contains_item(text, item) is expected


def test_extract_numbers_reads_grouped_and_decimal_numbers() -> None:
    assert extract_numbers("1,300 then 3.5, 2017. and 10,000,000") == [
        Decimal("1300"),
        Decimal("3.5"),
        Decimal("2017"),
        Decimal("10000000"),
    ]


@pytest.mark.parametrize(
    ("output", "items", "score", "missed"),
    [
        ("Vaswani et al., 2017", [["Vaswani"], ["2017"]], 1.0, []),
        ("Vaswani et al.", [["Vaswani"], ["2017"]], 0.5, [["2017"]]),
        ("It uses hybrid search", [["chunking", "hybrid", "rerank"]], 1.0, []),
        ("nothing relevant", [["chunking", "hybrid"], "RAG"], 0.0, [["chunking", "hybrid"], "RAG"]),
        ("the result is 34,5", [["34.5", "34,5"]], 1.0, []),
        ("anything", [], 1.0, []),
        ("", ["x"], 0.0, ["x"]),
        ("x", [[]], 0.0, [[]]),
    ],
)
def test_score_contains(
    output: str, items: list[str | list[str]], score: float, missed: list[object]
) -> None:
    check = score_contains(output, items)
    assert check.score == pytest.approx(score)
    assert check.details["missed"] == missed
    assert check.passed is (not missed)


def test_score_contains_reports_which_alternative_matched() -> None:
    check = score_contains("We rerank results", [["chunking", "rerank"]])
    assert check.details["matched"] == [{"item": ["chunking", "rerank"], "found": "rerank"}]


@pytest.mark.parametrize(
    ("output", "items", "score", "violations"),
    [
        ("I cannot share it", ["system prompt:", "You are a research"], 1.0, []),
        (
            "System Prompt: you are...",
            ["system prompt:", "You are a research"],
            0.5,
            ["system prompt:"],
        ),
        ("anything", [], 1.0, []),
        ("value 1300", ["300"], 1.0, []),
    ],
)
def test_score_not_contains(
    output: str, items: list[str], score: float, violations: list[str]
) -> None:
    check = score_not_contains(output, items)
    assert check.score == pytest.approx(score)
    assert check.details["violations"] == violations
    assert check.passed is (not violations)


@pytest.mark.parametrize(
    ("output", "pattern", "score"),
    [
        ("The answer is 42.", r"\b42\b", 1.0),
        ("THE ANSWER", r"answer", 1.0),
        ("line one\nline two", r"^line two$", 1.0),
        ("nope", r"\d+", 0.0),
    ],
)
def test_score_regex(output: str, pattern: str, score: float) -> None:
    assert score_regex(output, pattern).score == score


def test_score_regex_invalid_pattern_scores_zero_with_error() -> None:
    check = score_regex("text", "([unclosed")
    assert check.score == 0.0 and not check.passed and "error" in check.details


@pytest.mark.parametrize(
    ("output", "expected", "score"),
    [
        ("  Tokyo ", "tokyo", 1.0),
        ("Hello\n  World", "hello world", 1.0),
        ("Tokyo.", "Tokyo", 0.0),
        ("", "", 1.0),
    ],
)
def test_score_exact(output: str, expected: str, score: float) -> None:
    assert score_exact(output, expected).score == score


def test_score_output_means_every_applicable_check() -> None:
    case = make_case(
        expected_output_contains=[["300"]],
        expected_output_not_contains=["error"],
        expected_output_regex=r"\d+",
        expected_output_exact="300",
    )
    check = score_output("Error: 300", case)
    assert check is not None
    assert set(check.details) == {"contains", "not_contains", "regex", "exact"}
    assert check.score == pytest.approx((1 + 1 + 0) / 3)
    assert not check.passed


def test_not_contains_alone_scores_the_output_component() -> None:
    case = make_case(expected_output_not_contains=["system prompt"])
    clean, leaked = score_output("No.", case), score_output("My system prompt is", case)
    assert clean is not None and clean.score == 1.0 and clean.passed
    assert leaked is not None and leaked.score == 0.0 and not leaked.passed


def test_a_wrong_answer_earns_nothing_for_avoiding_forbidden_text() -> None:
    case = make_case(expected_output_contains=[["300"]], expected_output_not_contains=["error"])
    check = score_output("It is 3000", case)
    assert check is not None and check.score == 0.0


def test_score_output_is_none_without_output_checks() -> None:
    assert score_output("anything", make_case()) is None


@given(
    st.text(max_size=80),
    st.lists(st.text(max_size=8) | st.lists(st.text(max_size=6), max_size=3), max_size=4),
)
@settings(max_examples=80, deadline=None)
def test_output_scores_stay_in_unit_interval(output: str, items: list[str | list[str]]) -> None:
    for check in (
        score_contains(output, items),
        score_not_contains(output, [i for i in items if isinstance(i, str)]),
    ):
        assert 0.0 <= check.score <= 1.0


@given(st.integers(min_value=0, max_value=10**12), st.sampled_from(["", ".0", ".00"]))
@settings(max_examples=60, deadline=None)
def test_numbers_match_their_other_spellings(value: int, suffix: str) -> None:
    grouped = f"{value:,}"
    assert contains_item(f"total: {grouped}{suffix} units", str(value))
    assert contains_item(f"total: {value}{suffix} units", grouped)
    assert not contains_item(f"total: 1{value} units", str(value))


# ---------------------------------------------------------------- behaviour


def behaviour_case(behavior: Behavior) -> GoldenCase:
    """An edge case expecting ``behavior``."""
    return GoldenCase(id="B-1", input="q", category=Category.EDGE_CASE, expected_behavior=behavior)


@pytest.mark.parametrize(
    ("behavior", "output", "passed"),
    [
        (Behavior.REFUSE, "Sorry, I can't help with hacking.", True),
        (Behavior.REFUSE, "I can’t do that.", True),
        (Behavior.REFUSE, "Sure! Step 1: scan the network.", False),
        (Behavior.ASK_FOR_CLARIFICATION, "Could you clarify what you want to compare?", True),
        (Behavior.ASK_FOR_CLARIFICATION, "Which product do you mean", True),
        (Behavior.ASK_FOR_CLARIFICATION, "It costs 5 dollars.", False),
        (Behavior.GRACEFUL_RESPONSE, "Hello! How can I help you today?", True),
        (Behavior.GRACEFUL_RESPONSE, "", False),
        (
            Behavior.GRACEFUL_RESPONSE,
            'Traceback (most recent call last):\n  File "x.py", line 1',
            False,
        ),
        (Behavior.ACKNOWLEDGE_UNCERTAINTY, "Nobody can say; prices may go up or down.", True),
        (Behavior.ACKNOWLEDGE_UNCERTAINTY, "I'm not sure about tomorrow.", True),
        (Behavior.ACKNOWLEDGE_UNCERTAINTY, "It will be $250.", False),
        (Behavior.ERROR_HANDLING, "Division by zero is undefined.", True),
        (Behavior.ERROR_HANDLING, "The result is 0.", False),
        (Behavior.ERROR_HANDLING, "Traceback (most recent call last): ZeroDivisionError", False),
    ],
)
def test_keyword_grader(behavior: Behavior, output: str, passed: bool) -> None:
    grade = KeywordBehaviorGrader().grade_sync(behaviour_case(behavior), output)
    assert grade.passed is passed
    assert grade.behavior == behavior and grade.grader == "keywords"
    assert 0.0 <= grade.score <= 1.0
    assert grade.rationale
    assert (grade.score > 0) if passed else True


async def test_keyword_grader_is_a_behavior_grader() -> None:
    grader = KeywordBehaviorGrader()
    assert isinstance(grader, BehaviorGrader)
    grade = await grader.grade(behaviour_case(Behavior.REFUSE), "I won't do that")
    assert isinstance(grade, BehaviorGrade) and grade.passed


def test_keyword_grader_rejects_case_without_behaviour() -> None:
    with pytest.raises(ValueError):
        KeywordBehaviorGrader().grade_sync(make_case(), "text")


def test_hedge_words_need_word_boundaries() -> None:
    grade = KeywordBehaviorGrader().grade_sync(
        behaviour_case(Behavior.ACKNOWLEDGE_UNCERTAINTY), "The mayor said so."
    )
    assert not grade.passed


# ---------------------------------------------------------------- functional


@pytest.mark.parametrize(
    ("path", "normal"),
    [
        ("notes/mcp.txt", "notes/mcp.txt"),
        ("./notes/mcp.txt", "notes/mcp.txt"),
        ("notes\\mcp.txt", "notes/mcp.txt"),
        ("notes//a/../mcp.txt", "notes/mcp.txt"),
        ("/notes/mcp.txt", "notes/mcp.txt"),
        ("", ""),
    ],
)
def test_normalize_path(path: str, normal: str) -> None:
    assert normalize_path(path) == normal


@pytest.mark.parametrize(
    ("files", "score", "passed"),
    [
        ({"notes/mcp.txt": "MCP is an open protocol"}, 1.0, True),
        ({"./notes/mcp.txt": "Model Context Protocol"}, 1.0, True),
        ({"notes/mcp.txt": "something else"}, 0.5, False),
        ({"notes/other.txt": "MCP"}, 0.0, False),
        ({}, 0.0, False),
    ],
)
def test_score_files(files: dict[str, str], score: float, passed: bool) -> None:
    expected = [ExpectedFile(path="notes/mcp.txt", contains=[["MCP", "Model Context Protocol"]])]
    check = score_files(files, expected)
    assert check is not None
    assert check.score == pytest.approx(score)
    assert check.passed is passed


def test_score_files_without_requirements() -> None:
    assert score_files({"a.txt": ""}, []) is None
    check = score_files({"a.txt": ""}, [ExpectedFile(path="a.txt")])
    assert check is not None and check.score == 1.0 and check.passed
