"""Selective verdicts on battles: scores from what the mode reads, labelled verdicts from any
source (MT-Bench refused), calibration with a held-out part, abstention, and what the ratings,
self-preference and the gate make of it (scripted battles, no model)."""

from __future__ import annotations

from typing import Any

import pytest

from arena.battles import Battle
from arena.errors import InputError
from arena.leaderboard._rating_inputs import rated, undecided
from arena.models import ModelConfig
from arena.trust import GoldenMark, Vote
from arena.trust._label_pairs import one_per_pair
from arena.trust._selective import (
    NOT_CALIBRATED,
    Labelled,
    PairId,
    apply_selective,
    calibrate,
    check_source,
    label_verdict,
    verdict_score,
)
from arena.trust._selective_run import golden_labelled, selective_health, vote_labelled
from arena.trust._self_preference import self_preference
from judges import JudgeSpec
from judges._types import SelectiveSettings, Verdict
from tests.support.battles import battle

pytestmark = pytest.mark.unit

JUDGE = JudgeSpec(model=ModelConfig(spec="fake:sel"), mode="grades")
PERSON = JudgeSpec(kind="human", model=ModelConfig(spec="human:ann"))
PASS, FAIL = GoldenMark(0.9, True), GoldenMark(0.1, False)


def _verdict(p: float | None = None, label: str = "A>B") -> Verdict:
    return Verdict(label=label, p_first=p, judge=JUDGE)


def _battle(i: int, winner: str, p_a: float | None = None, **fields: object) -> Battle:
    values: dict[str, Any] = {
        "judge": JUDGE,
        "verdict_ab": _verdict(p_a),
        "verdict_ba": _verdict(None if p_a is None else 1 - p_a),
        **fields,
    }
    return battle(i, winner=winner, p_a=p_a, **values)


@pytest.mark.parametrize(
    ("battle", "score"),
    [
        (_battle(0, "model_a", 0.9), 0.8),
        (_battle(0, "model_b", 0.2), 0.6),
        (_battle(0, "model_a", 0.9, flip=True), 0.4),
        (_battle(0, "tie", 0.52), 0.04),  # the tie margin does not change the score
        (_battle(0, "model_a", strong=True), 1.0),
        (_battle(0, "model_a"), 0.75),
        (_battle(0, "tie", flip=True), 0.0),
        (_battle(0, "error", error="unreadable"), None),
        (
            _battle(0, "model_b", verdict_ab=None, verdict_ba=None, source="crash", crashed="a"),
            None,
        ),
        (_battle(0, "model_a", judge=PERSON, verdict_ab=None, verdict_ba=None), None),
    ],
)
def test_a_battles_score_reads_what_the_mode_gives(battle: Battle, score: float | None) -> None:
    assert verdict_score(battle) == (None if score is None else pytest.approx(score))


@pytest.mark.parametrize("source", ["mt-bench human", "MT_Bench/expert", "lmsys mtbench votes"])
def test_mt_bench_human_judgments_never_calibrate(source: str) -> None:
    with pytest.raises(InputError, match="MT-Bench") as caught:
        Labelled(score=0.9, agrees=True, source=source)
    assert caught.value.field == "source"
    with pytest.raises(InputError):
        label_verdict(0.9, "model_a", "model_a", source)
    assert check_source("llmbar-natural") == "llmbar-natural"


def test_labelled_verdicts_from_golden_pairs_votes_and_scores() -> None:
    battles = [_battle(0, "model_a", 0.9), _battle(1, "model_a", 0.7), _battle(2, "tie", 0.5)]
    marks = {0: PASS, 1: FAIL, 2: FAIL, 3: PASS, 4: PASS, 5: FAIL}
    golden = golden_labelled(battles, marks)
    # Battle 1: B passed, the judge said A. Battle 2: a tie on a decisive pair never agrees.
    assert [(x.agrees, x.source) for x in golden] == [(True, "golden")] + [(False, "golden")] * 2
    assert [round(x.score, 2) for x in golden] == [0.8, 0.4, 0.0]
    assert golden_labelled(battles, {0: PASS, 1: PASS}) == []  # both pass: no golden winner
    votes = [
        Vote(question_id="C-1", model_a="y", model_b="x", winner="model_a", judge="human:ann"),
        Vote(question_id="C-0", model_a="x", model_b="y", winner="tie", judge="human:ann"),
    ]
    found = vote_labelled(battles, votes)  # the person's y-first vote says B (y) won C-1
    assert [(x.agrees, x.source) for x in found] == [(False, "votes")]
    assert label_verdict(0.3, "model_b", "model_b", "llmbar") == Labelled(0.3, True, "llmbar")
    assert label_verdict(0.3, "model_b", "tie", "llmbar") is None  # ties say nothing


def _pair(i: int, run: int | None = 1, case: str | None = None) -> PairId:
    return PairId.of(run, case or f"C-{i}", 0, "x", "y")


def _labelled(n: int, sure: int) -> list[Labelled]:
    """``sure`` verdicts scoring 0.9 that all agree, the rest scoring 0.1, agreeing half; one
    pair each."""
    return [
        Labelled(0.9, True, "golden", _pair(i))
        if i < sure
        else Labelled(0.1, i % 2 == 0, "votes", _pair(i))
        for i in range(n)
    ]


