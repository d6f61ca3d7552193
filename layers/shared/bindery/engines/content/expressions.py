"""GitBook expressions: the JavaScript subset documents use, evaluated without running JavaScript.

Literals, references (member access with `.` and `[…]`) into a scope such as `space.vars`, `page.vars` and
`visitor`, `!`, unary `-`, `+ - * / %`, comparisons, `== === != !==`, `&& || ??` and `?:`, with
JavaScript's conversions (String(), truthiness, loose equality). A scope value may be UNKNOWN (the
visitor of an API read): any expression that depends on it evaluates to UNKNOWN.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

TOKEN = re.compile(r"""\s*(?:(?P<number>\d+(?:\.\d*)?(?:[eE][+-]?\d+)?|\.\d+)
    |(?P<string>"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')
    |(?P<name>[A-Za-z_$][A-Za-z0-9_$]*)
    |(?P<op>===|!==|==|!=|<=|>=|&&|\|\||\?\?|[-+*/%<>!?:.()\[\]]))""", re.VERBOSE)
LITERALS: dict[str, Any] = {"true": True, "false": False, "null": None}
BINARY_LEVELS = (("||", "??"), ("&&",), ("===", "!==", "==", "!="), ("<", "<=", ">", ">="), ("+", "-"),
                 ("*", "/", "%"))


class _Undefined:
    def __repr__(self) -> str:
        return "undefined"


class _Unknown:
    """A value that depends on the visitor."""


UNDEFINED: Any = _Undefined()
UNKNOWN: Any = _Unknown()


class ExpressionError(ValueError):
    """An expression Bindery cannot evaluate (syntax it does not know, an unknown name)."""


def _number_string(value: float) -> str:
    if not math.isfinite(value):
        return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
    return str(int(value)) if value.is_integer() else str(value)


def js_string(value: Any) -> str:
    """What JavaScript's String(value) gives (undefined: empty text, as GitBook shows it)."""
    if value is UNDEFINED or value is None:
        return "" if value is UNDEFINED else "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return _number_string(value)
    if isinstance(value, list):
        return ",".join("" if item is None else js_string(item) for item in value)
    if isinstance(value, dict):
        return "[object Object]"
    return str(value)


def truthy(value: Any) -> bool:
    if value is UNDEFINED or value is None:
        return False
    if isinstance(value, bool | int | float):
        return bool(value) and not (isinstance(value, float) and math.isnan(value))
    if isinstance(value, str):
        return value != ""
    return True  # objects and arrays, even empty


def _number(value: Any) -> float:
    if isinstance(value, bool | int | float):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value.strip() or 0)
        except ValueError:
            return math.nan
    return 0.0 if value is None else math.nan


