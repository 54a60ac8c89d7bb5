"""Provider capabilities are members of the provider, not name checks (issue 27, point 5).

A plugin provider registered under a new name that declares a built-in's capability is
treated exactly like that built-in: concurrency (endpoint key), the plan's speed and lanes,
the default judge mode, whether it can judge at all, and whether its specs are people.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from arena.errors import InputError
from arena.executors._concurrency import EndpointLeases, LocalSlots, endpoint_key, limited
from arena.models import ModelConfig, Provider
from arena.models._fake import FakeChatModel
from arena.models.providers import PROVIDERS
from arena.models.providers._base import UncallableProvider
from arena.plan import plan_run
from arena.plan._speed import CALL_LATENCY_S, Speed, default_speed, model_speed, parallel_lanes
from arena.trust._agreement import judge_kind
from arena.variants.variant import Variant
from arena.variants.version import version_of
from judges import JudgeSpec, parse_judge
from judges._human import is_human_label
from tests.plan.helpers import dataset

pytestmark = pytest.mark.unit


class _Offline(Provider):
    """Scripted, like ``fake``: reaches no network."""

    name = "offline"
    reaches_network = False

    def build(self, config: ModelConfig) -> Any:
        return FakeChatModel(script=config.name)


class _OneServer(Provider):
    """One server per machine, like ``local``, with its own slots, probe and judge mode."""

    name = "oneserver"
    supports_logprobs = True
    shared_server = True
    default_judge_mode = "checklist"

    def server_slots(self) -> int:
        return 3

    def speed(self, config: ModelConfig, measure: bool = True) -> Speed:
        if not measure:
            return super().speed(config, measure)
        return Speed(per_call_s=7.0, shared=True, source=f"probed {config.spec}")

    def build(self, config: ModelConfig) -> Any:
        return FakeChatModel(script=config.name)


class _Crowd(UncallableProvider):
    """People, like ``human``: never called, their specs are persons."""

    name = "crowd"
    person = True


class _Archive(UncallableProvider):
    """Answers from elsewhere, like ``answers``: never called, not people."""

    name = "archive"


class _Elsewhere(Provider):
    """Declares "never called" without deriving from UncallableProvider."""

    name = "elsewhere"
    is_callable = False
    reaches_network = False

    def build(self, config: ModelConfig) -> Any:
        raise AssertionError("never built")


@pytest.fixture(autouse=True)
def plugins(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for provider in (_Offline(), _OneServer(), _Crowd(), _Archive(), _Elsewhere()):
        monkeypatch.setitem(PROVIDERS, provider.name, provider)
    yield


def _config(spec: str) -> ModelConfig:
    return ModelConfig(spec=spec)


def test_no_network_means_no_concurrency_limit_like_fake() -> None:
    assert endpoint_key(_config("fake:x")) is None
    assert endpoint_key(_config("offline:x")) is None
    # the Ray wrapper does not lease for it either: the raw model comes back
    wrapped = limited(PROVIDERS.lookup("offline"), LocalSlots(EndpointLeases()))
    assert not wrapped.reaches_network
    assert isinstance(wrapped.build(_config("offline:x")), FakeChatModel)


def test_answers_read_from_files_get_unlimited_concurrency() -> None:
    assert endpoint_key(_config("answers:gpt-4")) is None  # main: "answers|default|"
    assert endpoint_key(_config("human:alice")) is None
    assert endpoint_key(_config("archive:x")) is None


def test_no_network_means_no_time_per_call_like_fake() -> None:
    for spec in ("fake:x", "offline:x"):
        assert default_speed(_config(spec)).per_call_s == 0.0
    assert default_speed(_config("openai:gpt-4o")).per_call_s == CALL_LATENCY_S


def test_a_shared_server_is_limited_per_node_and_by_its_slots_like_local(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("ARENA_LLAMA_PARALLEL", "2")
    assert endpoint_key(_config("local:qwen"), "n1") == "local:qwen@n1"
    assert endpoint_key(_config("oneserver:m"), "n1") == "oneserver:m@n1"
    assert parallel_lanes(_config("local:qwen"), 8) == 2
    assert parallel_lanes(_config("oneserver:m"), 8) == 3  # its own slots
    assert parallel_lanes(_config("openai:gpt-4o"), 8) == 8
    assert default_speed(_config("oneserver:m")).shared
    wrapped = limited(PROVIDERS.lookup("oneserver"), LocalSlots(EndpointLeases()))
    assert wrapped.shared_server and wrapped.server_slots() == 3
    assert wrapped.endpoint_key(_config("oneserver:m"), "n2") == "oneserver:m@n2"


def test_the_speed_probe_times_the_plan() -> None:
    config = _config("oneserver:m")
    assert model_speed(config).source == "probed oneserver:m"
    variant = Variant.model_validate({"name": "v", "model": {"spec": "oneserver:m"}, "tools": []})
    plan = plan_run(None, dataset(6), [variant], concurrency=8)
    line = plan.variants[0]
    assert "probed oneserver:m" in line.per_task.source
    assert line.per_task.latency_s == pytest.approx(7.0)  # one call, no tools
    assert line.wall_s == pytest.approx(6 * 7.0 / 3)  # three slots, not eight workers


def test_the_default_judge_mode_is_the_providers() -> None:
    assert parse_judge("oneserver:m").mode == "checklist"  # main: text
    assert parse_judge("offline:m").mode == "text"
    assert parse_judge("local:qwen2.5-coder-1.5b").mode == "auto"


def test_a_provider_that_cannot_be_called_cannot_judge() -> None:
    for spec, says in (
        ("archive:x", "archive:x cannot be called"),
        ("answers:x", "answers read from a file"),
        ("human:alice", "is a person"),
    ):
        with pytest.raises(InputError, match=says) as info:
            parse_judge(spec)
        assert info.value.field == "judge"


def test_a_person_provider_makes_human_judges_like_human() -> None:
    spec = JudgeSpec(kind="human", model=_config("crowd:bob"))  # main: refused
    assert spec.is_human and spec.label == "crowd:bob"
    assert is_human_label("crowd:bob") and is_human_label("human:alice")
    assert not is_human_label("archive:x") and not is_human_label("offline:x/text")
    assert judge_kind("crowd:bob") == "human"
    with pytest.raises(ValueError, match="kind 'human'"):
        JudgeSpec(model=_config("crowd:bob"))
    with pytest.raises(ValueError, match="kind 'human'"):
        JudgeSpec(kind="human", model=_config("archive:x"))


def test_a_variant_of_a_model_never_called_runs_no_code() -> None:
    def version(spec: str) -> Any:
        return version_of(Variant.model_validate({"name": "v", "model": {"spec": spec}}))

    assert version("answers:x").code == {} and version("elsewhere:x").code == {}  # main: code
    assert version("fake:x").code  # the built-in agent's files
