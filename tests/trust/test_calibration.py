"""The tie margin calibrated from a judge's own two-order verdicts on the run, and switching
how the orders combine without asking the model again."""

from __future__ import annotations

import math
import random
from collections.abc import Callable

import pytest
from langchain_core.messages import AIMessage, BaseMessage

from arena.battles import Battle, judge_run
from arena.evaluation.run_scores import load_run_scores, score_run
from arena.models import ModelConfig, register_fake
from arena.storage import Store
from arena.trust import calibrated_margin, compare_combinations, golden_marks
from arena.trust._calibration import (
    MARGIN_GRID,
    MIN_BATTLES,
    TieMargin,
    decide_tie_margin,
    golden_margin,
    order_probabilities,
    tie_margin,
)
from judges import JudgeSpec
from judges._orders import logit, sigmoid
from judges._types import DEFAULT_TIE_MARGIN
from tests.battles.test_judges import _answers
from tests.support.battles import battle as make_battle

pytestmark = pytest.mark.unit


def _simulated(n: int, bias: float, noise: float, seed: int = 0) -> list[tuple[float, float]]:
    """Two-order probabilities: log-odds = bias (first slot) +- signal + noise per order."""
    rng = random.Random(seed)
    pairs = []
    for _ in range(n):
        signal = rng.choice([-1.0, 0.0, 1.0])
        l1 = bias + signal + rng.gauss(0, noise)
        l2 = bias - signal + rng.gauss(0, noise)
        pairs.append((sigmoid(l1), sigmoid(l2)))
    return pairs


@pytest.mark.parametrize("noise", [0.5, 1.0, 2.0])
def test_the_margin_follows_the_judges_order_noise(noise: float) -> None:
    pairs = _simulated(4000, bias=2.0, noise=noise)
    margin = calibrated_margin(pairs, "logit")
    # The offsets (l1 + l2) / 2 vary with sd noise / sqrt(2), as does (l1 - l2) / 2.
    assert margin == pytest.approx(sigmoid(noise / math.sqrt(2)) - 0.5, rel=0.05)
    average = calibrated_margin(pairs, "average")
    assert average is not None and 0 < average < 0.5


def test_a_constant_position_preference_alone_gives_no_margin() -> None:
    pairs = [(sigmoid(3.0 + s), sigmoid(3.0 - s)) for s in (-1, 0, 1) * 5]
    assert calibrated_margin(pairs, "logit") is None  # offsets all exactly 3
    assert calibrated_margin(_simulated(MIN_BATTLES - 1, 1.0, 1.0), "logit") is None
    assert calibrated_margin(_simulated(MIN_BATTLES, 1.0, 1.0), "logit") is not None


def _noisy_judge(seed: int) -> Callable[[list[BaseMessage]], AIMessage]:
    """P(A) with a first-slot bias of +2 log-odds, +1.5 for the answer saying 300, and
    answer-independent noise (the same noise for the same prompt)."""

    def reply(messages: list[BaseMessage]) -> AIMessage:
        a, b = _answers(messages)
        prompt = str(messages[-1].content)
        noise = random.Random(f"{seed}:{prompt}").gauss(0, 1.0)
        signal = 1.5 * (("300" in a) - ("300" in b))
        p = sigmoid(2.0 + signal + noise)
        tops = [{"token": "A", "logprob": math.log(p)}, {"token": "B", "logprob": math.log(1 - p)}]
        return AIMessage(
            "A",
            response_metadata={
                "logprobs": {
                    "content": [{"token": "A", "logprob": math.log(p), "top_logprobs": tops}]
                }
            },
        )

    return reply


def _many_cases_run(store: Store) -> int:
    from arena.golden import GoldenDataset
    from arena.runner import RunOptions, run_suite
    from arena.variants.variant import Variant

    register_fake("cal-good", ["The answer is 300."], cycle=True)
    register_fake("cal-bad", ["I think it is 250."], cycle=True)
    register_fake("cal-other", ["Perhaps 260."], cycle=True)
    cases = [
        {
            "id": f"C-{i}",
            "input": f"What's 25% of 1200? #{i}",
            "category": "happy_path",
            "expected_output_contains": ["300"],
        }
        for i in range(6)
    ]
    dataset = GoldenDataset.model_validate(
        {"name": "t", "available_tools": ["calculate"], "test_cases": cases}
    )
    variants = [
        Variant.model_validate(
            {"name": n, "model": {"spec": f"fake:cal-{n}"}, "tools": ["calculate"]}
        )
        for n in ("good", "bad", "other")
    ]
    return run_suite(store, dataset, variants, RunOptions(progress=False)).run_id


