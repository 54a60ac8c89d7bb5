"""Keep API keys out of every stored or printed error, and credentials out of stored URLs.

:func:`redact` replaces the values of the environment variables that hold keys: every
``api_key_env`` a ModelConfig named in this process, the well-known key variables, and any
variable whose name ends in ``_API_KEY``; also the credentials a ``base_url`` carried
(:func:`register_url_secrets`). A value is found whatever its case (a server may echo a key
upper-cased). Values shorter than :data:`MIN_SECRET_LEN` are left alone (they would blank out
ordinary words). Every URL in the text loses its credentials too (:func:`redact_url`).
:func:`redact_exception` does the same to an exception's message in place, so whoever formats
it later sees no key.

:func:`scrub` is what the storage boundary always applies to what it stores (results, cases,
run configs, battles, cached verdicts and replies), with or without ``--redact``: in every
string of a nested value, dict keys included, :func:`redact` and the well-known shapes of
keys and tokens (:data:`TOKEN_PATTERN`: OpenAI, Anthropic, LangSmith, GitHub, AWS, Slack,
Google, JWTs, bearer tokens) become ``[key redacted]``, and the value under a credential-named
key (``api_key``, ``password``, ``access_token``, ...) becomes :data:`REDACTED`.

:func:`redact_url` is what a URL is stored as: its userinfo (``user:key@``) and the values of
credential-like query parameters (:data:`CREDENTIAL_PARAMS`: ``api-key``, ``token``, ``sig``,
``password``, ...) become :data:`REDACTED`, which says in the stored URL that they were there.
"""

from __future__ import annotations

import contextlib
import os
import re
import threading
from typing import Any
from urllib.parse import unquote, urlsplit, urlunsplit

KNOWN_KEY_ENVS = ("OPENAI_API_KEY", "LANGSMITH_API_KEY", "LANGCHAIN_API_KEY", "ANTHROPIC_API_KEY")
MIN_SECRET_LEN = 6

#: What a credential in a stored URL is replaced by.
REDACTED = "REDACTED"
#: Query (or fragment) parameters whose values are credentials, lower-cased with ``-`` read
#: as ``_``; any name ending in one of :data:`CREDENTIAL_SUFFIXES` is one too.
CREDENTIAL_PARAMS = frozenset(
    {
        "api_key", "apikey", "key", "token", "access_token", "refresh_token", "id_token",
        "auth", "auth_token", "authorization", "bearer", "jwt", "sig", "signature",
        "password", "passwd", "pwd", "pass", "secret", "client_secret", "credential",
        "credentials", "session", "sessionid", "code",
    }
)  # fmt: skip
CREDENTIAL_SUFFIXES = ("_key", "_token", "_secret", "_password", "_signature", "_credential")

#: The well-known shapes of API keys and tokens (bounded repeats: linear time).
TOKEN_PATTERN = re.compile(
    r"(?<![A-Za-z0-9_-])(?:"
    + "|".join(
        (
            r"sk-(?:ant-|proj-)?[A-Za-z0-9_-]{16,200}",  # OpenAI, Anthropic
            r"lsv2_[a-z]{2}_[A-Za-z0-9_]{20,200}",  # LangSmith
            r"(?:ghp|gho|ghu|ghs|ghr|github_pat)_[A-Za-z0-9_]{20,255}",  # GitHub
            r"AKIA[0-9A-Z]{16}",  # AWS access key id
            r"xox[abprs]-[A-Za-z0-9-]{10,200}",  # Slack
            r"AIza[0-9A-Za-z_-]{35}",  # Google
            r"eyJ[A-Za-z0-9_-]{8,2000}\.[A-Za-z0-9_-]{8,2000}\.[A-Za-z0-9_-]{8,2000}",  # JWT
            r"(?i:bearer)\s{1,4}[A-Za-z0-9._~+/-]{16,2000}=*",
        )
    )
    + r")(?![A-Za-z0-9_])"
)
#: What a key or token found by :data:`TOKEN_PATTERN` is replaced by.
KEY_REDACTED = "[key redacted]"
#: Dict keys whose values are credentials wherever they are stored (lower-cased, ``-`` as
#: ``_``); a key ending in one of :data:`CREDENTIAL_KEY_SUFFIXES` is one too.
CREDENTIAL_KEYS = frozenset(
    {
        "api_key", "apikey", "access_token", "refresh_token", "id_token", "auth_token",
        "authorization", "bearer", "jwt", "password", "passwd", "secret", "client_secret",
        "credential", "credentials",
    }
)  # fmt: skip

