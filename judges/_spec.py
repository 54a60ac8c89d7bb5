"""Parse a judge given on the command line: ``SPEC[/MODE]`` or the path of a YAML file, and
check the cascade its ``selective.escalate_to`` names (:func:`check_cascade`)."""

from __future__ import annotations

from pathlib import Path

from pydantic import ValidationError

from arena.errors import InputError
from arena.inputs.files import load_yaml
from arena.models._config import ModelConfig
from arena.models.providers import PROVIDERS
from judges._types import JudgeSpec
from judges.modes import default_mode, get_mode

MAX_CASCADE = 8
"""The most judges one cascade may chain, the first included (``selective.escalate_to``)."""
ESCALATE_FIELD = "selective.escalate_to"


def parse_judge(text: str) -> JudgeSpec:
    """Parse a judge given as ``SPEC[/MODE]`` or as the path of a YAML file.

    ``local:qwen2.5-coder-1.5b`` takes the provider's default mode (checklist for local
    models, text otherwise); ``openai:gpt-4o/text`` names it.

    Args:
        text: the ``--judge`` value.

    Returns:
        The judge spec.

    Raises:
        InputError: naming the file and field (or the ``judge`` flag), including a mode the
            judge's provider cannot serve, and a cascade that cannot be judged
            (:func:`check_cascade`: a cycle, a missing judge, too long).
    """
    spec = _parse(text)
    check_cascade(spec, file=text if _is_file(text) else None)
    return spec


def _is_file(text: str) -> bool:
    return text.endswith((".yaml", ".yml")) or Path(text).is_dir()


def _parse(text: str) -> JudgeSpec:
    """One judge, its cascade unchecked."""
    spec = _from_file(text) if _is_file(text) else _from_flag(text)
    get_mode(spec.mode).check(spec)
    return spec


def _from_flag(text: str) -> JudgeSpec:
    spec, _, mode = text.partition("/")
    try:
        model = ModelConfig(spec=spec)
    except ValidationError as exc:
        raise InputError(exc.errors()[0]["msg"], field="judge") from None
    provider = PROVIDERS.lookup(model.provider)
    if not provider.is_callable:  # a person, answers read from a file
        raise InputError(provider.refusal(model), field="judge")
    mode = mode or default_mode(model.provider)
    get_mode(mode)  # InputError naming the known modes
    return JudgeSpec(model=model, mode=mode)


def _from_file(text: str) -> JudgeSpec:
    raw = load_yaml(text)  # InputError naming the file: unreadable, not UTF-8, bad YAML
    if isinstance(raw, dict):
        raw.pop("$schema", None)  # the file's JSON Schema, for editors (arena schema judge)
    try:
        return JudgeSpec.model_validate(raw)
    except ValidationError as exc:
        err = exc.errors()[0]
        raise InputError(
            err["msg"], file=text, field=".".join(str(p) for p in err["loc"]) or None
        ) from None


def _identity(text: str) -> str:
    """What tells two ``escalate_to`` entries apart: a file's resolved path, else the text."""
    return str(Path(text).resolve()) if _is_file(text) else text


def check_cascade(spec: JudgeSpec, *, file: str | None = None) -> list[JudgeSpec]:
    """Every judge ``spec``'s cascade reaches, in the order they are first reached, after
    checking the whole graph its ``selective.escalate_to`` entries make (each judge's own
    ``escalate_to`` followed too), before any model is called: every entry can be read, no
    judge escalates back to itself or to a judge before it (``A -> B -> A``, ``A -> A``,
    also the same judge under another file: its key), and no chain is longer than
    :data:`MAX_CASCADE` judges.

    Args:
        spec: the first judge.
        file: the judge file ``spec`` was read from (None: given in code or as a flag).

    Returns:
        The judges reached below ``spec`` (``spec`` itself not included).

    Raises:
        InputError: naming the file that holds the bad entry and ``selective.escalate_to``.
    """
    first = (_identity(file) if file else f"judge {spec.key}", spec.key, file or spec.label)
    reached: list[JudgeSpec] = []
    _walk(spec, file, [first], reached)
    return reached


def _walk(
    spec: JudgeSpec,
    file: str | None,
    chain: list[tuple[str, str, str]],
    reached: list[JudgeSpec],
) -> None:
    """Check the entries of ``spec`` (read from ``file``) below ``chain`` (identity, key and
    name of each judge from the first to ``spec``), depth first."""
    entries = spec.selective.escalate_to if spec.selective is not None else ()
    for entry in entries:
        names = [name for _, _, name in chain]
        if len(chain) >= MAX_CASCADE:
            raise InputError(
                f"the cascade {' -> '.join([*names, entry])} is longer than {MAX_CASCADE} "
                "judges; escalate to fewer judges",
                file=file,
                field=ESCALATE_FIELD,
            )
        try:
            found = _parse(entry)
        except InputError as exc:
            raise InputError(
                f"the judge {entry!r} it escalates to cannot be read: {exc}; fix the entry or "
                "the judge file it names",
                file=file,
                field=ESCALATE_FIELD,
            ) from None
        identity = _identity(entry)
        if any(identity == seen or found.key == key for seen, key, _ in chain):
            raise InputError(
                f"the cascade loops back: {' -> '.join([*names, entry])} (a judge escalates to "
                "itself or to a judge before it); name each judge once, in order",
                file=file,
                field=ESCALATE_FIELD,
            )
        reached.append(found)
        below = entry if _is_file(entry) else file
        _walk(found, below, [*chain, (identity, found.key, entry)], reached)
