"""The Research Agent's offline corpus: YAML documents ranked by a small BM25.

Documents live in ``data/corpus/*.yaml`` (shipped in the package, :func:`default_corpus_dir`),
each file a YAML list of mappings with ``id``, ``source`` (``web`` or ``papers``), ``title``,
``date`` (the "as of" date), ``text`` and the optional ``url`` and ``authors``. Ranking is
deterministic: Okapi BM25 (k1=1.5, b=0.75) over lowercase alphanumeric tokens, ties broken by
document id.
"""

from __future__ import annotations

import datetime as dt
import math
import os
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

import numpy as np
import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from arena.errors import InputError
from arena.paths import data_dir

SOURCES: tuple[str, ...] = ("web", "papers")
CORPUS_ENV = "ARENA_CORPUS_DIR"

_TOKEN = re.compile(r"[^\W_]+")
_STOPWORDS = frozenset(
    {
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "by",
        "did",
        "do",
        "does",
        "for",
        "from",
        "has",
        "have",
        "how",
        "in",
        "is",
        "it",
        "its",
        "of",
        "on",
        "or",
        "that",
        "the",
        "this",
        "to",
        "was",
        "were",
        "what",
        "when",
        "which",
        "who",
        "why",
        "with",
    }
)


class _Loader(yaml.SafeLoader):
    """Safe YAML without implicit timestamps: dates stay text so validation can name the field."""


_Loader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