#: Not ``token`` alone: a model's tokens (``{"token": "YES", "logprob": ...}``) are data.
CREDENTIAL_KEY_SUFFIXES = (
    "api_key", "apikey", "access_token", "refresh_token", "auth_token", "session_token",
    "_secret", "_password", "_credential", "_credentials", "secret_key", "access_key",
    "private_key",
)  # fmt: skip

_CONFIGURED: set[str] = set()
_URL_SECRETS: set[str] = set()
_LOCK = threading.Lock()
_URL_IN_TEXT = re.compile(r"(?i)\b[a-z][a-z0-9+.-]*://[^\s'\"<>`]+")


def register_secret_env(name: str) -> None:
    """Remember that environment variable ``name`` holds a secret (ModelConfig does this for
    every ``api_key_env``)."""
    with _LOCK:
        _CONFIGURED.add(name)


def secret_values() -> dict[str, str]:
    """Secret value -> the name of the variable holding it, for the current environment (a
    credential a ``base_url`` carried is named ``base_url credential``)."""
    with _LOCK:
        names = set(_CONFIGURED)
        in_urls = sorted(_URL_SECRETS)
    names.update(KNOWN_KEY_ENVS)
    names.update(n for n in os.environ if n.upper().endswith("_API_KEY"))
    found: dict[str, str] = {}
    for name in sorted(names):
        value = os.environ.get(name, "")
        if len(value) >= MIN_SECRET_LEN:
            found.setdefault(value, name)
    for value in in_urls:
        found.setdefault(value, "base_url credential")
    return found


def redact(text: str) -> str:
    """``text`` with every secret value, in any case, replaced by ``[NAME redacted]``, and
    every URL in it without its credentials (:func:`redact_url`)."""
    if not text:
        return text
    values = secret_values()
    if values:
        names = {value.lower(): name for value, name in values.items()}
        # Longest first, so a key that contains another key is replaced whole.
        pattern = "|".join(re.escape(v) for v in sorted(values, key=len, reverse=True))
        text = re.sub(
            pattern,
            lambda m: f"[{names.get(m.group(0).lower(), 'secret')} redacted]",
            text,
            flags=re.IGNORECASE,
        )
    if "://" in text:
        text = _URL_IN_TEXT.sub(lambda m: redact_url(m.group(0)), text)
    return text


def scrub(value: Any) -> Any:
    """``value`` (a string, or dicts and lists of them, nested) with keys, tokens and
    credentials taken out of every string, dict keys included (see the module doc); other
    values unchanged. What the storage boundary always applies."""
    return _Scrubber()(value)


class _Scrubber:
    """:func:`scrub` with the secret values of this process read once."""

    def __init__(self) -> None:
        values = secret_values()
        self._names = {value.lower(): name for value, name in values.items()}
        longest = sorted(values, key=len, reverse=True)
        self._secrets = (
            re.compile("|".join(re.escape(v) for v in longest), re.IGNORECASE) if values else None
        )

    def text(self, text: str) -> str:
        if not text:
            return text
        text = TOKEN_PATTERN.sub(KEY_REDACTED, text)
        if self._secrets is not None:
            text = self._secrets.sub(
                lambda m: f"[{self._names.get(m.group(0).lower(), 'secret')} redacted]", text
            )
        if "://" in text:
            text = _URL_IN_TEXT.sub(lambda m: redact_url(m.group(0)), text)
        return text

    def __call__(self, value: Any) -> Any:
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, dict):
            out: dict[Any, Any] = {}
            for key, item in value.items():
                name = self.text(key) if isinstance(key, str) else key
                secret = isinstance(key, str) and _credential_key(key) and item not in (None, "")
                out[unique_key(out, name)] = REDACTED if secret else self(item)
            return out
        if isinstance(value, list | tuple):
            return type(value)(self(v) for v in value)
        return value


