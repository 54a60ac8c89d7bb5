"""The checklist judge mode with scripted judges: items from golden cases, one P(YES) per
item and answer, shared prompt prefixes, written checklists, rules, errors."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, BaseMessage

from arena.battles import judge_run
from arena.golden import GoldenCase, GoldenDataset
from arena.models import ModelConfig, register_fake
from arena.runner import RunOptions, run_suite
from arena.storage import Store
from arena.variants.variant import Variant
from judges import JudgeSpec
from judges.modes.checklist._items import case_checklist, item_grades
from judges.modes.checklist._mode import written_items
from judges.modes.checklist._prompts import SYSTEM_CHECKLIST
from judges.modes.checklist._score import RULES, answer_score, p_first_better

pytestmark = pytest.mark.unit

SPEC = JudgeSpec(model=ModelConfig(spec="fake:judge"), mode="checklist")


def _yes(p_yes: float) -> AIMessage:
    tops = [
        {"token": "YES", "logprob": math.log(p_yes)},
        {"token": "NO", "logprob": math.log(1 - p_yes)},
    ]
    meta = {"logprobs": {"content": [{"token": "YES", "logprob": 0.0, "top_logprobs": tops}]}}
    return AIMessage("YES", response_metadata=meta)


def _case(**fields: object) -> GoldenCase:
    return GoldenCase.model_validate(
        {"id": "C-1", "input": "q", "category": "happy_path", **fields}
    )


def test_items_come_from_every_expectation_of_the_case() -> None:
    case = _case(
        category="edge_case",
        expected_behavior="refuse",
        expected_output_contains=[["300", "three hundred", "3e2", "CCC"], "percent"],
        expected_output_not_contains=["password"],
        reference_answer="25% of 1200 is 300.",
        expected_tools=["calculate", "calculate"],
        forbidden_tools=["write_file"],
    )
    items = case_checklist(case, with_trajectory=True)
    assert [(i.kind, i.want) for i in items] == [
        ("behaviour", True),
        ("fact", True),
        ("fact", True),
        ("forbidden", False),
        ("reference", True),
        ("tool", True),
    ]  # a forbidden tool gets no item (measured noisier than informative)
    assert (
        items[1].question
        == 'Does the answer state "300" or "three hundred" or "3e2" or an equivalent?'
    )
    assert "password" in items[3].question and "refuse" in items[0].question
    # Tool items are only asked when the judge sees the tool calls.
    assert all(i.kind != "tool" for i in case_checklist(case, with_trajectory=False))


def _run(store: Store) -> int:
    register_fake("good", ["25% of 1200 is 300."], cycle=True)
    register_fake("bad", ["It is 250."], cycle=True)
    cases = [
        {
            "id": f"C-{i}",
            "input": f"What's 25% of 1200? #{i}",
            "category": "happy_path",
            "expected_output_contains": ["300"],
            "expected_output_not_contains": ["250"],
            "reference_answer": "300",
        }
        for i in range(3)
    ]
    dataset = GoldenDataset.model_validate(
        {"name": "t", "available_tools": ["calculate"], "test_cases": cases}
    )
    variants = [
        Variant.model_validate({"name": n, "model": {"spec": f"fake:{n}"}, "tools": ["calculate"]})
        for n in ("good", "bad")
    ]
    return run_suite(store, dataset, variants, RunOptions(progress=False)).run_id


def _grader(messages: list[BaseMessage]) -> AIMessage:
    text = str(messages[-1].content)
    answer = text.split("Answer:\n", 1)[1].split("\n\n", 1)[0]
    question = text.rsplit("\n\n", 1)[1]
    good = "300" in answer
    if "contain" in question:  # the forbidden item: "250" is in the bad answer only
        return _yes(0.1 if good else 0.9)
    return _yes(0.9 if good else 0.2)


def test_checklist_judge_grades_each_item_of_each_answer_once(store: Store) -> None:
    run_id = _run(store)
    script = register_fake("judge", [_grader], cycle=True)
    report = judge_run(store, run_id, SPEC, progress=False)
    assert len(report.battles) == 3
    assert all(
        b.winner == ("model_a" if b.variant_a == "good" else "model_b") for b in report.battles
    )
    assert not any(b.flip for b in report.battles)
    # 3 cases x 2 distinct answers x 3 items (fact, forbidden, reference); the other order
    # reuses every grade.
    assert len(script.calls) == 18
    battle = report.battles[0]
    assert battle.verdict_ab is not None
    grades = item_grades(battle.verdict_ab.details)
    assert [(g.answer, g.kind) for g in grades] == [
        ("A", "fact"), ("A", "forbidden"), ("A", "reference"),
        ("B", "fact"), ("B", "forbidden"), ("B", "reference"),
    ]  # fmt: skip
    good = "A" if battle.variant_a == "good" else "B"
    assert all(g.p_met == pytest.approx(0.9) for g in grades if g.answer == good)
    assert (
        "P(YES)=0.90" in battle.verdict_ab.rationale and "(wants NO)" in battle.verdict_ab.rationale
    )
    # Stored with the battle: a reader sees why the judge preferred an answer.
    stored = store.battles(run_id, SPEC.key)[0]
    assert stored.verdict_ab is not None and item_grades(stored.verdict_ab.details) == grades


def test_item_prompts_share_the_answer_prefix_and_end_with_the_item(store: Store) -> None:
    run_id = _run(store)
    script = register_fake("judge", [_grader], cycle=True)
    judge_run(store, run_id, SPEC, progress=False, concurrency=1)
    prompts = [str(c[-1].content) for c in script.calls]
    first_three = prompts[:3]  # the items of one answer, asked one after the other
    prefix = first_three[0].rsplit("\n\n", 1)[0]
    assert all(p.startswith(prefix + "\n\n") for p in first_three)
    assert all(p.endswith("Reply YES or NO.") for p in prompts)
    assert "Reference answer: 300" in prefix and "Tools it called: <tools-" in prefix
    assert "none</tools-" in prefix
    # The worked examples are the system prompt, the same text before every item.
    systems = {str(c[0].content) for c in script.calls}
    assert len(systems) == 1 and SYSTEM_CHECKLIST.count("Example:") == 7
    assert systems.pop().endswith(SYSTEM_CHECKLIST.rsplit("{data_rule}", 1)[1])


def test_a_case_without_expectations_gets_a_checklist_written_once_per_query(
    store: Store,
) -> None:
    register_fake("good", ["Paris is the capital of France."], cycle=True)
    register_fake("bad", ["Lyon."], cycle=True)
    dataset = GoldenDataset.model_validate(
        {
            "name": "t",
            "available_tools": [],
            "test_cases": [{"id": "Q-1", "input": "Capital of France?", "category": "happy_path"}],
        }
    )
    variants = [
        Variant.model_validate({"name": n, "model": {"spec": f"fake:{n}"}}) for n in ("good", "bad")
    ]
    run_id = run_suite(store, dataset, variants, RunOptions(progress=False)).run_id
    writes: list[str] = []

    def judge(messages: list[BaseMessage]) -> AIMessage:
        text = str(messages[-1].content)
        if text.startswith("Write 3 short YES/NO questions"):
            writes.append(text)
            return AIMessage("1. Does it name Paris?\n2. Is it one city?\nnot a question")
        answer = text.split("Answer:\n", 1)[1]
        return _yes(0.95 if "Paris" in answer else 0.3)

    register_fake("judge", [judge], cycle=True)
    report = judge_run(store, run_id, SPEC, progress=False)
    assert len(writes) == 1 and "Request: Capital of France?" in writes[0]
    (battle,) = report.battles
    assert battle.verdict_ab is not None
    assert {g.question for g in item_grades(battle.verdict_ab.details)} == {
        "Does it name Paris?",
        "Is it one city?",
    }
    assert battle.winner == ("model_a" if battle.variant_a == "good" else "model_b")


def test_a_reply_without_yes_or_no_logprobs_is_an_error_never_a_tie(store: Store) -> None:
    run_id = _run(store)
    register_fake("judge", [AIMessage("maybe")], cycle=True)
    report = judge_run(store, run_id, SPEC, progress=False)
    assert {b.winner for b in report.battles} == {"error"}


def test_written_checklists_keep_questions_only() -> None:
    items = written_items("- Is it correct?\n2) Does it cite a source?\nThanks!\n* Ok?\n")
    assert [i.question for i in items] == ["Is it correct?", "Does it cite a source?"]


@pytest.mark.parametrize(
    ("rule", "expected"),
    [("mean", 0.5), ("product", 0.16), ("min", 0.2), ("logit-mean", 0.5)],
)
def test_rules_combine_items_as_documented(rule: str, expected: float) -> None:
    assert set(RULES) == {"mean", "product", "logit-mean", "min"}
    assert answer_score([0.8, 0.2], rule) == pytest.approx(expected)


def test_two_answers_compare_by_log_odds() -> None:
    # logit(0.8) - logit(0.5) = log 4: P(A better) = 4 / 5.
    assert p_first_better(0.8, 0.5) == pytest.approx(0.8)
    assert p_first_better(0.3, 0.3) == pytest.approx(0.5)
    assert answer_score([]) == 0.5


@pytest.mark.system  # runs and judges through the CLI, twice per mode
@pytest.mark.parametrize("mode", ["text", "logprobs", "grades", "checklist"])
def test_every_mode_sees_the_trajectories_by_default_and_no_trajectory_hides_them(
    tmp_path: Path, mode: str
) -> None:
    from arena.cli import main

    db = f"sqlite:///{tmp_path / 'a.db'}"
    run_id = _run(Store(db))

    def judge(messages: list[BaseMessage]) -> AIMessage:
        return _yes(0.5) if mode != "text" else AIMessage("[[A=B]]")

    script = register_fake("judge", [judge], cycle=True)
    assert main(["judge", str(run_id), "--judge", f"fake:judge/{mode}", "--db", db]) == 0
    shown = [str(c[-1].content) for c in script.calls]
    assert shown and all("none</tools-" in text for text in shown)
    script.calls.clear()
    hidden = ["judge", str(run_id), "--judge", f"fake:judge/{mode}", "--no-trajectory"]
    assert main([*hidden, "--db", db]) == 0
    asked = [str(c[-1].content) for c in script.calls]
    assert asked and not any("no tools" in text or "Tools " in text for text in asked)
    assert JudgeSpec(model=ModelConfig(spec="fake:j")).with_trajectory is True


def test_arena_show_lists_the_checklist_of_the_answer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from arena.cli import main

    db = f"sqlite:///{tmp_path / 's.db'}"
    store = Store(db)
    run_id = _run(store)
    register_fake("judge", [_grader], cycle=True)
    judge_run(store, run_id, SPEC, progress=False)
    bad = next(r for r in store.results(run_id) if r.variant == "bad")
    capsys.readouterr()
    assert main(["show", str(bad.id), "--db", db]) == 0
    out = capsys.readouterr().out
    assert "checklist of judge fake:judge/checklist:" in out
    assert '[ ] Does the answer state "300" or an equivalent?  P(YES)=0.20' in out
    assert '[ ] Does the answer contain "250"? (wants NO)  P(YES)=0.90' in out
