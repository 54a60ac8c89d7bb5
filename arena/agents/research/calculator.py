"""A safe calculator: parses an arithmetic expression and walks its AST against a whitelist.

Nothing is ever evaluated by Python itself (no eval/exec): only numbers, + - * / // % **,
unary +/-, parentheses, a few math functions and constants are understood. Every failure is
returned as a string starting with "Error:".

Bounded work, by construction (the tool is synchronous and CPython cannot interrupt a long
computation inside C code, so no per-case timeout could fire once such a call started):

- the text is at most MAX_EXPRESSION_CHARS characters, its normalisation is linear, and the tree
  has at most MAX_NODES nodes nested at most MAX_DEPTH deep, so there are few operations;
- every number that can become an operand (a literal, a constant, the result of any operation)
  is finite and at most MAX_MAGNITUDE in size: integers have at most 333 bits;
- the operations whose cost grows with the *value* of an argument are checked on their
  arguments before they run: powers (exponent at most MAX_EXPONENT and a result of at most
  MAX_MAGNITUDE) and ``round`` (at most MAX_ROUND_DIGITS digits either side);
- nothing else is reachable: no shifts, factorials, strings, sequences or other callables.

So every call does at most a few thousand operations on numbers of at most 333 bits: about a
millisecond of work, whatever the expression (tests/agents/test_calculator_bounds.py times ~100
hostile ones). A worker process with a hard timeout was the alternative; it was not chosen:
it costs a process start per call (or a pool to manage and restart), and it would still need
these bounds to keep memory in check (10**10**9 takes hundreds of megabytes before any timeout).
"""

from __future__ import annotations

import ast
import math
import operator
import re
from collections.abc import Callable

Number = int | float

MAX_EXPRESSION_CHARS = 500
MAX_NODES = 2000
MAX_DEPTH = 260
MAX_EXPONENT = 1000
MAX_MAGNITUDE = 1e100
MAX_ROUND_DIGITS = 100

_CONSTANTS: dict[str, float] = {"pi": math.pi, "e": math.e, "tau": math.tau}


def _min(*args: Number) -> Number:
    return min(args)


def _max(*args: Number) -> Number:
    return max(args)


# name -> (function, minimum arguments, maximum arguments)
_FUNCTIONS: dict[str, tuple[Callable[..., Number], int, int]] = {
    "sqrt": (math.sqrt, 1, 1),
    "abs": (abs, 1, 1),
    "round": (round, 1, 2),
    "min": (_min, 1, 50),
    "max": (_max, 1, 50),
    "log": (math.log, 1, 2),
    "log10": (math.log10, 1, 1),
    "log2": (math.log2, 1, 1),
    "exp": (math.exp, 1, 1),
    "floor": (math.floor, 1, 1),
    "ceil": (math.ceil, 1, 1),
}

_FORBIDDEN: dict[type[ast.AST], str] = {
    ast.Attribute: "attribute access is",
    ast.Subscript: "indexing is",
    ast.Lambda: "lambda expressions are",
    ast.ListComp: "comprehensions are",
    ast.SetComp: "comprehensions are",
    ast.DictComp: "comprehensions are",
    ast.GeneratorExp: "comprehensions are",
    ast.Compare: "comparisons are",
    ast.BoolOp: "boolean operators are",
    ast.IfExp: "conditional expressions are",
    ast.List: "lists are",
    ast.Tuple: "tuples (commas outside numbers) are",
    ast.Dict: "dictionaries are",
    ast.Set: "sets are",
    ast.JoinedStr: "strings are",
    ast.NamedExpr: "assignments are",
    ast.Starred: "starred arguments are",
    ast.Await: "await is",
}


class CalcError(Exception):
    """A rejected or failed calculation; the message is shown to the agent after "Error: "."""


