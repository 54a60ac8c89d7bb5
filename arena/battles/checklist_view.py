"""A result's checklist grades, as its judges answered them (for ``arena show`` and the app)."""

from __future__ import annotations

from arena.battles.battle import Battle
from judges.types import ItemGrade


def result_checklists(battles: list[Battle], result_id: int) -> dict[str, list[ItemGrade]]:
    """Judge label -> the checklist items of one result with their P(YES), from the first
    battle of each checklist judge that shows it (its grades are shared by all its battles)."""
    found: dict[str, list[ItemGrade]] = {}
    for battle in battles:
        verdict = battle.verdict_ab
        if verdict is None or not verdict.checklist or battle.judge.label in found:
            continue
        if result_id not in (battle.result_a_id, battle.result_b_id):
            continue
        seat = "A" if battle.result_a_id == result_id else "B"
        found[battle.judge.label] = [g for g in verdict.checklist if g.answer == seat]
    return found


def checklist_lines(grades: list[ItemGrade]) -> list[str]:
    """``[x] question  P(YES)=0.93`` per item; ``x`` when the item is met."""
    return [
        f"[{'x' if g.p_met >= 0.5 else ' '}] {g.question}"
        f"{'' if g.want else ' (wants NO)'}  P(YES)={g.p_yes:.2f}"
        for g in grades
    ]
