"""Unit tests for the Research Agent's tools, corpus, sandbox and golden dataset (offline)."""

from __future__ import annotations

import asyncio
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from langchain_core.language_models import BaseChatModel
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.tools import BaseTool
from pydantic import Field

from arena.agents.research import tools as research_tools
from arena.agents.research.calculator import safe_calculate
from arena.agents.research.corpus import (
    Corpus,
    default_corpus_dir,
    load_corpus,
    read_corpus,
    resolve_corpus_path,
    tokenize,
)
from arena.agents.research.tools import build_tools
from arena.defaults import TOOL_NAMES  # declared below the agents (docs/architecture.yaml)
from arena.errors import InputError
from arena.golden import load_dataset
from arena.sandbox import Sandbox

pytestmark = pytest.mark.unit

REPO = Path(__file__).resolve().parents[2]
GOLDEN = REPO / "data" / "golden" / "research_agent.json"


class RecordingModel(BaseChatModel):
    """A chat model that records every prompt and answers with a fixed reply."""

    reply: str = "1. RAG improves accuracy by 32%.\n2. Fine-tuning costs more."
    prompts: list[str] = Field(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "recording"

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: Any = None,
        **kwargs: Any,
    ) -> ChatResult:
        self.prompts.append("\n".join(str(m.content) for m in messages))
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=self.reply))])


class BrokenModel(RecordingModel):
    """A chat model whose every call fails."""

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: Any = None,
        **kwargs: Any,
    ) -> ChatResult:
        raise RuntimeError("server down")


@pytest.fixture(scope="module")
def corpus() -> Corpus:
    return load_corpus()


@pytest.fixture
def model() -> RecordingModel:
    return RecordingModel(prompts=[])


@pytest.fixture
def tools(corpus: Corpus, model: RecordingModel, tmp_path: Path) -> dict[str, BaseTool]:
    built = build_tools(model=model, sandbox=Sandbox(tmp_path / "sandbox"), corpus=corpus)
    return {tool.name: tool for tool in built}


def run(tool: BaseTool, **args: Any) -> str:
    result = tool.invoke(args)
    assert isinstance(result, str)
    return result


# --- calculate ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "expression, expected",
    [
        ("2 + 3", "5"),
        ("10 * 4", "40"),
        ("(15 + 5) * 3", "60"),
        ("100 / 4", "25"),
        ("2 ** 10", "1024"),
        ("25% of 1200", "300"),
        ("15% * 230", "34.5"),
        ("230 * 15 / 100", "34.5"),
        ("1,200 + 3,450", "4650"),
        ("$5000 / $62,500", "0.08"),
        ("0.1 + 0.2", "0.3"),
        ("1 / 3", "0.3333333333"),
        ("4.2e12 * 0.05", "210000000000"),
        ("5% of 4.2 trillion", "210000000000"),
        ("2^10", "1024"),
        ("10 % 3", "1"),
        ("7 // 2", "3"),
        ("-(2 + 3)", "-5"),
        ("sqrt(16)", "4"),
        ("round(3.14159, 2)", "3.14"),
        ("max(1, 200, 3)", "200"),
        ("abs(-7)", "7"),
        ("log(100, 10)", "2"),
        ("pi * 2", "6.283185307"),
        ("1+" * 100 + "1", "101"),
    ],
)
def test_calculate_valid(tools: dict[str, BaseTool], expression: str, expected: str) -> None:
    assert run(tools["calculate"], expression=expression) == expected


@pytest.mark.parametrize(
    "expression",
    [
        "import os",
        "__import__('os')",
        "open('/etc/passwd')",
        "exec('print(1)')",
        "eval('1')",
        "(1).__class__",
        "x + 1",
        "'a' * 3",
        "lambda: 1",
        "[x for x in range(3)]",
        "[1, 2]",
        "True + 1",
        "1 if 1 else 2",
        "1 < 2",
        "globals()",
        "sqrt(x=4)",
        "1j",
    ],
)
def test_calculate_rejects_dangerous_input(tools: dict[str, BaseTool], expression: str) -> None:
    assert run(tools["calculate"], expression=expression).startswith("Error:")


