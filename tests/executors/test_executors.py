"""The executor interface without a cluster: the local executor gives what the inline runner
gives, the endpoint limiter and the limited providers, and the Ray executor's input checks."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

import pytest

from arena.battles import judge_run
from arena.errors import InputError
from arena.executors import LocalExecutor, make_executor
from arena.executors._concurrency import (
    EndpointLeases,
    LimitedChatModel,
    LocalSlots,
    endpoint_key,
    limited,
)
from arena.executors._ray_executor import check_reachable, placement, shipped_url
from arena.models import PROVIDERS, ModelConfig, register_fake
from arena.runner import RunOptions, run_suite
from arena.storage import Store
from judges import JudgeSpec
from tests.faults.scenario import cli
from tests.plan.helpers import NAMES, dataset, register_models, variant, write_inputs

pytestmark = pytest.mark.unit


def _results(store: Store, executor: object) -> tuple[dict[tuple[str, str, int], tuple], int]:
    report = run_suite(
        store,
        dataset(),
        [variant(n) for n in NAMES],
        RunOptions(progress=False, repeats=2, executor=executor),
    )
    return (
        {
            (r.variant, r.case_id, r.repeat): (
                r.output,
                r.error,
                r.model_calls,
                r.input_tokens,
                r.output_tokens,
                r.cost_usd,
            )
            for r in report.results
        },
        report.model_calls,
    )


@pytest.mark.system  # end to end (runs, judging, storage): too slow for a unit test
def test_local_executor_equals_the_inline_runner(tmp_path: Path) -> None:
    register_models()
    register_fake("judge", ["A is better. [[A>B]]"], cycle=True)
    spec = JudgeSpec(model=ModelConfig(spec="fake:judge"))
    inline = Store(f"sqlite:///{tmp_path / 'a.db'}")
    through = Store(f"sqlite:///{tmp_path / 'b.db'}")
    want, want_calls = _results(inline, None)
    got, got_calls = _results(through, LocalExecutor())
    assert got == want and got_calls == want_calls == len(want)
    assert _results(through, LocalExecutor())[1] == 0  # resumed: nothing sent again
    # One pair at a time: identical requests of two pairs are then sent once, in both.
    judged = [
        judge_run(store, store.run().id, spec, progress=False, executor=executor, concurrency=1)
        for store, executor in ((inline, None), (through, LocalExecutor()))
    ]
    want_battles, got_battles = (
        sorted((b.variant_a, b.variant_b, b.case_id, b.repeat, b.winner) for b in j.battles)
        for j in judged
    )
    assert got_battles == want_battles
    assert judged[0].model_calls == judged[1].model_calls > 0
    assert (
        judge_run(
            through, through.run().id, spec, progress=False, executor=LocalExecutor()
        ).model_calls
        == 0
    )


def test_endpoint_limits_cap_concurrent_leases_and_take_back_expired_ones() -> None:
    async def scenario() -> tuple[int, int, float]:
        limits = EndpointLeases()
        await limits.set_limit("api", 2)
        slots = LocalSlots(limits)
        busy = peak = 0

        async def request() -> None:
            nonlocal busy, peak
            async with slots.slot("api", lease_s=10):
                busy += 1
                peak = max(peak, busy)
                await asyncio.sleep(0.01)
                busy -= 1

        await asyncio.gather(*(request() for _ in range(12)))
        stats = (await limits.stats())["api"]
        await limits.acquire("api", lease_s=0.05)  # a holder that dies: never released
        await limits.acquire("api", lease_s=0.05)
        started = asyncio.get_running_loop().time()
        await limits.acquire("api", lease_s=1)  # waits for the dead leases to expire
        return peak, stats["peak"], asyncio.get_running_loop().time() - started

    peak, recorded, waited = asyncio.run(scenario())
    assert peak == recorded == 2
    assert 0.03 <= waited < 1


def test_endpoint_keys_name_the_endpoint_and_key_variable_never_the_key() -> None:
    api = ModelConfig(
        spec="openai:gpt-4o", base_url="http://127.0.0.1:1/v1", api_key_env="ARENA_TEST_KEY_VAR"
    )
    assert endpoint_key(api) == "openai|http://127.0.0.1:1/v1|ARENA_TEST_KEY_VAR"
    assert endpoint_key(ModelConfig(spec="openai:gpt-4o")) == "openai|default|"
    assert endpoint_key(ModelConfig(spec="local:qwen"), "node1") == "local:qwen@node1"
    assert endpoint_key(ModelConfig(spec="fake:x")) is None


def test_limited_provider_keeps_name_checks_and_cache_identity() -> None:
    inner = PROVIDERS.lookup("openai")
    wrapped = limited(inner, LocalSlots(EndpointLeases()))
    config = ModelConfig(spec="openai:m", base_url="http://127.0.0.1:1/v1", timeout=3)
    assert (wrapped.name, wrapped.supports_logprobs) == ("openai", inner.supports_logprobs)
    assert wrapped.identity(config) == inner.identity(config)
    model = wrapped.build(config)
    assert isinstance(model, LimitedChatModel) and model.lease_s == 8.0
    assert model.endpoint == endpoint_key(config)
    assert not isinstance(
        limited(PROVIDERS.lookup("fake"), LocalSlots(EndpointLeases())).build(
            ModelConfig(spec="fake:echo")
        ),
        LimitedChatModel,
    )


def test_shipped_url_makes_sqlite_absolute_and_refuses_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert shipped_url("sqlite:///arena.db") == f"sqlite:///{tmp_path / 'arena.db'}"
    assert shipped_url("sqlite:////abs/arena.db") == "sqlite:////abs/arena.db"
    pg = "postgresql+psycopg://u:secret@db.example/arena"
    assert shipped_url(pg) == pg
    for memory in ("sqlite://", "sqlite:///:memory:"):
        with pytest.raises(InputError, match="in-memory"):
            shipped_url(memory)


def test_no_cluster_at_the_address_is_bad_input_before_anything_is_written(tmp_path: Path) -> None:
    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    with pytest.raises(InputError, match="--ray-address"):
        check_reachable(f"ray://127.0.0.1:{port}", timeout_s=2)
    register_models()
    data, variants = write_inputs(tmp_path)
    db = tmp_path / "arena.db"
    code, _, err = cli(
        [
            "run",
            "--variants",
            *map(str, variants),
            "--dataset",
            str(data),
            "--executor",
            "ray",
            "--ray-address",
            f"127.0.0.1:{port}",
            "--db",
            f"sqlite:///{db}",
        ]
    )
    assert code == 2 and "no Ray cluster answers" in err and not db.exists()


def test_unknown_executor_and_bad_worker_count_are_bad_input() -> None:
    with pytest.raises(InputError, match="--executor"):
        make_executor("dask")
    with pytest.raises(InputError, match="--ray-workers"):
        make_executor("ray", workers=0)


def test_node_local_provider_serves_the_nodes_server_with_the_local_identity() -> None:
    from arena.executors._ray_worker import NodeLocalProvider

    config = ModelConfig(spec="local:qwen2.5-coder-1.5b")
    provider = NodeLocalProvider({"qwen2.5-coder-1.5b": "http://127.0.0.1:9/v1"})
    model = provider.build(config)
    assert str(model.openai_api_base) == "http://127.0.0.1:9/v1"  # type: ignore[attr-defined]
    assert provider.identity(config) == PROVIDERS.lookup("local").identity(config)


def test_workers_are_placed_on_alive_nodes_once_per_cpu_interleaved() -> None:
    nodes = [
        {"NodeID": "a", "Alive": True, "Resources": {"CPU": 2.0}},
        {"NodeID": "dead", "Alive": False, "Resources": {"CPU": 8.0}},
        {"NodeID": "b", "Alive": True, "Resources": {"CPU": 1.0}},
        {"NodeID": "gpu", "Alive": True, "Resources": {"GPU": 1.0}},
    ]
    assert placement(nodes) == ["a", "b", "gpu", "a"]
    with pytest.raises(RuntimeError, match="no alive node"):
        placement([{"NodeID": "dead", "Alive": False}])
