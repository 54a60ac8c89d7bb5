"""Answer files made elsewhere: the three formats, their bad-input errors, and judging them
as a run with ratings, health, agreement and battle exports."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, BaseMessage

from arena.cli import main
from arena.errors import InputError
from arena.models import register_fake
from arena.outputs import import_outputs, load_outputs, read_answer_file, read_questions
from arena.outputs._readers import alpaca_id
from arena.storage import Store

pytestmark = pytest.mark.unit


def _jsonl(path: Path, rows: list[dict[str, object]]) -> str:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return str(path)


def _ours(tmp_path: Path, name: str, answers: dict[str, str]) -> str:
    rows = [
        {"question_id": q, "question": f"Question {q}?", "answer": a, "model": name}
        for q, a in answers.items()
    ]
    rows[0] |= {"reference": "300", "expected": ["300"]}
    return _jsonl(tmp_path / f"{name}.jsonl", rows)


def test_our_jsonl_gives_questions_references_and_expected_facts(tmp_path: Path) -> None:
    path = _ours(tmp_path, "model-x", {"q1": "300", "q2": "Paris"})
    answers = read_answer_file(path)
    assert answers.model == "model-x" and answers.answers["q2"].text == "Paris"
    assert answers.questions["q1"].reference == "300"
    assert answers.questions["q1"].expected == ("300",)
    loaded = load_outputs([path, _ours(tmp_path, "model-y", {"q1": "250", "q2": "Lyon"})])
    case = loaded.dataset.test_cases[0]
    assert case.reference_answer == "300" and case.expected_output_contains == ["300"]
    assert [v.name for v in loaded.variants] == ["model-x", "model-y"]
    assert {v.model.spec for v in loaded.variants} == {"answers:model-x", "answers:model-y"}


def test_alpaca_eval_model_outputs(tmp_path: Path) -> None:
    path = tmp_path / "model_outputs.json"
    path.write_text(
        json.dumps(
            [
                {"instruction": "Say hi", "output": "Hi!", "generator": "gpt-x", "dataset": "s"},
                {"instruction": "Count to 3", "output": "1 2 3", "generator": "gpt-x"},
            ]
        )
    )
    answers = read_answer_file(path)
    assert answers.model == "gpt-x"
    assert answers.answers[alpaca_id("Count to 3")].text == "1 2 3"
    assert answers.questions[alpaca_id("Say hi")].category == "s"


def _mt_bench(tmp_path: Path) -> tuple[str, str, str]:
    questions = _jsonl(
        tmp_path / "question.jsonl",
        [
            {
                "question_id": 81,
                "category": "math",
                "turns": ["What is 2+2?", "And times 3?"],
                "reference": ["4", "12"],
            },
            {"question_id": 82, "category": "writing", "turns": ["Write a haiku.", "Shorter."]},
        ],
    )
    answer_files = []
    for model, first, second in (("m1", "4", "12"), ("m2", "5", "15")):
        rows = [
            {
                "question_id": q,
                "answer_id": "x",
                "model_id": model,
                "choices": [{"index": 0, "turns": [first, second]}],
                "tstamp": 1.0,
            }
            for q in (81, 82)
        ]
        answer_files.append(_jsonl(tmp_path / f"{model}.jsonl", rows))
    return questions, answer_files[0], answer_files[1]


def test_mt_bench_answers_with_their_questions_turn_one_and_two(tmp_path: Path) -> None:
    questions, m1, m2 = _mt_bench(tmp_path)
    first = read_answer_file(m1)
    assert first.model == "m1" and first.answers["81"].text == "4"
    asked = read_questions(questions)
    assert asked["81"].text == "What is 2+2?" and asked["81"].reference == "4"
    assert asked["81"].category == "math" and asked["82"].reference is None
    # Turn 2: the judge sees the conversation so far, and judges the second answer.
    second = read_answer_file(m1, turn=2).answers["81"].text
    assert second.startswith("[Answer to turn 1]\n4") and second.endswith("[Answer to turn 2]\n12")
    turn2 = read_questions(questions, turn=2)["81"]
    assert "Turn 2 (the one to judge): And times 3?" in turn2.text and turn2.reference == "12"
    loaded = load_outputs([m1, m2], questions=questions)
    assert [c.id for c in loaded.dataset.test_cases] == ["81", "82"]
    assert loaded.dataset.test_cases[0].tags == ["math"]


@pytest.mark.parametrize(
    ("content", "name", "message"),
    [
        ('{"question_id": "q1", "question": "Q?"}\n', "a.jsonl", "field answer: line 1: missing"),
        ('{"question_id": "q1", "answer": 3, "question": ["x"]}\n', "a.jsonl",
         "field question: line 1: expected a string, got list"),
        ('{"question_id": "q1", "question": "Q?", "answer": "x"}\n{oops\n', "a.jsonl",
         "line 2: malformed JSON"),
        ('[1, 2]\n', "a.jsonl", "line 1: expected a JSON object"),
        ('{"foo": 1}\n', "a.jsonl", "line 1: not a known answer format"),
        ("\n\n", "a.jsonl", "no answers in the file"),
        ('{"a": 1}', "m.json", "expected a non-empty JSON list"),
        ('[{"instruction": "x"}]', "m.json", "field output: item 0: missing"),
        ('{"question_id": 1, "choices": [{"turns": [1]}]}\n', "a.jsonl",
         "field choices.0.turns: line 1: expected a list of strings"),
        ('{"question_id": 1, "choices": []}\n', "a.jsonl", "field choices: line 1"),
        ('{"question_id": "q", "question": "Q?", "answer": "x", "expected": [1]}\n', "a.jsonl",
         "field expected: line 1"),
    ],
)  # fmt: skip
def test_bad_answer_files_name_the_file_the_line_and_the_field(
    tmp_path: Path, content: str, name: str, message: str
) -> None:
    path = tmp_path / name
    path.write_text(content)
    with pytest.raises(InputError) as caught:
        read_answer_file(path)
    assert str(caught.value).startswith(f"file {path}")
    assert message in str(caught.value)


def test_bad_sets_of_files_are_refused_before_anything_is_stored(tmp_path: Path) -> None:
    one = _ours(tmp_path, "same", {"q1": "a"})
    other = tmp_path / "other.jsonl"
    other.write_text(Path(one).read_text())
    with pytest.raises(InputError, match="is also the model of"):
        load_outputs([one, str(other)])
    with pytest.raises(InputError, match="at least two answer files"):
        load_outputs([one])
    questions, m1, m2 = _mt_bench(tmp_path)
    with pytest.raises(InputError, match="has no text: give --questions"):
        load_outputs([m1, m2])
    with pytest.raises(InputError, match="turn must be 1 or 2"):
        load_outputs([m1, m2], questions=questions, turn=3)
    db = tmp_path / "t.db"
    code = main(
        ["judge", "--outputs", one, "--judge", "fake:judge/checklist", "--db", f"sqlite:///{db}"]
    )
    assert code == 2 and not db.exists()


def _yes(p_yes: float) -> AIMessage:
    tops = [
        {"token": "YES", "logprob": math.log(p_yes)},
        {"token": "NO", "logprob": math.log(1 - p_yes)},
    ]
    meta = {"logprobs": {"content": [{"token": "YES", "logprob": 0.0, "top_logprobs": tops}]}}
    return AIMessage("YES", response_metadata=meta)


def _judge(messages: list[BaseMessage]) -> AIMessage:
    text = str(messages[-1].content)
    if text.startswith("Write 3 short"):
        return AIMessage("Is the answer right?")
    block = text.split("Answer:\n", 1)[1].split("\n\n", 1)[0]
    answer = block.split("\n")[1]  # inside <answer-ID> ... </answer-ID>
    assert "Tools it called" not in text  # answers made elsewhere have no trajectory
    return _yes(0.9 if answer in {"300", "Paris", "Rome"} else 0.2)


@pytest.mark.system  # end to end through the CLI: judge, ratings, health, export, agree
def test_answer_files_are_judged_rated_and_exported_like_any_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    register_fake("judge", [_judge], cycle=True)
    good = _ours(tmp_path, "good", {"q1": "300", "q2": "Paris", "q3": "Rome"})
    bad = _ours(tmp_path, "bad", {"q1": "250", "q2": "Lyon", "q3": "Milan"})
    db = f"sqlite:///{tmp_path / 't.db'}"
    judge = ["judge", "--outputs", good, bad, "--judge", "fake:judge/checklist", "--db", db]
    assert main(judge) == 0
    out = capsys.readouterr().out
    assert re.search(r"good\s+bad\s+3\s+0\s+0\s+0", out)
    assert main([*judge, "--json"]) == 0  # the same files: the same run, verdicts reused
    doc = json.loads(capsys.readouterr().out)
    assert doc["run_id"] == 1 and doc["model_calls"] == 0
    assert main(["ratings", "--db", db, "--json"]) == 0
    ratings = json.loads(capsys.readouterr().out)
    names = [row["variant"] for row in ratings["rows"]] if "rows" in ratings else None
    assert names is None or names[0] == "good"
    assert main(["health", "--db", db]) == 0
    assert "fake:judge/checklist" in capsys.readouterr().out
    export = tmp_path / "battles.jsonl"
    assert main(["battles", "export", "--db", db, "-o", str(export)]) == 0
    rows = [json.loads(line) for line in export.read_text().splitlines()]
    assert len(rows) == 3 and {r["winner"] for r in rows} == {"model_a"}
    votes = _jsonl(
        tmp_path / "votes.jsonl",
        [
            {
                "question_id": q,
                "model_a": "bad",
                "model_b": "good",
                "winner": "model_b",
                "judge": "human:ann",
            }
            for q in ("q1", "q2", "q3")
        ],
    )
    assert main(["agree", str(export), votes]) == 0
    assert "100%" in capsys.readouterr().out
    assert Store(db).run().config["outputs"] == [good, bad]
    assert import_outputs(Store(db), [good, bad]) == 1
