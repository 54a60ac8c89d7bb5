"""One registry for every extension kind: providers, judge modes, rating methods, golden checks,
agent architectures and report formats.

Each kind is a :class:`Registry`, a mapping from a name to what is registered under it. An
entry is either an object or a lazy import path ``package.module:attr`` (the built-ins are
paths, so reading a registry imports nothing heavy). Three ways in, one module each:

- a decorator in your module (``@model_provider("mine")``, ``@judge_mode("mine")``, ...),
- an entry point in your package's ``pyproject.toml`` (group ``agent_arena.<kind>``, e.g.
  ``[project.entry-points."agent_arena.providers"] mine = "my_pkg.provider:MyProvider"``),
  discovered on a lookup miss in every process (Ray workers included),
- ``REGISTRY[name] = obj_or_path`` at run time (this process only).

Every entry has a one-line summary (given, else the first docstring line of the object),
shown by the CLI help.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Callable, Iterator, MutableMapping
from dataclasses import dataclass
from typing import Any, TypeVar

ENTRY_POINT_PREFIX = "agent_arena."

T = TypeVar("T")


@dataclass(frozen=True)
class Builtin:
    """A built-in entry: where it lives and what it does in one line."""

    path: str
    summary: str


def _load(path: str) -> Any:
    module, sep, attr = path.partition(":")
    if not sep or not module or not attr:
        raise ValueError(f"an import path is 'package.module:attr', got {path!r}")
    obj: Any = importlib.import_module(module)
    for part in attr.split("."):
        obj = getattr(obj, part)
    return obj


def summary_of(obj: Any) -> str:
    """An object's one-line summary: its ``summary`` attribute, else its docstring's first line."""
    text = getattr(obj, "summary", None)
    if not isinstance(text, str) or not text:
        text = (getattr(obj, "__doc__", None) or "").strip()
    return text.splitlines()[0].strip() if text else ""


class UnknownName(LookupError):
    """No entry of this kind under the name (after looking at the entry points)."""

    def __init__(self, kind: str, name: str, known: tuple[str, ...]) -> None:
        self.kind, self.name, self.known = kind, name, known
        super().__init__(f"unknown {kind} {name!r}; known: {', '.join(known)}")


class Registry(MutableMapping[str, Any]):
    """The entries of one extension kind, by name, in registration order.

    ``kind`` names it in messages (``model provider``); ``group`` is its entry-point group.
    ``adapt(name, obj)`` turns what an import path or entry point loads into the stored
    object (e.g. a class into an instance); it defaults to the object itself.
    """

    def __init__(
        self,
        kind: str,
        group: str,
        builtins: dict[str, Builtin],
        adapt: Callable[[str, Any], Any] | None = None,
    ) -> None:
        self.kind, self.group = kind, group
        self._entries: dict[str, Any] = {name: b.path for name, b in builtins.items()}
        self._summaries: dict[str, str] = {name: b.summary for name, b in builtins.items()}
        self._adapt = adapt or (lambda _name, obj: obj)
        self._lock = threading.RLock()
        self._scanned = False

    # MutableMapping: the raw entries (objects or import paths).
    def __getitem__(self, name: str) -> Any:
        return self._entries[name]

    def __setitem__(self, name: str, entry: Any) -> None:
        if not isinstance(name, str) or not name or ":" in name:
            raise ValueError(f"bad {self.kind} name {name!r}")
        with self._lock:
            self._entries[name] = entry

    def __delitem__(self, name: str) -> None:
        with self._lock:
            del self._entries[name]
            self._summaries.pop(name, None)

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._entries))

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, name: object) -> bool:
        """Registered (the entry points are read again on a miss)."""
        if name in self._entries:
            return True
        self.discover()
        return name in self._entries

    def register(self, name: str, entry: Any, summary: str | None = None) -> None:
        """Add (or replace) ``name``: an object or an import path ``package.module:attr``."""
        self[name] = entry
        if summary is not None:
            self._summaries[name] = summary
        elif not isinstance(entry, str):
            self._summaries.pop(name, None)

    def decorator(self, name: str, summary: str | None = None) -> Callable[[T], T]:
        """A decorator registering the decorated object under ``name``; returns it unchanged."""

        def register(obj: T) -> T:
            self.register(name, self._adapt(name, obj), summary)
            return obj

        return register

    def discover(self) -> None:
        """Add the entry points of :attr:`group` not registered yet (as lazy entries).

        Read once per process, and again on every lookup miss (a package installed since)."""
        from importlib.metadata import entry_points  # costs an import: only when needed

        self._scanned = True
        for point in entry_points(group=self.group):
            with self._lock:
                if point.name not in self._entries:
                    self._entries[point.name] = point.value

    def names(self) -> tuple[str, ...]:
        """Every registered name, entry points included, in registration order."""
        if not self._scanned:
            self.discover()
        return tuple(self._entries)

    def get(self, name: str, default: Any = None) -> Any:
        """The object under ``name`` (loaded on first use), or ``default``."""
        try:
            return self.lookup(name)
        except UnknownName:
            return default

    def lookup(self, name: str) -> Any:
        """The object under ``name``, loaded on first use; on a miss the entry points are
        read again. :class:`UnknownName` when there is none."""
        with self._lock:
            entry = self._entries.get(name)
        if entry is None:
            self.discover()
            with self._lock:
                entry = self._entries.get(name)
        if entry is None:
            raise UnknownName(self.kind, name, tuple(self._entries))
        if not isinstance(entry, str):
            return entry
        loaded = _load(entry)
        with self._lock:
            current = self._entries.get(name)
            if isinstance(current, str):  # importing it did not register it by decorator
                current = self._adapt(name, loaded)
                self._entries[name] = current
            return current

    def summaries(self) -> dict[str, str]:
        """Name -> one-line summary of every entry (loads the entries that give none)."""
        out: dict[str, str] = {}
        for name in self.names():
            text = self._summaries.get(name)
            if text is None:
                try:
                    obj = self.lookup(name)  # a decorator may give the summary on import
                    text = self._summaries.get(name) or summary_of(obj)
                except Exception as exc:  # a broken plugin shows up broken, not as a crash
                    text = f"(cannot load: {type(exc).__name__}: {exc})"
            out[name] = text
        return out

    def help_lines(self) -> str:
        """``name: summary`` per entry, comma-separated (for argparse help)."""
        return "; ".join(f"{name}: {text}" for name, text in self.summaries().items())


def _group(kind: str) -> str:
    return ENTRY_POINT_PREFIX + kind


def _instance(_name: str, obj: Any) -> Any:
    return obj() if isinstance(obj, type) else obj


@dataclass(frozen=True)
class RatingMethod:
    """A named rating method: ``rate(battles, options) -> RatingFit``.

    ``uses_style``: the method reads ``options.style`` (and needs those covariates in the
    battles); ``intervals``: it reports 95% intervals (otherwise ranks follow the ratings).
    """

    name: str
    summary: str
    rate: Callable[[Any, Any], Any]
    uses_style: bool = False
    intervals: bool = True


def _rating_method(name: str, obj: Any) -> Any:
    if isinstance(obj, RatingMethod):
        return obj
    return RatingMethod(name, summary_of(obj), obj)


PROVIDERS = Registry(
    "model provider",
    _group("providers"),
    {
        "local": Builtin(
            "arena.models.providers.local:LocalProvider", "the embedded llama.cpp server"
        ),
        "openai": Builtin(
            "arena.models.providers.openai:OpenAIProvider", "any OpenAI-compatible endpoint"
        ),
        "fake": Builtin("arena.models.providers.fake:FakeProvider", "a scripted model (tests)"),
        "human": Builtin("judges.human:HumanProvider", "people voting in the app, never called"),
        "answers": Builtin(
            "arena.outputs.provider:AnswersProvider",
            "answers read from files (arena judge --outputs), never called",
        ),
    },
    _instance,
)
"""Model providers by the name a model spec starts with (``local:``, ``openai:``, ...)."""

JUDGE_MODES = Registry(
    "judge mode",
    _group("judge_modes"),
    {
        "text": Builtin(
            "judges.modes.text:TextMode",
            "a written [[A>B]]-style verdict; a winner only when both orders agree",
        ),
        "logprobs": Builtin(
            "judges.modes.logprobs:LogprobsMode",
            "P(A) vs P(B) of one token, averaged over both orders (or in log-odds)",
        ),
        "grades": Builtin(
            "judges.modes.grades:GradesMode",
            "each answer graded alone (P(YES) of one token), compared by log-odds",
        ),
        "checklist": Builtin(
            "judges.modes.checklist:ChecklistMode",
            "each answer alone, one YES/NO logprob question per golden checklist item",
        ),
    },
)
"""Judge modes (classes; :func:`judges.modes.get_mode` makes a fresh instance)."""

RATING_METHODS = Registry(
    "rating method",
    _group("rating_methods"),
    {
        "bt": Builtin(
            "arena.ratings.methods:BT", "Bradley-Terry MLE, 95% query-bootstrap intervals"
        ),
        "style-bt": Builtin(
            "arena.ratings.methods:STYLE_BT",
            "Bradley-Terry with style covariates (length, markdown, seat), bootstrap intervals",
        ),
        "elo": Builtin(
            "arena.ratings.methods:ELO", "online Elo in battle order (K=4), no intervals"
        ),
        "elo-median": Builtin(
            "arena.ratings.methods:ELO_MEDIAN",
            "order-independent Elo: median over elo_rounds seeded shuffles, no intervals",
        ),
    },
    _rating_method,
)
"""Rating methods (:class:`arena.ratings.RatingMethod`; a bare function is wrapped)."""

_CHECKS = "arena.scoring.checks"
GOLDEN_CHECKS = Registry(
    "golden check",
    _group("golden_checks"),
    {
        "trajectory": Builtin(
            f"{_CHECKS}.trajectory:CHECK", "tool selection, order, arguments and forbidden tools"
        ),
        "contains": Builtin(f"{_CHECKS}.contains:CHECK", "the output contains each item"),
        "not_contains": Builtin(
            f"{_CHECKS}.not_contains:CHECK", "the output contains none of the strings (hard fail)"
        ),
        "regex": Builtin(f"{_CHECKS}.regex:CHECK", "the output matches a regular expression"),
        "exact": Builtin(f"{_CHECKS}.exact:CHECK", "the output equals a string"),
        "behavior": Builtin(f"{_CHECKS}.behavior:CHECK", "an expected behaviour, graded"),
        "functional": Builtin(
            f"{_CHECKS}.functional:CHECK", "files a side-effect tool must leave in the sandbox"
        ),
        "rubric": Builtin(f"{_CHECKS}.rubric:CHECK", "a free-text rubric graded by an LLM"),
    },
    _instance,
)
"""Golden checks (:class:`arena.scoring.checks.GoldenCheck` instances), in scoring order."""

AGENTS = Registry(
    "agent architecture",
    _group("agents"),
    {
        "react": Builtin(
            "arena.agents.builder:build_react", "one ReAct loop over the research tools"
        ),
        "supervisor": Builtin(
            "arena.agents.builder:build_supervisor",
            "a supervisor routing to researcher, analyst and writer",
        ),
    },
)
"""Agent architectures: factories ``(AgentContext) -> runnable``, named by a variant's agent."""

