"""Flags shared by ``arena gate`` and ``arena check``: rules, absolute and cost limits, and
(for the gate) what to run. Each overrides its ``arena.yaml`` key; a bad value names the flag.
"""

from __future__ import annotations

import argparse
from typing import Any

from arena.cli.common import add_case_flags, add_margin
from arena.cli.plan import add_user_model_flag

# flag dest -> (section, key) in arena.yaml; None section = top level
_FIELDS: dict[str, tuple[str | None, str]] = {
    "max_drop": ("rules", "max_drop"),
    "case_drop": ("rules", "case_drop"),
    "alpha": ("rules", "alpha"),
    "flaky_blocks": ("rules", "flaky_blocks"),
    "block": ("rules", "block"),
    "min_pass_rate": ("absolute", "min_pass_rate"),
    "min_critical_pass_rate": ("absolute", "min_critical_pass_rate"),
    "min_tier_pass_rate": ("absolute", "min_tier_pass_rate"),
    "min_category_pass_rate": ("absolute", "min_category_pass_rate"),
    "max_cost_per_query": ("budget", "max_cost_per_query"),
    "max_tokens_per_query": ("budget", "max_tokens_per_query"),
    "max_p90_latency": ("budget", "max_p90_latency_s"),
    "max_cost_increase": ("budget", "max_cost_increase"),
    "max_tokens_increase": ("budget", "max_tokens_increase"),
    "max_latency_increase": ("budget", "max_latency_increase"),
    "tier": ("run", "tier"),
    "cases": ("run", "cases"),
    "repeats": ("run", "repeats"),
    "concurrency": ("run", "concurrency"),
    "timeout": ("run", "timeout_s"),
    "user_model": ("run", "user_model"),
    "dataset": ("run", "dataset"),
    "variants_dir": ("run", "variants_dir"),
    "judge": ("compare", "judge"),
    "margin": ("compare", "margin"),
    "fail_on": ("compare", "fail_on"),
    "sequential": ("compare", "sequential"),
    "batch": ("compare", "batch"),
    "strict_critical": ("compare", "strict_critical"),
    "sequential_seed": ("compare", "sequential_seed"),
    "boundary": ("compare", "boundary"),
    "grader": (None, "grader"),
}


def add_limit_flags(p: argparse.ArgumentParser) -> None:
    """--config, rule flags, absolute limits and cost limits."""
    p.add_argument(
        "--config", default=None, metavar="arena.yaml", help="gate settings (flags override them)"
    )
    rules = p.add_argument_group("regression rules (case by case)")
    rules.add_argument(
        "--max-drop",
        type=float,
        default=None,
        help="largest tolerated suite-score drop (default 0.05)",
    )
    rules.add_argument(
        "--case-drop",
        type=float,
        default=None,
        help="per-case mean-score drop that fires case_score_drop (default 0.1)",
    )
    rules.add_argument(
        "--alpha",
        type=float,
        default=None,
        help="significance level of drops (default 0.05: 95%% intervals)",
    )
    rules.add_argument(
        "--block",
        default=None,
        metavar="RULE,...",
        help="rules that fail the gate (default: suite_drop, critical_broken, "
        "critical_missing, happy_path_fail, category_broken, critical_failing); others warn",
    )
    rules.add_argument(
        "--flaky-blocks",
        action="store_true",
        default=None,
        help="cases flaky in the baseline block too",
    )
    absolute = p.add_argument_group("absolute limits (no baseline needed)")
    absolute.add_argument(
        "--min-pass-rate",
        type=float,
        default=None,
        help="the lowest pass rate over every counted case (0-1)",
    )
    absolute.add_argument(
        "--min-critical-pass-rate",
        type=float,
        default=None,
        help="the lowest pass rate over the critical cases (0-1)",
    )
    absolute.add_argument(
        "--min-tier-pass-rate",
        action="append",
        default=None,
        metavar="TIER=RATE",
        help="a tier's lowest pass rate, e.g. critical=0.75 (repeatable)",
    )
    absolute.add_argument(
        "--min-category-pass-rate",
        action="append",
        default=None,
        metavar="CATEGORY=RATE",
        help="a category's lowest pass rate, e.g. happy_path=1.0 (repeatable)",
    )
    add_cost_limit_flags(p)


