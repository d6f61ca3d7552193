"""Comment and reply bodies: Markdown as stored, rendered to a JSON document on request (`format=document`).

A body arrives as `{markdown}` or as `{document}` (written to Markdown first). Mentions are Markdown links
titled "mention", as GitBook writes them, to a user's location (`…/users/{userId}`, the `urls.location`
of a User, or GitBook's `…/u/{userId}`): those naming an active member of the space's organization are
recorded with the body (`mentions`) and read back as `mention` inlines referring to the user; any other
stays a link to its URL.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

# The package loads markdown-it on first use: routes that never convert do not pay for it.
from bindery.engines.content import markdown as markdown_engine
from bindery.engines.content.markdown.model import paragraph
from bindery.platform.errors import BadRequest
from bindery.requests.comments import CommentBody
from bindery.store.members import get_members

MAX_MARKDOWN = 20_000
MAX_MENTIONS = 50
USER_URL = re.compile(r"(?:^|/)(?:users|u)/([0-9A-Za-z_-]{1,64})/?$")
# Parsed in front of the body so that a leading `# heading` stays a heading and a leading `---` block
# stays Markdown (a page's title and front matter, for markdown_to_document); dropped afterwards.
_LEAD = "lead\n\n"


@dataclass(frozen=True)
class Body:
    markdown: str
    mentions: list[str]


def _user_in(url: str) -> str | None:
    found = USER_URL.search(url.strip())
    return found.group(1) if found else None


def prepare(org_id: str, body: CommentBody, field: str = "body") -> Body:
    """The Markdown to store and the members it mentions (one BatchGetItem when it mentions anyone)."""
    if body.document is not None:
        try:
            markdown = markdown_engine.document_to_markdown(body.document.model_dump())
        except (KeyError, TypeError, ValueError) as error:
            raise BadRequest(f"{field}.document: not a document this API can read") from error
    else:
        markdown = body.markdown or ""
    if not markdown.strip():
        raise BadRequest(f"{field}.markdown: must not be empty")
    if len(markdown) > MAX_MARKDOWN:
        raise BadRequest(f"{field}.markdown: at most {MAX_MARKDOWN} characters")
    links = markdown_engine.markdown_to_document(markdown).links
    candidates = list(dict.fromkeys(uid for url in links if (uid := _user_in(url)) is not None))
    candidates = candidates[:MAX_MENTIONS]
    members = get_members(org_id, candidates) if candidates else {}
    mentions = [uid for uid in candidates if uid in members and not members[uid].disabled]
    return Body(markdown, mentions)


def to_document(markdown: str, mentions: list[str]) -> dict[str, Any]:
    """The body as a JSON document (`format=document`): its mentions become `mention` inlines."""
    known = set(mentions)

    def resolve(url: str) -> Mapping[str, Any] | None:
        user_id = _user_in(url)
        return {"kind": "user", "user": user_id} if user_id in known else None

    parsed = markdown_engine.markdown_to_document(_LEAD + markdown, resolve_link=resolve)
    nodes = list(parsed.document.get("nodes") or [])[1:] or [paragraph()]
    return markdown_engine.assign_keys({"object": "document", "data": {}, "nodes": nodes})
