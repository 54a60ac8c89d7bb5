"""The runner: variants x golden cases x repeats, cached, resumable, recorded."""

from arena.runner._execute import execute_task
from arena.runner._graph_nodes import node_names, variant_node_names, variants_node_names
from arena.runner._graph_path import NodePathRecorder, is_graph, record_path
from arena.runner._graph_state import StateCapture, graph_states, keep_state, prepare_state
from arena.runner._lookup import run_with_variant
from arena.runner._options import ToolWrapper
from arena.runner._preflight import check_run
from arena.runner._suite import RunOptions, RunReport, run_suite, run_suite_async
from arena.runner._summary import VariantSummary, summarize
from arena.runner._tasks import Task, plan_tasks, run_key, select_cases
from arena.runner._trajectory import TrajectoryRecorder

__all__ = [
    "NodePathRecorder",
    "RunOptions",
    "RunReport",
    "StateCapture",
    "Task",
    "ToolWrapper",
    "TrajectoryRecorder",
    "VariantSummary",
    "check_run",
    "execute_task",
    "graph_states",
    "is_graph",
    "keep_state",
    "node_names",
    "plan_tasks",
    "prepare_state",
    "record_path",
    "run_key",
    "run_suite",
    "run_suite_async",
    "run_with_variant",
    "select_cases",
    "summarize",
    "variant_node_names",
    "variants_node_names",
]
