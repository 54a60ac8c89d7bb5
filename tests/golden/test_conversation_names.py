"""Every name and text a conversation case uses is checked at load (issue 36, findings 4-6):
through `arena run` and `arena golden lint` a bad one is exit 2 naming the file, the case and
the field, without pydantic's "Value error," prefix, and nothing is written."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from arena.cli import main
from arena.golden import MAX_TURNS
from arena.storage import Store
from tests.support.cli_args import run_argv

pytestmark = pytest.mark.unit

TOOLS = ["lookup_user", "reset_password", "open_ticket"]


def _script(**fields: Any) -> dict[str, Any]:
    return {
        "turns": [{"user": "My id is u-17."}, {"user": "Thanks."}],
        "expect": [{"turn": 2, "tools": ["reset_password"]}],
        **fields,
    }


def _user(**fields: Any) -> dict[str, Any]:
    user = {"persona": "A locked-out employee.", "goal": "Get the password reset.", **fields}
    return {"user": user}


def _case(conversation: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": "HD-2",
        "input": "I can't log in.",
        "category": "multi_step",
        "tier": "critical",
        "conversation": conversation,
    }


def _write(tmp_path: Path, conversation: dict[str, Any]) -> Path:
    path = tmp_path / "helpdesk.json"
    data = {"name": "helpdesk", "available_tools": TOOLS, "test_cases": [_case(conversation)]}
    path.write_text(json.dumps(data))
    return path


# what the conversation holds -> the field the error must name
BAD: dict[str, tuple[dict[str, Any], str]] = {
    "per-turn tools typo": (
        _script(expect=[{"turn": 2, "tools": ["reset_passwd"]}]),
        "conversation.expect.0.tools",
    ),
    "per-turn forbidden tool the agent lacks": (
        _script(
            expect=[
                {"turn": 1, "contains": ["id"]},
                {"turn": 2, "forbidden_tools": ["wipe_laptop"]},
            ]
        ),
        "conversation.expect.1.forbidden_tools",
    ),
    "blank simulated goal": (_user(goal="   "), "conversation.user.goal"),
    "blank simulated persona": (_user(persona="\n"), "conversation.user.persona"),
    "blank scripted turn": (
        _script(turns=[{"user": "My id is u-17."}, {"user": "  "}]),
        "conversation.turns.1.user",
    ),
    "blank otherwise": (
        _script(turns=[{"user": "u-17", "when": {"contains": ["id"]}, "otherwise": " "}]),
        "conversation.turns.0.otherwise",
    ),
    "empty contains item": (
        _script(expect=[{"turn": 1, "contains": [""]}]),
        "conversation.expect.0.contains.0",
    ),
    "blank alternative of a contains item": (
        _script(expect=[{"turn": 1, "contains": [["id", " "]]}]),
        "conversation.expect.0.contains.0",
    ),
    "empty list of alternatives": (
        _script(expect=[{"turn": 1, "contains": [[]]}]),
        "conversation.expect.0.contains.0",
    ),
    "empty not_contains item": (
        _script(expect=[{"turn": 1, "not_contains": [""]}]),
        "conversation.expect.0.not_contains.0",
    ),
    "empty item of a when check": (
        _script(turns=[{"user": "u-17", "when": {"contains": [""]}}]),
        "conversation.turns.0.when.contains.0",
    ),
    "turn 4 on a 3-turn script": (
        _script(expect=[{"turn": 1, "contains": ["id"]}, {"turn": 4, "contains": ["done"]}]),
        "conversation.expect.1.turn",
    ),
    "two expectations of one turn": (
        _script(expect=[{"turn": 2, "contains": ["id"]}, {"turn": 2, "tools": ["lookup_user"]}]),
        "conversation.expect.1.turn",
    ),
    "a script longer than MAX_TURNS": (
        _script(turns=[{"user": f"message {n}"} for n in range(MAX_TURNS)], expect=[]),
        "conversation.turns",
    ),
    "a 10,000-turn script (it hung `arena run`)": (
        _script(turns=[{"user": f"message {n}"} for n in range(10_000)], expect=[]),
        "conversation.turns",
    ),
}


def _command(kind: str, dataset: Path, db: Path) -> list[str]:
    if kind == "lint":
        return ["golden", "lint", "--dataset", str(dataset)]
    variant = dataset.parent / "v.yaml"
    variant.write_text("name: v\nmodel: {spec: 'fake:echo'}\ntools: [calculate]\n")
    return run_argv(variant, dataset, f"sqlite:///{db}")


@pytest.mark.parametrize("kind", ["run", "lint"])
@pytest.mark.parametrize("name", list(BAD))
def test_a_bad_name_or_text_is_exit_2_naming_file_case_and_field(
    name: str, kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    conversation, field = BAD[name]
    dataset, db = _write(tmp_path, conversation), tmp_path / "arena.db"
    code = main(_command(kind, dataset, db))
    err = capsys.readouterr().err
    assert code == 2, err
    assert err.startswith(f"arena: error: file {dataset}, case HD-2, field {field}: "), err
    assert "Value error" not in err and "Traceback" not in err, err
    assert not db.exists() or Store(f"sqlite:///{db}").runs() == []


def test_the_errors_say_what_is_wrong(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    expected = {
        "per-turn tools typo": "tool(s) reset_passwd not in available_tools",
        "blank simulated goal": "must not be empty or blank",
        "turn 4 on a 3-turn script": "turn 4 is expected but the conversation has at most 3",
        "a script longer than MAX_TURNS": f"at most {MAX_TURNS} user turns (MAX_TURNS)",
    }
    for name, words in expected.items():
        assert main(["golden", "lint", str(_write(tmp_path, BAD[name][0]))]) == 2
        assert words in capsys.readouterr().err, name


def test_a_script_of_max_turns_user_turns_is_accepted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    turns = [{"user": f"message {n}"} for n in range(MAX_TURNS - 1)]
    dataset = _write(
        tmp_path, _script(turns=turns, expect=[{"turn": MAX_TURNS, "contains": ["x"]}])
    )
    assert main(["golden", "lint", "--dataset", str(dataset)]) == 0, capsys.readouterr().err


def test_golden_lint_takes_the_dataset_positionally_or_with_the_flag(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dataset = _write(tmp_path, _script())
    assert main(["golden", "lint", "--dataset", str(dataset), "--json"]) == 0
    by_flag = json.loads(capsys.readouterr().out)
    assert main(["golden", "lint", str(dataset), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == by_flag
    assert by_flag["dataset"] == "helpdesk" and by_flag["n_cases"] == 1
    assert main(["golden", "lint", str(dataset), "--dataset", str(dataset), "--json"]) == 0
    capsys.readouterr()
    other = tmp_path / "other.json"
    other.write_text(dataset.read_text())
    assert main(["golden", "lint", str(dataset), "--dataset", str(other)]) == 2
    assert "field --dataset: two datasets given" in capsys.readouterr().err


def _simulated(case_id: str, facts: dict[str, str], **fields: Any) -> dict[str, Any]:
    user = {"persona": "A locked-out employee.", "goal": "Get my password reset.", "facts": facts}
    return {
        **_case({"user": user, "expect": [{"turn": 2, "contains": ["ticket opened"]}]}),
        "id": case_id,
        "input": f"I can't log in ({case_id}).",
        "expected_output_contains": [["temporary password", "temp password"]],
        "expected_args": {"reset_password": {"user_id": "u-17"}},
        **fields,
    }


def test_lint_flags_a_simulated_user_who_knows_the_answer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    honest = {"employee id": "u-17", "laptop": "a ThinkPad"}
    cases = [
        _simulated("HD-3", honest),
        _simulated("HD-4", {**honest, "what IT said last time": "Your Temp  Password is 0000"}),
        _simulated("HD-5", {"status": "the ticket opened yesterday"}),
        _simulated("HD-6", {"fix": "ask them to run reset_password for u-17"}),
        _simulated("HD-7", {"answer": "all done"}, expected_output_exact="All done"),
    ]
    path = tmp_path / "leaks.json"
    path.write_text(json.dumps({"name": "h", "available_tools": TOOLS, "test_cases": cases}))
    assert main(["golden", "lint", "--dataset", str(path), "--json"]) == 0
    found = [
        f
        for f in json.loads(capsys.readouterr().out)["findings"]
        if f["rule"] == "simulated_user_knows_answer"
    ]
    assert [f["cases"] for f in found] == [["HD-4"], ["HD-5"], ["HD-6"], ["HD-7"]]
    assert all(f["severity"] == "warning" for f in found)
    messages = [f["message"] for f in found]
    assert "'what IT said last time' holds expected_output_contains 'temp password'" in messages[0]
    assert "turn 2 contains 'ticket opened'" in messages[1]
    assert "the call reset_password('u-17')" in messages[2]
    assert "expected_output_exact 'All done'" in messages[3]
    assert main(["golden", "lint", str(path)]) == 0
    assert "simulated_user_knows_answer" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("conversation", "field", "words"),
    [
        ({"turns": [{"user": "hi"}], "user": _user()["user"]}, "conversation", "either scripted"),
        (_script(expect=[{"turn": 1}]), "conversation.expect.0", "needs at least one field"),
        (_script(turns=[{"user": "u-17", "otherwise": "x"}]), "conversation.turns.0", "needs a"),
    ],
)
def test_every_conversation_error_is_said_without_a_value_error_prefix(
    conversation: dict[str, Any],
    field: str,
    words: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    dataset = _write(tmp_path, conversation)
    assert main(["golden", "lint", str(dataset)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"arena: error: file {dataset}, case HD-2, field {field}: "), err
    assert words in err and "Value error" not in err
