"""Before spending: what a run and a judging pass would do and cost, and ``--max-cost``."""

from arena.plan._budget import Budget, spend
from arena.plan._judge_plan import plan_judge, plan_stored_judge
from arena.plan._models import Estimate, JudgePlan, Plan, VariantPlan
from arena.plan._plan import pending_tasks, plan_run, stored_run
from arena.plan._speed import Speed, model_speed

__all__ = [
    "Budget",
    "Estimate",
    "JudgePlan",
    "Plan",
    "Speed",
    "VariantPlan",
    "model_speed",
    "pending_tasks",
    "plan_judge",
    "plan_run",
    "plan_stored_judge",
    "spend",
    "stored_run",
]