REPORT_FORMATS = Registry(
    "report format",
    _group("report_formats"),
    {
        "table": Builtin("arena.reports.score_formats:table", "plain-text tables (default)"),
        "json": Builtin("arena.reports.score_formats:as_json", "one JSON document"),
        "markdown": Builtin("arena.reports.score_formats:markdown", "Markdown tables"),
    },
)
"""Formats of ``arena score --format``: functions ``(ScoreReport) -> str``."""

REGISTRIES: dict[str, Registry] = {
    "providers": PROVIDERS,
    "judge_modes": JUDGE_MODES,
    "rating_methods": RATING_METHODS,
    "golden_checks": GOLDEN_CHECKS,
    "agents": AGENTS,
    "report_formats": REPORT_FORMATS,
}
"""Every extension kind by its entry-point group suffix (``agent_arena.<key>``)."""


def model_provider(name: str, summary: str | None = None) -> Callable[[T], T]:
    """Register a :class:`~arena.models.Provider` subclass (or instance) as ``name:`` specs."""
    return PROVIDERS.decorator(name, summary)


def judge_mode(name: str, summary: str | None = None) -> Callable[[T], T]:
    """Register a :class:`~judges.modes.JudgeMode` subclass as ``--judge-mode name``."""
    return JUDGE_MODES.decorator(name, summary)


def rating_method(
    name: str, summary: str | None = None, *, uses_style: bool = False, intervals: bool = True
) -> Callable[[T], T]:
    """Register a function ``rate(battles, options) -> RatingFit`` as ``--method name``."""

    def register(fn: T) -> T:
        text = summary if summary is not None else summary_of(fn)
        rate: Callable[[Any, Any], Any] = fn  # type: ignore[assignment]
        method = RatingMethod(name, text, rate, uses_style=uses_style, intervals=intervals)
        RATING_METHODS.register(name, method, text)
        return fn

    return register


def golden_check(name: str, summary: str | None = None) -> Callable[[T], T]:
    """Register a :class:`~arena.scoring.checks.GoldenCheck` subclass (or instance)."""
    return GOLDEN_CHECKS.decorator(name, summary)


def agent_architecture(name: str, summary: str | None = None) -> Callable[[T], T]:
    """Register a factory ``(AgentContext) -> runnable`` as the variant agent ``name``."""
    return AGENTS.decorator(name, summary)


def report_format(name: str, summary: str | None = None) -> Callable[[T], T]:
    """Register a function ``(ScoreReport) -> str`` as ``arena score --format name``."""
    return REPORT_FORMATS.decorator(name, summary)
