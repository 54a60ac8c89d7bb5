"""The Research Agent's six tools as LangChain StructuredTools.

Outputs are kept short (the agent may run on a small local model that reads every tool result):
searches return the top 3 hits in under ~900 characters. No tool raises to the agent: bad input
and failures come back as text starting with "Error:".

The synchronous tools (searches, calculate, write_file) run in a worker thread. A thread cannot
be stopped, and one that stays inside C code holds the GIL, freezing the event loop and with it
every per-case timeout. So each does bounded work by construction, whatever the model sends:
queries are cut to MAX_QUERY_CHARS before a BM25 lookup in memory, the calculator bounds every
operand and operation (see arena.agents.research.calculator), and write_file writes at most
100 KB to a checked path (see arena.sandbox, the runner's).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage
from langchain_core.tools import BaseTool, StructuredTool
from pydantic import BaseModel, Field

from arena.agents.research.calculator import safe_calculate
from arena.agents.research.corpus import Corpus, Hit, load_corpus
from arena.sandbox import Sandbox, TaskSandbox, task_sandbox

TOOL_NAMES: tuple[str, ...] = (
    "search_web",
    "search_papers",
    "calculate",
    "extract_findings",
    "compare_sources",
    "write_file",
)
SEARCH_RESULTS = 3
SNIPPET_CHARS = 250
MAX_SEARCH_OUTPUT = 900
MAX_QUERY_CHARS = 300
MAX_MODEL_INPUT_CHARS = 3000
MAX_MODEL_OUTPUT_CHARS = 1200

NO_MODEL = "Error: no model configured"
NO_SANDBOX = "Error: no sandbox configured, so files cannot be written"


class SearchArgs(BaseModel):
    """Arguments of search_web."""

    query: str = Field(description="Keywords to search for")


class PaperSearchArgs(BaseModel):
    """Arguments of search_papers."""

    query: str = Field(description="Keywords to search for")


class CalculateArgs(BaseModel):
    """Arguments of calculate."""

    expression: str = Field(description="Arithmetic expression, e.g. '4.2e12 * 0.05'")


class ExtractArgs(BaseModel):
    """Arguments of extract_findings."""

    text: str
    focus: str = Field(default="", description="Optional topic, e.g. 'costs'")


class CompareArgs(BaseModel):
    """Arguments of compare_sources."""

    source_a: str
    source_b: str


class WriteArgs(BaseModel):
    """Arguments of write_file."""

    path: str = Field(description="Relative path, e.g. 'notes/summary.txt'")
    content: str


def build_tools(
    *,
    model: BaseChatModel | None,
    sandbox: Sandbox | TaskSandbox | None,
    corpus: Corpus | None = None,
    enabled: Sequence[str] | None = None,
) -> list[BaseTool]:
    """The Research Agent's tools, in the order of ``enabled`` (default: all of TOOL_NAMES).

    ``model`` serves extract_findings and compare_sources, ``sandbox`` write_file (or
    :data:`arena.sandbox.TASK_SANDBOX`: the running task's, see
    :func:`arena.sandbox.use_sandbox`; NO_SANDBOX when none is set), ``corpus`` the searches
    (default: load_corpus()). Unknown names in ``enabled`` raise ValueError.
    """
    names = select_tools(enabled)
    if corpus is None and any(name.startswith("search_") for name in names):
        corpus = load_corpus()
    return [_build_one(name, model=model, sandbox=sandbox, corpus=corpus) for name in names]


def select_tools(enabled: Sequence[str] | None) -> list[str]:
    """Validated, de-duplicated tool names (ValueError naming the valid ones if unknown)."""
    if enabled is None:
        return list(TOOL_NAMES)
    requested = [enabled] if isinstance(enabled, str) else list(enabled)
    unknown = [name for name in requested if name not in TOOL_NAMES]
    if unknown:
        raise ValueError(
            f"unknown tool name(s): {', '.join(map(str, unknown))}; "
            f"valid names are: {', '.join(TOOL_NAMES)}"
        )
    return list(dict.fromkeys(requested))


def _build_one(
    name: str,
    *,
    model: BaseChatModel | None,
    sandbox: Sandbox | TaskSandbox | None,
    corpus: Corpus | None,
) -> BaseTool:
    if name in ("search_web", "search_papers"):
        assert corpus is not None
        return _search_tool(corpus, "web" if name == "search_web" else "papers")
    if name == "calculate":
        return _tool(
            name,
            "Evaluate an arithmetic expression such as '4.2e12 * 0.05', "
            "'25% of 1200' or 'sqrt(2)'. Use it for any arithmetic.",
            CalculateArgs,
            _calculate,
        )
    if name == "extract_findings":
        return _model_tool(
            name,
            "Extract the key findings from a text, optionally focused on one topic.",
            ExtractArgs,
            model,
            extract_prompt,
        )
    if name == "compare_sources":
        return _model_tool(
            name,
            "Compare two source texts: where they agree and where they differ.",
            CompareArgs,
            model,
            compare_prompt,
        )
    return _tool(
        name,
        "Save text to a file in the workspace. The path must be relative, e.g. "
        "'notes/summary.txt'.",
        WriteArgs,
        _writer(sandbox),
    )


def _tool(
    name: str,
    description: str,
    schema: type[BaseModel],
    func: Callable[..., str],
    coroutine: Callable[..., Awaitable[str]] | None = None,
) -> StructuredTool:
    return StructuredTool.from_function(
        func=func,
        coroutine=coroutine,
        name=name,
        description=description,
        args_schema=schema,
        handle_validation_error=lambda exc: (
            f"Error: invalid arguments for {name}: "
            + "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())[:300]
        ),
        handle_tool_error=True,
    )


# --- search ---------------------------------------------------------------------------------


def _search_tool(corpus: Corpus, source: str) -> StructuredTool:
    def search(query: str) -> str:
        return run_search(corpus, source, query)

    if source == "web":
        description = (
            "Search the web (an offline snapshot) for facts, figures and news. "
            "Returns the top 3 results with their dates."
        )
    else:
        description = (
            "Search research papers. Returns the top 3 papers with their dates and key findings."
        )
    schema = SearchArgs if source == "web" else PaperSearchArgs
    return _tool(f"search_{source}", description, schema, search)


def run_search(corpus: Corpus, source: str, query: str) -> str:
    """The formatted top hits of ``source`` for ``query``, or an "Error:"/"No results" text."""
    query = " ".join(str(query).split())[:MAX_QUERY_CHARS]
    if not query:
        return "Error: empty query"
    try:
        hits = corpus.search(query, source, k=SEARCH_RESULTS)
    except Exception as exc:  # a tool never raises to the agent
        return f"Error: search failed ({type(exc).__name__}: {exc})"
    return format_hits(query, hits)


def format_hits(query: str, hits: Sequence[Hit]) -> str:
    """Numbered ``[source:id] Title (as of date): snippet`` lines within MAX_SEARCH_OUTPUT."""
    if not hits:
        return f"No results found for '{query[:80]}'."
    heads = [
        f"{i}. [{h.source}:{h.id}] {h.title} (as of {h.date.isoformat()}): "
        for i, h in enumerate(hits, 1)
    ]
    budget = (MAX_SEARCH_OUTPUT - sum(map(len, heads)) - len(hits) + 1) // len(hits)
    size = max(40, min(SNIPPET_CHARS, budget))
    return "\n".join(head + hit.snippet(size) for head, hit in zip(heads, hits, strict=True))


# --- calculate and write_file ----------------------------------------------------------------


def _calculate(expression: str) -> str:
    return safe_calculate(expression)


def _writer(sandbox: Sandbox | TaskSandbox | None) -> Callable[..., str]:
    def write_file(path: str, content: str) -> str:
        target = task_sandbox(sandbox)
        if target is None:
            return NO_SANDBOX
        try:
            return target.write(path, content)
        except Exception as exc:  # a tool never raises to the agent
            return f"Error: could not write the file ({type(exc).__name__})"

    return write_file


# --- model-backed tools ------------------------------------------------------------------------


def extract_prompt(text: str, focus: str = "") -> str:
    """The prompt extract_findings sends to the model."""
    about = f", focusing on {focus.strip()}" if focus.strip() else ""
    return (
        f"Extract the 3 to 5 key findings from the text below{about}. Answer with short "
        f"bullet points and use only facts stated in the text.\n\nText:\n"
        f"{_clip(text)}"
    )


def compare_prompt(source_a: str, source_b: str) -> str:
    """The prompt compare_sources sends to the model."""
    half = MAX_MODEL_INPUT_CHARS // 2
    return (
        "Compare the two sources below. List briefly where they agree and where they "
        "differ or contradict each other.\n\n"
        f"Source A:\n{_clip(source_a, half)}\n\nSource B:\n{_clip(source_b, half)}"
    )


def _model_tool(
    name: str,
    description: str,
    schema: type[BaseModel],
    model: BaseChatModel | None,
    prompt: Callable[..., str],
) -> StructuredTool:
    def run(**kwargs: str) -> str:
        problem = _check_inputs(model, kwargs)
        if problem:
            return problem
        assert model is not None
        try:
            return _reply_text(model.invoke([HumanMessage(content=prompt(**kwargs))]))
        except Exception as exc:  # a tool never raises to the agent
            return f"Error: model call failed ({type(exc).__name__}: {str(exc)[:200]})"

    async def arun(**kwargs: str) -> str:
        problem = _check_inputs(model, kwargs)
        if problem:
            return problem
        assert model is not None
        try:
            return _reply_text(await model.ainvoke([HumanMessage(content=prompt(**kwargs))]))
        except Exception as exc:  # a tool never raises to the agent
            return f"Error: model call failed ({type(exc).__name__}: {str(exc)[:200]})"

    return _tool(name, description, schema, run, arun)


def _check_inputs(model: BaseChatModel | None, kwargs: dict[str, str]) -> str | None:
    if model is None:
        return NO_MODEL
    empty = [k for k, v in kwargs.items() if k != "focus" and not str(v).strip()]
    return f"Error: empty {', '.join(empty)}" if empty else None


def _reply_text(message: Any) -> str:
    content = getattr(message, "content", message)
    if isinstance(content, list):
        content = "".join(
            part if isinstance(part, str) else str(part.get("text", ""))
            for part in content
            if isinstance(part, str | dict)
        )
    text = str(content).strip()
    if not text:
        return "Error: the model returned an empty response"
    return _clip(text, MAX_MODEL_OUTPUT_CHARS)


def _clip(text: str, limit: int = MAX_MODEL_INPUT_CHARS) -> str:
    text = str(text).strip()
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
