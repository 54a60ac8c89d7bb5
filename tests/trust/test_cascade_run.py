"""A cascade on a stored run: a local scripted judge that cannot tell the answers apart (it
always prefers the first shown, so every verdict flips and scores 0), escalating to a real
OpenAI-compatible server started by the test (tests/support/fault_server.py: its judge prefers
the answer marked "strong", which is the golden winner here). The stronger judge judges only
what the local one abstained on; people get only what both abstained on."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.battles import judge_run
from arena.compare._compare import compare_variants
from arena.evaluation.run_scores import score_run
from arena.models import ModelConfig, register_fake
from arena.storage import Store
from arena.votes import pending_escalations
from judges import JudgeSpec, parse_judge
from judges._types import SelectiveSettings
from tests.battles.test_judges import _run as stored_run
from tests.support.fault_server import FaultServer

pytestmark = pytest.mark.system  # a server, a run, two judges

KEY_ENV, KEY = "ARENA_CASCADE_TEST_KEY", "sk-cascade-test-0000"
GOOD, BAD = "The answer is 300 (strong).", "I think it is 250."


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[FaultServer]:
    monkeypatch.setenv(KEY_ENV, KEY)
    with FaultServer() as found:
        yield found


def _run(store: Store) -> int:
    run_id = stored_run(store, cases=8, good=GOOD)
    score_run(store, run_id)
    return run_id


def _hosted(tmp_path: Path, server: FaultServer) -> Path:
    path = tmp_path / "hosted.yaml"
    path.write_text(
        f"model: {{spec: 'openai:strong', base_url: '{server.base_url}', "
        f"api_key_env: {KEY_ENV}, timeout: 10}}\nmode: text\n"
    )
    return path


def test_a_cascade_sends_fewer_pairs_to_people_than_the_local_judge_alone(
    store: Store,
    db_url: str,
    tmp_path: Path,
    server: FaultServer,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from arena.cli import main

    run_id = _run(store)
    register_fake("local", ["[[A>B]]"], cycle=True)  # always the first shown: every verdict flips
    alone = JudgeSpec(model=ModelConfig(spec="fake:local"), selective=SelectiveSettings())
    judge_run(store, run_id, alone, progress=False)
    left_alone = len(pending_escalations(store, run_id, alone.key))
    assert left_alone == 16  # the 16 golden-decisive pairs (good and same against bad)

    hosted = _hosted(tmp_path, server)
    settings = SelectiveSettings(escalate_to=(str(hosted),))
    spec = alone.model_copy(update={"selective": settings})
    report = judge_run(store, run_id, spec, progress=False)
    cascade = report.cascade
    assert cascade is not None
    # The hosted judge judged only what the local judge abstained on: 16 pairs, 2 orders each,
    # the same answers read once per case (good and same answer alike): 16 calls.
    hosted_key = parse_judge(str(hosted)).key
    assert len(store.battles(run_id, hosted_key)) == 16
    assert server.stats()["ok"] == 16
    assert [(s.reached, s.given) for s in cascade.stages] == [(16, 0), (16, 16)]
    assert cascade.to_people == 0
    assert len(pending_escalations(store, run_id, spec.key)) == 0 < left_alone
    assert "people get 0" in cascade.text() and "at error level 0.05" in cascade.text()
    # The gate and the ratings read the local judge's battles with the cascade's verdicts in
    # place of its abstentions: nothing waits for a person.
    report = compare_variants(store, "bad", "good", run_id=run_id, judge_key=spec.key)
    assert report.undecided == 0 and report.battles == 8
    assert main(["health", str(run_id), "--db", db_url]) == 0
    out = capsys.readouterr().out
    assert f"selective cascade, fake:local/text ({spec.key}): cascade of 2 judges" in out