@pytest.mark.system  # end to end (runs, judging, storage): too slow for a unit test
def test_judge_run_calibrates_one_margin_for_the_run_and_stores_it(store: Store) -> None:
    run_id = _many_cases_run(store)
    register_fake("noisy", [_noisy_judge(0)], cycle=True)
    spec = JudgeSpec(model=ModelConfig(spec="fake:noisy"), mode="logprobs", combine="logit")
    report = judge_run(store, run_id, spec, progress=False)
    battles = store.battles(run_id, spec.key)
    pairs = [
        (b.verdict_ab.p_first, b.verdict_ba.p_first)
        for b in battles
        if b.verdict_ab and b.verdict_ba
    ]
    assert len(pairs) == 18
    # Golden scores (keyword scores here) decide the margin; without them, the order noise.
    marks = golden_marks(load_run_scores(store, run_id).cases)
    expected = golden_margin(battles, marks, "logit")
    assert expected is not None and expected in MARGIN_GRID
    assert report.tie_margin == pytest.approx(expected)
    noise = calibrated_margin(pairs, "logit")  # type: ignore[arg-type]
    assert noise is not None and tie_margin(spec, battles, {}) == pytest.approx(noise)
    assert {b.tie_margin for b in battles} == {report.tie_margin}
    for battle in battles:  # every stored outcome uses the calibrated margin
        assert battle.p_a is not None and battle.verdict_ab and battle.verdict_ba
        p_a = sigmoid(
            (logit(battle.verdict_ab.p_first or 0) - logit(battle.verdict_ba.p_first or 0)) / 2
        )
        assert battle.p_a == pytest.approx(p_a)
        assert (battle.winner == "tie") is (abs(p_a - 0.5) < expected)
    fixed = spec.model_copy(update={"tie_margin": 0.05})
    assert judge_run(store, run_id, fixed, progress=False).tie_margin == 0.05


@pytest.mark.system  # end to end (runs, judging, storage): too slow for a unit test
def test_switching_the_combination_reuses_every_verdict(store: Store) -> None:
    run_id = _many_cases_run(store)
    score_run(store, run_id)
    script = register_fake("noisy", [_noisy_judge(1)], cycle=True)
    logit_judge = JudgeSpec(model=ModelConfig(spec="fake:noisy"), mode="logprobs", combine="logit")
    first = judge_run(store, run_id, logit_judge, progress=False)
    calls = len(script.calls)
    average = logit_judge.model_copy(update={"combine": "average"})
    second = judge_run(store, run_id, average, progress=False)
    assert second.model_calls == 0 and len(script.calls) == calls
    assert average.key != logit_judge.key and logit_judge.label.endswith("/logprobs/logit")
    assert average.label.endswith("/logprobs")  # averaging is the default
    assert [b.p_a for b in second.battles] != [b.p_a for b in first.battles]
    marks = golden_marks(load_run_scores(store, run_id).cases)
    rows = compare_combinations(first.battles, marks, rounds=200)
    assert [(r.combination, r.margin_rule) for r in rows] == [
        (combination, rule)
        for combination in ("average", "logit")
        for rule in ("golden", "noise", "fixed", "none")
    ]
    assert {r.tie_rate for r in rows if r.margin_rule == "none"} == {0.0}
    by_rule = {(r.combination, r.margin_rule): r for r in rows}
    assert by_rule[("logit", "golden")].tie_margin == pytest.approx(first.tie_margin)
    assert by_rule[("average", "golden")].tie_margin == pytest.approx(second.tie_margin)
    # Recombined from the stored verdicts, the average rule gives what judging with it gave.
    again = [b.winner for b in second.battles]
    assert by_rule[("average", "golden")].tie_rate == pytest.approx(
        sum(w == "tie" for w in again) / len(again)
    )


