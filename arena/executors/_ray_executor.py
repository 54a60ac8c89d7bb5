"""The Ray executor: tasks and pairs run on worker actors spread over a Ray cluster.

The driver (``arena run --executor ray``) keeps the runner's loop: which tasks are pending, how
many are in flight (``--concurrency``), progress and budget. Each unit of work is shipped to
the least busy :class:`~arena.executors._ray_worker.ArenaWorker`, which opens the database
itself (the one source of truth: SQLite on one machine, a shared PostgreSQL on a cluster),
builds its models itself and stores the outcome before returning it. A worker process that
dies is restarted by Ray and its in-flight work is sent to another worker; work it had
already stored is found there and reused, and model replies it had received are replayed
from the response cache, so nothing finished is lost or sent twice.
"""

from __future__ import annotations

import logging
import os
import time
from typing import TYPE_CHECKING, Any

from arena.errors import InputError
from arena.executors._base import PairOutcome, TaskOutcome

if TYPE_CHECKING:
    from arena.runner._tasks import Task
    from arena.storage import Store
    from judges import Judge

FORWARDED_ENV = (
    "ARENA_RETRIES",
    "ARENA_RETRY_DELAY",
    "ARENA_LLAMA_THREADS",
    "ARENA_LLAMA_PARALLEL",
    "ARENA_LLAMA_START_TIMEOUT",
)
"""Settings the workers take from the driver (never API keys: each node has its own)."""
LOG = logging.getLogger(__name__)
ATTEMPTS = 4
"""How many workers one unit of work is tried on before the run stops with the error."""


def shipped_url(url: str) -> str:
    """The database URL as workers must open it: a relative SQLite path made absolute; an
    in-memory database cannot be shared (InputError naming --db)."""
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return url
    database = parsed.database or ""
    if database in ("", ":memory:") or "mode=memory" in url:
        raise InputError(
            "an in-memory SQLite database cannot be shared with Ray workers; "
            "use an SQLite file (one machine) or PostgreSQL",
            field="--db",
        )
    if database.startswith("file:") or os.path.isabs(database):
        return url
    return parsed.set(database=os.path.abspath(database)).render_as_string(hide_password=False)


