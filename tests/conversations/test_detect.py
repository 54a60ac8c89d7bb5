"""Simulator errors: every kind is caught, and ordinary user messages are never flagged."""

from __future__ import annotations

import pytest

from arena.conversations import STOP_TOKEN, simulator_error
from arena.conversations._detect import asked_about, asks_question
from arena.golden import SimulatedUser
from arena.records.dialogue import DialogueTurn

pytestmark = pytest.mark.unit

USER = SimulatedUser(
    persona="A busy parent who writes short messages.",
    goal="Get a full refund for the broken blender from order 4471 paid by card.",
    facts={"order number": "4471", "email": "sam@example.com", "size": "L"},
)
INPUT = "Hi, my blender arrived broken and I want my money back."


def dialogue(*replies: str, users: tuple[str, ...] = ()) -> list[DialogueTurn]:
    """Turns answered by ``replies``; turn 1's user message is the case's input."""
    said = (INPUT, *users)
    return [
        DialogueTurn(index=i + 1, user=said[i] if i < len(said) else "ok", reply=reply)
        for i, reply in enumerate(replies)
    ]


ASKED_ORDER = dialogue("Sorry to hear that. What is your order number?")
NOTHING_ASKED = dialogue("Sorry to hear that. I can help with a refund.")


@pytest.mark.parametrize(
    ("message", "turns"),
    [
        ("It's 4471.", ASKED_ORDER),
        ("Sure, the order number is 4471, I paid by card.", ASKED_ORDER),
        ("Yes please, go ahead with the refund.", dialogue("Shall I refund it?", "Done?")),
        ("I can't find the receipt, sorry. Is the order number enough?", ASKED_ORDER),
        ("I'm sorry, but I can't make it to the store this week.", NOTHING_ASKED),
        ("I don't know my customer ID. Can you help me find it?", NOTHING_ASKED),
        ("Thanks, that's all I needed!", NOTHING_ASKED),
        ("No, I don't want store credit. I want the money on my card.", NOTHING_ASKED),
        ("How long will the refund take?", NOTHING_ASKED),
        ("Can you help me with the return label too?", NOTHING_ASKED),
        ("I want a refund for the broken blender.", NOTHING_ASKED),  # part of the goal only
        ("My email? It's sam@example.com.", dialogue("What's your email address?")),
        ("Large, I think.", dialogue("Which size did you order?")),
        ("It was an L.", NOTHING_ASKED),  # a value under 3 characters is never a leak
        (
            "The order is 4471 as I said.",
            dialogue("What happened?", "Anything else?", users=("Order 4471 broke.",)),
        ),
        ("Great, thank you! " + STOP_TOKEN, dialogue("What is the order?", "Refund done.")),
        (STOP_TOKEN, dialogue("What is the order?", "Refunded. Anything else I can help with?")),
        (STOP_TOKEN, dialogue("Which order?", "Your refund of $40 was issued.")),
        ("Yes, please go ahead. " + STOP_TOKEN, dialogue("Shall I refund it now?")),
    ],
)
def test_an_ordinary_user_message_is_no_error(message: str, turns: list[DialogueTurn]) -> None:
    assert simulator_error(message, USER, turns) is None


@pytest.mark.parametrize(
    "message",
    [
        "",
        "   ",
        "How can I help you today?",
        "Hello! How may I assist you with your order?",
        "As an AI, I do not have orders.",
        "I'm an AI assistant, so I can't own a blender.",
        "Assistant: your refund has been processed.",
        "Order 4471.\nAssistant: Thank you, I have found your order.",
        "Your refund is done. Is there anything else I can help you with?",
        '{"name": "issue_refund", "arguments": {"order": "4471"}}',
        '<tool_call>{"name": "issue_refund"}</tool_call>',
    ],
)
def test_speaking_as_the_assistant_is_a_role_error(message: str) -> None:
    error = simulator_error(message, USER, NOTHING_ASKED)
    assert error is not None and error.startswith("role: ")


@pytest.mark.parametrize(
    "message",
    [
        "I can't help with that.",
        "I'm sorry, but I cannot assist with this request.",
        "I'm sorry, but I can't continue this role-play.",
        "I won't pretend to be a customer.",
        "I cannot comply with that.",
    ],
)
def test_refusing_to_play_the_user_is_a_refusal(message: str) -> None:
    error = simulator_error(message, USER, NOTHING_ASKED)
    assert error is not None and error.startswith("refusal: ")


