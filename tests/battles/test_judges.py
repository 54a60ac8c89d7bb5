"""Position swapping, pairings, judge specs and judging stored runs with scripted judges."""

from __future__ import annotations

import math
import re
from typing import Any

import pytest
from langchain_core.messages import AIMessage, BaseMessage

from arena.battles import combine, judge_run, make_pairs
from arena.errors import InputError
from arena.golden import GoldenDataset
from arena.models import ModelConfig, register_fake
from arena.runner import RunOptions, run_suite
from arena.storage import Store
from arena.trust import judge_health
from arena.variants.variant import Variant
from judges import (
    JudgeSpec,
    Verdict,
    agreement_rule,
    averaging_rule,
    logit_rule,
    parse_judge,
)

pytestmark = pytest.mark.unit


def _spec(mode: str = "text") -> JudgeSpec:
    return JudgeSpec(model=ModelConfig(spec="fake:judge"), mode=mode)


def _v(
    label: str | None, p: float | None = None, error: str | None = None, combine: str = "logit"
) -> Verdict:
    spec = _spec("logprobs" if p else "text").model_copy(update={"combine": combine})
    return Verdict(label=label, p_first=p, error=error, judge=spec)


@pytest.mark.parametrize(
    ("ab", "ba", "winner", "strong", "flip"),
    [
        ("A>B", "B>A", "model_a", False, False),  # A wins in both orders
        ("A>>B", "B>>A", "model_a", True, False),  # strong only if both strong
        ("A>>B", "B>A", "model_a", False, False),
        ("B>A", "A>B", "model_b", False, False),
        ("A>B", "A>B", "tie", False, True),  # always the first answer: a flip, a tie
        ("A=B", "A=B", "tie", False, False),
        ("A>B", "A=B", "tie", False, True),
    ],
)
def test_combine_agreement_rule(ab: str, ba: str, winner: str, strong: bool, flip: bool) -> None:
    outcome = combine(_v(ab), _v(ba))  # text verdicts: the agreement rule
    assert (outcome.winner, outcome.strong, outcome.flip) == (winner, strong, flip)
    assert agreement_rule(_v(ab), _v(ba)) == outcome


def test_combine_error_is_never_a_tie() -> None:
    for rule in (combine, agreement_rule, averaging_rule):
        outcome = rule(_v(None, error="unparseable"), _v("A>B"))
        assert outcome.winner == "error" and outcome.error == "unparseable"


def test_combine_average_cancels_position_bias() -> None:
    # The judge likes the first slot (+0.25) but prefers X by 0.15 either way.
    ab, ba = _v("A>B", 0.9, combine="average"), _v("A>B", 0.6, combine="average")
    outcome = combine(ab, ba)  # the spec asks for the averaging rule
    assert averaging_rule(ab, ba) == outcome
    assert outcome.winner == "model_a" and outcome.flip and outcome.p_a == pytest.approx(0.65)


def test_combine_logit_cancels_a_constant_log_odds_offset_exactly() -> None:
    # The first slot adds +3 to the log-odds; X is better by 0.8 in log-odds either way.
    bias, signal = 3.0, 0.8
    sig = lambda x: 1 / (1 + math.exp(-x))  # noqa: E731
    ab, ba = _v("A>>B", sig(bias + signal)), _v("A>>B", sig(bias - signal))
    outcome = combine(ab, ba)  # the spec asks for the logit rule
    assert logit_rule(ab, ba) == outcome
    assert outcome.p_a == pytest.approx(sig(signal)) and outcome.winner == "model_a"
    # Averaging the probabilities squashes the same signal towards a tie.
    averaged = averaging_rule(ab, ba).p_a
    assert averaged is not None and outcome.p_a is not None
    assert averaged == pytest.approx((sig(3.8) + 1 - sig(2.2)) / 2)
    assert abs(averaged - 0.5) < abs(outcome.p_a - 0.5) / 3
    # 0.99 and 0.99: the logit rule still reads the gap, a calibrated margin decides a tie.
    strong = _v("A>>B", 0.99), _v("A>>B", 0.98)
    assert logit_rule(*strong).winner == "model_a"
    assert logit_rule(*strong, tie_margin=0.2).winner == "tie"


def test_pairings() -> None:
    assert make_pairs(["a", "b", "c"]) == [("a", "b"), ("a", "c"), ("b", "c")]
    assert make_pairs(["a", "b", "c"], "anchor:b") == [("b", "a"), ("b", "c")]
    with pytest.raises(InputError, match="not a variant"):
        make_pairs(["a", "b"], "anchor:z")
    with pytest.raises(InputError, match="at least two"):
        make_pairs(["a"])