def check_reachable(address: str | None, timeout_s: float = 5.0) -> None:
    """Fail fast (InputError naming --ray-address) when nothing listens at a ``HOST:PORT`` or
    ``ray://HOST:PORT`` address (Ray itself would retry for minutes); ``auto`` and None are
    Ray's to resolve."""
    import socket

    if not address or address == "auto":
        return
    host, _, port = address.removeprefix("ray://").rpartition(":")
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=timeout_s):
            return
    except (OSError, ValueError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise InputError(
            f"no Ray cluster answers at {address!r} ({reason}); start one with "
            "`ray start --head` or give auto, HOST:PORT or ray://HOST:PORT",
            field="--ray-address",
        ) from None


def placement(nodes: list[dict[str, Any]]) -> list[str]:
    """Node ids to place workers on in turn: every alive node, once per CPU, interleaved
    (a node with more CPUs gets more workers; the first workers go to different nodes)."""
    alive = [
        (n["NodeID"], max(1, int(n.get("Resources", {}).get("CPU", 1))))
        for n in nodes
        if n.get("Alive")
    ]
    slots = [
        node
        for turn in range(max((c for _, c in alive), default=0))
        for node, cpus in alive
        if turn < cpus
    ]
    if not slots:
        raise RuntimeError("the Ray cluster has no alive node")
    return slots


class RayExecutor:
    """Runs work on a Ray cluster (``address``: ``auto``, ``ray://HOST:PORT`` or
    ``HOST:PORT``; None starts a local one-machine Ray).

    ``workers`` worker actors (default: one per CPU of the cluster) are spread over the
    nodes; requests to each model endpoint are limited to ``endpoint_concurrency`` at once
    across the whole cluster.
    """

    name = "ray"

    def __init__(
        self,
        address: str | None = "auto",
        *,
        workers: int | None = None,
        endpoint_concurrency: int = 2,
    ) -> None:
        if workers is not None and workers < 1:
            raise InputError("must be at least 1", field="--ray-workers")
        self.address = address
        self.workers = workers
        self.endpoint_concurrency = max(1, endpoint_concurrency)
        self._ray: Any = None
        self._owns_ray = False
        self._actors: list[Any] = []
        self._busy: dict[int, int] = {}
        self._failed_at: dict[int, float] = {}
        self._limiter: Any = None
        self._limited: set[str] = set()
        self._servers_prefix = ""
        self._servers_started = False

    # -- connecting ----------------------------------------------------------------------------
    def connect(self) -> None:
        """Connect to the cluster now (InputError if there is none), not at the first task."""
        self._connect()

    def _connect(self) -> Any:
        if self._ray is not None:
            return self._ray
        try:
            import ray
        except ImportError:
            raise InputError(
                "--executor ray needs Ray: pip install 'agent-arena[ray]'", field="--executor"
            ) from None
        if not ray.is_initialized():
            check_reachable(self.address)
            try:
                ray.init(
                    address=self.address,
                    namespace="agent-arena",
                    log_to_driver=False,
                    logging_level=logging.WARNING,
                    configure_logging=False,
                )
            except (ConnectionError, RuntimeError, ValueError) as exc:
                raise InputError(
                    f"cannot connect to a Ray cluster at {self.address!r} ({exc})",
                    field="--ray-address",
                ) from None
            self._owns_ray = True
        self._ray = ray
        return ray

    def _start(self) -> None:
        if self._actors:
            return
        ray = self._connect()
        from arena.executors import _ray_worker as ray_worker

        self._limiter = ray_worker.LimiterActor.options(
            name=ray_worker.LIMITER,
            namespace=ray_worker.NAMESPACE,
            get_if_exists=True,
            lifetime="detached",
            resources={"node:__internal_head__": 0.001},
        ).remote()
        self._servers_prefix = f"arena-llama-{ray.get_runtime_context().get_job_id()}"
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

        slots = placement(ray.nodes())
        count = self.workers or len(slots)
        env = {name: os.environ[name] for name in FORWARDED_ENV if name in os.environ}
        # Each worker is placed on a node in turn, one per CPU; "soft", so a worker whose node
        # died is restarted on another. Workers wait on I/O: they reserve no CPU.
        self._actors = [
            ray_worker.ArenaWorkerActor.options(
                scheduling_strategy=NodeAffinitySchedulingStrategy(slots[i % len(slots)], soft=True)
            ).remote(self._servers_prefix, env)
            for i in range(count)
        ]
        self._busy = dict.fromkeys(range(count), 0)

    async def _limit(self, configs: list[Any]) -> None:
        """Set the cluster-wide limit of every endpoint these models use (once per run)."""
        from arena.executors._concurrency import endpoint_key, node_served
        from arena.models.providers import PROVIDERS

        for config in configs:
            seen = endpoint_key(config)
            if seen is None or seen in self._limited:
                continue
            if PROVIDERS.lookup(config.provider).shared_server:  # one server per node
                if node_served(config):
                    await self._serve_local_models()
                for node in self._alive_nodes():
                    await self._set_limit(endpoint_key(config, node))
            await self._set_limit(seen)

    async def _set_limit(self, endpoint: str | None) -> None:
        if endpoint is not None and endpoint not in self._limited:
            await self._limiter.set_limit.remote(endpoint, self.endpoint_concurrency)
            self._limited.add(endpoint)

    def _alive_nodes(self) -> list[str]:
        return [n["NodeID"] for n in self._ray.nodes() if n.get("Alive")]

    async def _serve_local_models(self) -> None:
        """One llama.cpp server actor per node, shared by the node's workers."""
        if self._servers_started:
            return
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

        from arena.executors import _ray_worker as ray_worker

        for node in self._alive_nodes():
            ray_worker.NodeServers.options(
                name=f"{self._servers_prefix}-{node}",
                namespace=ray_worker.NAMESPACE,
                get_if_exists=True,
                scheduling_strategy=NodeAffinitySchedulingStrategy(node, soft=False),
            ).remote()
        self._servers_started = True

    # -- dispatching -----------------------------------------------------------------------------
    def _pick(self) -> int:
        """The least busy worker, preferring those that have not failed recently."""
        now = time.monotonic()
        return min(
            self._busy, key=lambda i: (now - self._failed_at.get(i, -1e9) < 30, self._busy[i])
        )

    async def _call(self, method: str, *args: Any) -> Any:
        from ray.exceptions import RayActorError

        error: Exception | None = None
        for _ in range(ATTEMPTS):
            index = self._pick()
            self._busy[index] += 1
            try:
                return await getattr(self._actors[index], method).remote(*args)
            except RayActorError as exc:  # the worker died: Ray restarts it; go elsewhere
                self._failed_at[index] = time.monotonic()
                error = exc
                LOG.warning(
                    "arena: a Ray worker died (%s); retrying its %s elsewhere",
                    type(exc).__name__,
                    method.removeprefix("run_").replace("_", " "),
                )
            finally:
                self._busy[index] -= 1
        raise RuntimeError(f"Ray workers kept failing ({ATTEMPTS} attempts): {error}")

    async def run_task(
        self, store: Store, run_id: int, task: Task, timeout_s: float
    ) -> TaskOutcome | None:
        """Run one task on a worker (see :func:`arena.executors._jobs.run_task`)."""
        self._start()
        await self._limit([task.variant.model, *task.variant.roles.values()])
        outcome: TaskOutcome = await self._call(
            "run_task", shipped_url(store.url), run_id, task, timeout_s
        )
        return outcome

    async def judge_pair(
        self, store: Store, run_id: int, judge: Judge, pair: Any, self_judged: set[str]
    ) -> PairOutcome | None:
        """Judge one pair on a worker (see :func:`arena.executors._jobs.judge_pair`)."""
        from judges import PairwiseJudge

        if not isinstance(judge, PairwiseJudge):
            raise InputError("only model judges (a judge spec) run on Ray", field="--executor")
        self._start()
        from judges._pairwise import judge_model_config

        await self._limit([judge_model_config(judge.spec)])
        outcome: PairOutcome = await self._call(
            "judge_pair", shipped_url(store.url), run_id, judge.spec, pair, self_judged
        )
        return outcome

    def close(self) -> None:
        """Stop this executor's workers (and Ray, if this executor started the connection)."""
        if self._ray is None:
            return
        for actor in self._actors:
            self._ray.kill(actor)
        self._actors, self._busy = [], {}
        if self._owns_ray:
            self._ray.shutdown()
        self._ray = None
