"""markdown-it block rules for GitBook's containers: `{% tag %}…{% endtag %}`, `<details>`, `$$` math.

Containers work like markdown-it's blockquote rule: the rule finds where the container ends, narrows
the line markers to the content (which may begin after the opening tag or end before the closing tag on
the same line, as in `{% hint %}Note{% endhint %}`), lets the block parser tokenize it between an
`_open` and a `_close` token, and restores the markers. Closing tags inside fenced code are ignored.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from bindery.engines.content.markdown.tags import Tag, read_tag

if TYPE_CHECKING:
    from markdown_it import MarkdownIt
    from markdown_it.ruler import RuleOptionsType
    from markdown_it.rules_block import StateBlock

# Tags that never have a closing tag.
VOID_TAGS = frozenset({"include", "page-ref", "else", "elif"})
# Tags whose closing tag is optional: closed only when the next tag is their end tag.
OPTIONAL_CLOSE = frozenset({"embed"})
# A fence closes at its own indentation, or after the block quote markers holding it (`> ````).
_FENCE = re.compile(r"[ \t]*(?:>[ \t]?)*(`{3,}|~{3,})")
# A fence opens after the markers of the list items and block quotes that hold it too (`1. ```` in a
# column); as markdown-it's fence rule, a backtick fence whose info string holds a backtick is none
# (`- ```code``` text` is a code span).
_FENCE_OPEN = re.compile(r"[ \t]*(?:(?:[-+*]|\d{1,9}[.)])[ \t]+|>[ \t]?)*(`{3,}|~{3,})(.*)")
_CODE_SPAN = re.compile(r"(`+)(?!`).*?(?<!`)\1(?!`)")
_DETAILS_OPEN = re.compile(r"<details(?=[\s>])[^>]*>", re.IGNORECASE)
_DETAILS_CLOSE = re.compile(r"</details\s*>", re.IGNORECASE)


def _line_of(state: StateBlock, offset: int, start_line: int) -> int:
    line = start_line
    while line < state.lineMax and state.eMarks[line] < offset:
        line += 1
    return line


class _FenceTracker:
    """Tells, line by line, whether a line is inside (or delimits) a fenced code block."""

    def __init__(self) -> None:
        self.fence = ""

    def code(self, line_text: str) -> bool:
        match = _FENCE.match(line_text)
        if self.fence:
            if (
                match
                and match.group(1)[0] == self.fence[0]
                and len(match.group(1)) >= len(self.fence)
                and not line_text[match.end() :].strip()
            ):
                self.fence = ""
            return True
        opening = _FENCE_OPEN.match(line_text)
        if opening and not (opening.group(1)[0] == "`" and "`" in opening.group(2)):
            self.fence = opening.group(1)
            return True
        return False


def _in_code_span(src: str, line_start: int, line_end: int, offset: int) -> bool:
    return any(m.start() < offset < m.end() for m in _CODE_SPAN.finditer(src, line_start, line_end))


def _find_liquid_close(state: StateBlock, tag: Tag, start_line: int, end_line: int) -> Tag | None:
    """The tag closing `tag`, honouring nesting of the same name; None when it is not closed."""
    src, depth = state.src, 1
    limit = state.eMarks[end_line - 1] if end_line > 0 else len(src)
    fences = _FenceTracker()
    pos = tag.end
    line = _line_of(state, pos, start_line)
    while line < end_line:
        line_start, line_end = state.bMarks[line], state.eMarks[line]
        if pos <= line_start and fences.code(src[line_start:line_end]):
            line += 1
            pos = state.bMarks[line] if line < state.lineMax else limit
            continue
        found = src.find("{%", max(pos, line_start), line_end)
        if found < 0:
            line += 1
            pos = state.bMarks[line] if line < state.lineMax else limit
            continue
        escaped = src[found - 1 : found] == "\\" or _in_code_span(src, line_start, line_end, found)
        inner = read_tag(src, found, limit) if not escaped else None
        if inner is None:  # not a tag: an escaped `\{%`, one in `code`, or text
            pos = found + 2
            continue
        if tag.name in OPTIONAL_CLOSE and inner.name != "end" + tag.name:
            return None
        if inner.name == tag.name:
            depth += 1
        elif inner.name == "end" + tag.name:
            depth -= 1
            if depth == 0:
                return inner
        pos = inner.end
        line = _line_of(state, pos, line)
    return None


def _tokenize_span(state: StateBlock, begin: int, end: int, begin_line: int, end_line: int) -> None:
    """Tokenize the source between offsets `begin` and `end` (lines `begin_line`..`end_line`)."""
    src = state.src
    while begin < end and src[begin] in " \t":
        begin += 1
    while end > begin and src[end - 1] in " \t":
        end -= 1
    if begin >= state.eMarks[begin_line]:
        begin_line += 1
        begin = state.bMarks[begin_line] + state.tShift[begin_line] if begin_line <= end_line else end
    if end <= state.bMarks[end_line] + state.tShift[end_line] and end_line > begin_line:
        end_line -= 1
        end = state.eMarks[end_line]
    if begin_line > end_line or begin >= end:
        return
    saved = (
        state.bMarks[begin_line],
        state.tShift[begin_line],
        state.sCount[begin_line],
        state.eMarks[end_line],
    )
    if begin != state.bMarks[begin_line] + state.tShift[begin_line]:
        state.bMarks[begin_line], state.tShift[begin_line] = begin, 0
        state.sCount[begin_line] = state.blkIndent
    state.eMarks[end_line] = end
    old_parent, old_max = state.parentType, state.lineMax
    # Rules such as `paragraph` read up to `lineMax`, not to the end line they are given.
    state.parentType, state.lineMax = "gitbook", end_line + 1
    first_new = len(state.tokens)
    state.md.block.tokenize(state, begin_line, end_line + 1)
    state.parentType, state.lineMax = old_parent, old_max
    if end < saved[3]:
        # html_block and fence keep the character after their last line, assumed to be its newline.
        for token in state.tokens[first_new:]:
            if (
                token.type in ("html_block", "fence")
                and token.map
                and token.map[1] == end_line + 1
                and token.content.endswith(src[end])
            ):
                token.content = token.content[:-1] + "\n"
    state.bMarks[begin_line], state.tShift[begin_line], state.sCount[begin_line] = saved[:3]
    state.eMarks[end_line] = saved[3]


def liquid_block(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    if state.is_code_block(start_line):
        return False
    pos = state.bMarks[start_line] + state.tShift[start_line]
    if not state.src.startswith("{%", pos):
        return False
    limit = state.eMarks[end_line - 1] if end_line > 0 else len(state.src)
    tag = read_tag(state.src, pos, limit)
    if tag is None:
        return False
    if silent:
        return True
    close = None
    if tag.name not in VOID_TAGS and not tag.name.startswith(("end", "@")):
        close = _find_liquid_close(state, tag, start_line, end_line)
    tag_line = _line_of(state, tag.end, start_line)
    if close is None:
        token = state.push("liquid_stray" if tag.name.startswith("end") else "liquid_void", "", 0)
        token.meta = {"tag": tag}
        token.map = [start_line, tag_line + 1]
        after, after_line = tag.end, tag_line
    else:
        close_line = _line_of(state, close.start, tag_line)
        token = state.push("liquid_open", "", 1)
        token.meta = {"tag": tag}
        token.map = [start_line, close_line + 1]
        _tokenize_span(state, tag.end, close.start, tag_line, close_line)
        state.push("liquid_close", "", -1).meta = {"tag": tag}
        after, after_line = close.end, _line_of(state, close.end, close_line)
    _tokenize_span(state, after, state.eMarks[after_line], after_line, after_line)
    state.line = after_line + 1
    return True


def _escaped(text: str, at: int) -> bool:
    """Whether the character at `at` follows an odd number of backslashes."""
    run = len(text[:at]) - len(text[:at].rstrip("\\"))
    return run % 2 == 1


_BACKTICKS = re.compile(r"`+")


def _code_spans(text: str) -> list[tuple[int, int]]:
    """The extents of one line's inline code spans (CommonMark: a backtick run up to the next run of the
    same length; a backslash escapes an opening backtick, not a closing one), where a `<details>` tag is
    code, not a tag."""
    spans: list[tuple[int, int]] = []
    runs = [match.span() for match in _BACKTICKS.finditer(text)]
    index = 0
    while index < len(runs):
        start, end = runs[index]
        start += 1 if _escaped(text, start) else 0
        closing = next((later for later in range(index + 1, len(runs))
                        if runs[later][1] - runs[later][0] == end - start), None)
        if end == start or closing is None:
            index += 1
            continue
        spans.append((start, runs[closing][1]))
        index = closing + 1
    return spans


def _find_details_close(
    state: StateBlock, start: int, start_line: int, end_line: int
) -> re.Match[str] | None:
    depth, fences = 1, _FenceTracker()
    pos, line = start, start_line
    while line < end_line:
        line_start, line_end = state.bMarks[line], state.eMarks[line]
        text = state.src[max(pos, line_start) : line_end]
        if pos <= line_start and fences.code(text):
            line += 1
            continue
        spans = _code_spans(text) if "`" in text else []
        for match in re.finditer(r"<details(?=[\s>])|</details\s*>", text, re.IGNORECASE):
            if _escaped(text, match.start()) or any(a <= match.start() < b for a, b in spans):
                continue  # `\<details>` is text (the renderer escapes a literal tag so), in `…` code
            depth += -1 if match.group(0).startswith("</") else 1
            if depth == 0:
                return _DETAILS_CLOSE.match(state.src, max(pos, line_start) + match.start())
        line += 1
        pos = state.bMarks[line] if line < state.lineMax else line_end
    return None


def details_block(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    if state.is_code_block(start_line):
        return False
    pos = state.bMarks[start_line] + state.tShift[start_line]
    opening = _DETAILS_OPEN.match(state.src, pos, state.eMarks[start_line])
    if opening is None:
        return False
    close = _find_details_close(state, opening.end(), start_line, end_line)
    if close is None:
        return False
    if silent:
        return True
    close_line = _line_of(state, close.start(), start_line)
    token = state.push("details_open", "details", 1)
    token.meta = {"open": " open" in opening.group(0).lower()}
    token.map = [start_line, close_line + 1]
    _tokenize_span(state, opening.end(), close.start(), start_line, close_line)
    state.push("details_close", "details", -1)
    _tokenize_span(state, close.end(), state.eMarks[close_line], close_line, close_line)
    state.line = close_line + 1
    return True


def math_block(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """A formula between two lines that hold only `$$`."""
    if state.is_code_block(start_line):
        return False
    pos = state.bMarks[start_line] + state.tShift[start_line]
    if state.src[pos : state.eMarks[start_line]].rstrip() != "$$":
        return False
    line = start_line + 1
    while line < end_line:
        text = state.src[state.bMarks[line] + state.tShift[line] : state.eMarks[line]].rstrip()
        if text == "$$" and state.sCount[line] >= state.blkIndent:
            break
        line += 1
    else:
        return False
    if silent:
        return True
    token = state.push("gitbook_math_block", "math", 0)
    token.content = state.getLines(start_line + 1, line, state.sCount[start_line], False)
    token.map = [start_line, line + 1]
    state.line = line + 1
    return True


def install(md: MarkdownIt) -> None:
    terminates: RuleOptionsType = {"alt": ["paragraph", "reference", "blockquote", "list"]}
    md.block.ruler.before("fence", "gitbook_liquid", liquid_block, terminates)
    md.block.ruler.before("html_block", "gitbook_details", details_block, terminates)
    md.block.ruler.before("fence", "gitbook_math", math_block, terminates)
