"""What a plan says before anything is spent: counts, tokens, cost and wall time."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Estimate(BaseModel):
    """Expected use of one unit of work (an agent task, or one judge request)."""

    model_config = ConfigDict(extra="forbid")

    calls: float
    input_tokens: float
    output_tokens: float
    latency_s: float
    cost_usd: float
    source: str
    """Where the figures come from: ``history: ...`` (stored results of the same variant
    version or model) or ``dataset`` (the prompts' sizes and the heuristics of
    :mod:`arena.plan._estimate`)."""
    user_calls: float = 0.0
    """Calls of the simulated users of conversation cases (not in ``calls``, which are the
    agent's; their cost and time are in ``cost_usd`` and ``latency_s``)."""

    @property
    def measured(self) -> bool:
        """True when the figures come from previous runs."""
        return self.source.startswith("history")


class VariantPlan(BaseModel):
    """One variant's share of ``arena run``."""

    model_config = ConfigDict(extra="forbid")

    variant: str
    model: str
    tasks: int
    stored: int
    """Tasks whose finished result the database already holds (reused, nothing sent)."""
    to_run: int
    per_task: Estimate
    calls: int
    input_tokens: int
    output_tokens: int
    cost_usd: float
    wall_s: float
    user_calls: int = 0
    """Calls the simulated users of the tasks to run would make (upper bound)."""


class ConversationPlan(BaseModel):
    """The conversation cases of a run: the turns one repeat of one variant plays at most."""

    model_config = ConfigDict(extra="forbid")

    cases: int
    of: int
    """The run's cases, conversations or not."""
    simulated: int
    """Of the conversation cases, those with a simulated user."""
    agent_turns: int
    """Agent invocations, one per user turn (``max_turns``, or 1 + the scripted turns)."""
    user_turns: int
    """Simulated-user calls, one per user turn after the first."""


class JudgePlan(BaseModel):
    """``arena judge`` of the run: pairs, requests, what the verdict cache holds."""

    model_config = ConfigDict(extra="forbid")

    judge: str
    judge_key: str
    pairs: int
    """Pairs the judge will see (both answers present and without error)."""
    skipped: int
    """Pairs the judge skips because an answer crashed (the crash rule decides them) or
    because two answers that say the same were made differently and only one passes its
    golden checks (those decide them)."""
    simulator_errors: int = 0
    """Pairs not judged at all because either side's simulated user failed."""
    unanswered: int = 0
    """Pairs of a stored run that ``arena judge`` skips because an answer is missing (a
    stopped run: resume it first); a plan of ``arena run`` estimates them instead."""
    ties: int
    """Pairs with identical answers made the same way: a tie without asking the judge."""
    estimated_pairs: int
    """Pairs whose answers do not exist yet (their requests are estimated, not rendered)."""
    calls: int
    """Judge requests the pass needs (both orders), cached or not."""
    cached: int
    """Of those, requests whose verdict the cache already holds, or whose model reply the
    response cache holds (the same prompt answered before): nothing is sent for them."""
    to_send: int
    per_call: Estimate
    input_tokens: int
    output_tokens: int
    cost_usd: float
    wall_s: float


class Plan(BaseModel):
    """What ``arena run`` (and optionally ``arena judge``) would do, before it does it."""

    model_config = ConfigDict(extra="forbid")

    run_id: int | None
    """The stored run this command resumes (None: a new run)."""
    concurrency: int
    tasks: int
    stored: int
    to_run: int
    variants: list[VariantPlan]
    judge: JudgePlan | None = None
    conversations: ConversationPlan | None = None
    cost_usd: float
    wall_s: float
