"""A mutation pass of the desk team's own agent (scripted models, the real runner): the
relied-on tool's ``tool_raises`` mutant is killed, survivors say why and get a pending case,
the score excludes equivalent mutants, and a rerun sends no model call."""

from __future__ import annotations

import json
from typing import Any

import pytest

from arena.golden import GoldenDataset
from arena.models._fake import fake_script
from arena.mutation import MutationOptions, MutationReport, mutation_markdown, run_mutation
from arena.storage import Store
from arena.variants.variant import Variant

pytestmark = pytest.mark.system


def _pass(store: Store, desk: tuple[Variant, GoldenDataset], **options: Any) -> MutationReport:
    variant, dataset = desk
    return run_mutation(
        store, dataset, variant, MutationOptions(dataset_path="desk.json", **options)
    )


def test_a_pass_kills_the_relied_on_tool_and_explains_survivors(
    desk: tuple[Variant, GoldenDataset], store: Store
) -> None:
    report = _pass(store, desk)
    by_id = {m.id: m for m in report.mutants}
    raises = by_id["tool_raises:open_ticket"]
    assert raises.killed and raises.killed_by == ["D-1"]
    assert "critical_broken D-1" in raises.blocked_by  # the gate's own rules block it too
    empty = by_id["tool_empty:lookup_user"]
    assert not empty.killed and not empty.equivalent
    assert empty.why_survived == (
        "no case expects `lookup_user`'s output: D-2 checks only that `lookup_user` was called"
    )
    assert empty.proposal == {  # an edit of D-2, not a copy of it: lookup_user's real value
        "dataset": "desk.json",
        "edits": [{"case": "D-2", "field": "expected_output_contains", "add": "42"}],
    }
    never = by_id["tool_raises:check_status"]
    assert never.why_survived == (
        "no case calls `check_status`: the original never called it on the 2 cases run"
    )
    assert never.proposal is not None and never.proposal["case"]["expected_tools"] == [
        "check_status"
    ]
    # scripted models ignore the prompt and use one step: behaviour unchanged, excluded
    assert {m.id for m in report.equivalent} == {
        "prompt_dropped:system_prompt", "prompt_truncated:system_prompt", "max_steps_one:max_steps"
    }  # fmt: skip
    assert by_id["model_weaker:model"].killed
    assert report.score == pytest.approx(10 / 16)
    markdown = mutation_markdown(report)
    assert "# Mutation score: 62.5% (10 of 16 mutants killed)" in markdown
    assert "### `tool_empty:lookup_user`" in markdown


def test_a_mutant_stops_at_its_first_kill_unless_full(
    desk: tuple[Variant, GoldenDataset], store: Store
) -> None:
    seen: list[tuple[int, int, str]] = []
    first = _pass(
        store, desk, operators=["tool_raises"], concurrency=1,
        on_mutant=lambda i, n, m: seen.append((i, n, m.id)),
    )  # fmt: skip
    assert seen == [(i + 1, 3, m.id) for i, m in enumerate(first.mutants)]
    by_id = {m.id: m for m in first.mutants}
    assert by_id["tool_raises:open_ticket"].cases_run == ["D-1"]  # expects it: run first, kills
    assert by_id["tool_raises:lookup_user"].cases_run == ["D-2"]
    full = _pass(store, desk, operators=["tool_raises"], concurrency=1, full=True)
    assert {m.id: m.cases_run for m in full.mutants}["tool_raises:open_ticket"] == ["D-1", "D-2"]


def test_a_rerun_sends_no_model_call(desk: tuple[Variant, GoldenDataset], store: Store) -> None:
    first = _pass(store, desk, operators=["tool_raises", "tools_swapped", "prompt_dropped"])
    script = fake_script("desk")  # the scripts file's, registered when the pass first used it
    sent = len(script.calls)
    assert first.model_calls == sent > 0
    again = _pass(store, desk, operators=["tool_raises", "tools_swapped", "prompt_dropped"])
    assert again.model_calls == 0 and len(script.calls) == sent
    verdicts = [(m.id, m.killed, m.killed_by, m.why_survived) for m in first.mutants]
    assert [(m.id, m.killed, m.killed_by, m.why_survived) for m in again.mutants] == verdicts


def test_a_proposal_never_quotes_a_key(
    desk: tuple[Variant, GoldenDataset], store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the stored answer and lookup_user's result hold the value of a key variable
    monkeypatch.setenv("DESK_API_KEY", "ada@example.com")
    report = _pass(store, desk, operators=["tool_empty", "tool_raises"])
    proposals = [m.proposal for m in report.mutants if m.proposal]
    assert proposals and "ada@example.com" not in json.dumps(proposals)