def test_calibration_uses_every_pair_below_two_hundred_and_reports_its_own_bound() -> None:
    found = calibrate(_labelled(80, 48), SelectiveSettings(target=0.8, error=0.1))
    assert found is not None
    assert (found.calibration_pairs, found.held_out_pairs) == (80, 0)
    assert sum(found.sources.values()) == 80 and set(found.sources) == {"golden", "votes"}
    assert found.threshold_score is not None and 0.1 < found.threshold_score <= 0.9
    assert found.gives(0.9) and not found.gives(0.1)
    assert found.confidence(0.9) > 0.9 > 0.6 > found.confidence(0.1)
    text = found.text()
    assert ">= 80% with probability >= 90%" in text and "80 labelled pairs" in text
    assert "bound 95% on the 48 calibration verdicts given" in text and "held out" not in text


def test_from_two_hundred_pairs_whole_cases_are_held_out() -> None:
    # 300 pairs on 100 cases (three variant pairs each): a fifth of the pairs held out.
    items = [
        Labelled(
            0.9 if i % 5 else 0.1,
            i % 5 != 0,
            "golden",
            PairId.of(1, f"C-{i // 3}", 0, "x", str(i % 3)),
        )
        for i in range(300)
    ]
    found = calibrate(items)
    assert found is not None and found.held_out_pairs >= 60
    assert found.calibration_pairs + found.held_out_pairs == 300
    assert found.held_out_pairs % 3 == 0  # whole cases
    assert found.held_out_given == found.held_out_agreed > 0
    assert f"held out {found.held_out_pairs}" in found.text()


def test_fifteen_labels_of_one_pair_back_no_guarantee() -> None:
    found = calibrate([Labelled(0.9, True, "votes")] * 15)
    assert found is not None and found.threshold is None
    assert found.calibration_pairs == 1 and "from 15 labels" in found.text()
    again = calibrate([Labelled(0.9, True, "votes", _pair(0))] * 15)
    assert again is not None and again.threshold is None and again.calibration_pairs == 1


def test_one_label_per_pair_votes_by_majority_ties_dropped_golden_merged() -> None:
    golden = Labelled(0.9, True, "golden", _pair(0))
    against = Labelled(0.9, False, "votes", PairId.of(1, "C-0", 0, "y", "x"))  # either order
    backing = Labelled(0.9, True, "votes", _pair(0))
    # Two votes against, one for: people's majority wins over the golden label.
    (merged,) = one_per_pair([golden, against, against, backing])
    assert (merged.agrees, merged.source) == (False, "votes")
    # A tie of votes is dropped; the golden label stands.
    (kept,) = one_per_pair([golden, against, backing])
    assert (kept.agrees, kept.source) == (True, "golden")
    assert one_per_pair([against, backing]) == []
    # A rerun of the same pair (run 2) replaces run 1's labels instead of adding to them.
    rerun = Labelled(0.5, True, "golden", _pair(0, run=2))
    assert one_per_pair([golden, against, against, rerun]) == [rerun]


def test_without_labelled_pairs_nothing_is_calibrated_and_health_says_so() -> None:
    assert calibrate([]) is None
    health = selective_health([_battle(0, "model_a", 0.9)], [], JUDGE, "shop")
    assert health.calibration is None and health.coverage is None
    assert health.text() == f"{NOT_CALIBRATED} (dataset shop)"
    assert health.model_dump(mode="json")["summary"] == health.text()


def test_too_few_labelled_pairs_abstain_on_every_scored_battle() -> None:
    found = calibrate(_labelled(8, 8))
    assert found is not None and found.threshold is None
    assert "abstains on every battle" in found.text()
    battles = [_battle(0, "model_a", 0.95), _battle(1, "model_b", 0.4)]
    assert apply_selective(battles, found) == battles
    assert all(b.abstained and b.confidence is not None for b in battles)


def test_the_tie_margin_changes_neither_the_calibration_nor_a_given_verdict() -> None:
    # The same verdicts read with a wide margin (a tie) and a narrow one (A wins): one score,
    # one side, one label; the tie itself is never given (people decide it).
    wide, narrow = _battle(0, "tie", 0.7), _battle(0, "model_a", 0.7)
    marks = {0: PASS, 1: FAIL}
    (tie,), (side,) = golden_labelled([wide], marks), golden_labelled([narrow], marks)
    assert (tie.score, tie.agrees, tie.pair) == (side.score, side.agrees, side.pair)
    assert tie.tie and not side.tie
    found = calibrate(_labelled(80, 48))
    assert found is not None and found.gives(0.4)
    apply_selective([wide, narrow], found)
    assert (wide.abstained, narrow.abstained) == (True, False)
    assert wide.confidence == narrow.confidence


