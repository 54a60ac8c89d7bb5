"""The tie margin of verdicts made without labels: learned on a human-preference set with ties,
decided in one place, honoured by the default judge, printed by ``arena judge --outputs``."""

from __future__ import annotations

import hashlib
import json
import math
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, BaseMessage

from arena.cli import main
from arena.models import ModelConfig, register_fake
from arena.trust import TieMargin, decide_tie_margin
from arena.trust._accuracy import GoldenMark
from arena.trust._unlabelled import (
    UNLABELLED_MARGINS,
    agreement_at,
    learn_margin,
    said,
    tie_share,
    unlabelled_margin,
)
from judges import JudgeSpec, PairRequest, Verdict, verdict_key
from judges._battle import Battle
from judges.modes import combine
from tests.support.battles import battle

pytestmark = pytest.mark.unit


def test_learn_margin_picks_the_best_agreement_with_ties_at_a_tie_rate_near_peoples() -> None:
    # Two clear pairs people decided, two close ones people called ties, a less close one
    # people decided: margin 0.03 ties the two closest (5 of 5); 0.02 leaves 0.52 decided,
    # 0.075 also ties 0.56, 0.5 would tie the clear ones.
    p_a = [0.9, 0.1, 0.52, 0.48, 0.56]
    people = [1, 2, 0, 0, 1]
    assert agreement_at(p_a, people, 0.0) == 3 / 5
    assert learn_margin(p_a, people) == 0.03
    assert agreement_at(p_a, people, 0.03) == 1.0
    assert agreement_at(p_a, people, 0.075) == 4 / 5
    # Equal agreement: the smaller margin.
    assert learn_margin([0.9, 0.1], [1, 2]) == 0.0
    # A judge whose closeness does not tell people's ties: agreement alone would never tie
    # (4 of 5 at margin 0); the tie rate is held within 10 points of people's (1 in 5).
    coin = [0.9, 0.1, 0.497, 0.7, 0.3]
    votes = [1, 2, 2, 0, 2]
    assert learn_margin(coin, votes, band=1.0) == 0.0
    assert learn_margin(coin, votes) == 0.005 and tie_share(coin, 0.005) == 1 / 5
    assert said(0.5, 0.0) == 0 and said(0.51, 0.0) == 1 and said(0.49, 0.02) == 0
    with pytest.raises(ValueError, match="needs pairs"):
        learn_margin([], [])


def _battle(spec: JudgeSpec, p_ab: float, p_ba: float, i: int = 0) -> Battle:
    details = {"mode": "blend", "chosen_for": "open-ended"} if spec.mode == "auto" else None
    ab = Verdict(label="A>B", p_first=p_ab, judge=spec, details=details)
    ba = Verdict(label="B>A", p_first=p_ba, judge=spec, details=details)
    return battle(i, spec, ab, ba, case_id=f"q{i}")


def test_without_labels_the_default_judge_takes_the_margin_learned_with_ties() -> None:
    spec = JudgeSpec(model=ModelConfig(spec="fake:j"), mode="auto")
    learned = unlabelled_margin("auto")
    assert learned is not None and learned == UNLABELLED_MARGINS["auto"] and learned > 0
    battles = [_battle(spec, 0.6, 0.4, i) for i in range(10)]
    decided = decide_tie_margin(spec, battles, {})
    assert decided == TieMargin(learned, "unlabelled")
    assert "learned for the mode" in decided.why and "pandalm" in decided.why
    # A judge file's margin (or --tie-margin) still fixes it.
    fixed = spec.model_copy(update={"tie_margin": 0.0})
    assert decide_tie_margin(fixed, battles, {}) == TieMargin(0.0, "spec")
    # Golden-decisive pairs calibrate as before: the golden margin wins over the learned one.
    marks = {2 * i: GoldenMark(1.0, True) for i in range(10)}
    marks |= {2 * i + 1: GoldenMark(0.0, False) for i in range(10)}
    assert decide_tie_margin(spec, battles, marks).source == "golden"


