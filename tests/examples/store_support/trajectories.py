"""Scripted trajectories of the store-support agent: for each kind, what the scripted model
does on the cases it concerns (the tool calls it makes, in order, and its replies). A kind
plays gold on the cases it does not name. ``REFERENCE_PASSES`` is what the reference reward
says of each pair, written down by hand (the agreement test also computes it)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage

Step = dict[str, Any] | str | AIMessage

AVA, BEN = "ava@example.com", "ben@example.com"
ELM = {"address1": "12 Elm St", "city": "Chicago", "zip": "60621"}
LAKE = {"address1": "5 Lake Rd", "city": "Evanston", "zip": "60201"}


def call(tool: str, **args: Any) -> dict[str, Any]:
    """A scripted tool call."""
    return {"tool": tool, "args": args}


def say_then_call(text: str, tool: str, **args: Any) -> AIMessage:
    """A reply with text that also calls a tool (an intermediate reply)."""
    tool_call = {"name": tool, "args": args, "id": f"call_{tool}_said", "type": "tool_call"}
    return AIMessage(content=text, tool_calls=[tool_call])


def find(email: str) -> dict[str, Any]:
    return call("find_user", email=email)


def cancel(order_id: str, reason: str) -> dict[str, Any]:
    return call("cancel_order", order_id=order_id, reason=reason)


def address(order_id: str, where: dict[str, str]) -> dict[str, Any]:
    return call("change_address", order_id=order_id, **where)


DONE_1 = "Your order #W101 has been cancelled."
DONE_2 = "Order #W201 will now ship to 12 Elm St, Chicago 60621."
DONE_3 = "Orders #W101 and #W104 are cancelled."
DONE_4 = "The return of the cap and the socks from #W103 is requested."
DONE_5 = (
    "The exchange on #W202 is requested: the large tee costs the same, so there is no price "
    "difference. A prepaid return label comes by email."
)
DONE_6 = "Order #W2010 ships to 12 Elm St and now holds the toaster-xl."
DONE_7 = "#W104 is cancelled and #W101 ships to 5 Lake Rd, Evanston."
RETURN = call("return_items", order_id="#W103", item_ids=["cap", "socks"])
EXCHANGE = call("exchange_items", order_id="#W202", item_ids=["tee-m"], new_item_ids=["tee-l"])
SWAP = call("modify_items", order_id="#W2010", item_ids=["toaster"], new_item_ids=["toaster-xl"])

GOLD: dict[str, list[Step]] = {
    "ST-1": [find(AVA), cancel("#W101", "ordered by mistake"), DONE_1],
    "ST-2": [find(BEN), address("#W201", ELM), DONE_2],
    "ST-3": [
        find(AVA),
        cancel("#W101", "no longer needed"),
        cancel("#W104", "no longer needed"),
        DONE_3,
    ],
    "ST-4": [find(AVA), RETURN, DONE_4],
    "ST-5": [find(BEN), EXCHANGE, DONE_5],
    "ST-6": [find(BEN), address("#W2010", ELM), SWAP, DONE_6],
    "ST-7": [find(AVA), cancel("#W104", "no longer needed"), address("#W101", LAKE), DONE_7],
}

TRAJECTORIES: dict[str, dict[str, list[Step]]] = {
    "gold": GOLD,
    # the right cancel and the customer's other pending order (the $3,541 lamp) too
    "extra_write_same_tool": {
        "ST-1": [
            find(AVA),
            cancel("#W101", "ordered by mistake"),
            cancel("#W102", "ordered by mistake"),
            DONE_1,
        ]
    },
    "extra_write_other_tool": {
        "ST-2": [find(BEN), address("#W201", ELM), address("#W2010", ELM), DONE_2],
        "ST-4": [find(AVA), RETURN, address("#W104", ELM), DONE_4],
    },
    "duplicated_write": {"ST-2": [find(BEN), address("#W201", ELM), address("#W201", ELM), DONE_2]},
    "missing_write": {
        "ST-3": [find(AVA), cancel("#W101", "no longer needed"), DONE_3],
        "ST-6": [find(BEN), address("#W2010", ELM), DONE_6],
    },
    # cancel_order is called twice: the first call, then the second, cancels the lamp instead
    "wrong_arg_first_call": {
        "ST-3": [
            find(AVA),
            cancel("#W102", "no longer needed"),
            cancel("#W104", "no longer needed"),
            DONE_3,
        ]
    },
    "wrong_arg_second_call": {
        "ST-3": [
            find(AVA),
            cancel("#W101", "no longer needed"),
            cancel("#W102", "no longer needed"),
            DONE_3,
        ]
    },
    "list_extra_item": {
        "ST-4": [
            find(AVA),
            call("return_items", order_id="#W103", item_ids=["cap", "socks", "mug-blue"]),
            DONE_4,
        ]
    },
    # the list in another order: the case matches it unordered, the store keeps lists sorted
    "list_reordered": {
        "ST-4": [
            find(AVA),
            call("return_items", order_id="#W103", item_ids=["socks", "cap"]),
            DONE_4,
        ]
    },
    "id_contains_expected": {"ST-2": [find(BEN), address("#W2010", ELM), DONE_2]},
    "zip_plus_four": {
        "ST-2": [find(BEN), address("#W201", {**ELM, "zip": "60621-1234"}), DONE_2],
        "ST-6": [find(BEN), address("#W2010", {**ELM, "zip": "60621-1234"}), SWAP, DONE_6],
    },
    # the items first: the store then refuses the address (the order is no longer 'pending')
    "dependent_writes_reordered": {"ST-6": [find(BEN), SWAP, address("#W2010", ELM), DONE_6]},
    "independent_writes_reordered": {
        "ST-7": [find(AVA), address("#W101", LAKE), cancel("#W104", "no longer needed"), DONE_7]
    },
    "output_missing_one_of_several": {
        "ST-5": [find(BEN), EXCHANGE, "The exchange on #W202 is requested: no price difference."]
    },
    "output_in_earlier_reply": {
        "ST-5": [
            find(BEN),
            say_then_call(
                "The large tee costs the same: no price difference. A return label will follow.",
                "exchange_items",
                order_id="#W202",
                item_ids=["tee-m"],
                new_item_ids=["tee-l"],
            ),
            "Done: the exchange on #W202 is requested.",
        ]
    },
    "read_only_instead_of_write": {
        "ST-1": [find(AVA), call("get_order", order_id="#W101"), DONE_1],
        "ST-4": [find(AVA), call("get_order", order_id="#W103"), DONE_4],
    },
    "same_text_other_actions": {
        "ST-1": [find(AVA), cancel("#W102", "ordered by mistake"), DONE_1],
    },
    "extra_reads": {
        "ST-3": [
            find(AVA),
            call("get_order", order_id="#W101"),
            call("get_order", order_id="#W101"),
            cancel("#W101", "no longer needed"),
            call("get_order", order_id="#W104"),
            cancel("#W104", "no longer needed"),
            DONE_3,
        ]
    },
    # the right write without the lookup the case requires first (a stricter policy)
    "no_lookup_first": {"ST-1": [cancel("#W101", "ordered by mistake"), DONE_1]},
}

#: The candidate of the gate test: on every critical case a broken run whose last reply is
#: word for word the gold one (so the judge would call the pair identical).
BROKEN: dict[str, list[Step]] = {
    "ST-1": TRAJECTORIES["same_text_other_actions"]["ST-1"],
    "ST-2": TRAJECTORIES["zip_plus_four"]["ST-2"],
    "ST-3": TRAJECTORIES["wrong_arg_second_call"]["ST-3"],
    "ST-4": TRAJECTORIES["list_extra_item"]["ST-4"],
    "ST-5": TRAJECTORIES["output_missing_one_of_several"]["ST-5"],  # not critical
    "ST-6": TRAJECTORIES["dependent_writes_reordered"]["ST-6"],
}

#: The pairs where arena is stricter than the reference reward on purpose: ST-1 requires the
#: customer lookup before any write, which the end state cannot show.
STRICTER_ON_PURPOSE = {("ST-1", "no_lookup_first")}


def pairs() -> list[tuple[str, str]]:
    """Every (case, trajectory kind) pair a kind names, gold on every case."""
    return [(case, kind) for kind, by_case in TRAJECTORIES.items() for case in by_case]


def steps(kind: str, case: str) -> list[Step]:
    """What the agent does on ``case`` in trajectory ``kind`` (gold where it names none)."""
    by_case = BROKEN if kind == "broken" else TRAJECTORIES[kind]
    return by_case.get(case, GOLD[case])


def tool_calls(script: list[Step]) -> list[tuple[str, dict[str, Any]]]:
    """The tool calls a trajectory makes, in order."""
    calls: list[tuple[str, dict[str, Any]]] = []
    for step in script:
        if isinstance(step, dict):
            calls.append((step["tool"], step["args"]))
        elif isinstance(step, AIMessage):
            calls.extend((c["name"], c["args"]) for c in step.tool_calls)
    return calls


def replies(script: list[Step]) -> list[str]:
    """Every text the agent says in a trajectory, in order (the last is its answer)."""
    texts = [s if isinstance(s, str) else s.content for s in script if not isinstance(s, dict)]
    return [str(t) for t in texts if t]


def system_prompt(kind: str) -> str:
    """The system prompt of the variant that plays ``kind`` (the script reads it back)."""
    return f"You are the support agent of a small store. (trajectory: {kind})"


def scripted_agent(
    inputs: dict[str, str], plays: Callable[[str, str], list[Step]] = steps
) -> Callable[[list[BaseMessage]], Step]:
    """A reply script for the scripted model: it finds the case by its input (``inputs``:
    input -> case id) and the kind in the system prompt, then plays the next step."""

    def reply(messages: list[BaseMessage]) -> Step:
        system = next(str(m.content) for m in messages if isinstance(m, SystemMessage))
        kind = system.rsplit("(trajectory: ", 1)[1].rstrip(")")
        humans = [i for i, m in enumerate(messages) if isinstance(m, HumanMessage)]
        case = inputs[str(messages[humans[-1]].content)]
        done = sum(isinstance(m, AIMessage) for m in messages[humans[-1] :])
        return plays(kind, case)[done]

    return reply
