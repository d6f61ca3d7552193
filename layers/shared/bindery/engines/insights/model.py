"""What the insights engine reads and returns: a conversation's messages and the issues found in it."""

from __future__ import annotations

from dataclasses import dataclass

USER = "user"
ASSISTANT = "assistant"
TEAM_MEMBER = "team-member"
ROLES = (USER, ASSISTANT, TEAM_MEMBER)

TITLE_MAX = 100
SUMMARY_MAX = 600


@dataclass(frozen=True)
class Message:
    """One part of a conversation: who said it (`user`, `assistant` or `team-member`) and what."""

    role: str
    text: str


@dataclass(frozen=True)
class ExtractedIssue:
    """A problem the user raised: a short title (≤ TITLE_MAX characters) and a summary in the user's own
    words (≤ SUMMARY_MAX characters)."""

    title: str
    summary: str


def shorten(text: str, limit: int) -> str:
    """`text` in at most `limit` characters, cut at a word boundary with an ellipsis."""
    text = text.strip()
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    if " " in cut[limit // 2:]:
        cut = cut[: cut.rindex(" ")]
    return cut.rstrip(" ,;:-") + "…"
