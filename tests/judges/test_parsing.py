"""Reading verdicts: the last [[...]] of a text, first-token probabilities, labels from P."""

from __future__ import annotations

import math

import pytest

from judges import parse_verdict
from judges._parsing import first_token_probs, label_from_probability

pytestmark = pytest.mark.unit


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("A is better. [[A>B]]", "A>B"),
        ("[[A>>B]]", "A>>B"),
        ("[[ B > A ]]", "B>A"),
        ("[[B>>A]]", "B>>A"),
        ("tie [[A=B]]", "A=B"),
        ("[[A]]", "A>B"),
        ("[[B]]", "B>A"),
        ("[[C]]", "A=B"),
        ("first [[A>B]] then on reflection [[B>A]]", "B>A"),
        ("A>B", None),
        ("[[D]]", None),
        ("", None),
        ("[[A>>>B]]", None),
        ("garbage", None),
    ],
)
def test_parse_verdict(text: str, label: str | None) -> None:
    assert parse_verdict(text) == label


def test_first_token_probs_sums_variants_of_a_letter() -> None:
    meta = {
        "logprobs": {
            "content": [
                {
                    "token": "A",
                    "top_logprobs": [
                        {"token": "A", "logprob": math.log(0.5)},
                        {"token": " A", "logprob": math.log(0.1)},
                        {"token": "B", "logprob": math.log(0.3)},
                        {"token": "The", "logprob": math.log(0.1)},
                    ],
                }
            ]
        }
    }
    probs = first_token_probs(meta)
    assert probs["A"] == pytest.approx(0.6) and probs["B"] == pytest.approx(0.3)
    assert first_token_probs({}) == {}


@pytest.mark.parametrize(
    ("p", "label"),
    [(0.95, "A>>B"), (0.7, "A>B"), (0.55, "A=B"), (0.45, "A=B"), (0.3, "B>A"), (0.05, "B>>A")],
)
def test_label_from_probability(p: float, label: str) -> None:
    assert label_from_probability(p, 0.1) == label
    assert label_from_probability(0.53, 0.02) == "A>B"