@pytest.mark.parametrize(
    "expression, message",
    [
        ("10/0", "Error: division by zero"),
        ("0/0", "Error: division by zero"),
        ("5 % 0", "Error: division by zero"),
        ("", "Error: empty expression"),
        ("   ", "Error: empty expression"),
        ("9 ** 99999", "Error: exponent too large"),
        ("10 ** 500", "Error: result too large"),
        ("exp(1000)", "Error: result too large"),
        ("1" * 501, "Error: expression too long"),
        ("sqrt(-1)", "Error: math domain error"),
        ("(-8) ** 0.5", "Error: result is not a real number"),
    ],
)
def test_calculate_errors(expression: str, message: str) -> None:
    assert safe_calculate(expression).startswith(message)


def test_calculate_error_messages_name_the_problem() -> None:
    assert "open" in safe_calculate("open('/etc/passwd')")
    assert "attribute" in safe_calculate("(1).real")
    assert "string" in safe_calculate("'abc'")


# --- search -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "tool, query, doc_id",
    [
        ("search_web", "Japan GDP", "gdp-japan"),
        ("search_web", "Look up Japan's GDP", "gdp-japan"),
        ("search_web", "Bitcoin price", "price-bitcoin"),
        ("search_web", "Ethereum price", "price-ethereum"),
        ("search_web", "population of Spain", "population-spain"),
        ("search_web", "Aurora X14 laptop", "price-aurora-x14-laptop"),
        ("search_web", "main RAG techniques", "rag-techniques"),
        ("search_web", "Model Context Protocol", "mcp-intro"),
        ("search_web", "LangChain vs LlamaIndex", "langchain-vs-llamaindex"),
        ("search_papers", "Attention Is All You Need", "attention-is-all-you-need"),
        ("search_papers", "LoRA low-rank adaptation", "lora-hu-2021"),
        ("search_papers", "ReAct reasoning and acting", "react-yao-2022"),
        ("search_papers", "LLM-as-a-judge MT-Bench", "mt-bench-llm-judge"),
    ],
)
def test_search_ranks_the_right_document_first(
    tools: dict[str, BaseTool], tool: str, query: str, doc_id: str
) -> None:
    output = run(tools[tool], query=query)
    source = "web" if tool == "search_web" else "papers"
    assert output.startswith(f"1. [{source}:{doc_id}] ")


@pytest.mark.parametrize("tool", ["search_web", "search_papers"])
def test_search_output_is_short_and_formatted(tools: dict[str, BaseTool], tool: str) -> None:
    output = run(tools[tool], query="language models retrieval evaluation agents")
    lines = output.splitlines()
    assert len(lines) == 3 and len(output) <= 900
    for rank, line in enumerate(lines, 1):
        assert re.match(rf"{rank}\. \[\w+:[\w.-]+\] .+ \(as of \d{{4}}-\d\d-\d\d\): .+", line)


def test_search_format_example(tools: dict[str, BaseTool]) -> None:
    output = run(tools["search_web"], query="Retrieval-Augmented Generation")
    assert "[web:rag-basics] Retrieval-Augmented Generation (RAG) (as of 2025-01-15): " in output


@pytest.mark.parametrize("query", ["asdkjhasd qwpoeiru", "zzzqqq", "the of and"])
def test_search_no_results(tools: dict[str, BaseTool], query: str) -> None:
    assert run(tools["search_web"], query=query) == f"No results found for '{query}'."


@pytest.mark.parametrize("tool", ["search_web", "search_papers"])
def test_search_empty_query_is_an_error(tools: dict[str, BaseTool], tool: str) -> None:
    assert run(tools[tool], query="   ").startswith("Error:")


def test_search_is_deterministic(corpus: Corpus, tools: dict[str, BaseTool]) -> None:
    first = [run(tools["search_web"], query="RAG hybrid search") for _ in range(3)]
    fresh = {
        t.name: t
        for t in build_tools(model=None, sandbox=None, corpus=read_corpus(default_corpus_dir()))
    }
    assert len(set(first)) == 1 and run(fresh["search_web"], query="RAG hybrid search") == first[0]


@pytest.mark.parametrize("tool, source", [("search_web", "web"), ("search_papers", "papers")])
def test_search_filters_by_source(tools: dict[str, BaseTool], tool: str, source: str) -> None:
    for query in ["LoRA", "RAG retrieval", "transformer attention", "prompt injection"]:
        ids = re.findall(r"\[(\w+):", run(tools[tool], query=query))
        assert ids and set(ids) == {source}