def test_the_open_ended_verdicts_tie_within_the_margin_they_are_given() -> None:
    spec = JudgeSpec(model=ModelConfig(spec="fake:j"), mode="auto")
    # Both orders lean to A a little: P(A better) about 0.505.
    close = _battle(spec, 0.505, 0.495)
    assert close.verdict_ab is not None and close.verdict_ba is not None
    margin = UNLABELLED_MARGINS["auto"]
    assert combine(close.verdict_ab, close.verdict_ba, margin).winner == "tie"
    # Without a margin the blend still has to choose (a tie only at an exact balance).
    assert combine(close.verdict_ab, close.verdict_ba).winner == "model_a"
    assert combine(close.verdict_ab, close.verdict_ba, 0.0).winner == "model_a"


#: The digest of verdict and judge keys of judges with a fixed margin, pinned before the
#: unlabelled margin was added (main at 2974a1a): deciding margins must not move them.
FIXED_KEYS_DIGEST = "65dd7367c1cf218cdfd6142fefc4c67b562929169b4816f94916395009717e37"


def test_verdict_keys_of_judges_with_a_fixed_margin_are_unchanged() -> None:
    request = PairRequest(case_id="q1", query="Name a prime.", answer_a="7", answer_b="9")
    keys = []
    for mode in ("auto", "blend", "checklist", "grades", "logprobs", "text"):
        for margin in (0.0, 0.02, 0.1):
            spec = JudgeSpec(model=ModelConfig(spec="fake:j"), mode=mode, tie_margin=margin)
            keys.append(f"{mode} {margin} {spec.key} {verdict_key(spec, request)}")
    digest = hashlib.sha256("\n".join(keys).encode()).hexdigest()
    assert digest == FIXED_KEYS_DIGEST


def _yes(p_yes: float) -> AIMessage:
    tops = [
        {"token": "YES", "logprob": math.log(p_yes)},
        {"token": "NO", "logprob": math.log(1 - p_yes)},
    ]
    meta = {"logprobs": {"content": [{"token": "YES", "logprob": 0.0, "top_logprobs": tops}]}}
    return AIMessage("YES", response_metadata=meta)


#: P(YES) of each answer's items: "close" answers are nearly as good as each other.
GRADES = {"Paris": 0.9, "Lyon": 0.1, "near-one": 0.5, "near-two": 0.501}


def _judge(messages: list[BaseMessage]) -> AIMessage:
    text = str(messages[-1].content)
    if text.startswith("Write 3 short"):
        return AIMessage("Is the answer right?")
    answer = next(a for a in GRADES if a in text)
    return _yes(GRADES[answer])


def _answers(path: Path, name: str, answers: dict[str, str]) -> str:
    rows = [
        {"question_id": q, "question": f"Question {q}?", "answer": a, "model": name}
        for q, a in answers.items()
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return str(path)


@pytest.mark.system  # arena judge --outputs end to end with a scripted judge
def test_arena_judge_outputs_says_which_margin_it_used_and_why(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    register_fake("judge", [_judge], cycle=True)
    one = _answers(tmp_path / "one.jsonl", "one", {"q1": "Paris", "q2": "near-one"})
    two = _answers(tmp_path / "two.jsonl", "two", {"q1": "Lyon", "q2": "near-two"})
    db = f"sqlite:///{tmp_path / 't.db'}"
    judge = ["judge", "--outputs", one, two, "--judge", "fake:judge/auto", "--db", db]
    assert main(judge) == 0
    out = capsys.readouterr().out
    learned = UNLABELLED_MARGINS["auto"]
    assert f"tie margin {learned:.3f} (no labels on the run: learned for the mode" in out
    assert main([*judge, "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["tie_margin_source"] == "unlabelled"
    winners = {b["case_id"]: b["winner"] for b in doc["battles"]}
    assert winners == {"q1": "model_a", "q2": "tie"}
    # --tie-margin fixes one (a judge of its own key): the close pair must be decided.
    assert main([*judge, "--tie-margin", "0", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["tie_margin_source"] == "spec" and doc["tie_margin"] == 0.0
    assert {b["case_id"]: b["winner"] for b in doc["battles"]}["q2"] == "model_b"
    assert main([*judge, "--tie-margin", "0.5"]) == 2
