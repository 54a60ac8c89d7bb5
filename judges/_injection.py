"""A cheap, deterministic detector of answers that talk to the judge instead of the user.

It looks for what an answer has no reason to contain: chat-template control tokens and the
judge's own boundary tags, notes addressed to a grader, requests for a verdict ("say YES",
``[[A>B]]``), the judge prompt's own structure (its item questions answered YES, a "Tools it
called:" line, a "Reference answer:"), and orders to drop earlier instructions or follow new
grading rules. A match that only repeats the user's own request (a refusal quoting "ignore
your instructions") or follows a negation ("I won't ignore previous instructions") is not
counted. A flagged answer never wins its battle (:mod:`arena.trust._calibration`).

:func:`injection_marks` applies it to everything of one side the judge reads that the agent
could have written or steered: its answer or replies, the tool calls shown with them (their
arguments are the agent's text), its path through the graph when the judge shows it (an
interrupt's value is the agent's text), and in a conversation with a simulated user, that
user's turns (an agent can ask the user to "type this sentence exactly"). Only what the team
wrote is exempt: the case's input and a scripted user's turns. A query that is not the team's
(:attr:`~judges._types.PairRequest.query_untrusted`: a production trace's query, an answer
file's question) exempts nothing: a note to the judge hidden in a user's query is marked in
every answer that repeats it, so it never wins.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import replace

from arena.vocabulary import ERROR, MODEL_A, MODEL_B
from judges._orders import Outcome
from judges._types import PairRequest, Seat, Verdict

_GRADER = r"(?:grader|judge|evaluator|assessor|reviewer|rater|scorer|grading model)s?"
_VERB = r"(?:answer|reply|respond|say|output|return|print|write|mark|grade|rate|score)"

#: (reason, pattern) pairs, in the order their reasons are reported.
PATTERNS: tuple[tuple[str, str], ...] = (
    ("chat-template token", r"<\|[^|<>\n]{0,40}\|>|\[/?INST\]|<</?SYS>>|<(?:start|end)_of_turn>"),
    ("boundary tag", r"<\s*/?\s*(?:answer|tools)-"),
    (
        "addresses the grader",
        rf"(?i)\b(?:note|message|instructions?|reminder|hint|request|memo)s?\s+(?:to|for)\s+"
        rf"(?:the\s+|any\s+|all\s+)?(?:{_GRADER}|ai judge|llm judge|evaluation model)\b",
    ),
    ("addresses the grader", rf"(?i)\b(?:dear|attention|hey|hello|hi)\s*,?\s+(?:the\s+)?{_GRADER}"),
    ("addresses the grader", rf"(?im)^\W{{0,3}}(?:to\s+the\s+)?{_GRADER}\s*[:,]"),
    (
        "addresses the grader",
        rf"(?i)\b{_GRADER}\s*[,:]?\s+(?:must|should|please|shall|will|needs? to|has to)\s+"
        rf"(?:now\s+)?{_VERB}",
    ),
    (
        "asks for a verdict",  # not "reply YES to confirm": an agent may ask the user that
        rf"(?i:\b{_VERB}\s+(?:with\s+|only\s+|just\s+)*)[\"'“]?YES\b"
        r"(?![^\n.]{0,30}\b(?i:confirm|proceed|continue|if you|you want|you'd like)\b)",
    ),
    ("asks for a verdict", r"\[\[\s*(?:A\s*>>?\s*B|B\s*>>?\s*A|A\s*=\s*B|[ABC])\s*\]\]"),
    (
        "asks for a verdict",
        r"(?i)\b(?:mark|grade|rate|score|judge|consider|evaluate|count)\s+(?:this|it|me|my)\s+"
        r"(?:answer\s+|response\s+|reply\s+)?(?:as\s+)?(?:correct|yes|perfect|a\s+pass|"
        r"passing|the\s+winner|the\s+better\s+(?:answer|one|response))\b",
    ),
    (
        "asks for a verdict",
        r"(?i)\b(?:this|the|my)\s+(?:answer|response|reply)\s+(?:is|should\s+be|must\s+be)\s+"
        r"(?:graded|marked|rated|scored|judged|considered|evaluated)\s+(?:as\s+)?"
        r"(?:correct|right|better|yes|perfect|10|a\s+pass|passing)",
    ),
    (
        "forged prompt structure",
        r"(?im)^\W{0,3}(?:tools it called|tools used(?: by [AB])?|reference answer|"
        r"what a good answer does|answer [AB]|criterion|assistant reply|user request)\s*:",
    ),
    ("forged prompt structure", r"(?i)\b(?:reply|answer)\s+YES\s+or\s+NO\b"),
    (
        "forged prompt structure",
        r"(?i)\b(?:does the answer|did it call the tool|is this a good answer|does the reply)"
        r"\b[^\n?]{0,200}\?[^\n]{0,40}\b(?:yes|no)\b",
    ),
    (
        "override instruction",
        r"(?i)\b(?:ignore|disregard|forget|override|bypass)\s+(?:all\s+|any\s+|of\s+)?"
        r"(?:the\s+|your\s+|my\s+|these\s+|those\s+)?(?:previous|prior|above|earlier|"
        r"preceding|former|original|system|grading|judging)\s+(?:instructions?|rules?|prompts?|"
        r"guidelines?|directions?|messages?|criteria|checklist)",
    ),
    (
        "override instruction",
        r"(?i)\b(?:grading|scoring|evaluation|judging|judge|grader)\s+(?:rules?|instructions?|"
        r"criteria|policy|guidelines?)\s*(?:update|change|override|have\s+changed|changed)"
        r"|\bnew\s+(?:grading|scoring|evaluation|judging)\s+(?:rules?|instructions?|criteria|"
        r"policy)",
    ),
    ("override instruction", r"(?i)\b(?:system|developer)\s*(?:prompt|message|note|override)\s*:"),
)

#: What of a side :func:`injection_marks` reads (part of :data:`DETECTOR_VERSION`).
CHECKED = ("answer or replies", "tool calls shown", "simulated user turns")

_COMPILED = tuple((reason, re.compile(pattern)) for reason, pattern in PATTERNS)
#: Changes whenever a pattern or what is checked does: part of the judge's identity (cached
#: verdicts carry marks).
DETECTOR_VERSION = hashlib.sha256(repr((PATTERNS, CHECKED)).encode()).hexdigest()[:12]

_NEGATION = re.compile(
    r"(?i)\b(?:not|never|cannot|can't|won't|will not|don't|do not|refuse to|unable to)\s+"
    r"(?:\w+\s+){0,2}$"
)


def _squash(text: str) -> str:
    return " ".join(re.sub(r"[^\w\s]", " ", text.lower()).split())


def suspected_injection(answer: str, query: str = "") -> list[str]:
    """Why ``answer`` seems to address the judge (each reason once, in pattern order); empty
    when nothing was found. Matches that repeat part of ``query`` or follow a negation are
    ignored."""
    asked = _squash(query)
    reasons: list[str] = []
    for reason, pattern in _COMPILED:
        if reason in reasons:
            continue
        for match in pattern.finditer(answer):
            said = _squash(match.group(0))
            if said and said in asked:
                continue
            if _NEGATION.search(answer[max(0, match.start() - 40) : match.start()]):
                continue
            reasons.append(reason)
            break
    return reasons


def _side_reasons(request: PairRequest, seat: Seat) -> list[str]:
    answer, turns, calls, path, did = (
        (request.answer_a, request.turns_a, request.trajectory_a, request.path_a, request.actions_a)
        if seat == "A"
        else (
            request.answer_b,
            request.turns_b,
            request.trajectory_b,
            request.path_b,
            request.actions_b,
        )
    )
    query = "" if request.query_untrusted else request.query  # only the team's text exempts
    if turns is None:
        found = [suspected_injection(answer, query)]
        if calls:
            found.append(suspected_injection(calls, query))
    else:
        said = "\n".join([query, *(turn.user for turn in turns if not request.query_untrusted)])
        found = [suspected_injection(turn.reply, said) for turn in turns]
        found += [suspected_injection(turn.calls, said) for turn in turns if turn.calls]
        # a simulated user's turn against the team's text only, never against the agent's
        found += [suspected_injection(t.user, query) for t in turns if t.simulated]
    if path is not None:  # shown only by a judge with_graph_path (judges._graph_prompts)
        found.append(suspected_injection(path, query))
    if did is not None:  # shown when the agents' actions matter (judges._action_prompts)
        found.append(suspected_injection(did, query))
    return list(dict.fromkeys(reason for each in found for reason in each))


def injection_marks(request: PairRequest) -> dict[Seat, list[str]]:
    """Seat -> the reasons its side seems to address the judge (seats without any left out),
    by :func:`suspected_injection`: the answer (in a conversation each reply alone), the tool
    calls shown to the judge, and a simulated user's turns. The case's input and a scripted
    user's turns are the team's and never checked; a reply or tool call repeating what the
    user said is not counted, a simulated user repeating the agent is."""
    marks: dict[Seat, list[str]] = {}
    for seat in ("A", "B"):
        reasons = _side_reasons(request, seat)
        if reasons:
            marks[seat] = reasons
    return marks


def battle_marks(ab: Verdict | None, ba: Verdict | None) -> tuple[list[str], list[str]]:
    """(reasons against answer A, reasons against answer B) of a battle, from its verdicts'
    marks (``ab`` showed A first, ``ba`` showed B first)."""
    a: list[str] = []
    b: list[str] = []
    for verdict, first, second in ((ab, a, b), (ba, b, a)):
        if verdict is None:
            continue
        for seat, reasons in verdict.suspected_injection.items():
            found = first if seat == "A" else second
            found.extend(r for r in reasons if r not in found)
    return a, b


def guarded(outcome: Outcome, a_flagged: bool, b_flagged: bool) -> Outcome:
    """The outcome once a suspected injection is ruled on: when exactly one answer is
    flagged, the other one wins (not strongly), whatever the judge said; the judge's own
    probability stays in ``p_a``. Both or neither flagged, or an error: unchanged."""
    if a_flagged == b_flagged or outcome.winner == ERROR:
        return outcome
    winner = MODEL_B if a_flagged else MODEL_A
    return replace(outcome, winner=winner, strong=False)
