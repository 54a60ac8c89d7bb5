"""The conversation check's lint rules (:meth:`TurnsCheck.lint`; ``arena golden lint``).

=========================== ======== ===========================================================
rule                        severity what
=========================== ======== ===========================================================
when_never_matches          warning  a scripted turn's ``when`` can never hold: an item it needs
                                     is excluded by its own ``not_contains``, or by the
                                     expectation of the reply it checks (a passing reply then
                                     never gets that turn)
simulated_user_lacks_facts  warning  a simulated user cannot give an argument value the case
                                     expects (``expected_args``): it is in neither the input,
                                     the goal, the persona nor the facts
simulated_user_knows_answer warning  a simulated user's private facts hold what the agent must
                                     produce: an expected output (``expected_output_contains``
                                     item, ``expected_output_exact``), a per-turn ``contains``
                                     string, or an expected call (a tool's name with one of its
                                     ``expected_args`` values): the user could hand the agent
                                     the answer, and the check would pass on the user's word
=========================== ======== ===========================================================
"""

from __future__ import annotations

import re

from arena.golden._calls import item_text
from arena.golden._conversation import ContainsItem, Conversation, ReplyCheck, SimulatedUser
from arena.golden._models import GoldenCase
from arena.scoring.checks._base import LintNote


def _fold(text: str) -> str:
    return " ".join(text.casefold().split())


def _excluded(item: ContainsItem, banned: list[str]) -> bool:
    """Whether every alternative of ``item`` holds a banned string (so no reply has it)."""
    options = [item] if isinstance(item, str) else item
    folded = [_fold(b) for b in banned if b.strip()]
    return bool(options) and all(any(b in _fold(o) for b in folded) for o in options)


def _impossible(check: ReplyCheck, banned: list[str]) -> ContainsItem | None:
    return next((item for item in check.contains if _excluded(item, banned)), None)


def when_findings(case: GoldenCase, conversation: Conversation) -> list[LintNote]:
    """``when_never_matches`` for each scripted turn whose check cannot hold."""
    findings = []
    for position, scripted in enumerate(conversation.turns):
        if scripted.when is None:
            continue
        turn = position + 2  # the user turn it sends; it checks the reply to the turn before
        expect = conversation.expectation(turn - 1)
        own = _impossible(scripted.when, scripted.when.not_contains)
        expected = None if expect is None else _impossible(scripted.when, expect.not_contains)
        if own is None and expected is None:
            continue
        why = (
            f"its own not_contains excludes {own!r}"
            if own is not None
            else f"the expectation of turn {turn - 1} forbids {expected!r}, so a passing "
            "reply never meets it"
        )
        then = "its otherwise is always sent" if scripted.otherwise else "the dialogue ends there"
        findings.append(
            LintNote(
                rule="when_never_matches",
                severity="warning",
                message=f"the `when` of user turn {turn} can never hold ({why}); {then}",
            )
        )
    return findings


def _values(expected_args: dict[str, dict[str, object]]) -> list[str]:
    return [
        str(value)
        for args in expected_args.values()
        for value in args.values()
        if isinstance(value, str | int | float) and not isinstance(value, bool)
    ]


def facts_findings(case: GoldenCase, user: SimulatedUser) -> list[LintNote]:
    """``simulated_user_lacks_facts`` when an expected argument value is nowhere the
    simulated user could take it from."""
    known = _fold(" ".join([case.input, user.goal, user.persona, *user.facts.values()]))
    missing = [v for v in _values(case.expected_args) if _fold(v) not in known]
    if not missing:
        return []
    return [
        LintNote(
            rule="simulated_user_lacks_facts",
            severity="warning",
            message=f"the simulated user cannot give {', '.join(map(repr, missing))} "
            "(expected_args): it is in neither the input, the goal, the persona nor the "
            "facts; add it to conversation.user.facts",
        )
    ]


def _holds(fact: str, wanted: str) -> bool:
    """Whether ``fact`` holds ``wanted`` as whole words (case and spacing ignored)."""
    needle = _fold(wanted)
    return bool(needle) and re.search(rf"(?<!\w){re.escape(needle)}(?!\w)", fact) is not None


def _answers(case: GoldenCase, conversation: Conversation) -> list[tuple[str, str]]:
    """What the agent must produce, as (where it is expected, the text)."""
    items: list[ContainsItem] = [item_text(i) for i in case.expected_output_contains]
    found = [("expected_output_contains", o) for i in items for o in _options(i)]
    if case.expected_output_exact:
        found.append(("expected_output_exact", case.expected_output_exact))
    for expect in conversation.expect:
        where = f"turn {expect.turn} contains"
        found += [(where, option) for item in expect.contains for option in _options(item)]
    return found


def _options(item: ContainsItem) -> list[str]:
    return [item] if isinstance(item, str) else list(item)


def _calls(case: GoldenCase) -> list[tuple[str, str]]:
    """Each expected call as (tool, one of its expected argument values)."""
    return [
        (tool, str(value))
        for tool, args in case.expected_args.items()
        for value in args.values()
        if isinstance(value, str | int | float) and not isinstance(value, bool)
    ]


def leak_findings(case: GoldenCase, conversation: Conversation) -> list[LintNote]:
    """``simulated_user_knows_answer`` for each private fact holding what the agent must
    produce: an expected output, a per-turn ``contains`` string or an expected call."""
    user = conversation.user
    if user is None:
        return []
    findings = []
    answers, calls = _answers(case, conversation), _calls(case)
    for name, value in user.facts.items():
        fact = _fold(f"{name} {value}")
        leaked = [f"{where} {text!r}" for where, text in answers if _holds(fact, text)]
        leaked += [
            f"the call {tool}({arg!r}) of expected_args"
            for tool, arg in calls
            if _holds(fact, tool) and _holds(fact, arg)
        ]
        if leaked:
            findings.append(
                LintNote(
                    rule="simulated_user_knows_answer",
                    severity="warning",
                    message=f"the simulated user's fact {name!r} holds "
                    f"{'; '.join(leaked)}: the user could hand the agent the answer; keep "
                    "only what the user really knows in conversation.user.facts",
                )
            )
    return findings


def conversation_notes(case: GoldenCase) -> list[LintNote]:
    """Every conversation rule on one case (none for a single-turn case)."""
    conversation = case.conversation
    if conversation is None:
        return []
    notes = when_findings(case, conversation)
    if conversation.user is not None:
        notes += facts_findings(case, conversation.user)
        notes += leak_findings(case, conversation)
    return notes
