"""Keys of comments, their replies and commenters (see docs/comments.md).

Everything lives in the space's partition. `target` names what the comments are on: `SPACE` (the
space itself) or `CR#{changeRequestId}` (a change request of the space):

    SPACE#{spaceId} / COMMENT#{target}#{commentId}               a comment (ids sort by time)
    SPACE#{spaceId} / REPLY#{target}#{commentId}#{replyId}        a reply, beside its comment's others
    SPACE#{spaceId} / COMMENTER#{target}#{userId}                 someone who commented or replied

Indexes of a comment item, for the listing's filters (sort keys are comment ids, so time order):

    GSI1  SPACE#{spaceId}#{target}#COMMENTS#STATUS#{status}      by status (open | resolved)
    GSI2  SPACE#{spaceId}#{target}#COMMENTS#PAGE#{pageId}        by target page (page comments only)
    GSI3  SPACE#{spaceId}#{target}#COMMENTS#AUTHOR#{userId}      by author
"""

from __future__ import annotations

from bindery.keys import Key

SPACE_TARGET = "SPACE"


def target(change_request_id: str | None) -> str:
    return SPACE_TARGET if change_request_id is None else f"CR#{change_request_id}"


def partition(space_id: str) -> str:
    return f"SPACE#{space_id}"


def comment_prefix(target_: str) -> str:
    return f"COMMENT#{target_}#"


def comment(space_id: str, target_: str, comment_id: str) -> Key:
    return {"PK": partition(space_id), "SK": comment_prefix(target_) + comment_id}


def reply_prefix(target_: str, comment_id: str) -> str:
    return f"REPLY#{target_}#{comment_id}#"


def reply(space_id: str, target_: str, comment_id: str, reply_id: str) -> Key:
    return {"PK": partition(space_id), "SK": reply_prefix(target_, comment_id) + reply_id}


def commenter_prefix(target_: str) -> str:
    return f"COMMENTER#{target_}#"


def commenter(space_id: str, target_: str, user_id: str) -> Key:
    return {"PK": partition(space_id), "SK": commenter_prefix(target_) + user_id}


def _listing(space_id: str, target_: str) -> str:
    return f"SPACE#{space_id}#{target_}#COMMENTS"


def status_partition(space_id: str, target_: str, status: str) -> str:
    return f"{_listing(space_id, target_)}#STATUS#{status}"


def page_partition(space_id: str, target_: str, page_id: str) -> str:
    return f"{_listing(space_id, target_)}#PAGE#{page_id}"


def author_partition(space_id: str, target_: str, user_id: str) -> str:
    return f"{_listing(space_id, target_)}#AUTHOR#{user_id}"


def status_gsi(space_id: str, target_: str, comment_id: str, status: str) -> dict[str, str]:
    return {"GSI1PK": status_partition(space_id, target_, status), "GSI1SK": comment_id}


def comment_gsi(space_id: str, target_: str, comment_id: str, *, status: str, page_id: str | None,
                author: str) -> dict[str, str]:
    attrs = {**status_gsi(space_id, target_, comment_id, status),
             "GSI3PK": author_partition(space_id, target_, author), "GSI3SK": comment_id}
    if page_id:
        attrs.update({"GSI2PK": page_partition(space_id, target_, page_id), "GSI2SK": comment_id})
    return attrs