def add_cost_limit_flags(p: argparse.ArgumentParser) -> None:
    """Cost limits (``budget:`` in arena.yaml): cost, tokens and p90 latency per query, and
    their increases over the baseline."""
    budget = p.add_argument_group("cost limits (arena.yaml budget:)")
    budget.add_argument(
        "--max-cost-per-query",
        type=float,
        default=None,
        metavar="USD",
        help="the most cost per query, in US dollars",
    )
    budget.add_argument(
        "--max-tokens-per-query",
        type=float,
        default=None,
        help="the most tokens per query (mean over cases)",
    )
    budget.add_argument(
        "--max-p90-latency",
        type=float,
        default=None,
        metavar="SECONDS",
        help="the longest p90 latency",
    )
    budget.add_argument(
        "--max-cost-increase",
        type=float,
        default=None,
        metavar="FRACTION",
        help="vs the baseline, e.g. 0.2 = at most +20%%",
    )
    budget.add_argument(
        "--max-tokens-increase",
        type=float,
        default=None,
        metavar="FRACTION",
        help="tokens per query vs the baseline, e.g. 0.5 = at most +50%%",
    )
    budget.add_argument(
        "--max-latency-increase",
        type=float,
        default=None,
        metavar="FRACTION",
        help="p90 latency vs the baseline, e.g. 0.5 = at most +50%%",
    )


def add_gate_run_flags(p: argparse.ArgumentParser) -> None:
    """What ``arena gate`` runs and how it judges (None defaults: arena.yaml decides)."""
    run = p.add_argument_group("what to run (default: arena.yaml, else the critical tier)")
    add_case_flags(run, dataset=None, tier=None, repeats=None, concurrency=None, variants_dir=True)
    run.add_argument("--timeout", type=float, default=None, help="per-case timeout in seconds")
    add_user_model_flag(run)
    run.add_argument(
        "--grader",
        default=None,
        metavar="JUDGE",
        help="behaviour grader spec (default: keyword rules)",
    )
    run.add_argument(
        "--judge",
        default=None,
        help="pairwise judge spec or file, or none (default: the local model)",
    )
    add_margin(run, None)
    run.add_argument(
        "--fail-on",
        default=None,
        metavar="VERDICT,...",
        help="compare verdicts that fail the gate (default: worse)",
    )


def _pairs(values: list[str], flag: str) -> dict[str, float]:
    from arena.errors import InputError

    out = {}
    for value in values:
        key, sep, rate = value.partition("=")
        try:
            out[key.strip()] = float(rate)
        except ValueError:
            sep = ""
        if not sep:
            raise InputError(f"expected NAME=RATE, got {value!r}", field=flag)
    return out


def _overrides(args: argparse.Namespace) -> dict[str, Any]:
    found = {}
    for dest in _FIELDS:
        value = getattr(args, dest, None)
        if value is None:
            continue
        flag = "--" + dest.replace("_", "-")
        if dest in ("block", "cases", "fail_on"):
            value = [v.strip() for v in value.split(",") if v.strip()]
        elif dest in ("min_tier_pass_rate", "min_category_pass_rate"):
            value = _pairs(value, flag)
        found[dest] = value
    return found


def gate_config(args: argparse.Namespace, *, default_file: bool = False) -> Any:
    """The ``arena.yaml`` (``--config``; when ``default_file``, the nearest one up from the
    working directory) with the flags applied; InputError names the file or the flag of a bad
    value."""
    from pydantic import ValidationError

    from arena.errors import InputError
    from arena.project._config import GateConfig, find_config, load_config

    path = args.config or (find_config() if default_file else None)
    config = load_config(path) if path else GateConfig()
    overrides = _overrides(args)
    if not overrides:
        return config
    raw = config.model_dump(exclude_unset=True)  # what the file set stays "set" (fields_set)
    for dest, value in overrides.items():
        section, key = _FIELDS[dest]
        (raw if section is None else raw.setdefault(section, {}))[key] = value
    flags = {".".join(_path(dest)): "--" + dest.replace("_", "-") for dest in overrides}
    try:
        merged = GateConfig.model_validate({**raw, "base_dir": config.base_dir})
        return merged.with_origins(config.source_file, flags)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = tuple(str(p) for p in err["loc"])
        flag = next(
            (
                "--" + dest.replace("_", "-")
                for dest in overrides
                if loc[: len(_path(dest))] == _path(dest)
            ),
            ".".join(loc),
        )
        raise InputError(err["msg"], field=flag) from None


def _path(dest: str) -> tuple[str, ...]:
    section, key = _FIELDS[dest]
    return (key,) if section is None else (section, key)


def cost_limits_from_flags(args: argparse.Namespace) -> Any:
    """The cost-limit flags as :class:`arena.gate.CostLimits`, or None when none is given."""
    from pydantic import ValidationError

    from arena.errors import InputError
    from arena.gate._limits import CostLimits

    given = {
        dest: getattr(args, dest)
        for dest, (section, _) in _FIELDS.items()
        if section == "budget" and getattr(args, dest, None) is not None
    }
    if not given:
        return None
    try:
        return CostLimits.model_validate({_FIELDS[d][1]: v for d, v in given.items()})
    except ValidationError as exc:
        key = str(exc.errors()[0]["loc"][0])
        dest = next(d for d in given if _FIELDS[d][1] == key)
        raise InputError(exc.errors()[0]["msg"], field="--" + dest.replace("_", "-")) from None