@pytest.mark.system  # end to end (runs, judging, storage): too slow for a unit test
def test_arena_health_measures_every_combination(
    store: Store, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    from arena.cli import main

    run_id = _many_cases_run(store)
    score_run(store, run_id)
    register_fake("noisy", [_noisy_judge(2)], cycle=True)
    spec = JudgeSpec(model=ModelConfig(spec="fake:noisy"), mode="logprobs")
    judge_run(store, run_id, spec, progress=False)
    register_fake("fair", [_prefers_300_text], cycle=True)
    fair = JudgeSpec(model=ModelConfig(spec="fake:fair"))
    judge_run(store, run_id, fair, progress=False)
    assert main(["health", str(run_id), "--combinations", "--json", "--db", db_url]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert list(doc["combinations"]) == [spec.key]  # text judges have nothing to combine
    rows = doc["combinations"][spec.key]
    assert len(rows) == 8 and all(r["agreement"]["n"] == 18 for r in rows)
    assert all(r["accuracy"]["pairs"] == 12 for r in rows)  # good vs bad, good vs other
    assert main(["health", str(run_id), "--combinations", "--db", db_url]) == 0
    out = capsys.readouterr().out
    assert f"how judge {spec.key} combines its two orders" in out
    assert "logit        golden" in out and "average      fixed 0.020" in out


def _prefers_300_text(messages: list[BaseMessage]) -> str:
    a, b = _answers(messages)
    return "[[A>B]]" if "300" in a else "[[B>A]]" if "300" in b else "[[A=B]]"


def _first_slot_shifted(battle: Battle, shift: float) -> Battle:
    ab = battle.verdict_ab
    assert ab is not None and ab.p_first is not None
    shifted = ab.model_copy(update={"p_first": ab.p_first + shift})
    return battle.model_copy(update={"verdict_ab": shifted})


def _flipped(battle: Battle) -> Battle:
    ab, ba = battle.verdict_ab, battle.verdict_ba
    assert ab is not None and ba is not None
    return battle.model_copy(update={"verdict_ab": ba, "verdict_ba": ab})


def test_the_golden_margin_ties_only_verdicts_no_better_than_a_coin_on_decisive_pairs() -> None:
    from arena.trust import GoldenMark
    from judges import Verdict

    spec = JudgeSpec(model=ModelConfig(spec="fake:j"), mode="logprobs")
    marks = {}
    battles = []
    # 8 decisive pairs judged clearly right (0.12 from 0.5), 4 decisive pairs judged close
    # to 0.5 (0.015) and mostly wrong (3 of 4), and 6 pairs both answers pass, judged far
    # from 0.5 either way: they say nothing about the margin.
    gaps = [0.12] * 8 + [-0.015, -0.015, -0.015, 0.015] + [0.3, -0.3] * 3
    for i, gap in enumerate(gaps):
        decisive = i < 12
        marks[2 * i] = GoldenMark(0.9, True)
        marks[2 * i + 1] = GoldenMark(0.2, False) if decisive else GoldenMark(0.9, True)
        ab = Verdict(label="A>B", p_first=0.6 + gap, judge=spec)  # first slot: +0.1
        ba = Verdict(label="A>B", p_first=0.6 - gap, judge=spec)
        battles.append(make_battle(i, spec, ab, ba))
    # No margin scores 8 + 1 - 3 = 6; 0.02 ties the four close ones and scores 8; 0.15 would
    # tie the clear ones too (0). The smallest margin with the best score is 0.02.
    assert golden_margin(battles, marks, "average") == 0.02
    assert tie_margin(spec, battles, marks) == 0.02
    assert golden_margin(battles[: MIN_BATTLES - 1], marks, "average") is None
    # Close verdicts that are right more often than not keep no margin.
    right = [b if i != 9 else _flipped(b) for i, b in enumerate(battles)]
    right = [_flipped(b) if i in (8, 10) else b for i, b in enumerate(right)]
    assert golden_margin(right, marks, "average") == 0.0
    # Where the margin comes from, decided in one place: spec > golden > noise > default.
    assert decide_tie_margin(spec, battles, marks) == TieMargin(0.02, "golden")
    fixed = spec.model_copy(update={"tie_margin": 0.07})
    assert decide_tie_margin(fixed, battles, marks) == TieMargin(0.07, "spec")
    # The first slot's offset is the same in every battle: no noise margin, the default.
    assert decide_tie_margin(spec, battles, {}) == TieMargin(DEFAULT_TIE_MARGIN, "default")
    jittered = [_first_slot_shifted(b, 0.01 * (i % 4)) for i, b in enumerate(battles)]
    noise = calibrated_margin(order_probabilities(jittered), "average")
    assert noise is not None and noise > 0
    assert decide_tie_margin(spec, jittered, {}) == TieMargin(noise, "noise")
    text = JudgeSpec(model=ModelConfig(spec="fake:j"))  # labels only: no probabilities
    assert decide_tie_margin(text, battles, marks) == TieMargin(None, "no probabilities")