def unique_key(taken: dict[Any, Any], key: Any) -> Any:
    """``key``, or ``key #2``, ``#3``... when redaction made it one ``taken`` has already (two
    e-mail addresses used as keys both become ``[email redacted]``: both values are kept)."""
    if key not in taken or not isinstance(key, str):
        return key
    n = 2
    while f"{key} #{n}" in taken:
        n += 1
    return f"{key} #{n}"


def _credential_key(name: str) -> bool:
    key = name.strip().lower().replace("-", "_")
    return key in CREDENTIAL_KEYS or key.endswith(CREDENTIAL_KEY_SUFFIXES)


def _is_credential(name: str) -> bool:
    key = unquote(name).strip().lower().replace("-", "_")
    return key in CREDENTIAL_PARAMS or key.endswith(CREDENTIAL_SUFFIXES)


def _pairs(text: str) -> tuple[str, list[str]]:
    """``text`` (a query or fragment) with credential values redacted, and those values."""
    found: list[str] = []
    parts = []
    for part in re.split(r"([&;])", text):
        name, eq, value = part.partition("=")
        if eq and value and value != REDACTED and _is_credential(name):
            found.append(unquote(value))
            part = f"{name}={REDACTED}"
        parts.append(part)
    return "".join(parts), found


def url_credentials(url: str) -> tuple[str, list[str]]:
    """(``url`` as it may be stored, the credentials taken out of it): the userinfo
    (``user:key@``) and credential-like query or fragment values become :data:`REDACTED`;
    a URL that cannot be parsed is replaced whole."""
    try:
        parts = urlsplit(url)  # raises on malformed brackets (an IPv6 host)
    except ValueError:
        return REDACTED, [url]
    found: list[str] = []
    netloc = parts.netloc
    if "@" in netloc:
        userinfo, _, hostport = netloc.rpartition("@")
        if userinfo != REDACTED:
            found.extend(unquote(p) for p in userinfo.split(":", 1) if p)
            netloc = f"{REDACTED}@{hostport}"
    query, in_query = _pairs(parts.query)
    fragment, in_fragment = _pairs(parts.fragment)
    found += in_query + in_fragment
    if not found:
        return url, []
    return urlunsplit(parts._replace(netloc=netloc, query=query, fragment=fragment)), found


def redact_url(url: str) -> str:
    """``url`` without its credentials (:func:`url_credentials`), the form every stored URL
    takes: ``http://u:sk-1@host/v1?api-key=k&x=1`` is stored as
    ``http://REDACTED@host/v1?api-key=REDACTED&x=1``."""
    return url_credentials(url)[0]


def register_url_secrets(url: str | None) -> None:
    """Remember the credentials ``url`` carries (at least :data:`MIN_SECRET_LEN` long), so
    :func:`redact` finds them anywhere, e.g. echoed in a server's error without the URL."""
    if not url:
        return
    values = [v for v in url_credentials(url)[1] if len(v) >= MIN_SECRET_LEN and v != REDACTED]
    if values:
        with _LOCK:
            _URL_SECRETS.update(values)


def redact_optional(text: str | None) -> str | None:
    """:func:`redact` that lets None through (for optional error fields)."""
    return None if text is None else redact(text)


def redact_exception(exc: BaseException) -> BaseException:
    """Redact secrets from ``exc``'s message (and its causes') in place; returns ``exc``."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        current.args = tuple(redact(a) if isinstance(a, str) else a for a in current.args)
        message = getattr(current, "message", None)
        if isinstance(message, str):
            with contextlib.suppress(AttributeError):
                current.message = redact(message)  # type: ignore[attr-defined]
        current = current.__cause__ or current.__context__
    return exc