def test_bm25_ties_break_by_id() -> None:
    docs = [
        {"id": i, "source": "web", "title": "Same", "date": "2024-01-01", "text": "alpha beta"}
        for i in ("doc-c", "doc-a", "doc-b")
    ]
    from arena.agents.research.corpus import Document

    corpus = Corpus(Document.model_validate(d) for d in docs)
    assert [h.id for h in corpus.search("alpha", "web", k=3)] == ["doc-a", "doc-b", "doc-c"]
    assert corpus.search("alpha", "papers") == [] and corpus.search("alpha", k=0) == []
    with pytest.raises(ValueError, match="unknown source"):
        corpus.search("alpha", "news")


def test_tokenize() -> None:
    assert tokenize("Japan's GDP, in 2024!") == ["japan", "gdp", "2024"]
    assert tokenize("Prices of LLMs") == tokenize("price LLM")


# --- corpus loading -----------------------------------------------------------------------------


def test_corpus_size_and_topics(corpus: Corpus) -> None:
    counts = Counter(d.source for d in corpus.documents)
    assert len(corpus) >= 64 and counts["web"] >= 30 and counts["papers"] >= 15


def test_default_corpus_path_and_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    assert default_corpus_dir() == REPO / "data" / "corpus"
    monkeypatch.setenv("ARENA_CORPUS_DIR", str(tmp_path))
    assert resolve_corpus_path() == tmp_path.resolve()
    assert resolve_corpus_path(REPO / "data" / "corpus") == default_corpus_dir()
    (tmp_path / "one.yaml").write_text(
        "- {id: only, source: web, title: T, date: 2024-01-01, text: hello world}\n"
    )
    assert [d.id for d in load_corpus().documents] == ["only"]
    assert load_corpus() is load_corpus(tmp_path)


BAD_DOCS = [
    ("- {id: d1, source: news, title: T, date: 2024-01-01, text: x}", "d1", "source"),
    ("- {id: d2, source: web, title: T, date: 2024-13-45, text: x}", "d2", "date"),
    ("- {id: d3, source: web, title: T, date: 2024-01-01}", "d3", "text"),
    ("- {id: d4, source: web, title: T, date: 2024-01-01, text: x, colour: red}", "d4", "colour"),
    ("- {id: Bad Id, source: web, title: T, date: 2024-01-01, text: x}", "Bad Id", "id"),
    ("- {source: web, title: T, date: 2024-01-01, text: x}", "#0", "id"),
]


@pytest.mark.parametrize("content, doc_id, field", BAD_DOCS)
def test_corpus_validation_errors_name_file_doc_and_field(
    tmp_path: Path, content: str, doc_id: str, field: str
) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(content + "\n")
    with pytest.raises(InputError) as info:
        read_corpus(tmp_path)
    error = info.value
    assert (error.file, error.case, error.field) == (str(path), doc_id, field)
    assert str(path) in str(error) and doc_id in str(error) and field in str(error)


@pytest.mark.parametrize(
    "content, message",
    [
        ("- [unclosed", "malformed YAML"),
        ("id: x", "expected a YAML list"),
        ("- just a string", "must be a mapping"),
    ],
)
def test_corpus_file_errors(tmp_path: Path, content: str, message: str) -> None:
    (tmp_path / "bad.yaml").write_text(content + "\n")
    with pytest.raises(InputError, match=message):
        read_corpus(tmp_path)


def test_corpus_duplicate_ids_and_missing_dir(tmp_path: Path) -> None:
    doc = "- {id: same, source: web, title: T, date: 2024-01-01, text: x}\n"
    (tmp_path / "a.yaml").write_text(doc)
    (tmp_path / "b.yaml").write_text(doc)
    with pytest.raises(InputError, match="duplicate document id") as info:
        read_corpus(tmp_path)
    assert info.value.case == "same" and info.value.field == "id"
    with pytest.raises(InputError, match="no such corpus"):
        read_corpus(tmp_path / "missing")
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputError, match=r"no \*\.yaml"):
        read_corpus(tmp_path / "empty")


