"""Parse a judge given on the command line: ``SPEC[/text|/logprobs|/grades]`` or YAML."""

from __future__ import annotations

from pathlib import Path

import yaml
from pydantic import ValidationError

from arena.errors import InputError
from arena.models.config import ModelConfig
from judges.records import JudgeSpec


def parse_judge(text: str) -> JudgeSpec:
    """``local:qwen2.5-coder-1.5b`` (logprobs mode for local models, text otherwise),
    ``openai:gpt-4o/text``, or the path of a YAML file holding a JudgeSpec."""
    path = Path(text)
    if text.endswith((".yaml", ".yml")):
        try:
            raw = yaml.safe_load(path.read_text(encoding="utf-8"))
            return JudgeSpec.model_validate(raw)
        except FileNotFoundError:
            raise InputError("no such file", file=text) from None
        except ValidationError as exc:
            err = exc.errors()[0]
            raise InputError(err["msg"], file=text,
                             field=".".join(str(p) for p in err["loc"])) from None
    spec, _, mode = text.partition("/")
    try:
        model = ModelConfig(spec=spec)
    except ValidationError as exc:
        raise InputError(exc.errors()[0]["msg"], field="judge") from None
    if not mode:
        mode = "logprobs" if model.provider == "local" else "text"
    if mode not in ("text", "logprobs", "grades"):
        raise InputError(f"judge mode must be text, logprobs or grades, got {mode!r}",
                         field="judge")
    return JudgeSpec(model=model, mode=mode)
