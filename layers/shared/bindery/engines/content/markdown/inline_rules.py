"""markdown-it inline rules for GitBook's inline math (`$$x^2$$`) and emoji shortcodes (`:smile:`).

GitBook writes inline formulas between double dollars only, so a single `$` (prices, shell variables)
stays text, unlike with the usual dollar-math plugins. A shortcode becomes an emoji only when it names
one; `\\:` keeps a literal colon.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bindery.engines.content.markdown import emoji_codes

if TYPE_CHECKING:
    from markdown_it import MarkdownIt
    from markdown_it.rules_inline import StateInline


def math_inline(state: StateInline, silent: bool) -> bool:
    src, pos = state.src, state.pos
    if not src.startswith("$$", pos):
        return False
    end = src.find("$$", pos + 2, state.posMax)
    if end < 0 or end == pos + 2 or "\n" in src[pos:end]:
        return False
    if not silent:
        token = state.push("gitbook_math_inline", "math", 0)
        token.content = src[pos + 2 : end]
    state.pos = end + 2
    return True


def emoji(state: StateInline, silent: bool) -> bool:
    src, pos = state.src, state.pos
    if src[pos] != ":":
        return False
    end = src.find(":", pos + 1, min(state.posMax, pos + 82))
    if end < 0:
        return False
    name = src[pos + 1 : end]
    if not name or any(ch.isspace() for ch in name) or not emoji_codes.is_name(name):
        return False
    if not silent:
        token = state.push("gitbook_emoji", "", 0)
        token.content = name
        token.meta = {"code": emoji_codes.code_for_name(name)}
    state.pos = end + 1
    return True


def install(md: MarkdownIt) -> None:
    md.inline.ruler.before("escape", "gitbook_math_inline", math_inline)
    md.inline.ruler.after("gitbook_math_inline", "gitbook_emoji", emoji)
