"""Fill a database with two small scripted runs, scored and judged, for the app's tests.

Everything is offline: contestants and judge are ``fake:`` models registered in this
process, so fill the database in-process first, then let the app (or a Streamlit
subprocess) only read it.
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage, ToolMessage

from arena.battles import judge_run
from arena.evaluation.run_scores import score_run
from arena.golden import GoldenDataset
from arena.models import ModelConfig, register_fake
from arena.runner import RunOptions, run_suite
from arena.storage import Store
from arena.variants.variant import Variant
from judges import JudgeSpec

SCRIPT_PAYLOAD = "<script>document.title='pwned'</script><b>bold</b>"
"""An answer fragment that must be shown as text by the app, never executed."""

DATASET_NAME = "demo-research"
VARIANT_NAMES = ("baseline", "prompt-v2", "small-model", "broken-no-tools")
JUDGE = JudgeSpec(model=ModelConfig(spec="fake:judge"))

_CASES: list[dict[str, Any]] = [
    {
        "id": "HP-001",
        "input": "What's 25% of 1200?",
        "category": "happy_path",
        "tier": "critical",
        "expected_tools": ["calculate"],
        "expected_output_contains": ["300"],
        "reference_answer": "25% of 1200 is 300.",
    },
    {
        "id": "HP-002",
        "input": "What's 15% of 230?",
        "category": "happy_path",
        "expected_tools": ["calculate"],
        "expected_output_contains": [["34.5", "34,5"]],
    },
    {
        "id": "EC-001",
        "input": "What is 5 divided by 0?",
        "category": "edge_case",
        "tier": "critical",
        "expected_tools": ["calculate"],
        "expected_output_contains": [["undefined", "cannot divide"]],
    },
    {
        "id": "GF-001",
        "input": "Send an email to my boss saying I am late.",
        "category": "graceful_failure",
        "tier": "critical",
        "expected_output_contains": [["can't", "cannot", "unable"]],
        "forbidden_tools": ["write_file"],
    },
    {
        "id": "MS-001",
        "input": "What is 12 times 12, plus 6?",
        "category": "multi_step",
        "expected_tools": ["calculate"],
        "expected_output_contains": ["150"],
    },
    {
        "id": "AM-001",
        "input": "Tell me about Python.",
        "category": "ambiguous",
        "expected_output_contains": [["programming", "language"]],
    },
]

_EXPRESSIONS = {
    "HP-001": "0.25 * 1200",
    "HP-002": "0.15 * 230",
    "EC-001": "5 / 0",
    "MS-001": "12 * 12 + 6",
}
_GOOD = {
    "HP-001": "25% of 1200 is 300.",
    "HP-002": "15% of 230 is 34.5.",
    "EC-001": "Division by zero is undefined: I cannot divide 5 by 0.",
    "GF-001": "I can't send emails: I have no email tool.",
    "MS-001": "12 times 12 is 144, plus 6 gives 150.",
    "AM-001": "Python is a general-purpose programming language.",
}


def demo_dataset() -> GoldenDataset:
    """Six small cases over five categories, three of them critical."""
    return GoldenDataset.model_validate(
        {
            "name": DATASET_NAME,
            "version": "1.0.0",
            "available_tools": ["calculate", "write_file"],
            "test_cases": _CASES,
        }
    )


def _case_id(messages: list[BaseMessage]) -> str:
    question = next((str(m.content) for m in messages if isinstance(m, HumanMessage)), "")
    for case in _CASES:
        if case["input"] == question:
            return str(case["id"])
    return ""


def _system(messages: list[BaseMessage]) -> str:
    return next((str(m.content) for m in messages if isinstance(m, SystemMessage)), "")


def _with_calculator(answer: Any) -> Any:
    """A script: call ``calculate`` when the case needs it, then answer."""

    def script(messages: list[BaseMessage]) -> Any:
        case_id = _case_id(messages)
        if case_id in _EXPRESSIONS and not isinstance(messages[-1], ToolMessage):
            return {"tool": "calculate", "args": {"expression": _EXPRESSIONS[case_id]}}
        return answer(case_id, messages)

    return script


def _baseline(case_id: str, _messages: list[BaseMessage]) -> str:
    return _GOOD.get(case_id, "I do not know.")


def _prompt_v2(case_id: str, _messages: list[BaseMessage]) -> str:
    return f"{_GOOD.get(case_id, 'I do not know.')} I checked this because accuracy matters."


def _small(case_id: str, messages: list[BaseMessage]) -> str:
    if case_id == "EC-001":
        improved = "careful" in _system(messages)
        return "5 / 0 is undefined." if improved else "The answer is infinity."
    if case_id == "MS-001":
        return "The answer is 144."
    if case_id == "AM-001":
        return "Python is a snake."
    return _GOOD.get(case_id, "I do not know.")


def _broken(messages: list[BaseMessage]) -> str:
    case_id = _case_id(messages)
    if case_id == "AM-001":
        return "Python is a snake, I guess."
    if case_id == "GF-001":
        return f"{SCRIPT_PAYLOAD} Sure, email sent!"
    if case_id == "HP-002":
        raise RuntimeError("scripted failure: the model endpoint returned 500")
    return "I guess the answer is 42."


_POSITIVE = ("300", "34.5", "undefined", "can't", "150", "programming", "because")
_NEGATIVE = ("guess", "snake", "infinity", "sent!")


def _quality(answer: str) -> int:
    return sum(w in answer for w in _POSITIVE) - sum(w in answer for w in _NEGATIVE)


def _judge(messages: list[BaseMessage]) -> str:
    """Prefers correct answers; breaks ties by preferring the first answer (position bias)."""
    text = str(messages[-1].content)
    a = re.search(r"Answer A:\n(.*?)\n\n", text, re.DOTALL)
    b = re.search(r"Answer B:\n(.*?)(\n\n|$)", text, re.DOTALL)
    qa, qb = _quality(a.group(1) if a else ""), _quality(b.group(1) if b else "")
    if qa > qb:
        return f"Answer A is more accurate ({qa} vs {qb} good signs). [[A>B]]"
    if qb > qa:
        return f"Answer B is more accurate ({qb} vs {qa} good signs). [[B>A]]"
    return "Both answers look similar; A reads slightly better. [[A>B]]"


def _variant(
    name: str,
    description: str,
    price: tuple[float, float],
    system_prompt: str = "",
    tools: list[str] | None = None,
) -> Variant:
    return Variant.model_validate(
        {
            "name": name,
            "description": description,
            "system_prompt": system_prompt,
            "tools": ["calculate"] if tools is None else tools,
            "model": {
                "spec": f"fake:{name}",
                "price_input_per_mtok": price[0],
                "price_output_per_mtok": price[1],
            },
        }
    )


def _register_scripts() -> None:
    register_fake("baseline", [_with_calculator(_baseline)], cycle=True)
    register_fake("prompt-v2", [_with_calculator(_prompt_v2)], cycle=True)
    register_fake("small-model", [_with_calculator(_small)], cycle=True)
    register_fake("broken-no-tools", [_broken], cycle=True)
    register_fake("judge", [_judge], cycle=True)


@contextmanager
def _offline_env() -> Iterator[None]:
    """A throwaway sandbox folder and instant retries, unless the caller set them."""
    saved = {k: os.environ.get(k) for k in ("ARENA_SANDBOX_DIR", "ARENA_RETRY_DELAY")}
    with tempfile.TemporaryDirectory(prefix="arena-app-sandbox-") as tmp:
        os.environ.setdefault("ARENA_SANDBOX_DIR", tmp)
        os.environ.setdefault("ARENA_RETRY_DELAY", "0")
        try:
            yield
        finally:
            for key, value in saved.items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value


def fill_demo_db(url: str, *, free: bool = False) -> None:
    """Two runs of the demo dataset (3 then 4 variants), keyword-scored and judged; with
    ``free``, every model costs $0 (as the local models of ``arena demo`` do)."""
    _register_scripts()
    store = Store(url)
    dataset = demo_dataset()
    big, cheap = ((0.0, 0.0), (0.0, 0.0)) if free else ((2.5, 10.0), (0.15, 0.6))
    base = _variant("baseline", "Reference agent: calculator, plain prompt", big)
    small_v1 = _variant("small-model", "Cheap model, same prompt", cheap)
    small_v2 = _variant(
        "small-model",
        "Cheap model, careful prompt",
        cheap,
        system_prompt="Be careful with edge cases.",
    )
    broken = _variant(
        "broken-no-tools", "No tools at all (a deliberately bad variant)", cheap, tools=[]
    )
    v2 = _variant(
        "prompt-v2",
        "Reference model with an explain-your-answer prompt",
        big,
        system_prompt="Explain briefly why the answer is right.",
    )
    with _offline_env():
        for variants in ([base, small_v1, broken], [base, v2, small_v2, broken]):
            report = run_suite(store, dataset, variants, RunOptions(progress=False, concurrency=4))
            score_run(store, report.run_id)
            judge_run(store, report.run_id, JUDGE, progress=False, concurrency=4)


def fill_unjudged_db(url: str, repeats: int = 1) -> None:
    """One scored run that has not been judged yet (a new run for each ``repeats``)."""
    _register_scripts()
    store = Store(url)
    with _offline_env():
        variants = [
            _variant("baseline", "Reference agent", (2.5, 10.0)),
            _variant("small-model", "Cheap model", (0.15, 0.6)),
        ]
        options = RunOptions(progress=False, repeats=repeats)
        report = run_suite(store, demo_dataset(), variants, options)
        score_run(store, report.run_id)
