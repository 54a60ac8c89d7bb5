"""The runner: variants x golden cases x repeats, cached, resumable, recorded."""

from arena.runner.execute import execute_task
from arena.runner.lookup import run_with_variant
from arena.runner.preflight import check_run
from arena.runner.suite import RunOptions, RunReport, run_suite, run_suite_async
from arena.runner.summary import VariantSummary, summarize
from arena.runner.tasks import Task, plan_tasks, run_key, select_cases
from arena.runner.trajectory import TrajectoryRecorder

__all__ = [
    "RunOptions",
    "RunReport",
    "Task",
    "TrajectoryRecorder",
    "VariantSummary",
    "check_run",
    "execute_task",
    "plan_tasks",
    "run_key",
    "run_suite",
    "run_suite_async",
    "run_with_variant",
    "select_cases",
    "summarize",
]
