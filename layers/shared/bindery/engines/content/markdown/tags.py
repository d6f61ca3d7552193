"""GitBook's `{% name arg key="value" %}` tags: reading one tag, and writing one back.

A tag's body is its name, then positional arguments and `key=value` attributes separated by spaces.
Values are double- or single-quoted strings (in which `\\"` and `\\\\` are the only escapes), bare
words, or JSON (`count=3`, `flag=true`, `props={"a": [1]}`) for the non-string values of integration
blocks. `%}` inside a quoted value does not end the tag; a tag may span lines.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

_DECODER = json.JSONDecoder()
_NAME_STOP = frozenset(" \t\n\r%")
_VALID_NAME = re.compile(r"[A-Za-z@][\w./@-]*")


@dataclass(frozen=True)
class Tag:
    name: str
    body: str  # everything after the name, as written
    args: tuple[str, ...] = ()
    attrs: dict[str, Any] = field(default_factory=dict)
    start: int = 0  # offset of "{%"
    end: int = 0  # offset just after "%}"


def _scan_quoted(src: str, pos: int, limit: int) -> tuple[str, int] | None:
    quote = src[pos]
    out: list[str] = []
    i = pos + 1
    while i < limit:
        ch = src[i]
        if ch == "\\" and i + 1 < limit and src[i + 1] in (quote, "\\"):
            out.append(src[i + 1])
            i += 2
            continue
        if ch == quote:
            return "".join(out), i + 1
        out.append(ch)
        i += 1
    return None


def _find_end(src: str, pos: int, limit: int) -> int:
    """Offset of the `%}` closing the tag opened at `pos` (-1 if none before `limit`)."""
    i = pos + 2
    while i < limit - 1:
        ch = src[i]
        if ch in "\"'" and src[i - 1] in " \t\n=":
            quoted = _scan_quoted(src, i, limit)
            if quoted is not None:
                i = quoted[1]
                continue
        if ch == "%" and src[i + 1] == "}":
            return i
        i += 1
    # An unbalanced quote: fall back to the first "%}".
    return src.find("%}", pos + 2, limit)


def _parse_body(body: str) -> tuple[tuple[str, ...], dict[str, Any]]:
    args: list[str] = []
    attrs: dict[str, Any] = {}
    i, n = 0, len(body)
    while i < n:
        if body[i].isspace():
            i += 1
            continue
        if body[i] in "\"'":
            quoted = _scan_quoted(body, i, n)
            if quoted is not None:
                args.append(quoted[0])
                i = quoted[1]
                continue
        start = i
        while i < n and not body[i].isspace() and body[i] != "=":
            i += 1
        word = body[start:i]
        if i < n and body[i] == "=" and word:
            value, i = _parse_value(body, i + 1)
            attrs[word] = value
        else:
            args.append(word)
            if i < n and body[i] == "=":
                i += 1
    return tuple(args), attrs


def _parse_value(body: str, i: int) -> tuple[Any, int]:
    n = len(body)
    if i < n and body[i] in "\"'":
        quoted = _scan_quoted(body, i, n)
        if quoted is not None:
            return quoted
    if i < n and body[i] in "[{":
        try:
            value, end = _DECODER.raw_decode(body, i)
        except (ValueError, RecursionError):  # nested past the parser's stack: read as a word
            pass
        else:
            return value, end
    start = i
    while i < n and not body[i].isspace():
        i += 1
    word = body[start:i]
    if word in ("true", "false", "null") or _is_number(word):
        return json.loads(word), i
    return word, i


def _is_number(word: str) -> bool:
    try:
        float(word)
    except ValueError:
        return False
    return word[:1].isdigit() or word[:1] == "-"


def read_tag(src: str, pos: int, limit: int) -> Tag | None:
    """The tag starting at `pos` (which must be "{%"), or None when it is not closed before `limit`.
    An `if` holds an expression, not attributes: it ends at the first `%}`."""
    if re.match(r"\{%\s*(el)?if\s", src[pos : pos + 12]):
        end = src.find("%}", pos + 2, limit)
    else:
        end = _find_end(src, pos, limit)
    if end < 0:
        return None
    inner = src[pos + 2 : end].strip()
    i = 0
    while i < len(inner) and inner[i] not in _NAME_STOP:
        i += 1
    name, body = inner[:i], inner[i:].strip()
    if not _VALID_NAME.fullmatch(name):
        return None
    if name in ("if", "elif"):  # the body is an expression, kept as written
        return Tag(name, body, (body,), {}, pos, end + 2)
    args, attrs = _parse_body(body)
    return Tag(name, body, args, attrs, pos, end + 2)


def quote(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def format_value(value: Any) -> str:
    if isinstance(value, str):
        return quote(value)
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, sort_keys=True)


def write_tag(name: str, *args: str, attrs: list[tuple[str, Any]] | None = None) -> str:
    parts = [name, *(quote(arg) for arg in args)]
    parts.extend(f"{key}={format_value(value)}" for key, value in attrs or [] if value is not None)
    return "{% " + " ".join(parts) + " %}"