# --- sandbox and write_file ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        "/etc/passwd",
        "/tmp/x.txt",
        "~/x.txt",
        "C:\\Windows\\x.txt",
        "../x.txt",
        "notes/../../x.txt",
        "..\\..\\x.txt",
        "",
        "   ",
        "notes/",
        ".",
    ],
)
def test_sandbox_rejects_bad_paths(tmp_path: Path, path: str) -> None:
    sandbox = Sandbox(tmp_path / "box")
    assert sandbox.write(path, "x").startswith("Error:")
    assert sandbox.files() == {}


def test_sandbox_rejects_symlink_escapes(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    box = tmp_path / "box"
    box.mkdir()
    (box / "link").symlink_to(outside)
    (box / "file.txt").symlink_to(outside / "target.txt")
    sandbox = Sandbox(box)
    assert sandbox.write("link/evil.txt", "x").startswith("Error:")
    assert sandbox.write("file.txt", "x").startswith("Error:")
    assert list(outside.iterdir()) == [] and sandbox.files() == {}


def test_sandbox_rejects_large_content(tmp_path: Path) -> None:
    sandbox = Sandbox(tmp_path)
    assert sandbox.write("big.txt", "x" * 100_001).startswith("Error: content too large")
    assert sandbox.write("ok.txt", "x" * 100_000).startswith("Wrote")


def test_sandbox_writes_and_snapshots_files(tmp_path: Path) -> None:
    sandbox = Sandbox(tmp_path / "box")
    assert sandbox.write("notes/mcp.txt", "MCP: Model Context Protocol") == (
        "Wrote 27 characters to notes/mcp.txt."
    )
    assert sandbox.write("./a/./b.md", "ü") == "Wrote 1 characters to a/b.md."
    assert sandbox.write("notes/mcp.txt", "overwritten").startswith("Wrote")
    assert sandbox.files() == {"a/b.md": "ü", "notes/mcp.txt": "overwritten"}
    assert sandbox.write("notes", "x").startswith("Error:")


def test_write_file_tool(tools: dict[str, BaseTool], tmp_path: Path) -> None:
    result = run(tools["write_file"], path="notes/mcp.txt", content="MCP is an open standard.")
    assert result.startswith("Wrote")
    assert Sandbox(tmp_path / "sandbox").files() == {"notes/mcp.txt": "MCP is an open standard."}
    assert run(tools["write_file"], path="/etc/passwd", content="x").startswith("Error:")


def test_write_file_without_sandbox() -> None:
    (tool,) = build_tools(model=None, sandbox=None, enabled=["write_file"])
    assert run(tool, path="a.txt", content="x").startswith("Error: no sandbox")


# --- extract_findings and compare_sources -------------------------------------------------------

SAMPLE = "Study A: RAG improves accuracy by 32%.\nStudy B: Fine-tuning beats RAG by 15%."


@pytest.mark.parametrize("focus", ["costs", "accuracy", "comparison"])
def test_extract_findings_puts_focus_in_prompt(
    tools: dict[str, BaseTool], model: RecordingModel, focus: str
) -> None:
    result = run(tools["extract_findings"], text=SAMPLE, focus=focus)
    assert result == model.reply
    assert len(model.prompts) == 1 and focus in model.prompts[0] and "32%" in model.prompts[0]


def test_extract_findings_without_focus(tools: dict[str, BaseTool], model: RecordingModel) -> None:
    assert run(tools["extract_findings"], text=SAMPLE) == model.reply
    assert "focusing" not in model.prompts[0]


def test_compare_sources_prompt_holds_both(
    tools: dict[str, BaseTool], model: RecordingModel
) -> None:
    result = run(tools["compare_sources"], source_a="RAG 32%", source_b="Fine-tuning 15%")
    assert result == model.reply
    assert "RAG 32%" in model.prompts[0] and "Fine-tuning 15%" in model.prompts[0]


@pytest.mark.parametrize(
    "name, args",
    [
        ("extract_findings", {"text": SAMPLE, "focus": "costs"}),
        ("compare_sources", {"source_a": "RAG 32%", "source_b": "Fine-tuning 15%"}),
    ],
)
def test_model_tools_async(
    tools: dict[str, BaseTool], model: RecordingModel, name: str, args: dict[str, str]
) -> None:
    tool = tools[name]
    assert isinstance(tool, BaseTool) and getattr(tool, "coroutine", None) is not None
    assert asyncio.run(tool.ainvoke(args)) == model.reply
    assert all(value in model.prompts[0] for value in args.values())


def test_model_tools_with_generic_fake_model(corpus: Corpus) -> None:
    fake = GenericFakeChatModel(messages=iter([AIMessage(content="Agreements: both mention RAG.")]))
    (tool,) = build_tools(model=fake, sandbox=None, corpus=corpus, enabled=["compare_sources"])
    assert run(tool, source_a="RAG 32%", source_b="RAG 15%") == "Agreements: both mention RAG."


@pytest.mark.parametrize(
    "name, args",
    [
        ("extract_findings", {"text": SAMPLE}),
        ("compare_sources", {"source_a": "a", "source_b": "b"}),
    ],
)
def test_model_tools_without_model(name: str, args: dict[str, str]) -> None:
    (tool,) = build_tools(model=None, sandbox=None, enabled=[name])
    assert run(tool, **args) == "Error: no model configured"
    assert asyncio.run(tool.ainvoke(args)) == "Error: no model configured"


def test_model_tools_never_raise(tools: dict[str, BaseTool], model: RecordingModel) -> None:
    broken_model = BrokenModel(prompts=[])
    (broken,) = build_tools(model=broken_model, sandbox=None, enabled=["extract_findings"])
    assert run(broken, text=SAMPLE).startswith("Error: model call failed")
    assert asyncio.run(broken.ainvoke({"text": SAMPLE})).startswith("Error: model call failed")
    assert run(tools["extract_findings"], text="  ").startswith("Error: empty")
    assert run(tools["compare_sources"], source_a="a", source_b="").startswith("Error: empty")
    assert model.prompts == []


@pytest.mark.parametrize(
    "name, args",
    [
        ("calculate", {}),
        ("calculate", {"expression": ["1"]}),
        ("search_web", {"q": "x"}),
        ("write_file", {"path": "a.txt"}),
        ("compare_sources", {"source_a": "a"}),
    ],
)
def test_invalid_arguments_return_errors(
    tools: dict[str, BaseTool], name: str, args: dict[str, Any]
) -> None:
    assert str(tools[name].invoke(args)).startswith("Error: invalid arguments")


# --- build_tools --------------------------------------------------------------------------------


def test_build_tools_all(tools: dict[str, BaseTool]) -> None:
    assert tuple(tools) == TOOL_NAMES == research_tools.TOOL_NAMES
    for tool in tools.values():
        assert 20 <= len(tool.description) <= 160
    assert set(tools["extract_findings"].args) == {"text", "focus"}
    assert set(tools["write_file"].args) == {"path", "content"}


@pytest.mark.parametrize(
    "enabled",
    [
        ["calculate"],
        ["search_papers", "calculate"],
        ["write_file", "search_web", "write_file"],
        [],
    ],
)
def test_build_tools_enabled(corpus: Corpus, enabled: list[str]) -> None:
    names = [t.name for t in build_tools(model=None, sandbox=None, corpus=corpus, enabled=enabled)]
    assert names == list(dict.fromkeys(enabled))


def test_build_tools_unknown_name() -> None:
    with pytest.raises(ValueError, match="send_email") as info:
        build_tools(model=None, sandbox=None, enabled=["calculate", "send_email"])
    assert all(name in str(info.value) for name in TOOL_NAMES)


# --- golden dataset -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def golden() -> Any:
    return load_dataset(GOLDEN)


def test_golden_counts(golden: Any) -> None:
    cases = golden.test_cases
    categories = Counter(str(c.category) for c in cases)
    tiers = Counter(str(c.tier) for c in cases)
    assert golden.name == "research-agent-golden" and tuple(golden.available_tools) == TOOL_NAMES
    assert len(cases) >= 26 and len(categories) == 5 and min(categories.values()) >= 5
    assert tiers["critical"] == 8 and 2 <= tiers["pending"] <= 3


def test_golden_covers_the_seed_hard_cases(golden: Any) -> None:
    inputs = {c.input.lower() for c in golden.test_cases}
    for needle in [
        "",
        "0/0",
        "asdkjhasd qwpoeiru",
        "system prompt",
        "send an email",
        "hack nasa",
        "python",
        "compare that",
        "japan's gdp",
        "notes/mcp.txt",
    ]:
        assert any(needle in text for text in inputs), needle
    assert any(c.expected_files for c in golden.test_cases)
    assert any("compare_sources" in c.expected_tools for c in golden.test_cases)


def test_golden_critical_cases_are_cheap(golden: Any) -> None:
    for case in golden.test_cases:
        if case.tier == "critical":
            assert len(case.input) <= 80 and case.max_steps <= 4, case.id


# Per multi-step case: search queries (tool, query) whose output must show the numbers the
# answer is computed from, the calculator expression and its expected result.
CHAINS: dict[str, tuple[list[tuple[str, str]], list[str], str | None]] = {
    "MS-001": ([("search_web", "Japan GDP")], ["4.2 trillion"], "4.2e12 * 5 / 100"),
    "MS-002": ([("search_web", "Bitcoin Ethereum price")], ["62,500", "2,500"], "62500 - 2500"),
    "MS-003": ([("search_web", "Bitcoin price")], ["62,500"], "5000 / 62500"),
    "MS-004": (
        [("search_web", "population Spain France")],
        ["48.6 million", "68.4 million"],
        "68.4 - 48.6",
    ),
    "MS-005": (
        [("search_web", "Aurora X14 laptop price"), ("search_web", "Vista 27 monitor")],
        ["1,349", "279"],
        "1349 + 279",
    ),
    "MS-006": (
        [("search_web", "Germany GDP"), ("search_web", "France GDP")],
        ["4.6 trillion", "3.1 trillion"],
        "4.6 - 3.1",
    ),
    "MS-007": ([("search_papers", "QLoRA")], ["48 GB"], None),
    "MS-008": (
        [("search_web", "RAG"), ("search_web", "fine-tuning")],
        ["Retrieval-Augmented Generation", "Fine-tuning"],
        None,
    ),
    "MS-009": (
        [("search_web", "Brazil GDP population")],
        ["2.2 trillion", "212.6 million"],
        "2.2e12 / 212.6e6",
    ),
}


def test_every_multi_step_case_has_a_checked_chain(golden: Any) -> None:
    multi = {c.id for c in golden.test_cases if c.category == "multi_step"}
    assert multi == set(CHAINS)


@pytest.mark.parametrize("case_id", sorted(CHAINS))
def test_multi_step_answers_follow_from_the_corpus(
    golden: Any, tools: dict[str, BaseTool], case_id: str
) -> None:
    searches, numbers, expression = CHAINS[case_id]
    case = golden.case(case_id)
    seen = "\n".join(run(tools[tool], query=query) for tool, query in searches)
    for number in numbers:
        assert number in seen, f"{case_id}: {number!r} not in the search output"
    for tool, _ in searches:
        assert tool in case.expected_tools
    if expression is not None:
        result = safe_calculate(expression)
        first = case.expected_output_contains[0]
        alternatives = [first] if isinstance(first, str) else first
        assert any(alt in result for alt in alternatives), (case_id, result, alternatives)
        assert "calculate" in case.expected_order


@pytest.mark.parametrize(
    "case_id, tool, query, expected",
    [
        ("HP-001", "search_web", "main RAG techniques", "chunking"),
        ("HP-002", "search_papers", "LoRA fine-tuning", "10,000"),
        ("HP-005", "search_web", "Model Context Protocol MCP", "open standard"),
        ("HP-006", "search_papers", "Attention Is All You Need", "Vaswani"),
        ("AM-006", "search_web", "LangChain LlamaIndex", "LlamaIndex"),
    ],
)
def test_search_cases_are_answerable(
    golden: Any, tools: dict[str, BaseTool], case_id: str, tool: str, query: str, expected: str
) -> None:
    golden.case(case_id)
    assert expected in run(tools[tool], query=query)


@pytest.mark.parametrize(
    "case_id, expression",
    [
        ("HP-003", "25% of 1200"),
        ("HP-004", "15% of 230"),
        ("EC-007", "1,200 + 3,450"),
    ],
)
def test_calculation_cases_are_answerable(golden: Any, case_id: str, expression: str) -> None:
    first = golden.case(case_id).expected_output_contains[0]
    assert safe_calculate(expression) in ([first] if isinstance(first, str) else first)


def test_nonsense_and_error_cases_match_tool_output(golden: Any) -> None:
    assert safe_calculate("0/0").lower().removeprefix("error: ") in [
        a.lower() for a in golden.case("EC-002").expected_output_contains[0]
    ]
    assert "asdkjhasd qwpoeiru" in golden.case("EC-004").input
