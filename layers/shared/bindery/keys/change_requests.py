"""Keys of change requests and what hangs off them (see docs/change-requests.md).

A change request lives in its space's partition, next to the revisions it points at:

    SPACE#{spaceId} / CR#{id}                               the change request
    SPACE#{spaceId} / CR#{id}#REVIEW#{reviewId}             a review (review ids sort by time)
    SPACE#{spaceId} / CR#{id}#REVIEWER#{user|team}#{id}     a requested reviewer
    SPACE#{spaceId} / CR#{id}#CONTRIBUTOR#{userId}          a contributor

Indexes of the change request item (numbers are zero-padded so that they sort as numbers):

    GSI1  SPACE#{spaceId}#CRS#{status} / {number}           a space's change requests by status
    GSI2  SPACE#{spaceId}#CRNUMBER / {number}               the one change request with a number
    GSI3  ORG#{orgId}#CRS#{status} / {createdAt}#{id}       an organization's change requests by status
"""

from __future__ import annotations

from bindery.keys import Key

NUMBER_WIDTH = 10


def _number(number: int) -> str:
    return f"{number:0{NUMBER_WIDTH}d}"


def change_request(space_id: str, change_request_id: str) -> Key:
    return {"PK": f"SPACE#{space_id}", "SK": f"CR#{change_request_id}"}


def review_prefix(change_request_id: str) -> str:
    return f"CR#{change_request_id}#REVIEW#"


def review(space_id: str, change_request_id: str, review_id: str) -> Key:
    return {"PK": f"SPACE#{space_id}", "SK": review_prefix(change_request_id) + review_id}


def requested_reviewer_prefix(change_request_id: str) -> str:
    return f"CR#{change_request_id}#REVIEWER#"


def requested_reviewer(space_id: str, change_request_id: str, kind: str, principal_id: str) -> Key:
    """`kind` is "user" or "team"."""
    return {"PK": f"SPACE#{space_id}",
            "SK": f"{requested_reviewer_prefix(change_request_id)}{kind.upper()}#{principal_id}"}


def contributor_prefix(change_request_id: str) -> str:
    return f"CR#{change_request_id}#CONTRIBUTOR#"


def contributor(space_id: str, change_request_id: str, user_id: str) -> Key:
    return {"PK": f"SPACE#{space_id}", "SK": contributor_prefix(change_request_id) + user_id}


def space_partition(space_id: str) -> str:
    return f"SPACE#{space_id}"


def space_status_partition(space_id: str, status: str) -> str:
    return f"SPACE#{space_id}#CRS#{status}"


def number_partition(space_id: str) -> str:
    return f"SPACE#{space_id}#CRNUMBER"


def number_sort_key(number: int) -> str:
    return _number(number)


def org_status_partition(org_id: str, status: str) -> str:
    return f"ORG#{org_id}#CRS#{status}"


def change_request_gsi(space_id: str, org_id: str, status: str, *, number: int, created_at: str,
                       change_request_id: str) -> dict[str, str]:
    return {
        "GSI1PK": space_status_partition(space_id, status), "GSI1SK": _number(number),
        "GSI2PK": number_partition(space_id), "GSI2SK": _number(number),
        "GSI3PK": org_status_partition(org_id, status), "GSI3SK": f"{created_at}#{change_request_id}",
    }
