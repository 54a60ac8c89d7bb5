"""Token prices per model, from data/pricing.yaml, overridable per variant."""

from __future__ import annotations

import functools
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from arena.errors import InputError
from arena.models._config import ModelConfig
from arena.paths import data_dir


class Price(BaseModel):
    """US dollars per million input and output tokens, and per hour of serving machine."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    input: float = 0.0
    output: float = 0.0
    per_hour: float = 0.0

    def cost(self, input_tokens: int, output_tokens: int, seconds: float = 0.0) -> float:
        """Cost in dollars of this many tokens, plus ``seconds`` of machine time."""
        tokens = (input_tokens * self.input + output_tokens * self.output) / 1_000_000
        return tokens + seconds * self.per_hour / 3600


@functools.cache
def load_pricing(path: Path | None = None) -> dict[str, Price]:
    """The pricing table (spec -> Price)."""
    file = path or data_dir() / "pricing.yaml"
    if not file.exists():
        return {}
    from arena.inputs.files import load_yaml

    raw = load_yaml(file) or {}
    table: dict[str, Price] = {}
    for spec, value in raw.items():
        try:
            table[spec] = Price.model_validate(value)
        except ValidationError as exc:
            raise InputError(exc.errors()[0]["msg"], file=str(file), field=spec) from None
    return table


def price_for(config: ModelConfig) -> Price:
    """The variant's own prices if set, else the table's, else free for local/fake models."""
    table = load_pricing()
    base = table.get(config.spec, Price())
    return Price(
        input=config.price_input_per_mtok
        if config.price_input_per_mtok is not None
        else base.input,
        output=config.price_output_per_mtok
        if config.price_output_per_mtok is not None
        else base.output,
        per_hour=config.price_per_hour if config.price_per_hour is not None else base.per_hour,
    )


def model_price(model: str, provider: str | None = None) -> Price | None:
    """The table's price of a model named as a tracer names it (``gpt-4o-mini``, with its
    provider ``openai``, or a full spec ``openai:gpt-4o-mini``), or None when it is not known:
    a spec whose last part is the model, the one whose provider matches when their prices
    differ (an unknown price is unknown, never free)."""
    table = load_pricing()
    if model in table:
        return table[model]
    matches = {spec: price for spec, price in table.items() if spec.rsplit(":", 1)[-1] == model}
    if provider:
        named = provider.split(".")[0].lower()
        preferred = {s: p for s, p in matches.items() if named in s.lower().split(":")[:-1]}
        matches = preferred or matches
    prices = set(matches.values())
    return prices.pop() if len(prices) == 1 else None


def price_unknown(config: ModelConfig) -> bool:
    """True for a ``langchain:`` model priced neither by the variant nor by the table: its
    cost is not known (recorded as unknown, null, never as 0, which would read as free)."""
    if config.provider != "langchain" or config.spec in load_pricing():
        return False
    return config.price_input_per_mtok is None and config.price_output_per_mtok is None


def unknown_price_notes(configs: list[ModelConfig]) -> list[str]:
    """One line per model whose price is unknown (see :func:`price_unknown`)."""
    specs = dict.fromkeys(c.spec for c in configs if price_unknown(c))
    return [
        f"arena: note: price unknown for {spec}: its cost is recorded as unknown; set the "
        "variant's model.price_input_per_mtok and price_output_per_mtok, or add it to "
        "data/pricing.yaml"
        for spec in specs
    ]
