"""``parrot-agent``: no tools, one model call, the reply is the answer."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.runnables import Runnable, RunnableLambda

from arena.extend import AgentContext, agent_architecture


@agent_architecture("parrot-agent", "one model call, no tools (a plugin's agent)")
def parrot_agent(ctx: AgentContext) -> Runnable[Any, Any]:
    """one model call, no tools"""

    async def answer(state: dict[str, list[BaseMessage]]) -> dict[str, list[BaseMessage]]:
        reply = await ctx.model.ainvoke(state["messages"])
        return {"messages": [*state["messages"], AIMessage(content=str(reply.content))]}

    return RunnableLambda(answer)