def safe_calculate(expression: str) -> str:
    """Evaluate an arithmetic expression safely and return the result or an "Error: ..." text.

    Accepts "15%" (as 15/100), "25% of 1200", thousands commas ("1,200"), "^" for powers,
    "$" signs and the words million/billion/trillion after a number.
    """
    if not isinstance(expression, str):
        return "Error: the expression must be a string"
    if not expression.strip():
        return "Error: empty expression"
    if len(expression) > MAX_EXPRESSION_CHARS:
        return f"Error: expression too long (max {MAX_EXPRESSION_CHARS} characters)"
    try:
        tree = ast.parse(normalise(expression), mode="eval")
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return (
            "Error: invalid expression; only numbers, + - * / // % **, parentheses and "
            "math functions (sqrt, abs, round, min, max, log, exp) are allowed"
        )
    try:
        _check_size(tree.body)
        return format_number(_evaluate(tree.body))
    except CalcError as exc:
        return f"Error: {exc}"
    except ZeroDivisionError:
        return "Error: division by zero"
    except OverflowError:
        return "Error: result too large"
    except ValueError:
        return "Error: math domain error (e.g. sqrt or log of a negative number)"
    except (TypeError, RecursionError):
        return "Error: invalid arguments"


def normalise(expression: str) -> str:
    """Rewrite the friendly notations safe_calculate accepts into plain arithmetic."""
    text = expression.strip().rstrip("=").strip()
    for old, new in (("×", "*"), ("÷", "/"), ("−", "-"), ("^", "**")):
        text = text.replace(old, new)
    text = re.sub(r"[$€£]", "", text)
    text = _strip_thousands(text)
    scales = {"thousand": "1e3", "million": "1e6", "billion": "1e9", "trillion": "1e12"}
    # (?<!\d): a number is only matched from its first digit, which keeps every pattern linear
    text = re.sub(
        r"(?<!\d)(\d+(?:\.\d+)?)\s*(thousand|million|billion|trillion)\b",
        lambda m: f"({m.group(1)}*{scales[m.group(2).lower()]})",
        text,
        flags=re.I,
    )
    text = re.sub(r"(?<!\d)(\d+(?:\.\d+)?)\s*%\s*of\b", r"(\1/100)*", text, flags=re.I)
    return re.sub(r"(?<!\d)(\d+(?:\.\d+)?)\s*%(?!\s*[\w(.])", r"(\1/100)", text)


def _strip_thousands(text: str) -> str:
    """Drop commas in numbers like 1,200 unless they sit directly inside a function call."""
    pattern = re.compile(r"(?<![\w.])\d{1,3}(?:,\d{3})+(?![\d,])")
    inside = _inside_calls(text)
    return pattern.sub(
        lambda m: m.group(0) if inside[m.start()] else m.group(0).replace(",", ""), text
    )


def _inside_calls(text: str) -> list[bool]:
    """For each position of ``text``: does it sit directly inside a call's parentheses?

    One linear pass (a "(" opens a call when a name, then optional spaces, precede it).
    """
    inside: list[bool] = []
    stack: list[bool] = []
    for index, char in enumerate(text):
        inside.append(bool(stack) and stack[-1])
        if char == "(":
            stack.append(_follows_name(text, index))
        elif char == ")" and stack:
            stack.pop()
    return inside


def _follows_name(text: str, index: int) -> bool:
    """Whether text[:index] ends with a word holding a letter or "_", then optional spaces."""
    end = index
    while end > 0 and text[end - 1].isspace():
        end -= 1
    start = end
    while start > 0 and (text[start - 1].isalnum() or text[start - 1] == "_"):
        start -= 1
    return any(c.isascii() and (c.isalpha() or c == "_") for c in text[start:end])


def format_number(value: Number) -> str:
    """Integers without ".0"; floats rounded to at most 10 significant digits."""
    if isinstance(value, int):
        return str(value)
    rounded = float(f"{value:.10g}")
    if rounded == 0:
        return "0"
    if rounded.is_integer() and abs(rounded) < 1e16:
        return str(int(rounded))
    return f"{rounded:.10g}"


_BINARY: dict[type[ast.operator], Callable[[Number, Number], Number]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
}
_UNARY: dict[type[ast.unaryop], Callable[[Number], Number]] = {
    ast.UAdd: operator.pos,
    ast.USub: operator.neg,
}