def test_abstained_battles_count_in_no_rating_and_people_decide_them() -> None:
    found = calibrate(_labelled(80, 48))
    assert found is not None
    sure, unsure = _battle(0, "model_a", 0.95), _battle(1, "tie", 0.5)
    apply_selective([sure, unsure], found)
    assert (sure.abstained, unsure.abstained) == (False, True)
    assert rated([sure, unsure]) == [sure]  # the abstained tie is not counted as a tie
    assert undecided([sure, unsure]) == [unsure]
    vote = _battle(1, "model_b", judge=PERSON, verdict_ab=None, verdict_ba=None)
    vote = vote.model_copy(update={"result_a_id": 3, "result_b_id": 2})  # either order
    assert rated([sure, unsure, vote]) == [sure, vote]
    assert undecided([sure, unsure, vote]) == []


def test_arena_health_prints_what_backs_each_judge_or_that_nothing_does(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from arena.cli.health import print_trust
    from arena.trust import judge_health

    battles = [_battle(0, "model_a", 0.95, self_judged=True), _battle(1, "model_b", 0.9)]
    bare, backed = judge_health(battles), judge_health(battles)
    bare.selective = selective_health(battles, [], JUDGE, "shop")
    backed.selective = selective_health(battles, _labelled(80, 48), JUDGE, "shop")
    backed.self_preference = self_preference(battles, {0: PASS, 1: FAIL}, {"x"})
    print_trust([bare, backed])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == (
        f"selective verdicts, fake:sel/grades ({JUDGE.key}): {NOT_CALIBRATED} (dataset shop)"
    )
    assert lines[1].startswith(
        f"selective verdicts, fake:sel/grades ({JUDGE.key}): coverage 100% of 2 decisive pairs "
        "(100% of all 2 battles) on dataset shop: agreement with the labels (golden checks, "
        "people) >= 80%"
    )
    assert lines[2].endswith(
        "picks its own model's answer in 1 of 1 decisive pairs; the golden checks prefer it in 1"
    )


def test_selective_health_counts_coverage_on_decisive_pairs_and_on_all_battles() -> None:
    # C-0..C-3 are labelled (decisive-like); C-100 and C-101 are not and both are given.
    battles = [_battle(i, "model_a", 0.95) for i in (0, 1, 2, 100, 101)]
    battles.append(_battle(3, "tie", 0.5))
    spec = JUDGE.model_copy(update={"selective": SelectiveSettings()})
    health = selective_health(battles, _labelled(80, 48), spec, "shop")
    assert health.configured and (health.scored, health.given) == (6, 5)
    assert (health.decisive, health.decisive_given) == (4, 3)
    assert health.coverage == pytest.approx(0.75)
    assert health.coverage_all == pytest.approx(5 / 6)
    assert health.text().startswith(
        "coverage 75% of 4 decisive pairs (83% of all 6 battles) on dataset shop"
    )
    what_if = selective_health(battles, _labelled(80, 48), JUDGE, "s").text()
    assert "a what-if, not applied" in what_if


def test_the_selective_setting_changes_neither_the_key_nor_the_cache_identity() -> None:
    from judges import judge_identity

    spec = JUDGE.model_copy(update={"selective": SelectiveSettings(target=0.9, error=0.05)})
    assert spec.key == JUDGE.key and judge_identity(spec) == judge_identity(JUDGE)
    assert "selective" not in JUDGE.model_dump(mode="json")
    with pytest.raises(ValueError, match="less than 1"):
        SelectiveSettings(target=1.0)


def test_self_preference_compares_own_picks_with_golden_outcomes() -> None:
    # x is the judge's own model: the judge picks x in all 4 pairs; golden says x in 2.
    battles = [_battle(i, "model_a", 0.9) for i in range(4)]
    marks = {0: PASS, 1: FAIL, 2: PASS, 3: FAIL, 4: FAIL, 5: PASS, 6: FAIL, 7: PASS}
    found = self_preference(battles, marks, {"x"})
    assert (found.pairs, found.picks_own, found.golden_own) == (4, 4, 2)
    assert found.excess == pytest.approx(0.5)
    assert "picks its own model's answer in 4 of 4" in found.text()
    assert self_preference(battles, marks, {"x", "y"}).pairs == 0  # both sides its own
    assert self_preference(battles, marks, set()).text().startswith("unmeasured")


@pytest.mark.system  # 200 calibrations: about a second
def test_the_whole_calibration_keeps_the_guarantee_by_simulation() -> None:
    import numpy as np

    # P(agree | score) = 0.45 + 0.5 * score, scores uniform: the verdicts scoring at least t
    # agree 0.45 + 0.25 * (1 + t) of the time. Held-out part and Platt fit included.
    rng = np.random.default_rng(11)
    splits, held = 200, 0
    for seed in range(splits):
        scores = rng.uniform(0, 1, 240)
        agrees = rng.uniform(0, 1, 240) < 0.45 + 0.5 * scores
        found = calibrate(
            [
                Labelled(float(s), bool(a), "golden", _pair(i))
                for i, (s, a) in enumerate(zip(scores, agrees, strict=True))
            ],
            seed=seed,
        )
        assert found is not None and found.calibration_pairs == 192
        cut = found.threshold_score
        held += cut is None or 0.45 + 0.25 * (1 + cut) >= 0.8
    assert held / splits >= 0.9 - 3 * (0.09 / splits) ** 0.5
