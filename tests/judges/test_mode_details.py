"""A judge mode owns its verdict details (issue 27, point 5): the core types carry a generic
``details`` mapping, the mode prepares its inputs from the golden case and renders its details
for ``arena show`` and the app. A mode defined here, under a new name, carries its own details
through a judged battle, storage, ``arena show`` and the app's render hook; verdicts stored in
the old shape (the checklist's fields in the core types) still read back."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from sqlalchemy import update

from arena.battles import judge_run
from arena.extend import JUDGE_MODES
from arena.golden import GoldenCase
from arena.models import ModelConfig, register_fake
from arena.storage import Store
from arena.storage._tables import BattleRow, VerdictCacheRow
from judges import JudgeSpec, PairRequest, Verdict
from judges import _prompts as prompts
from judges._parsing import parse_verdict
from judges._types import Seat
from judges.modes._base import Asker, JudgeMode, Reading, UnreadableReply
from judges.modes.checklist._items import item_grades
from judges.modes.checklist._view import result_details
from tests.battles.test_judges import _prefers_300
from tests.judges.test_checklist import _grader
from tests.judges.test_checklist import _run as _checklist_run

pytestmark = pytest.mark.unit


class NeedleMode(JudgeMode):
    """A text verdict, plus which expected strings each answer mentions (its own details)."""

    name = "needles"
    summary = "a text verdict and the expected strings each answer mentions"

    def prepare(self, case: GoldenCase, *, with_trajectory: bool) -> dict[str, Any]:
        wanted = [g if isinstance(g, str) else g[0] for g in case.expected_output_contains]
        return {"needles": wanted}

    def conversations(self, request: PairRequest) -> list[list[BaseMessage]]:
        return [
            [
                SystemMessage("Reply [[A>B]], [[B>A]] or [[A=B]]."),
                HumanMessage(prompts.pair_prompt(request, logprobs=False)),
            ]
        ]

    async def read(self, asker: Asker, request: PairRequest) -> Reading:
        reply = await asker.ask(self.conversations(request)[0])
        label = parse_verdict(str(reply.content))
        if label is None:
            raise UnreadableReply("no verdict", reply)
        needles = request.mode_inputs["needles"]
        found = {
            "A": [n for n in needles if n in request.answer_a],
            "B": [n for n in needles if n in request.answer_b],
        }
        return Reading(label=label, details={"needles": needles, "found": found})

    def details_lines(self, details: dict[str, Any], seat: Seat) -> list[str]:
        found = details["found"][seat]
        return [f"mentions {n!r}: {'yes' if n in found else 'no'}" for n in details["needles"]]

    def details_rows(self, details: dict[str, Any], seat: Seat) -> list[dict[str, Any]]:
        found = details["found"][seat]
        return [{"needle": n, "mentioned": n in found} for n in details["needles"]]


@pytest.fixture
def needles_mode(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(JUDGE_MODES, "needles", NeedleMode)


def test_the_core_types_carry_no_modes_fields() -> None:
    assert "checklist" not in PairRequest.model_fields and "mode_inputs" in PairRequest.model_fields
    assert "checklist" not in Verdict.model_fields and "details" in Verdict.model_fields
    spec = JudgeSpec(model=ModelConfig(spec="fake:j"))
    with pytest.raises(ValueError, match="JSON-safe"):
        Verdict(judge=spec, details={"when": object()})
    with pytest.raises(ValueError, match="JSON-safe"):
        Verdict(judge=spec, details={"seats": ("A", "B")})  # a tuple reads back as a list


@pytest.mark.usefixtures("needles_mode")
def test_a_new_mode_carries_its_details_to_storage_show_and_the_app(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from arena.app import data  # Streamlit: only for this test
    from arena.cli import main

    url = f"sqlite:///{tmp_path / 'n.db'}"
    store = Store(url)
    run_id = _checklist_run(store)  # good says 300, bad says 250; every case expects "300"
    register_fake("judge", [_prefers_300], cycle=True)
    spec = JudgeSpec(model=ModelConfig(spec="fake:judge"), mode="needles")
    report = judge_run(store, run_id, spec, progress=False)
    assert report.battles and all(b.winner != "error" for b in report.battles)

    stored = store.battles(run_id, spec.key)
    battle = stored[0]
    assert battle.verdict_ab is not None
    good = "A" if battle.variant_a == "good" else "B"
    bad = "B" if good == "A" else "A"
    assert battle.verdict_ab.details == {
        "needles": ["300"],
        "found": {good: ["300"], bad: []},
    }

    bad_id = battle.result_a_id if bad == "A" else battle.result_b_id
    capsys.readouterr()
    assert main(["show", str(bad_id), "--db", url]) == 0
    out = capsys.readouterr().out
    assert "needles of judge fake:judge/needles:" in out
    assert "mentions '300': no" in out

    (found,) = result_details(stored, bad_id)
    assert found.mode == "needles" and found.seat == bad
    assert data.load_judge_details(url, run_id, bad_id) == [
        ("fake:judge/needles", "needles", [{"needle": "300", "mentioned": False}])
    ]


def _old_shape(verdict: dict[str, Any]) -> dict[str, Any]:
    """A verdict as stored before modes owned their details: ``checklist`` at the top, and
    ``None`` there for every other mode."""
    old = {k: v for k, v in verdict.items() if k != "details"}
    old["checklist"] = (verdict.get("details") or {}).get("checklist")
    return old


def test_verdicts_stored_in_the_old_shape_read_back_into_details(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from arena.cli import main

    url = f"sqlite:///{tmp_path / 'old.db'}"
    store = Store(url)
    run_id = _checklist_run(store)
    register_fake("judge", [_grader], cycle=True)
    spec = JudgeSpec(model=ModelConfig(spec="fake:judge"), mode="checklist")
    judge_run(store, run_id, spec, progress=False)
    before = store.battles(run_id)
    grades = item_grades(before[0].verdict_ab.details if before[0].verdict_ab else {})
    assert grades
    with store.session() as s, s.begin():  # rewrite every stored verdict in the old shape
        for row in s.query(BattleRow).all():
            body = dict(row.body)
            for order in ("verdict_ab", "verdict_ba"):
                if body.get(order):
                    body[order] = _old_shape(body[order])
            s.execute(update(BattleRow).where(BattleRow.id == row.id).values(body=body))
        cached = s.query(VerdictCacheRow).all()
        assert cached
        for row in cached:
            s.execute(
                update(VerdictCacheRow)
                .where(VerdictCacheRow.key == row.key)
                .values(value=_old_shape(row.value))
            )
    with store.session() as s:
        raw = s.query(BattleRow).first()
        assert raw is not None and "checklist" in raw.body["verdict_ab"]  # really the old shape
        key = s.query(VerdictCacheRow).first().key  # type: ignore[union-attr]

    after = store.battles(run_id)
    assert [b.verdict_ab for b in after] == [b.verdict_ab for b in before]
    assert item_grades(after[0].verdict_ab.details if after[0].verdict_ab else {}) == grades
    cached_verdict = store.get_verdict(key)
    assert cached_verdict is not None and item_grades(cached_verdict.details)
    bad = next(r for r in store.results(run_id) if r.variant == "bad")
    capsys.readouterr()
    assert main(["show", str(bad.id), "--db", url]) == 0
    assert '[ ] Does the answer contain "250"? (wants NO)  P(YES)=0.90' in capsys.readouterr().out


def test_an_old_verdict_of_another_mode_reads_back_without_details(store: Store) -> None:
    spec = JudgeSpec(model=ModelConfig(spec="fake:j"), mode="text")
    old = _old_shape(Verdict(label="A>B", judge=spec).model_dump(mode="json"))
    assert old["checklist"] is None
    store._write(  # type: ignore[attr-defined]
        lambda s: s.add(VerdictCacheRow(key="k", judge_key=spec.key, value=old))
    )
    verdict = store.get_verdict("k")
    assert verdict is not None and verdict.label == "A>B" and verdict.details == {}


@pytest.mark.system
@pytest.mark.usefixtures("needles_mode")
def test_the_apps_compare_tab_shows_the_modes_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from streamlit.testing.v1 import AppTest

    url = f"sqlite:///{tmp_path / 'app.db'}"
    store = Store(url)
    run_id = _checklist_run(store)
    register_fake("judge", [_prefers_300], cycle=True)
    judge_run(store, run_id, JudgeSpec(model=ModelConfig(spec="fake:judge"), mode="needles"))
    monkeypatch.setenv("ARENA_DB_URL", url)
    at = AppTest.from_file(str(Path(__file__).resolve().parents[2] / "app.py"))
    at.run(timeout=60)
    assert not at.exception, [e.value for e in at.exception]
    labels = [e.label for e in at.expander]
    assert {
        "needles of judge fake\\:judge/needles on good",
        "needles of judge fake\\:judge/needles on bad",
    } <= set(labels)  # markdown-escaped
    tables = [f.value for f in at.dataframe if "needle" in f.value.columns]
    assert tables and {bool(m) for t in tables for m in t["mentioned"]} == {True, False}
