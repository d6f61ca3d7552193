"""Reviews, requested reviewers and contributors of a change request: items in its space's partition,
next to the change request (keys.change_requests), each listed with one Query of its prefix.

    CR#{crId}#REVIEW#{id}          {id, changeRequestId, reviewerId, status, revision, requestedBy?,
                                    commentId?, createdAt, updatedAt}    (ids sort by time; the
                                                                         comment is a CR comment)
    CR#{crId}#REVIEWER#USER#{uid}  {userId, requestedBy, revision, createdAt}
    CR#{crId}#CONTRIBUTOR#{uid}    {userId, count, updatedAt}            (count: edits made)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bindery.keys import change_requests as cr_keys
from bindery.store import table
from bindery.store.table import Item


@dataclass(frozen=True)
class Review:
    id: str
    space_id: str
    change_request_id: str
    reviewer_id: str
    status: str
    revision: str
    created_at: str
    updated_at: str
    requested_by: str | None = None
    comment_id: str | None = None  # the change request comment posted with the review

    def to_item(self) -> Item:
        item: Item = {**cr_keys.review(self.space_id, self.change_request_id, self.id),
                      "type": "change-request-review", "id": self.id, "spaceId": self.space_id,
                      "changeRequestId": self.change_request_id, "reviewerId": self.reviewer_id,
                      "status": self.status, "revision": self.revision, "createdAt": self.created_at,
                      "updatedAt": self.updated_at}
        if self.requested_by:
            item["requestedBy"] = self.requested_by
        if self.comment_id is not None:
            item["commentId"] = self.comment_id
        return item

    @classmethod
    def from_item(cls, item: Item) -> Review:
        return cls(id=item["id"], space_id=item["spaceId"], change_request_id=item["changeRequestId"],
                   reviewer_id=item["reviewerId"], status=item["status"], revision=item["revision"],
                   created_at=item["createdAt"], updated_at=item["updatedAt"],
                   requested_by=item.get("requestedBy"), comment_id=item.get("commentId"))


@dataclass(frozen=True)
class RequestedReviewer:
    space_id: str
    change_request_id: str
    user_id: str
    requested_by: str
    revision: str
    created_at: str

    def to_item(self) -> Item:
        return {**cr_keys.requested_reviewer(self.space_id, self.change_request_id, "user", self.user_id),
                "type": "change-request-reviewer", "userId": self.user_id, "requestedBy": self.requested_by,
                "revision": self.revision, "createdAt": self.created_at, "spaceId": self.space_id,
                "changeRequestId": self.change_request_id}

    @classmethod
    def from_item(cls, item: Item) -> RequestedReviewer:
        return cls(space_id=item["spaceId"], change_request_id=item["changeRequestId"],
                   user_id=item["userId"], requested_by=item["requestedBy"], revision=item["revision"],
                   created_at=item["createdAt"])


@dataclass(frozen=True)
class Contributor:
    user_id: str
    count: int
    updated_at: str


def _page(space_id: str, prefix: str, limit: int, start_key: dict[str, Any] | None,
          forward: bool = True) -> table.QueryPage:
    return table.Query(partition=cr_keys.space_partition(space_id), prefix=prefix, limit=limit,
                       start_key=start_key, forward=forward).run()


def _all(space_id: str, prefix: str) -> list[Item]:
    items: list[Item] = []
    start: dict[str, Any] | None = None
    while True:
        page = _page(space_id, prefix, 1000, start)
        items.extend(page.items)
        if not page.last_key:
            return items
        start = page.last_key


# --- reviews ------------------------------------------------------------------------------------------
def get_review(space_id: str, change_request_id: str, review_id: str) -> Review | None:
    item = table.get(cr_keys.review(space_id, change_request_id, review_id))
    return Review.from_item(item) if item else None


def reviews_page(space_id: str, change_request_id: str, limit: int,
                 start_key: dict[str, Any] | None) -> table.QueryPage:
    """Newest first."""
    return _page(space_id, cr_keys.review_prefix(change_request_id), limit, start_key, forward=False)


def all_reviews(space_id: str, change_request_id: str) -> list[Review]:
    """Every review, oldest first (a change request has few: one Query page in practice)."""
    return [Review.from_item(item) for item in _all(space_id, cr_keys.review_prefix(change_request_id))]


def put_review_op(review: Review) -> table.Op:
    return table.put_op(review.to_item(), "attribute_not_exists(PK)")


RECORD = "record-review"  # the name of `record_review_op` in a transaction


def record_review_op(review: Review, *, as_latest: bool = True) -> table.Op:
    """On the change request: the review is the reviewer's latest, their pending request is fulfilled,
    its comment counts (one operation per item in a transaction); if it is still draft or open.

    The latest is the newest (ids are time-ordered): `as_latest` sets it only if no newer review of the
    same reviewer is there already, since two reviews submitted at once may land in either order. A
    review that finds a newer one there is recorded again without `as_latest` (it counts, it is not the
    latest)."""
    key = cr_keys.change_request(review.space_id, review.change_request_id)
    values: dict[str, Any] = {":reviewers": {review.reviewer_id}, ":open": "open", ":draft": "draft",
                              ":one": 1}
    names = {"#st": "status"}
    condition = "attribute_exists(PK) AND #st IN (:open, :draft)"
    # `reviews` counts every review (reviews are never deleted): the listing's `count`.
    expression = "DELETE requestedReviewers :reviewers ADD reviews :one"
    if as_latest:
        values[":latest"] = {"id": review.id, "status": review.status, "revision": review.revision}
        values[":id"] = review.id
        names.update({"#reviewer": review.reviewer_id, "#id": "id"})
        expression = "SET latestReviews.#reviewer = :latest " + expression
        condition += (" AND (attribute_not_exists(latestReviews.#reviewer)"
                      " OR latestReviews.#reviewer.#id < :id)")
    if review.comment_id is not None:
        expression += ", comments :one"
    return table.update_op(key, expression, values, condition, names, name=RECORD)


# --- requested reviewers --------------------------------------------------------------------------------
def requested_reviewers_page(space_id: str, change_request_id: str, limit: int,
                             start_key: dict[str, Any] | None) -> table.QueryPage:
    return _page(space_id, cr_keys.requested_reviewer_prefix(change_request_id), limit, start_key)


def all_requested_reviewers(space_id: str, change_request_id: str) -> list[RequestedReviewer]:
    prefix = cr_keys.requested_reviewer_prefix(change_request_id)
    return [RequestedReviewer.from_item(item) for item in _all(space_id, prefix)]


def get_requested_reviewer(space_id: str, change_request_id: str, user_id: str) -> Item | None:
    return table.get(cr_keys.requested_reviewer(space_id, change_request_id, "user", user_id))


def request_reviews_op(space_id: str, change_request_id: str, user_ids: list[str], updated_at: str, *,
                       subject: str | None = None, description: dict[str, Any] | None = None) -> table.Op:
    """On a draft or open change request: `user_ids` join its requested reviewers and their latest
    reviews are forgotten (a new request supersedes them); a `subject`/`description` given is set too."""
    names = {"#st": "status", "#updated": "updatedAt"}
    values: dict[str, Any] = {":users": set(user_ids), ":open": "open", ":draft": "draft",
                              ":now": updated_at}
    sets = ["#updated = :now"]
    for attribute, value in (("subject", subject), ("description", description)):
        if value is not None:
            names[f"#{attribute}"], values[f":{attribute}"] = attribute, value
            sets.append(f"#{attribute} = :{attribute}")
    removes = []
    for index, user_id in enumerate(user_ids):
        names[f"#u{index}"] = user_id
        removes.append(f"latestReviews.#u{index}")
    expression = f"SET {', '.join(sets)} ADD requestedReviewers :users REMOVE {', '.join(removes)}"
    return table.update_op(cr_keys.change_request(space_id, change_request_id), expression,
                           values, "attribute_exists(PK) AND #st IN (:open, :draft)", names)


REQUEST = "requested-reviewer"  # the name of the request's own delete in `withdraw_request_ops`


def withdraw_request_ops(space_id: str, change_request_id: str, user_id: str) -> list[table.Op]:
    """Delete the pending request (it must exist: `TransactionConflict.failed(REQUEST)` when it did not)
    and take the user out of the change request's requested reviewers."""
    request = delete_requested_reviewer_op(space_id, change_request_id, user_id, must_exist=True)
    return [table.named(REQUEST, request),
            table.update_op(cr_keys.change_request(space_id, change_request_id),
                            "DELETE requestedReviewers :users", {":users": {user_id}},
                            "attribute_exists(PK)")]


