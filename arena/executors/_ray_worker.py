"""What runs on the Ray cluster: the worker actor, the shared endpoint limiter, and one
llama.cpp server per node for ``local:`` models. Imported only when Ray is used."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

import ray

from arena.executors import _jobs as jobs
from arena.executors._base import PairOutcome, TaskOutcome
from arena.executors._concurrency import EndpointLeases, limit_providers, node_served
from arena.models.providers._local import LocalProvider

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

    from arena.models._config import ModelConfig
    from arena.runner._tasks import Task
    from judges import JudgeSpec

NAMESPACE = "agent-arena"
LIMITER = "arena-endpoint-limits"
"""The named, detached limiter actor shared by every arena job on the cluster."""


class NodeServersBody:
    """The node's llama.cpp servers, one per ``local:`` model, shared by its workers."""

    def base_url(self, name: str) -> str:
        """The model's server on this node, started on first use."""
        from arena.models._local_server import server_pool

        return server_pool().get(name).base_url


class RaySlots:
    """Leases from the cluster's :class:`LimiterActor`."""

    def __init__(self, limiter: Any) -> None:
        self.limiter = limiter

    @asynccontextmanager
    async def slot(self, endpoint: str, lease_s: float) -> AsyncIterator[None]:
        lease = await self.limiter.acquire.remote(endpoint, lease_s)
        try:
            yield
        finally:
            self.limiter.release.remote(endpoint, lease)  # no need to wait for it


class NodeLocalProvider(LocalProvider):
    """``local:`` models served by this node's :class:`NodeServers` (same cache identity)."""

    def __init__(self, urls: dict[str, str]) -> None:
        self.urls = urls

    def build(self, config: ModelConfig) -> BaseChatModel:
        url = self.urls.get(config.name)
        if url is None:  # no node server known: this process starts its own
            return super().build(config)
        return self.client(config, url)


class ArenaWorker:
    """One worker process: runs tasks and pairs concurrently on its event loop."""

    def __init__(self, servers_prefix: str, env: dict[str, str]) -> None:
        import os

        from arena.models.providers import register_provider

        os.environ.update(env)  # the driver's settings (retries), before any model is built
        self.node = ray.get_runtime_context().get_node_id()
        self.servers_prefix = servers_prefix
        self.urls: dict[str, str] = {}
        self.context = jobs.WorkerContext()
        register_provider(NodeLocalProvider(self.urls), name="local", replace=True)
        limiter = ray.get_actor(LIMITER, namespace=NAMESPACE)
        limit_providers(RaySlots(limiter), self.node)

    async def _serve_locally(self, configs: list[ModelConfig]) -> None:
        for config in configs:
            if config.name in self.urls or not node_served(config):
                continue
            try:
                servers = ray.get_actor(f"{self.servers_prefix}-{self.node}", namespace=NAMESPACE)
            except ValueError:  # a node that joined after the run started
                return
            self.urls[config.name] = await servers.base_url.remote(config.name)

    async def run_task(self, url: str, run_id: int, task: Task, timeout_s: float) -> TaskOutcome:
        """:func:`arena.executors._jobs.run_task` on this worker."""
        await self._serve_locally([task.variant.model, *task.variant.roles.values()])
        store = self.context.store(url)
        model = self.context.model(store, task.variant, task.repeat)
        return await jobs.run_task(store, model, run_id, task, timeout_s)

    async def judge_pair(
        self, url: str, run_id: int, spec: JudgeSpec, pair: Any, self_judged: set[str]
    ) -> PairOutcome:
        """:func:`arena.executors._jobs.judge_pair` on this worker."""
        await self._serve_locally([spec.model])
        store = self.context.store(url)
        return await jobs.judge_pair(
            store, self.context.judge(store, spec), run_id, pair, self_judged
        )

    def where(self) -> tuple[str, int]:
        """(node id, process id): for tests and diagnostics."""
        import os

        return self.node, os.getpid()


# The Ray actor classes (typed Any: Ray's decorator hides the methods from type checkers).
LimiterActor: Any = ray.remote(num_cpus=0, max_restarts=-1)(EndpointLeases)
"""The cluster's :class:`EndpointLeases`, one named actor on the head node."""
NodeServers: Any = ray.remote(num_cpus=0)(NodeServersBody)
ArenaWorkerActor: Any = ray.remote(num_cpus=0, max_restarts=-1, max_task_retries=0)(ArenaWorker)