def _js_type(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    return "string" if isinstance(value, str) else "object"


def _strict_equal(left: Any, right: Any) -> bool:
    if left is UNDEFINED or right is UNDEFINED or left is None or right is None:
        return left is right
    return _js_type(left) == _js_type(right) and left == right


def _loose_equal(left: Any, right: Any) -> bool:
    if left in (None, UNDEFINED) or right in (None, UNDEFINED):
        return left in (None, UNDEFINED) and right in (None, UNDEFINED)
    if _js_type(left) == _js_type(right):
        return bool(left == right)
    return _number(left) == _number(right)


def _compare(op: str, left: Any, right: Any) -> bool:
    if isinstance(left, str) and isinstance(right, str):
        pair: tuple[Any, Any] = (left, right)
    else:
        pair = (_number(left), _number(right))
    return bool({"<": pair[0] < pair[1], "<=": pair[0] <= pair[1], ">": pair[0] > pair[1],
                 ">=": pair[0] >= pair[1]}[op])


def _arithmetic(op: str, left: Any, right: Any) -> Any:
    if op == "+" and (isinstance(left, str) or isinstance(right, str)):
        return js_string(left) + js_string(right)
    a, b = _number(left), _number(right)
    if op in "/%" and b == 0:
        return math.nan if op == "%" or a == 0 or math.isnan(a) else math.copysign(math.inf, a)
    result = {"+": a + b, "-": a - b, "*": a * b, "/": a / b if b else 0.0,
              "%": math.fmod(a, b) if b else 0.0}[op]  # b == 0 was handled above
    return int(result) if result.is_integer() and abs(result) < 2**53 else result


BINARY: dict[str, Callable[[Any, Any], Any]] = {
    "===": _strict_equal, "!==": lambda a, b: not _strict_equal(a, b),
    "==": _loose_equal, "!=": lambda a, b: not _loose_equal(a, b),
    **{op: partial(_compare, op) for op in ("<", "<=", ">", ">=")},
    **{op: partial(_arithmetic, op) for op in ("+", "-", "*", "/", "%")},
}


@dataclass
class _Parser:
    """Recursive descent over the tokens, evaluating as it goes (expressions are short and used once)."""

    tokens: list[tuple[str, str]]
    scope: Mapping[str, Any]
    at: int = 0

    def peek(self) -> str | None:
        return self.tokens[self.at][1] if self.at < len(self.tokens) else None

    def take(self, expected: str | None = None) -> tuple[str, str]:
        if self.at >= len(self.tokens) or (expected and self.tokens[self.at][1] != expected):
            raise ExpressionError(f"expected {expected or 'more'}")
        self.at += 1
        return self.tokens[self.at - 1]

    def expression(self) -> Any:
        condition = self.binary(0)
        if self.peek() != "?":
            return condition
        self.take("?")
        then = self.expression()
        self.take(":")
        otherwise = self.expression()
        if condition is UNKNOWN:
            return UNKNOWN
        return then if truthy(condition) else otherwise

    def binary(self, level: int) -> Any:
        if level == len(BINARY_LEVELS):
            return self.unary()
        left = self.binary(level + 1)
        while self.peek() in BINARY_LEVELS[level]:
            op = self.take()[1]
            right = self.binary(level + 1)
            left = self._combine(op, left, right)
        return left

    @staticmethod
    def _combine(op: str, left: Any, right: Any) -> Any:
        # Short-circuits decide even when the other side depends on the visitor.
        if op in ("&&", "||"):
            if left is UNKNOWN:
                return UNKNOWN
            return right if truthy(left) == (op == "&&") else left
        if left is UNKNOWN or right is UNKNOWN:
            return UNKNOWN
        if op == "??":
            return right if left is None or left is UNDEFINED else left
        return BINARY[op](left, right)

    def unary(self) -> Any:
        if self.peek() in ("!", "-", "+"):
            op = self.take()[1]
            value = self.unary()
            if value is UNKNOWN:
                return UNKNOWN
            return not truthy(value) if op == "!" else _arithmetic(op, 0, value)
        return self.member()

    def member(self) -> Any:
        value = self.primary()
        while self.peek() in (".", "["):
            if self.take()[1] == ".":
                kind, name = self.take()
                if kind != "name":
                    raise ExpressionError("expected a property name")
                key: Any = name
            else:
                key = self.expression()
                self.take("]")
            value = _property(value, key)
        return value

    def primary(self) -> Any:
        kind, text = self.take()
        if kind == "number":
            number = float(text)
            return int(number) if number.is_integer() and "e" not in text.lower() else number
        if kind == "string":
            return re.sub(r"\\(.)", r"\1", text[1:-1])
        if text == "(":
            value = self.expression()
            self.take(")")
            return value
        if kind == "name":
            if text in LITERALS:
                return LITERALS[text]
            if text == "undefined":
                return UNDEFINED
            if text in self.scope:
                return self.scope[text]
            raise ExpressionError(f"unknown name {text}")
        raise ExpressionError(f"unexpected {text}")


def _property(value: Any, key: Any) -> Any:
    """Lenient member access: a property of undefined or null is undefined (as `?.` reads), so that
    `visitor.claims.plan` is undefined for a visitor without claims rather than an error."""
    if value is UNKNOWN:
        return UNKNOWN
    if isinstance(value, Mapping):
        return value.get(js_string(key), UNDEFINED)
    if isinstance(value, list | str) and isinstance(key, int) and not isinstance(key, bool):
        return value[key] if 0 <= key < len(value) else UNDEFINED
    if isinstance(value, list | str) and key == "length":
        return len(value)
    return UNDEFINED


def evaluate_expression(source: str, scope: Mapping[str, Any]) -> Any:
    """The expression's value in `scope` (UNKNOWN when it depends on something the scope marks UNKNOWN)."""
    tokens: list[tuple[str, str]] = []
    position = 0
    source = source.rstrip()
    while position < len(source):
        match = TOKEN.match(source, position)
        if match is None or match.lastgroup is None:
            raise ExpressionError(f"unexpected character at {position}")
        tokens.append((match.lastgroup, match.group(match.lastgroup)))
        position = match.end()
    parser = _Parser(tokens, scope)
    value = parser.expression()
    if parser.at != len(tokens):
        raise ExpressionError(f"unexpected {tokens[parser.at][1]}")
    return value
