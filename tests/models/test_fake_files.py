"""Scripted models from a file: rules by the question's words and the system prompt, replies
by turn (tool calls included), real specs played by a script under their own cache identity,
and bad files refused naming file and field."""

from __future__ import annotations

from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage

from arena.cli import main
from arena.errors import InputError
from arena.models import ModelConfig, make_chat_model
from arena.models._fake_files import ENV, load_fake_scripts, use_fake_scripts

pytestmark = pytest.mark.unit

SCRIPTS = """\
models:
  "local:qwen2.5-coder-1.5b": helper
scripts:
  helper:
    - system: judge
      replies: ["[[A=B]]"]
    - when: [flour, cups]
      replies:
        - {tool: convert_units, args: {quantity: 2, from_unit: cup}}
        - About 240 g.
    - replies: ["I cannot help with that."]
"""


@pytest.fixture
def scripts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "fake_models.yaml"
    path.write_text(SCRIPTS)
    monkeypatch.setenv(ENV, str(path))
    return path


def test_a_real_spec_is_played_by_its_script_turn_by_turn(scripts: Path) -> None:
    model = make_chat_model(ModelConfig(spec="local:qwen2.5-coder-1.5b"))
    question = HumanMessage("How many grams are 2 CUPS of flour?")
    first = model.invoke([question])
    assert isinstance(first, AIMessage)
    assert first.tool_calls[0]["name"] == "convert_units"
    assert first.tool_calls[0]["args"] == {"quantity": 2, "from_unit": "cup"}
    tool = ToolMessage("240 g", tool_call_id=first.tool_calls[0]["id"])
    assert model.invoke([question, first, tool]).content == "About 240 g."
    assert model.invoke([HumanMessage("Order pizza")]).content == "I cannot help with that."
    judged = model.invoke([SystemMessage("You are a judge"), HumanMessage("flour cups")])
    assert judged.content == "[[A=B]]"  # the first matching rule wins


def test_a_played_model_never_shares_the_real_models_cache_identity(
    scripts: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = ModelConfig(spec="local:qwen2.5-coder-1.5b")
    played = config.cache_identity()
    monkeypatch.delenv(ENV)
    assert config.cache_identity() != played


def test_fake_specs_load_from_the_file_given_to_the_cli(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(ENV, raising=False)
    path = tmp_path / "s.json"
    path.write_text('{"scripts": {"greeter": [{"replies": ["Hello from a file."]}]}}')
    (tmp_path / "v.yaml").write_text("name: v\nmodel: {spec: 'fake:greeter'}\ntools: []\n")
    (tmp_path / "g.json").write_text(
        '{"name": "g", "available_tools": [], "test_cases": '
        '[{"id": "C", "input": "hi", "category": "happy_path"}]}'
    )
    argv = ["--fake-scripts", str(path), "run", "--json", "--variants", str(tmp_path / "v.yaml")]
    argv += ["--dataset", str(tmp_path / "g.json"), "--db", f"sqlite:///{tmp_path / 'a.db'}"]
    assert main(argv) == 0
    assert '"output": "Hello from a file."' in capsys.readouterr().out


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("scripts: {s: [{when: [x]}]}", "scripts.s.0.replies"),
        ("scripts: {s: [{replies: [{tool: ''}]}]}", "scripts.s.0.replies.0"),
        ("models: {'local:x': nope}\nscripts: {s: [{replies: [hi]}]}", "models"),
        ("scripts: {s: [{replies: [hi], colour: red}]}", "scripts.s.0.colour"),
    ],
)
def test_bad_script_files_name_the_file_and_field(tmp_path: Path, text: str, field: str) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    with pytest.raises(InputError) as info:
        load_fake_scripts(path)
    assert f"file {path}" in str(info.value) and f"field {field}" in str(info.value)


def test_the_cli_refuses_a_bad_file_with_exit_2(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text("scripts: [not, a, mapping]\n")
    assert main(["--fake-scripts", str(path), "runs"]) == 2
    with pytest.raises(InputError):
        use_fake_scripts(tmp_path / "missing.yaml")
