"""Hypothesis strategies for hostile input: JSON-ish text, rows, YAML, regexes."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import strategies as st

SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**20), max_value=10**20),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
)
JSON_VALUES: st.SearchStrategy[Any] = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)
WINNERS = st.sampled_from(
    [
        "model_a",
        "model_b",
        "tie",
        "tie (bothbad)",
        "tie (inconsistent)",
        "inconsistent",
        "error",
        "model_1",
        "model_2",
        "draw",
        "",
    ]
)
MODELS = st.sampled_from(["x", "y", "z", "", "gpt-4", "NaN", "é"])
ROW_FIELDS: dict[str, st.SearchStrategy[Any]] = {
    "model_a": MODELS | SCALARS,
    "model_b": MODELS | SCALARS,
    "winner": WINNERS | SCALARS,
    "question_id": st.integers(0, 5) | st.sampled_from(["q1", "q2"]) | SCALARS,
    "judge": st.sampled_from(["j1", "j2", "human:ann"]) | st.lists(st.text(max_size=3), max_size=2),
    "turn": st.integers(0, 3) | SCALARS,
    "len_a": st.integers(0, 100) | SCALARS,
    "len_b": st.integers(0, 100) | SCALARS,
    "conv_metadata": JSON_VALUES,
    "model_1": MODELS,
    "model_2": MODELS,
    "g1_winner": WINNERS,
    "g2_winner": WINNERS,
    "extra": JSON_VALUES,
}


@st.composite
def arena_rows(draw: st.DrawFn) -> dict[str, Any]:
    """A Chatbot-Arena-like row: mostly the right fields, some wrong or missing."""
    names = draw(st.lists(st.sampled_from(sorted(ROW_FIELDS)), unique=True, max_size=9))
    row = {name: draw(ROW_FIELDS[name]) for name in names}
    if draw(st.booleans()):
        row.setdefault("model_a", draw(MODELS))
        row.setdefault("model_b", draw(MODELS))
        row.setdefault("winner", draw(WINNERS))
    return row


# Pieces of JSON and the bytes that break parsers: deep brackets, quotes, escapes, NaN, BOM.
_PIECES = st.sampled_from(
    [
        "{",
        "}",
        "[",
        "]",
        '"',
        "\\",
        ",",
        ":",
        "\n",
        " ",
        "NaN",
        "Infinity",
        "-",
        "1e999",
        '"a"',
        "null",
        "true",
        "\ufeff",
        "\x00",
        "\ud800",
        "é",
        "[" * 150,
        "]" * 150,
    ]
)


@st.composite
def jsonl_texts(draw: st.DrawFn) -> str:
    """JSONL text: good rows, mangled rows and raw hostile pieces, line by line."""
    lines = []
    for _ in range(draw(st.integers(0, 6))):
        kind = draw(st.integers(0, 2))
        if kind == 0:
            lines.append(json.dumps(draw(arena_rows())))
        elif kind == 1:
            text = json.dumps(draw(arena_rows()))
            cut = draw(st.integers(0, len(text)))
            lines.append(text[:cut] + draw(_PIECES) + text[cut:])
        else:
            lines.append("".join(draw(st.lists(_PIECES, max_size=8))))
    return "\n".join(lines) + draw(st.sampled_from(["", "\n"]))


_YAML_PIECES = st.sampled_from(
    [
        "name: a\n",
        "name: b\n",
        "agent: react\n",
        "model:\n  spec: fake:x\n",
        "  temperature: .nan\n",
        "a: &x [1, 2]\n",
        "b: [*x, *x]\n",
        "- ",
        "{",
        "}",
        "[",
        "]",
        ": ",
        "\t",
        "!!python/object:os.system\n",
        "key: value\n",
        "key: again\n",
        "max_steps: 1e400\n",
        "&a a: *a\n",
        "\n",
        "---\n",
        "'",
        '"',
    ]
)
YAML_TEXTS = st.lists(_YAML_PIECES, max_size=12).map("".join)

# Regex-ish patterns: literal text, classes, groups and every quantifier, nested freely.
_REGEX_PIECES = st.sampled_from(
    [
        "a",
        "b",
        r"\w",
        r"\s",
        r"\d",
        r"\b",
        ".",
        "(",
        ")",
        "(?:",
        "[",
        "]",
        "[^",
        "|",
        "*",
        "+",
        "?",
        "{2}",
        "{1,3}",
        "{2,}",
        "^",
        "$",
        r"\1",
        "(?=",
        "(?<!",
        "(?P<n>",
        "\\",
        "{",
        "}",
        "-",
    ]
)
PATTERNS = st.lists(_REGEX_PIECES, max_size=10).map("".join)
TEXTS = st.text(
    alphabet=st.sampled_from([*"aab b\n\t.,!?0123456789[]()AZé\u00a0", "\u2019", "٣"]),
    max_size=200,
)