def put_requested_reviewer_op(request: RequestedReviewer) -> table.Op:
    """Put (or renew) a request: a renewed one supersedes the reviewer's earlier reviews."""
    return table.put_op(request.to_item())


def delete_requested_reviewer_op(space_id: str, change_request_id: str, user_id: str, *,
                                 must_exist: bool) -> table.Op:
    key = cr_keys.requested_reviewer(space_id, change_request_id, "user", user_id)
    return table.delete_op(key, "attribute_exists(PK)" if must_exist else None)


# --- contributors ---------------------------------------------------------------------------------------
def contributors_page(space_id: str, change_request_id: str, limit: int,
                      start_key: dict[str, Any] | None) -> tuple[list[Contributor], dict[str, Any] | None]:
    page = _page(space_id, cr_keys.contributor_prefix(change_request_id), limit, start_key)
    contributors = [Contributor(item["userId"], int(item.get("count", 0)), item["updatedAt"])
                    for item in page.items]
    return contributors, page.last_key


def contribution_op(space_id: str, change_request_id: str, user_id: str, at: str) -> table.Op:
    """Count one more edit by `user_id` (creating the contributor on their first)."""
    return table.update_op(cr_keys.contributor(space_id, change_request_id, user_id),
                           "SET userId = :user, updatedAt = :at, #type = :type ADD #count :one",
                           {":user": user_id, ":at": at, ":one": 1, ":type": "change-request-contributor"},
                           names={"#count": "count", "#type": "type"})
