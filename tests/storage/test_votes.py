"""People's votes are single, real and atomic: one per person (by normalised name) and pair
in either order, only on two answered results of one case and repeat, bad ids an InputError
naming the field, nothing written on refusal; a database from before keeps opening."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import func, select

from arena.battles import Battle
from arena.errors import InputError
from arena.golden import GoldenDataset
from arena.models import ModelConfig
from arena.records.results import RunResult
from arena.storage import Store
from arena.storage._tables import BattleRow, VoteRow
from arena.votes import AlreadyVoted, VotePair, cast_vote, open_pairs, vote_counts
from arena.votes._ballots import swapped
from judges import JudgeSpec, human_judge
from judges._battle import PAIR_FIELDS
from tests.support.old_db import as_unversioned

pytestmark = pytest.mark.unit


def _dataset() -> GoldenDataset:
    return GoldenDataset.model_validate(
        {
            "name": "votes",
            "available_tools": [],
            "test_cases": [
                {"id": case, "input": f"question {case}", "category": "happy_path"}
                for case in ("C-1", "C-2")
            ],
        }
    )


def _save(store: Store, run_id: int, variant: str, case: str, **extra: object) -> int:
    result = RunResult.model_validate(
        {
            "run_id": run_id,
            "variant": variant,
            "variant_hash": f"h-{variant}",
            "case_id": case,
            "case_hash": f"h-{case}",
            "output": f"{variant} on {case}",
            **extra,
        }
    )
    return store.save_result(result)


def _run(store: Store, key: str = "run") -> int:
    """Variants v and w answer C-1 and C-2 (repeats 0 and 1 of C-1); x fails on C-1."""
    dataset_id = store.ensure_dataset(_dataset())
    run_id, _ = store.open_run(key, dataset_id, {"variants": {"v": 1, "w": 1, "x": 1}})
    for variant in ("v", "w"):
        for case in ("C-1", "C-2"):
            _save(store, run_id, variant, case)
        _save(store, run_id, variant, "C-1", repeat=1)
    _save(store, run_id, "x", "C-1", error="boom")
    return run_id


def _ids(store: Store, run_id: int) -> dict[tuple[str, str, int], int]:
    return {(r.variant, r.case_id, r.repeat): r.id or 0 for r in store.results(run_id)}


def _pair(store: Store, run_id: int) -> VotePair:
    return next(p for p in open_pairs(store, run_id, "ann") if (p.case_id, p.repeat) == ("C-1", 0))


def _battles(store: Store) -> int:
    with store.session() as s:
        return int(s.scalar(select(func.count()).select_from(BattleRow)) or 0)


def test_unknown_result_ids_are_an_input_error_naming_the_field(store: Store) -> None:
    run_id = _run(store)
    pair = _pair(store, run_id)
    with pytest.raises(InputError, match=r"case C-1, field result_a_id: no result 9999 in run"):
        cast_vote(store, pair.model_copy(update={"result_a_id": 9999}), "ann", "model_a")
    other = _run(store, "another run")
    elsewhere = _ids(store, other)[("w", "C-1", 0)]
    with pytest.raises(InputError, match=rf"field result_b_id: no result {elsewhere} in run"):
        cast_vote(store, pair.model_copy(update={"result_b_id": elsewhere}), "ann", "model_a")
    assert _battles(store) == 0


@pytest.mark.parametrize(
    ("update", "field", "says"),
    [
        ({"result_b_id": ("v", "C-1", 0)}, "result_b_id", "was given twice"),
        ({"result_b_id": ("w", "C-2", 0)}, "result_b_id", "answer different cases or repeats"),
        ({"result_b_id": ("w", "C-1", 1)}, "result_b_id", "answer different cases or repeats"),
        ({"result_b_id": ("v", "C-1", 1)}, "result_b_id", "different cases or repeats"),
        ({"result_b_id": ("x", "C-1", 0)}, "result_b_id", "no answer to vote on"),
        ({"variant_b": "v"}, "variant_b", "its results say 'w'"),
        ({"case_id": "C-2"}, "case_id", "its results say 'C-1'"),
    ],
)
def test_a_forged_pair_is_refused_and_nothing_is_written(
    store: Store, update: dict[str, object], field: str, says: str
) -> None:
    run_id = _run(store)
    ids = _ids(store, run_id)
    pair = _pair(store, run_id)
    assert (pair.variant_a, pair.variant_b) == ("v", "w")
    forged = {k: ids[v] if isinstance(v, tuple) else v for k, v in update.items()}
    with pytest.raises(InputError, match=f"field {field}: .*{says}"):
        cast_vote(store, pair.model_copy(update=forged), "ann", "model_a")
    assert _battles(store) == 0 and vote_counts(store, run_id) == {}


def test_two_results_of_one_variant_are_not_a_pair(store: Store) -> None:
    run_id = _run(store)
    pair = _pair(store, run_id)
    # v's answer to C-1 again, stored under another version of v (same case, same repeat).
    twin = _save(store, run_id, "v", "C-1", variant_hash="h-v2")
    pair = pair.model_copy(update={"result_b_id": twin, "variant_b": "v", "hash_b": "h-v2"})
    with pytest.raises(InputError, match=r"field result_b_id: .*both variant v's answers"):
        cast_vote(store, pair, "ann", "model_a")
    assert _battles(store) == 0


def test_one_vote_per_person_and_pair_whatever_the_order_or_spelling(store: Store) -> None:
    run_id = _run(store)
    pair = _pair(store, run_id)
    cast_vote(store, pair, "ann", "model_a")
    for name, shown in (("ann", swapped(pair)), ("ＡＮＮ ", pair), ("Ann", swapped(pair))):
        with pytest.raises(AlreadyVoted, match=r"human:ann already voted on .*the first vote"):
            cast_vote(store, shown, name, "model_b")
    assert vote_counts(store, run_id) == {"human:ann": 1}
    assert [b.winner for b in store.battles(run_id)] == ["model_a"]
    assert len(open_pairs(store, run_id, "ANN")) == len(open_pairs(store, run_id, "bob")) - 1
    # save_battle stores a person's battle by the same rule: it never replaces a vote.
    (vote,) = store.battles(run_id)
    with pytest.raises(AlreadyVoted):
        store.save_battle(vote.model_copy(update={"id": None, "winner": "model_b"}))
    with store.session() as s:
        (key,) = s.scalars(select(VoteRow)).all()
    assert (key.result_low_id, key.result_high_id) == tuple(
        sorted((pair.result_a_id, pair.result_b_id))
    )


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("ann\u200b", "invisible or control character"),
        ("\u202eann", "invisible or control character"),
        ("ann\x1b[2J", "invisible or control character"),
        ("\u0430nn", "mixes letters of scripts CYRILLIC, LATIN"),  # a Cyrillic а
    ],
)
def test_a_look_alike_name_that_cannot_be_one_person_is_refused(name: str, says: str) -> None:
    with pytest.raises(InputError, match=f"field name: .*{says}"):
        human_judge(name)


def test_names_are_one_person_once_normalised() -> None:
    same = {human_judge(n).key for n in ("ann", "Ann", " ANN ", "ＡＮＮ", "\uff41nn")}
    assert len(same) == 1 and human_judge("Ann Lee").label == "human:ann_lee"
    assert human_judge("Straße").label == human_judge("STRASSE").label == "human:strasse"


def _legacy_vote(battle: Battle, name: str, first: bool) -> BattleRow:
    """A vote as the previous version stored it: its name as typed, in the order shown."""
    judge = JudgeSpec(kind="human", model=ModelConfig(spec=f"human:{name}"))
    if not first:
        battle = battle.model_copy(
            update={
                "variant_a": battle.variant_b,
                "variant_b": battle.variant_a,
                "hash_a": battle.hash_b,
                "hash_b": battle.hash_a,
                "result_a_id": battle.result_b_id,
                "result_b_id": battle.result_a_id,
                "winner": "model_a",
            }
        )
    battle = battle.model_copy(update={"judge": judge})
    return BattleRow(
        run_id=battle.run_id,
        judge_key=judge.key,
        case_id=battle.case_id,
        repeat=battle.repeat,
        variant_a=battle.variant_a,
        variant_b=battle.variant_b,
        result_a_id=battle.result_a_id,
        result_b_id=battle.result_b_id,
        winner=battle.winner,
        body=battle.model_dump(mode="json", exclude={"id"}),
    )


def test_a_database_from_before_keeps_opening_and_its_duplicates_count_once(
    tmp_path: Path,
) -> None:
    path = tmp_path / "old.db"
    store = Store(f"sqlite:///{path}")
    run_id = _run(store)
    pair = _pair(store, run_id)
    store.close()
    as_unversioned(path, drop=("votes",))  # the previous version had no votes table
    old = Store(f"sqlite:///{path}")
    fields = pair.model_dump(include=set(PAIR_FIELDS))
    battle = Battle(**fields, winner="model_b", judge=human_judge("ann"))
    with old.session() as s:  # Ann's vote twice, both orders (the race of the old version)
        s.add_all([_legacy_vote(battle, "Ann", True), _legacy_vote(battle, "Ann", False)])
        s.commit()
    old.close()
    store = Store(f"sqlite:///{path}")
    (kept,) = store.battles(run_id)  # the older vote counts, the later one is left out
    assert (kept.judge.label, kept.result_a_id, kept.winner) == (
        "human:Ann",
        pair.result_a_id,
        "model_b",
    )
    assert vote_counts(store, run_id) == {"human:Ann": 1}
    assert all(
        {p.result_a_id, p.result_b_id} != {pair.result_a_id, pair.result_b_id}
        for p in open_pairs(store, run_id, "ann")
    )
    with pytest.raises(AlreadyVoted):  # the same person under today's normalised name
        cast_vote(store, swapped(pair), "ann", "tie")
    assert _battles(store) == 2