def test_the_goal_stated_verbatim_is_a_leak() -> None:
    message = "Hi. My goal: get a full refund for the broken blender from order 4471 paid by card."
    assert simulator_error(message, USER, ASKED_ORDER) == "leak: states its goal verbatim"


def test_a_private_fact_nobody_asked_for_is_a_leak() -> None:
    error = simulator_error("It broke. My order is 4471 by the way.", USER, NOTHING_ASKED)
    assert error == "leak: gives the private fact 'order number' before the agent asked for it"
    email = simulator_error("Write to sam@example.com please.", USER, ASKED_ORDER)
    assert email is not None and "'email'" in email


def test_a_short_goal_repeated_whole_is_no_leak() -> None:
    short = SimulatedUser(persona="p", goal="Get a refund")
    assert simulator_error("I just want to get a refund.", short, NOTHING_ASKED) is None


def test_stopping_at_the_first_move_before_any_private_fact_is_early() -> None:
    error = simulator_error(STOP_TOKEN, USER, dialogue("Your refund is on its way."))
    assert error == "early_stop: ends the conversation on its first move, no private fact given"


def test_a_user_without_private_facts_may_stop_at_its_first_move() -> None:
    """The agent may have answered at once: whether it did is the golden checks' and the
    judge's call, not a simulator error."""
    plain = SimulatedUser(persona="p", goal="Learn the shop's opening hours.")
    assert simulator_error(STOP_TOKEN, plain, dialogue("We open at 9 and close at 6.")) is None
    told = [
        DialogueTurn(index=1, user="Refund order 4471 please.", reply="Done: refunded."),
    ]
    assert simulator_error(STOP_TOKEN, USER, told) is None  # a fact was given, no question


def test_stopping_while_the_agent_asks_a_question_is_early() -> None:
    turns = dialogue("What is your order number?", "Thanks. Shall I refund it to your card?")
    error = simulator_error(f"  {STOP_TOKEN} ", USER, turns)
    assert error == "early_stop: ends the conversation while the agent asks it a question"


def test_a_closing_question_is_not_a_question_to_answer() -> None:
    assert not asks_question("Done! Is there anything else I can help you with?")
    assert not asks_question("Refund issued. Any other questions?")
    assert asks_question("Which order is it? Anything else?")
    assert not asks_question("Your refund was issued.")


def test_a_fact_is_asked_when_a_reply_names_a_word_of_it() -> None:
    assert asked_about("order number", ["Could I have the order ID?"])
    assert asked_about("date of birth", ["And your birth date?"])
    assert not asked_about("order number", ["How can I help?"])
    assert not asked_about("your account", ["Tell me about your problem."])  # common words


TRAVELLER = SimulatedUser(
    persona="A busy traveller who writes short messages.",
    goal="Get a flight from Rome to Madrid booked.",
    facts={"passenger": "Carla Diaz"},
)
TRIP = "I want to fly from Rome to Madrid."
CARLA = "The passenger is Carla Diaz, please book it."


def test_the_passengers_name_asks_for_the_fact_passenger() -> None:
    """The user trial's dialogue: the possessive was not seen as asking, so the run recorded
    a leak and the case left every pass figure."""
    asked = "TA-303 flies Rome to Madrid for 140 EUR. What is the passenger's name?"
    turns = [DialogueTurn(index=1, user=TRIP, reply=asked)]
    assert simulator_error(CARLA, TRAVELLER, turns) is None
    not_asked = [DialogueTurn(index=1, user=TRIP, reply="TA-303 flies at 9. Shall I book it?")]
    leak = simulator_error(CARLA, TRAVELLER, not_asked)
    assert leak == "leak: gives the private fact 'passenger' before the agent asked for it"


def test_possessives_and_plurals_of_the_facts_words_count_as_asking() -> None:
    assert asked_about("passenger", ["Names of all passengers, please?"])
    assert asked_about("passenger", ["The passengers' names?"])
    assert asked_about("passenger", ["The passenger\u2019s name?"])
    assert asked_about("passengers", ["Who is the passenger?"])
    assert asked_about("email address", ["Which addresses should I use?"])
    assert asked_about("city", ["Which cities?"])
    assert not asked_about("passenger", ["Shall I book it?", "Passing through Rome?"])
    assert not asked_about("address", ["Add this?"])
