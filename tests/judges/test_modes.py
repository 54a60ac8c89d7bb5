"""Judge modes behind one registry: validation, CLI help, model config and combining rule all
follow from it; a new mode is one decorated class (the README example)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from pydantic import ValidationError

from arena.battles import judge_run
from arena.errors import InputError, UnknownName
from arena.models import ModelConfig, Provider, register_fake
from arena.models._fake import FakeChatModel
from arena.models.providers._registry import PROVIDERS
from arena.storage import Store
from judges import MODES, JudgeSpec, PairRequest, PairwiseJudge, get_mode, mode_names
from judges import _prompts as prompts
from judges import parse_judge as parse
from judges._behavior import LLMBehaviorGrader
from judges._parsing import parse_verdict
from judges.modes._base import Asker, JudgeMode, Reading, UnreadableReply
from tests.battles.test_judges import _prefers_300, _run

pytestmark = pytest.mark.unit


# -- the README's "Extending: a judge mode" example, verbatim -------------------------------
class ShortMode(JudgeMode):
    """A one-token verdict, as in MT-Bench: [[A]], [[B]] or [[C]] (a tie)."""

    name = "short"
    summary = "one verdict token: [[A]], [[B]] or [[C]] for a tie"

    def conversations(self, request: PairRequest) -> list[list[BaseMessage]]:
        return [
            [
                SystemMessage("Reply [[A]] if answer A is better, [[B]] if B is, [[C]] for a tie."),
                HumanMessage(prompts.pair_prompt(request, logprobs=False)),
            ]
        ]

    async def read(self, asker: Asker, request: PairRequest) -> Reading:
        reply = await asker.ask(self.conversations(request)[0])
        label = parse_verdict(str(reply.content))
        if label is None:
            raise UnreadableReply("no [[A]], [[B]] or [[C]] in the reply", reply)
        return Reading(label=label, raw=str(reply.content))


# -------------------------------------------------------------------------------------------


@pytest.fixture
def short_mode(monkeypatch: pytest.MonkeyPatch) -> None:
    # The registry line, as in judges/modes/__init__.py: an import path to the class.
    monkeypatch.setitem(MODES, "short", f"{__name__}:ShortMode")


def test_the_registry_names_every_mode_and_the_spec_accepts_only_those() -> None:
    assert mode_names() == ("text", "logprobs", "grades", "checklist", "rules", "blend", "auto")
    for name in mode_names():
        mode = get_mode(name)
        assert mode.name == name and mode.summary
        assert JudgeSpec(model=ModelConfig(spec="fake:j"), mode=name).label == f"fake:j/{name}"
    with pytest.raises(ValidationError, match="text, logprobs, grades, checklist"):
        JudgeSpec(model=ModelConfig(spec="fake:j"), mode="vibes")
    with pytest.raises(
        UnknownName, match="judge mode 'vibes'; known: text, logprobs, grades, checklist"
    ):
        parse("fake:j/vibes")


def test_modes_that_read_logprobs_ask_for_one_token_with_logprobs() -> None:
    config = ModelConfig(spec="fake:j", temperature=0.7, max_tokens=300, extra={"seed": 1})
    for name in mode_names():
        mode = get_mode(name)
        judged = mode.model_config(config)
        assert judged.temperature == 0.0 and judged.extra["seed"] == 1
        if mode.needs_logprobs:
            assert judged.max_tokens == 1 and judged.extra["logprobs"] is True
        else:
            assert judged.max_tokens == 300 and "logprobs" not in judged.extra


@pytest.mark.usefixtures("short_mode")
def test_a_new_mode_is_one_class_and_one_registry_line(
    store: Store, capsys: pytest.CaptureFixture[str]
) -> None:
    from arena.cli import build_parser

    assert parse("fake:judge/short").mode == "short"
    with pytest.raises(InputError, match="checklist, rules, blend, auto, short"):
        parse("fake:judge/vibes")
    with pytest.raises(SystemExit):
        build_parser().parse_args(["judge", "--help"])
    assert re.search(
        r"text,\s+logprobs,\s+grades,\s+checklist,\s+rules,\s+blend,\s+auto,\s+short",
        capsys.readouterr().out,
    )

    run_id = _run(store)

    def short(messages: list[BaseMessage]) -> str:
        return {"[[A>B]]": "[[A]]", "[[B>A]]": "[[B]]"}.get(
            _prefers_300(messages).split()[-1], "[[C]]"
        )

    script = register_fake("judge", [short], cycle=True)
    spec = parse("fake:judge/short")
    report = judge_run(store, run_id, spec, pairs="anchor:bad", progress=False)
    assert {b.winner for b in report.battles} == {"model_b"}  # the agreement rule
    # Two orders of (bad, good) per case; (bad, same) reads the same and reuses the verdicts.
    assert len(script.calls) == report.model_calls == 2 * 4
    assert judge_run(store, run_id, spec, pairs="anchor:bad", progress=False).model_calls == 0


class _NoLogprobs(Provider):
    name = "nolp"

    def build(self, config: ModelConfig) -> FakeChatModel:
        return FakeChatModel(script=config.name)


@pytest.fixture
def no_logprobs_provider(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(PROVIDERS, "nolp", _NoLogprobs())


@pytest.mark.usefixtures("no_logprobs_provider")
def test_logprob_modes_refuse_providers_without_logprobs(
    db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from arena.cli import main

    assert parse("nolp:judge/text").mode == "text"
    for mode in ("logprobs", "grades"):
        with pytest.raises(
            InputError,
            match=f"field judge: judge mode '{mode}' reads token log-probabilities.*'nolp'",
        ):
            parse(f"nolp:judge/{mode}")
        spec = JudgeSpec(model=ModelConfig(spec="nolp:judge"), mode=mode)
        with pytest.raises(InputError, match="log-probabilities"):
            PairwiseJudge(spec)
        with pytest.raises(InputError, match="log-probabilities"):
            LLMBehaviorGrader(spec)
    db = tmp_path / "untouched.db"
    assert main(["judge", "--judge", "nolp:judge/logprobs", "--db", f"sqlite:///{db}"]) == 2
    err = capsys.readouterr().err
    assert "log-probabilities" in err and "Traceback" not in err and not db.exists()


def test_every_mode_turns_a_model_failure_into_an_error_verdict() -> None:
    import asyncio

    from arena.models import TransientModelError

    request = PairRequest(case_id="C", query="q", answer_a="a", answer_b="b")
    for name in mode_names():
        register_fake("down", [TransientModelError("503 Service Unavailable")], cycle=True)
        judge = PairwiseJudge(JudgeSpec(model=ModelConfig(spec="fake:down"), mode=name))
        verdict = asyncio.run(judge.judge(request))
        assert not verdict.ok and verdict.label is None and "503" in (verdict.error or "")