def test_parse_judge_specs(tmp_path: Any) -> None:
    assert parse_judge("local:qwen2.5-coder-1.5b").mode == "auto"
    assert parse_judge("openai:gpt-4o").mode == "text"
    assert parse_judge("local:qwen2.5-coder-1.5b/text").mode == "text"
    with pytest.raises(InputError, match="mode"):
        parse_judge("openai:gpt-4o/vibes")
    path = tmp_path / "j.yaml"
    path.write_text("model: {spec: 'openai:gpt-4o'}\nmode: text\nwith_trajectory: true\n")
    assert parse_judge(str(path)).with_trajectory


# -- end to end on a stored run, with scripted contestants and judges -----------------------

GOOD, BAD = "The answer is 300.", "I think it is 250."


def _run(store: Store, cases: int = 4, good: str = GOOD) -> int:
    """A stored run of three scripted variants ("good", "bad", "same" as good) on ``cases``
    cases."""
    register_fake("good", [good], cycle=True)
    register_fake("bad", [BAD], cycle=True)
    register_fake("same", [good], cycle=True)
    found = [
        {
            "id": f"C-{i}",
            "input": f"What's 25% of 1200? #{i}",
            "category": "happy_path",
            "expected_output_contains": ["300"],
        }
        for i in range(cases)
    ]
    dataset = GoldenDataset.model_validate(
        {"name": "t", "available_tools": ["calculate"], "test_cases": found}
    )
    variants = [
        Variant.model_validate({"name": n, "model": {"spec": f"fake:{n}"}, "tools": ["calculate"]})
        for n in ("good", "bad", "same")
    ]
    return run_suite(store, dataset, variants, RunOptions(progress=False)).run_id


def _answers(messages: list[BaseMessage]) -> tuple[str, str]:
    text = str(messages[-1].content)
    a = re.search(r"Answer A:\n(.*?)\n\n", text, re.DOTALL)
    b = re.search(r"Answer B:\n(.*?)(\n\n|$)", text, re.DOTALL)
    assert a and b
    return a.group(1), b.group(1)


def _prefers_300(messages: list[BaseMessage]) -> str:
    a, b = _answers(messages)
    return (
        "A says 300. [[A>B]]" if "300" in a else "B says 300. [[B>A]]" if "300" in b else "[[A=B]]"
    )


def test_always_a_judge_yields_only_ties_and_zero_consistency(store: Store) -> None:
    run_id = _run(store)
    register_fake("judge", ["[[A>B]]"], cycle=True)
    report = judge_run(store, run_id, _spec(), progress=False)
    judged = [b for b in report.battles if b.verdict_ab is not None]
    assert judged and all(b.winner == "tie" and b.flip for b in judged)
    health = judge_health(report.battles)
    assert health.position_consistency == 0.0 and health.first_position_win_rate == 1.0


def test_fair_judge_yields_wins_and_identical_answers_tie_without_a_call(store: Store) -> None:
    run_id = _run(store)
    script = register_fake("judge", [_prefers_300], cycle=True)
    report = judge_run(store, run_id, _spec(), progress=False)
    by_pair = {(b.variant_a, b.variant_b, b.case_id): b for b in report.battles}
    assert len(report.battles) == 12
    assert all(by_pair[("good", "bad", f"C-{i}")].winner == "model_a" for i in range(4))
    assert all(by_pair[("bad", "same", f"C-{i}")].winner == "model_b" for i in range(4))
    identical = [by_pair[("good", "same", f"C-{i}")] for i in range(4)]
    assert all(b.winner == "tie" and b.verdict_ab is None for b in identical)
    # good and same give the same text, so (bad, same) reuses the cached (good, bad) verdicts.
    assert len(script.calls) == 8 == report.model_calls
    health = judge_health(report.battles)
    assert health.position_consistency == 1.0 and health.error_rate == 0.0
    again = judge_run(store, run_id, _spec(), progress=False)
    assert again.model_calls == 0 and len(script.calls) == 8
    assert [b.winner for b in again.battles] == [b.winner for b in report.battles]
    assert len(store.battles(run_id)) == 12


def test_unparseable_judge_is_asked_again_then_recorded_as_error(store: Store) -> None:
    run_id = _run(store)
    script = register_fake("judge", ["I cannot decide."], cycle=True)
    report = judge_run(store, run_id, _spec(), pairs="anchor:good", progress=False)
    errors = [b for b in report.battles if b.verdict_ab is not None]
    assert errors and all(b.winner == "error" and b.error for b in errors)
    assert "asked again" in (errors[0].error or "")
    assert len(script.calls) == 2 * 2 * len(errors)  # two orders, two attempts each
    assert judge_health(report.battles).error_rate == pytest.approx(len(errors) / 8)


