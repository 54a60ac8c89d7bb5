"""Conversations judged end to end on a stored run: both orders see both transcripts, the
careful agent wins, a pair with a simulator error is not judged and the report says so,
``arena show`` prints the stored dialogue turn by turn."""

from __future__ import annotations

import json
import re

import pytest
from langchain_core.messages import BaseMessage

from arena.battles import judge_run
from arena.cli import main
from arena.models import ModelConfig, register_fake
from arena.storage import Store
from judges import JudgeSpec
from tests.judges.stored_dialogues import conversation_run

pytestmark = pytest.mark.unit


def _judge(messages: list[BaseMessage]) -> str:
    text = str(messages[-1].content)
    a = text.split("Conversation A:\n", 1)[1].split("Conversation B:\n", 1)[0]
    first = re.search(r"(?ms)^Turn 1\n.*?^Tools: (.*?)$", a)
    assert first is not None
    return "[[A>B]]" if first.group(1) == "none" else "[[B>A]]"


def test_a_stored_conversation_run_is_judged_and_the_simulator_error_is_not(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    run_id = conversation_run(store, monkeypatch)
    script = register_fake("judge", [_judge], cycle=True)
    spec = JudgeSpec(model=ModelConfig(spec="fake:judge"), mode="text")
    report = judge_run(store, run_id, spec, progress=False)
    assert report.simulator_errors == 1 and report.skipped == 0 and report.crashes == 0
    (battle,) = report.battles
    assert battle.case_id == "REFUND-01" and not battle.flip
    assert battle.winner == ("model_a" if battle.variant_a == "careful" else "model_b")
    assert len(script.calls) == 2
    for call in script.calls:
        shown = str(call[-1].content)
        assert shown.count("Turn 3\nUser: Thanks, bye.") == 2  # both transcripts, whole
        assert "kettle" not in shown  # the simulator error's pair never reaches the judge


def test_the_judge_command_counts_the_pairs_not_judged(
    db_url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    run_conversations = conversation_run(Store(db_url), monkeypatch)
    register_fake("judge", [_judge], cycle=True)
    assert (
        main(["judge", str(run_conversations), "--judge", "fake:judge/text", "--db", db_url]) == 0
    )
    out = capsys.readouterr().out
    assert "not judged: 1 simulator errors" in out
    assert main(["judge", "--judge", "fake:judge/text", "--json", "--db", db_url]) == 0
    assert json.loads(capsys.readouterr().out)["simulator_errors"] == 1


def test_arena_show_prints_a_stored_conversation_turn_by_turn(
    db_url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    store = Store(db_url)
    run_id = conversation_run(store, monkeypatch)
    results = {(r.variant, r.case_id): r for r in store.results(run_id)}
    careful = results[("careful", "REFUND-01")]
    assert main(["show", str(careful.id), "--db", db_url]) == 0
    out = capsys.readouterr().out
    order = [
        "conversation: 3 turn(s), ended by script",
        "--- turn 1 ",
        "user:\n    I want a refund for my blender.",
        "reply:\n    Sure. What is your order number?",
        "--- turn 2 ",
        '[0] agent -> calculate({"expression": "44 + 71"})',
        "observation: 115",
        "reply:\n    Refund of 115 issued.",
        "--- turn 3 ",
        "reply:\n    Anything else?",
    ]
    at = [out.index(part) for part in order]
    assert at == sorted(at), out
    assert "final answer:" not in out  # the last turn's reply is the answer
    failed = results[("hasty", "SIM-01")]
    assert main(["show", str(failed.id), "--db", db_url]) == 0
    assert "SIMULATOR ERROR (not the agent's): leak: stated its goal verbatim" in (
        capsys.readouterr().out
    )


def test_adaptive_judging_leaves_out_the_simulator_errors_pair(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    from arena.compare.sequential._adaptive_judge import judge_adaptive

    run_id = conversation_run(store, monkeypatch)
    register_fake("judge", [_judge], cycle=True)
    spec = JudgeSpec(model=ModelConfig(spec="fake:judge"), mode="text")
    judge_adaptive(store, run_id, spec)
    assert [b.case_id for b in store.battles(run_id, spec.key)] == ["REFUND-01"]
