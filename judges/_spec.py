"""Parse a judge given on the command line: ``SPEC[/MODE]`` or the path of a YAML file."""

from __future__ import annotations

from pathlib import Path

from pydantic import ValidationError

from arena.errors import InputError
from arena.inputs.files import load_yaml
from arena.models._config import ModelConfig
from arena.models.providers import PROVIDERS
from judges._types import JudgeSpec
from judges.modes import default_mode, get_mode


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
            judge's provider cannot serve.
    """
    if text.endswith((".yaml", ".yml")) or Path(text).is_dir():
        spec = _from_file(text)
    else:
        spec = _from_flag(text)
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