class Document(BaseModel):
    """One corpus document, true "as of" its date."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9._-]*$", max_length=80)
    source: Literal["web", "papers"]
    title: str = Field(min_length=1, max_length=200)
    date: dt.date
    text: str = Field(min_length=1)
    url: str | None = None
    authors: list[str] = Field(default_factory=list)


@dataclass(frozen=True)
class Hit:
    """A ranked search result."""

    document: Document
    score: float

    @property
    def id(self) -> str:
        """The document id."""
        return self.document.id

    @property
    def source(self) -> str:
        """``web`` or ``papers``."""
        return self.document.source

    @property
    def title(self) -> str:
        """The document title."""
        return self.document.title

    @property
    def date(self) -> dt.date:
        """The date the document is true as of."""
        return self.document.date

    def snippet(self, max_chars: int = 250) -> str:
        """The document text, whitespace collapsed, cut at a word boundary to max_chars."""
        return make_snippet(self.document.text, max_chars)


def make_snippet(text: str, max_chars: int) -> str:
    """Collapse whitespace and cut ``text`` to at most ``max_chars`` characters ("…" ends a cut)."""
    flat = " ".join(text.split())
    if len(flat) <= max_chars:
        return flat
    cut = flat[: max(1, max_chars - 1)]
    if " " in cut:
        cut = cut[: cut.rindex(" ")]
    return cut.rstrip(" ,;:") + "…"


def tokenize(text: str) -> list[str]:
    """Lowercase alphanumeric tokens, stop words and single letters dropped, plurals folded."""
    tokens = []
    for token in _TOKEN.findall(text.lower()):
        if token in _STOPWORDS or (len(token) == 1 and token.isalpha()):
            continue
        if len(token) > 3 and token.endswith("s") and not token.endswith("ss"):
            token = token[:-1]
        tokens.append(token)
    return tokens


class BM25:
    """Okapi BM25 over pre-tokenised documents (idf = ln((N - n + 0.5) / (n + 0.5) + 1))."""

    def __init__(self, docs: Sequence[Sequence[str]], k1: float = 1.5, b: float = 0.75) -> None:
        self.size = len(docs)
        lengths = np.array([len(d) for d in docs], dtype=float)
        average = float(lengths.mean()) if self.size and lengths.sum() else 1.0
        self._norm = k1 * (1.0 - b + b * lengths / average)
        self._k1 = k1
        counts = [Counter(d) for d in docs]
        doc_freq = Counter(term for c in counts for term in c)
        self._idf = {
            t: math.log((self.size - n + 0.5) / (n + 0.5) + 1.0) for t, n in doc_freq.items()
        }
        self._tf = {t: np.array([c.get(t, 0) for c in counts], dtype=float) for t in doc_freq}

    def scores(self, query: Iterable[str]) -> np.ndarray:
        """One score per document; terms are counted once however often the query repeats them."""
        total = np.zeros(self.size)
        for term in sorted(set(query)):
            tf = self._tf.get(term)
            if tf is not None:
                total += self._idf[term] * tf * (self._k1 + 1.0) / (tf + self._norm)
        return total


class Corpus:
    """A set of documents searchable per source."""

    def __init__(self, documents: Iterable[Document]) -> None:
        self.documents: tuple[Document, ...] = tuple(sorted(documents, key=lambda d: d.id))
        ids = [d.id for d in self.documents]
        if len(set(ids)) != len(ids):
            dupes = sorted({i for i in ids if ids.count(i) > 1})
            raise ValueError(f"duplicate document ids: {', '.join(dupes)}")
        self._rankers: dict[str | None, tuple[tuple[Document, ...], BM25]] = {}

    def __len__(self) -> int:
        return len(self.documents)

    def get(self, doc_id: str) -> Document:
        """The document with this id (KeyError if absent)."""
        for doc in self.documents:
            if doc.id == doc_id:
                return doc
        raise KeyError(doc_id)

    def search(self, query: str, source: str | None = None, k: int = 3) -> list[Hit]:
        """The top ``k`` documents of ``source`` (None: all) with a positive BM25 score."""
        if source is not None and source not in SOURCES:
            raise ValueError(f"unknown source {source!r}; valid sources: {', '.join(SOURCES)}")
        docs, ranker = self._ranker(source)
        if k <= 0 or not docs:
            return []
        scores = ranker.scores(tokenize(query))
        order = sorted(
            (i for i in range(len(docs)) if scores[i] > 0),
            key=lambda i: (-round(float(scores[i]), 9), docs[i].id),
        )
        return [Hit(docs[i], float(scores[i])) for i in order[:k]]

    def _ranker(self, source: str | None) -> tuple[tuple[Document, ...], BM25]:
        if source not in self._rankers:
            docs = tuple(d for d in self.documents if source is None or d.source == source)
            ranker = BM25([tokenize(f"{d.title} {d.text}") for d in docs])
            self._rankers[source] = (docs, ranker)
        return self._rankers[source]


def read_corpus(path: str | Path) -> Corpus:
    """Load and validate every ``*.yaml`` file of a directory (or one YAML file), uncached.

    Raises InputError naming the file, the document id and the field for any bad document.
    """
    root = Path(path)
    if root.is_file():
        files = [root]
    elif root.is_dir():
        files = sorted([*root.glob("*.yaml"), *root.glob("*.yml")])
        if not files:
            raise InputError("no *.yaml corpus files in directory", file=str(root))
    else:
        raise InputError("no such corpus file or directory", file=str(root))
    seen: dict[str, str] = {}
    documents: list[Document] = []
    for file in files:
        for doc in _read_file(file):
            if doc.id in seen:
                raise InputError(
                    f"duplicate document id (also in {seen[doc.id]})",
                    file=str(file),
                    case=doc.id,
                    field="id",
                )
            seen[doc.id] = str(file)
            documents.append(doc)
    return Corpus(documents)


def _read_file(path: Path) -> list[Document]:
    file = str(path)
    try:
        raw = yaml.load(path.read_text(encoding="utf-8"), Loader=_Loader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        raise InputError(f"malformed YAML{where}", file=file) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read file: {exc}", file=file) from None
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise InputError("expected a YAML list of documents", file=file)
    return [_parse_document(file, index, item) for index, item in enumerate(raw)]


def _parse_document(file: str, index: int, item: Any) -> Document:
    raw_id = item.get("id") if isinstance(item, dict) else None
    label = str(raw_id) if raw_id not in (None, "") else f"#{index}"
    if not isinstance(item, dict):
        raise InputError("a document must be a mapping", file=file, case=label)
    try:
        return Document.model_validate(item)
    except ValidationError as exc:
        err = exc.errors()[0]
        field = ".".join(str(part) for part in err["loc"]) or None
        raise InputError(err["msg"], file=file, case=label, field=field) from None


def default_corpus_dir() -> Path:
    """The shipped corpus: ``corpus/`` in the data folder (:func:`arena.paths.data_dir`)."""
    return data_dir() / "corpus"


def resolve_corpus_path(path: str | Path | None = None) -> Path:
    """``path``, else ``$ARENA_CORPUS_DIR``, else the shipped corpus; absolute."""
    if path is not None:
        chosen = Path(path)
    elif os.environ.get(CORPUS_ENV):
        chosen = Path(os.environ[CORPUS_ENV])
    else:
        chosen = default_corpus_dir()
    return chosen.expanduser().resolve()


def load_corpus(path: str | Path | None = None) -> Corpus:
    """The corpus at ``path`` (see resolve_corpus_path), loaded once per path and cached."""
    return _load_cached(str(resolve_corpus_path(path)))


@lru_cache(maxsize=8)
def _load_cached(path: str) -> Corpus:
    return read_corpus(path)


def clear_corpus_cache() -> None:
    """Forget every cached corpus (after editing the YAML files in a long-lived process)."""
    _load_cached.cache_clear()
