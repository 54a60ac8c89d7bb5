"""The crash rule: a pair where an answer crashed is decided without the judge (a loss for the
crashed side, a tie when both crashed), stored as a crash battle, idempotent on a rerun, and
kept out of the judge's own health, accuracy and agreement figures."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from langchain_core.messages import BaseMessage
from pydantic import ValidationError

from arena.battle_log.writer import run_battle_log
from arena.battles import judge_run, judge_run_async
from arena.models import ModelConfig, register_fake
from arena.records.results import RunResult
from arena.runner import RunOptions, run_suite
from arena.storage import Store
from arena.trust import judge_health, run_health
from arena.trust._health import judge_agreement
from judges import JudgeSpec
from judges._battle import Battle, crashed_side
from tests.leaderboard.test_crashes_count import RIGHT, WRONG, judge_spec, replies, run_scored

pytestmark = pytest.mark.unit


def both_crash_run(store: Store) -> int:
    """right (always 300), wrong (250, crashes on case 0), broken (crashes on cases 0, 1)."""
    register_fake("right", [replies(RIGHT)], cycle=True)
    register_fake("wrong", [replies(WRONG, ("0",))], cycle=True)
    register_fake("broken", [replies(RIGHT, ("0", "1"))], cycle=True)
    return run_scored(store, ("right", "wrong", "broken"), cases=3)


def test_crashed_answers_are_decided_by_the_rule_without_a_judge_call(store: Store) -> None:
    run_id = both_crash_run(store)
    spec = judge_spec()
    script = register_fake("judge-300", [_never_sees_a_crash], cycle=True)
    report = judge_run(store, run_id, spec, progress=False)
    assert len(report.battles) == 9 and report.skipped == 0  # 3 pairs x 3 cases, none dropped
    crashes = {(b.variant_a, b.variant_b, b.case_id): b for b in report.battles if b.is_crash}
    assert report.crashes == len(crashes) == 5
    both = crashes[("wrong", "broken", "C-0")]
    assert (both.winner, both.crashed, both.source) == ("tie (bothbad)", "both", "crash")
    assert crashes[("right", "wrong", "C-0")].winner == "model_a"
    assert crashes[("right", "broken", "C-1")].crashed == "b"
    assert crashes[("wrong", "broken", "C-1")].winner == "model_a"
    assert all(b.verdict_ab is None and b.verdict_ba is None for b in crashes.values())
    # Judged: right-wrong on C-1 and C-2, two orders each; wrong-broken on C-2 shows the same
    # two answers (cached), right-broken on C-2 is a tie of identical answers (no call).
    assert report.model_calls == len(script.calls) == 4


def _never_sees_a_crash(messages: list[BaseMessage]) -> str:
    text = str(messages[-1].content)
    assert "blew up" not in text  # a crashed answer is never shown to the judge
    a = text.split("Answer A:\n", 1)[1].split("\n\n", 1)[0]
    return "[[A>B]]" if "300" in a else "[[B>A]]"


def test_a_rerun_makes_no_call_and_stores_the_same_battles(store: Store) -> None:
    run_id = both_crash_run(store)
    spec = judge_spec()
    first = judge_run(store, run_id, spec, progress=False)
    again = judge_run(store, run_id, spec, progress=False)
    assert again.model_calls == 0 and again.crashes == first.crashes == 5

    def outcomes(battles: list[Battle]) -> set[tuple[Any, ...]]:
        return {(b.result_a_id, b.result_b_id, b.winner, b.source, b.crashed) for b in battles}

    stored = store.battles(run_id, spec.key)
    assert len(stored) == 9 and outcomes(stored) == outcomes(first.battles)


def test_a_crash_run_again_without_error_is_judged_again(store: Store) -> None:
    run_id = both_crash_run(store)
    spec = judge_spec()
    assert judge_run(store, run_id, spec, progress=False).crashes == 5
    # C-1 no longer crashes, with an answer the judge has not seen (no cached verdict)
    register_fake("broken", [replies("Now it is 300.", ("0",))], cycle=True)
    run = store.run(run_id)
    dataset = store.run_dataset(run_id)
    variants = [v for v in store.variants() if v.name in run.config["variants"]]
    options = RunOptions(progress=False, retry_errors=True, concurrency=1)
    assert run_suite(store, dataset, variants, options).run_id == run_id
    register_fake("judge-300", ["unreadable"], cycle=True)  # the judge fails this time
    again = judge_run(store, run_id, spec, progress=False)
    stale = [b for b in store.battles(run_id, spec.key) if b.case_id == "C-1" and b.is_crash]
    # The crash battles of C-1 went with the crashed output; the judge's errors stand in
    # their place (asked again next time, never rated), not losses of an answer that did
    # not crash.
    assert stale == [] and again.crashes == 3


def test_an_executor_never_gets_a_crash_pair(store: Store) -> None:
    run_id = both_crash_run(store)
    sent: list[Any] = []

    class Refuses:
        async def judge_pair(self, *args: Any) -> None:
            sent.append(args[3])  # the pair; None: not started (left for a rerun)

    report = asyncio.run(
        judge_run_async(store, run_id, judge_spec(), executor=Refuses(), progress=False)
    )
    assert len(sent) == 4 and all(p.a.error is None and p.b.error is None for p in sent)
    assert report.crashes == len(report.battles) == 5


@pytest.mark.system  # judges until the top two are separated
def test_adaptive_judging_counts_crash_pairs(store: Store) -> None:
    from arena.compare.sequential._adaptive_judge import judge_adaptive

    run_id = both_crash_run(store)
    report = judge_adaptive(store, run_id, judge_spec(), top_k=2)
    assert report.all_pairs == 9  # the five crash pairs are pairs too
    stored = store.battles(run_id, judge_spec().key)
    assert report.battles == len(stored) and any(b.is_crash for b in stored)


def test_health_counts_crashes_apart_from_judge_errors(store: Store) -> None:
    run_id = both_crash_run(store)
    register_fake("judge-mute", ["no verdict here"], cycle=True)  # unreadable: judge errors
    spec = JudgeSpec(model=ModelConfig(spec="fake:judge-mute"))
    report = judge_run(store, run_id, spec, progress=False)
    health = judge_health(report.battles)
    # 9 battles: 5 crashes, 1 identical-answer tie, 3 judge errors (the judge's own failure)
    assert (health.battles, health.crashes) == (4, 5)
    assert health.error_rate == pytest.approx(3 / 4) and health.tie_rate == 1.0
    (full,) = run_health(store, run_id, rounds=20).health
    assert (full.battles, full.crashes) == (4, 5)
    # No decisive pair the judge read: the crash battles (right beats broken, as the golden
    # checks say) do not make it accurate.
    assert full.accuracy is not None and full.accuracy.pairs == 0 and full.accuracy.errors == 3


def test_crash_battles_are_no_agreement_between_judges(store: Store) -> None:
    run_id = both_crash_run(store)
    first = judge_run(store, run_id, judge_spec(), progress=False).battles
    register_fake("judge-first", ["[[A>B]]"], cycle=True)  # a tie in both orders (a flip)
    spec = JudgeSpec(model=ModelConfig(spec="fake:judge-first"))
    second = judge_run(store, run_id, spec, progress=False).battles
    agreement = judge_agreement(first, second)
    assert agreement.n == 4  # the 5 crash battles agree by rule: left out


def test_the_battle_log_keeps_crash_battles_and_names_who_crashed(store: Store) -> None:
    run_id = both_crash_run(store)
    judge_run(store, run_id, judge_spec(), progress=False)
    rows = run_battle_log(store, run_id)
    assert len(rows) == 9
    crashed = sorted(
        (r["model_a"], r["model_b"], r["question_id"], r["winner"], tuple(r["crashed"]))
        for r in rows
        if r["crashed"]
    )
    assert crashed == [
        ("right", "broken", "C-0", "model_a", ("broken",)),
        ("right", "broken", "C-1", "model_a", ("broken",)),
        ("right", "wrong", "C-0", "model_a", ("wrong",)),
        ("wrong", "broken", "C-0", "tie (bothbad)", ("wrong", "broken")),
        ("wrong", "broken", "C-1", "model_a", ("broken",)),
    ]
    # ... and ``orders`` (one row per order the judge saw) keeps them as one row each.
    assert sum(bool(r["crashed"]) for r in run_battle_log(store, run_id, orders=True)) == 5


def _result(variant: str, error: str | None) -> RunResult:
    return RunResult(
        id=hash(variant) % 1000, variant=variant, variant_hash="h", case_id="C", case_hash="c",
        error=error,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("error_a", "error_b", "side"),
    [(None, None, None), ("boom", None, "a"), (None, "timeout", "b"), ("x", "y", "both")],
)
def test_crashed_side(error_a: str | None, error_b: str | None, side: str | None) -> None:
    assert crashed_side(_result("p", error_a), _result("q", error_b)) == side


def test_a_crash_battle_must_name_its_side_and_follow_the_rule() -> None:
    fields: dict[str, Any] = dict(
        run_id=1, case_id="C", variant_a="p", variant_b="q", hash_a="h", hash_b="h",
        result_a_id=1, result_b_id=2, judge=judge_spec(),
    )  # fmt: skip
    assert Battle(**fields, winner="model_b", source="crash", crashed="a").is_crash
    with pytest.raises(ValidationError, match="names the side"):
        Battle(**fields, winner="model_b", source="crash")
    with pytest.raises(ValidationError, match="winner is not"):
        Battle(**fields, winner="model_a", source="crash", crashed="a")
    with pytest.raises(ValidationError, match="names the side"):
        Battle(**fields, winner="model_a", crashed="b")
    assert not Battle(**fields, winner="model_a").is_crash  # a stored judged battle
