"""``blend``: the modes' evidence and the length ratio in one fitted, symmetric combination,
a forced choice unless the run gives it a tie margin."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, BaseMessage

from arena.battles import judge_run
from arena.models import register_fake
from arena.outputs import load_outputs, store_outputs
from arena.storage import Store
from judges import parse_judge
from judges._types import PairRequest
from judges.modes import get_mode
from judges.modes._blend import LENGTH, BlendMode, length_share

pytestmark = pytest.mark.unit

GOOD, POOR = "Paris.", "Lyon is the capital, a fine city with a long history."


def _yes(messages: list[BaseMessage]) -> AIMessage:
    """P(YES) 0.8 for an answer saying Paris, 0.4 otherwise."""
    found = re.search(r"<answer-\w+>(.*?)</answer-", str(messages[-1].content), re.S)
    p = 0.8 if found and "Paris" in found.group(1) else 0.4
    tops = [{"token": "YES", "logprob": math.log(p)}, {"token": "NO", "logprob": math.log(1 - p)}]
    meta = {"logprobs": {"content": [{"token": "YES", "logprob": 0.0, "top_logprobs": tops}]}}
    return AIMessage("YES", response_metadata=meta)


def _run(tmp_path: Path, store: Store) -> int:
    paths = []
    for model, answer in (("good", GOOD), ("poor", POOR)):
        row = {"question_id": "city", "question": "Capital of France?", "answer": answer}
        path = tmp_path / f"{model}.jsonl"
        path.write_text(json.dumps({**row, "model": model}) + "\n")
        paths.append(str(path))
    return store_outputs(store, load_outputs(paths))


def _logit(p: float) -> float:
    return math.log(p / (1 - p))


def _p_good(store: Store, run_id: int, margin: float | None = None) -> tuple[str, float]:
    spec = parse_judge("fake:judge/blend").model_copy(update={"tie_margin": margin})
    (battle,) = judge_run(store, run_id, spec, progress=False).battles
    assert battle.p_a is not None
    good_is_a = battle.variant_a == "good"
    winner = {"model_a": battle.variant_a, "model_b": battle.variant_b}.get(battle.winner, "tie")
    return winner, battle.p_a if good_is_a else 1 - battle.p_a


def test_p_is_the_weighted_sum_of_the_features_log_odds(
    tmp_path: Path, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(BlendMode, "weights", {"grades": 0.5, LENGTH: 0.25})
    run_id = _run(tmp_path, store)
    register_fake("judge", [_yes], cycle=True)
    winner, p = _p_good(store, run_id)
    grades = _logit(0.8) - _logit(0.4)  # the grades mode's log-odds of "good is better"
    length = math.log((len(GOOD) + 1) / (len(POOR) + 1))
    assert p == pytest.approx(1 / (1 + math.exp(-(0.5 * grades + 0.25 * length))))
    assert winner == "good"


def test_a_heavy_length_weight_can_overrule_the_grades(
    tmp_path: Path, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(BlendMode, "weights", {"grades": 0.1, LENGTH: 3.0})
    run_id = _run(tmp_path, store)
    register_fake("judge", [_yes], cycle=True)
    assert _p_good(store, run_id)[0] == "poor"  # the longer answer


def test_it_chooses_at_margin_0_and_ties_within_the_margin_learned_for_unlabelled_runs(
    tmp_path: Path, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A tiny weight leaves P(good better) a hair above 0.5: chosen when the judge fixes the
    # margin at 0, a tie on answer files (no labels: the margin learned with ties, issue 50).
    monkeypatch.setattr(BlendMode, "weights", {"grades": 0.005})
    run_id = _run(tmp_path, store)
    register_fake("judge", [_yes], cycle=True)
    winner, p = _p_good(store, run_id, margin=0.0)
    assert 0.5 < p < 0.51 and winner == "good"
    assert _p_good(store, run_id)[0] == "tie"


def test_only_weighted_modes_are_asked_with_their_own_prompts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(BlendMode, "weights", {"grades": 1.0, "checklist": 0.0, LENGTH: 1.0})
    request = PairRequest(case_id="c", query="Capital?", answer_a=GOOD, answer_b=POOR)
    assert get_mode("blend").conversations(request) == get_mode("grades").conversations(request)


def test_length_share_is_symmetric() -> None:
    assert length_share("ab", "ab") == 0.5
    assert length_share("a", "abc") + length_share("abc", "a") == pytest.approx(1.0)


def test_the_shipped_weights_are_the_checklist_made_to_choose(tmp_path: Path, store: Store) -> None:
    from judges.modes._auto import OPEN_ENDED_MODE
    from judges.modes._blend import WEIGHTS

    assert OPEN_ENDED_MODE == "blend" and WEIGHTS == {"checklist": 1.0}
    run_id = _run(tmp_path, store)
    register_fake("judge", [_yes], cycle=True)
    (checklist,) = judge_run(
        store, run_id, parse_judge("fake:judge/checklist"), progress=False
    ).battles
    (blend,) = judge_run(store, run_id, parse_judge("fake:judge/blend"), progress=False).battles
    assert checklist.p_a is not None and blend.p_a == pytest.approx(checklist.p_a)
    assert blend.winner == checklist.winner != "tie"


def test_the_delegates_findings_are_kept_and_shown(tmp_path: Path, store: Store) -> None:
    run_id = _run(tmp_path, store)
    register_fake("judge", [_yes], cycle=True)
    (battle,) = judge_run(store, run_id, parse_judge("fake:judge/blend"), progress=False).battles
    assert battle.verdict_ab is not None
    details = battle.verdict_ab.details
    assert set(details["features"]) == {"checklist"} and "checklist" in details["modes"]
    mode = get_mode("blend")
    lines = mode.details_lines(details, "A")
    assert lines[0].startswith("checklist: P(first better)")
    assert any("P(YES)" in line for line in lines[1:])  # the checklist's own item lines
    assert mode.details_rows(details, "A") == get_mode("checklist").details_rows(
        details["modes"]["checklist"], "A"
    )