def test_logprob_judge_reads_probabilities(store: Store) -> None:
    run_id = _run(store)

    def biased(messages: list[BaseMessage]) -> AIMessage:
        a, _ = _answers(messages)
        p_a = 0.95 if "300" in a else 0.6  # strong first-slot bias, still prefers 300
        tops = [
            {"token": "A", "logprob": math.log(p_a)},
            {"token": "B", "logprob": math.log(1 - p_a)},
        ]
        return AIMessage(
            "A",
            response_metadata={
                "logprobs": {
                    "content": [{"token": "A", "logprob": math.log(p_a), "top_logprobs": tops}]
                }
            },
        )

    register_fake("judge", [biased], cycle=True)
    report = judge_run(store, run_id, _spec("logprobs"), pairs="anchor:good", progress=False)
    vs_bad = [b for b in report.battles if b.variant_b == "bad"]
    assert all(b.winner == "model_a" and b.flip for b in vs_bad)
    assert all(b.p_a == pytest.approx((0.95 + 0.4) / 2) for b in vs_bad)  # averaged
    logit_spec = _spec("logprobs").model_copy(update={"combine": "logit"})
    again = judge_run(store, run_id, logit_spec, pairs="anchor:good", progress=False)
    assert again.model_calls == 0  # the same readings, combined in log-odds
    # Half the log-odds gap: logit(0.95) with 300 first, logit(0.6) with 250 first.
    half_gap = (math.log(0.95 / 0.05) - math.log(0.6 / 0.4)) / 2
    vs_bad = [b for b in again.battles if b.variant_b == "bad"]
    assert all(b.p_a == pytest.approx(1 / (1 + math.exp(-half_gap))) for b in vs_bad)


def test_self_preference_is_warned_and_marked(store: Store) -> None:
    run_id = _run(store)
    register_fake("good", [_prefers_300, GOOD], cycle=True)
    spec = JudgeSpec(model=ModelConfig(spec="fake:good"))
    report = judge_run(store, run_id, spec, pairs="anchor:bad", progress=False)
    assert any("self-preference" in w and "'good'" in w for w in report.warnings)
    assert {b.self_judged for b in report.battles if "good" in (b.variant_a, b.variant_b)} == {True}
    assert {b.self_judged for b in report.battles if "good" not in (b.variant_a, b.variant_b)} == {
        False
    }


def test_with_trajectory_shows_the_judge_each_answers_tool_calls(
    store: Store, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from arena.cli import main

    run_id = _run(store)
    script = register_fake("judge", [_prefers_300], cycle=True)
    assert (
        main(
            [
                "judge",
                str(run_id),
                "--judge",
                "fake:judge/text",
                "--with-trajectory",
                "--pairs",
                "anchor:bad",
                "--json",
                "--db",
                db_url,
            ]
        )
        == 0
    )
    assert '"with_trajectory": true' in capsys.readouterr().out
    prompt = str(script.calls[0][-1].content)
    assert "Tools used by A: <tools-" in prompt and "Tools used by B: <tools-" in prompt
    assert prompt.count("none</tools-") == 2


def test_grades_mode_grades_each_answer_alone(store: Store) -> None:
    run_id = _run(store)

    def grade(messages: list[BaseMessage]) -> AIMessage:
        text = str(messages[-1].content)
        assert "Answer A" not in text and text.endswith("Reply YES or NO.")
        p_yes = 0.8 if "300" in text.split("Answer:\n", 1)[1] else 0.3
        tops = [
            {"token": "YES", "logprob": math.log(p_yes)},
            {"token": "NO", "logprob": math.log(1 - p_yes)},
        ]
        return AIMessage(
            "YES",
            response_metadata={
                "logprobs": {
                    "content": [{"token": "YES", "logprob": math.log(p_yes), "top_logprobs": tops}]
                }
            },
        )

    script = register_fake("judge", [grade], cycle=True)
    report = judge_run(store, run_id, _spec("grades"), pairs="anchor:bad", progress=False)
    vs_good = [b for b in report.battles if b.variant_b == "good"]
    # logit(0.3) - logit(0.8): "bad" (shown as A) is the worse answer.
    expected = 1 / (1 + math.exp(-(math.log(0.3 / 0.7) - math.log(0.8 / 0.2))))
    assert all(b.winner == "model_b" and not b.flip for b in vs_good)
    assert all(b.p_a == pytest.approx(expected) for b in vs_good)
    # Each distinct (case, answer) is graded once; the swapped order hits the cache.
    assert len(script.calls) == 8 and report.model_calls == 8
    assert judge_health(report.battles).position_consistency == 1.0
    assert parse_judge("local:qwen2.5-coder-1.5b/grades").mode == "grades"
