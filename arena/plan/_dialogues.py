"""What a conversation case costs, for the plan: agent invocations per user turn, and the
simulated user's own calls.

A conversation case invokes the agent once per user turn, at most ``max_turns`` (a simulated
user's limit, or 1 + the scripted turns): each invocation is at least one model call, plus
one per tool call. A simulated user makes one call per user turn after the first (the first
is the case's input), on the model that plays it (:func:`arena.runner._user_model.
user_model_config`), at that model's price and speed. Turn counts are upper bounds: a dialogue
may end sooner.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from arena.plan._estimate import OUTPUT_TOKENS, TURN_TOKENS, agent_turns, cost, tokens
from arena.plan._models import ConversationPlan, Estimate
from arena.plan._speed import default_speed
from arena.runner._user_model import user_model_config

if TYPE_CHECKING:
    from arena.golden import GoldenCase
    from arena.models import ModelConfig

USER_PROMPT_TOKENS = 250
"""Tokens of the simulated user's instructions, before its persona, goal and facts."""


def user_turns(case: GoldenCase) -> int:
    """The simulated user's calls in one task: one per user turn after the first (0 for a
    script or one message)."""
    conversation = case.conversation
    if conversation is None or conversation.user is None:
        return 0
    return conversation.max_turns - 1


def _user_prompt(case: GoldenCase) -> int:
    user = case.conversation.user if case.conversation is not None else None
    if user is None:
        return 0
    said = [user.persona, user.goal, user.stop_when or "", *user.facts.values(), case.input]
    return USER_PROMPT_TOKENS + sum(tokens(text) for text in said)


def user_estimate(cases: list[GoldenCase], user_model: ModelConfig | None) -> Estimate:
    """The simulated users' mean use per task over ``cases`` (their calls, tokens, cost and
    time at the user model's price and assumed speed); all zero without simulated users."""
    calls = tokens_in = tokens_out = latency = price = 0.0
    for case in cases:
        n = user_turns(case)
        config = user_model_config(case, user_model)
        if not n or config is None:
            continue
        sent = n * _user_prompt(case) + 2 * TURN_TOKENS * n * (n + 1) / 2  # the dialogue so far
        out = n * min(OUTPUT_TOKENS, config.max_tokens)
        seconds = default_speed(config).seconds(n, sent, out)
        calls, tokens_in, tokens_out = calls + n, tokens_in + sent, tokens_out + out
        latency += seconds
        price += cost(config, sent, out, seconds)
    k = max(1, len(cases))
    return Estimate(
        calls=calls / k,
        input_tokens=tokens_in / k,
        output_tokens=tokens_out / k,
        latency_s=latency / k,
        cost_usd=price / k,
        source="dataset",
    )


def conversation_plan(cases: list[GoldenCase]) -> ConversationPlan | None:
    """The conversation cases among ``cases`` and their turns per task (None: there are
    none)."""
    dialogues = [c for c in cases if c.is_conversation]
    if not dialogues:
        return None
    return ConversationPlan(
        cases=len(dialogues),
        of=len(cases),
        simulated=sum(1 for c in dialogues if user_turns(c)),
        agent_turns=sum(agent_turns(c) for c in dialogues),
        user_turns=sum(user_turns(c) for c in dialogues),
    )


def with_users(task: Estimate, users: Estimate) -> Estimate:
    """An agent task's estimate with its simulated users' calls, cost and time added."""
    if not users.calls:
        return task
    return task.model_copy(
        update={
            "user_calls": users.calls,
            "cost_usd": task.cost_usd + users.cost_usd,
            "latency_s": task.latency_s + users.latency_s,
        }
    )