def _evaluate(node: ast.AST) -> Number:
    if isinstance(node, ast.Constant):
        return _constant(node.value)
    if isinstance(node, ast.BinOp):
        left, right = _evaluate(node.left), _evaluate(node.right)
        if isinstance(node.op, ast.Pow):
            return _checked(_power(left, right))
        binary = _BINARY.get(type(node.op))
        if binary is None:
            raise CalcError(f"operator {type(node.op).__name__} is not allowed")
        return _checked(binary(left, right))
    if isinstance(node, ast.UnaryOp):
        unary = _UNARY.get(type(node.op))
        if unary is None:
            raise CalcError(f"operator {type(node.op).__name__} is not allowed")
        return _checked(unary(_evaluate(node.operand)))
    if isinstance(node, ast.Name):
        if node.id not in _CONSTANTS:
            raise CalcError(f"name '{node.id}' is not allowed")
        return _CONSTANTS[node.id]
    if isinstance(node, ast.Call):
        return _checked(_call(node))
    what = _FORBIDDEN.get(type(node), f"{type(node).__name__} expressions are")
    raise CalcError(f"{what} not allowed")


def _check_size(root: ast.AST) -> None:
    """CalcError when the tree has more than MAX_NODES nodes or nests deeper than MAX_DEPTH."""
    count, stack = 0, [(root, 1)]
    while stack:
        node, depth = stack.pop()
        count += 1
        if count > MAX_NODES:
            raise CalcError(f"expression too complex (more than {MAX_NODES} parts)")
        if depth > MAX_DEPTH:
            raise CalcError(f"expression nested too deeply (limit {MAX_DEPTH} levels)")
        stack.extend((child, depth + 1) for child in ast.iter_child_nodes(node))


def _constant(value: object) -> Number:
    if isinstance(value, bool) or not isinstance(value, int | float):
        kind = "strings are" if isinstance(value, str | bytes) else f"{type(value).__name__} is"
        raise CalcError(f"{kind} not allowed, only numbers")
    if (isinstance(value, float) and math.isinf(value)) or abs(value) > MAX_MAGNITUDE:
        raise CalcError("number too large (limit 1e100)")
    return value


def _call(node: ast.Call) -> Number:
    if not isinstance(node.func, ast.Name):
        raise CalcError("only simple function calls like sqrt(2) are allowed")
    name = node.func.id
    if name not in _FUNCTIONS:
        raise CalcError(f"function '{name}' is not allowed")
    if node.keywords:
        raise CalcError(f"keyword arguments are not allowed in {name}()")
    function, low, high = _FUNCTIONS[name]
    if not low <= len(node.args) <= high:
        raise CalcError(
            f"{name}() takes {low}" + (f" to {high}" if high > low else "") + " argument(s)"
        )
    args = [_evaluate(arg) for arg in node.args]
    if name == "round" and len(args) == 2:
        _check_round_digits(args[1])
    return function(*args)


def _check_round_digits(digits: Number) -> None:
    """round(x, n) computes 10**abs(n) for an integer x: bound n before CPython does that."""
    if not isinstance(digits, int):
        raise CalcError("round() digits must be an integer")
    if abs(digits) > MAX_ROUND_DIGITS:
        raise CalcError(
            f"round() digits must be between -{MAX_ROUND_DIGITS} and {MAX_ROUND_DIGITS}"
        )


def _power(base: Number, exponent: Number) -> Number:
    if abs(exponent) > MAX_EXPONENT:
        raise CalcError(f"exponent too large (limit {MAX_EXPONENT})")
    if exponent > 0 and abs(base) > 1 and exponent * math.log10(abs(base)) > 100:
        raise CalcError("result too large (limit 1e100)")
    return base**exponent


def _checked(value: object) -> Number:
    if isinstance(value, complex):
        raise CalcError("result is not a real number")
    if not isinstance(value, int | float) or isinstance(value, bool):
        raise CalcError("result is not a number")
    if isinstance(value, float) and math.isnan(value):
        raise CalcError("result is not a number")
    if isinstance(value, float) and math.isinf(value):
        raise CalcError("result too large (limit 1e100)")
    if abs(value) > MAX_MAGNITUDE:
        raise CalcError("result too large (limit 1e100)")
    return value
