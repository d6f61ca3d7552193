"""Comments (keys.comments): one item per comment in its space's partition.

    {PK: SPACE#{spaceId}, SK: COMMENT#{target}#{id}, type: "comment", id, spaceId, changeRequest?,
     revision, page?, node?, tableCell? {record, definition}, postedBy, postedAt, editedAt?, body
     (Markdown), mentions [userId], status ("open" | "resolved"), resolvedAt?, resolvedBy?,
     reactions {"{userId}|{emoji}": reactedAt}, replies (number), replierCounts {userId: n},
     replierUpdated {userId: ts}, GSI1..3 (keys.comments)}

Everything that several requests may change at once is changed in place by one UpdateItem expression,
never by writing back what was read: a reaction is one map entry (SET if_not_exists / REMOVE, so a user
counts once per emoji whatever the races), reply counts are ADD / `x = x + n`, and a status change is
conditioned on the status it starts from. The target's `comments` counter moves in the same transaction.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from boto3.dynamodb.conditions import Attr, ConditionBase

from bindery import keys
from bindery.keys import Key
from bindery.keys import change_requests as cr_keys
from bindery.keys import comments as comment_keys
from bindery.store import table
from bindery.store.table import Item

OPEN, RESOLVED = "open", "resolved"
# Reaction entries a comment or reply may hold (each is one user's one emoji): keeps the item far below
# DynamoDB's 400 KB whatever the body.
MAX_REACTIONS = 1000


def reaction_entry(user_id: str, emoji: str) -> str:
    """User ids never hold "|", so the first one separates the two."""
    return f"{user_id}|{emoji}"


def split_reaction_entry(entry: str) -> tuple[str, str]:
    user_id, _, emoji = entry.partition("|")
    return user_id, emoji


@dataclass
class Post:
    """What comments and replies share."""

    id: str
    space_id: str
    change_request_id: str | None
    posted_by: str
    posted_at: str
    body: str
    mentions: list[str] = field(default_factory=list)
    edited_at: str | None = None
    reactions: dict[str, str] = field(default_factory=dict)

    @property
    def target(self) -> str:
        return comment_keys.target(self.change_request_id)

    def post_attributes(self) -> Item:
        item: Item = {"id": self.id, "spaceId": self.space_id, "postedBy": self.posted_by,
                      "postedAt": self.posted_at, "body": self.body, "mentions": self.mentions,
                      "reactions": self.reactions}
        if self.change_request_id:
            item["changeRequest"] = self.change_request_id
        if self.edited_at:
            item["editedAt"] = self.edited_at
        return item

    @staticmethod
    def post_values(item: Item) -> dict[str, Any]:
        return {"id": item["id"], "space_id": item["spaceId"], "change_request_id": item.get("changeRequest"),
                "posted_by": item["postedBy"], "posted_at": item["postedAt"], "body": item["body"],
                "mentions": list(item.get("mentions") or []), "edited_at": item.get("editedAt"),
                "reactions": dict(item.get("reactions") or {})}


@dataclass
class Comment(Post):
    revision: str = ""
    page: str | None = None
    node: str | None = None
    table_cell: dict[str, str] | None = None
    status: str = OPEN
    resolved_at: str | None = None
    resolved_by: str | None = None
    replies: int = 0
    replier_counts: dict[str, int] = field(default_factory=dict)
    replier_updated: dict[str, str] = field(default_factory=dict)

    @property
    def key(self) -> Key:
        return comment_keys.comment(self.space_id, self.target, self.id)

    def to_item(self) -> Item:
        item: Item = {**self.key, "type": "comment", **self.post_attributes(), "revision": self.revision,
                      "status": self.status, "replies": self.replies, "replierCounts": self.replier_counts,
                      "replierUpdated": self.replier_updated,
                      **comment_keys.comment_gsi(self.space_id, self.target, self.id, status=self.status,
                                                 page_id=self.page, author=self.posted_by)}
        for name, value in (("page", self.page), ("node", self.node), ("tableCell", self.table_cell),
                            ("resolvedAt", self.resolved_at), ("resolvedBy", self.resolved_by)):
            if value:
                item[name] = value
        return item

    @classmethod
    def from_item(cls, item: Item) -> Comment:
        return cls(**cls.post_values(item), revision=item.get("revision", ""), page=item.get("page"),
                   node=item.get("node"), table_cell=item.get("tableCell"), status=item.get("status", OPEN),
                   resolved_at=item.get("resolvedAt"), resolved_by=item.get("resolvedBy"),
                   replies=int(item.get("replies", 0)),
                   replier_counts={k: int(v) for k, v in (item.get("replierCounts") or {}).items()},
                   replier_updated=dict(item.get("replierUpdated") or {}))


# --- update expressions ----------------------------------------------------------------------------------
@dataclass
class Change:
    """One UpdateItem expression being put together (every name and value through a placeholder)."""

    key: Key
    conditions: list[str] = field(default_factory=lambda: ["attribute_exists(PK)"])
    sets: list[str] = field(default_factory=list)
    removes: list[str] = field(default_factory=list)
    adds: list[str] = field(default_factory=list)
    names: dict[str, str] = field(default_factory=dict)
    values: dict[str, Any] = field(default_factory=dict)

    def name(self, attribute: str) -> str:
        for placeholder, known in self.names.items():
            if known == attribute:
                return placeholder
        placeholder = f"#n{len(self.names)}"
        self.names[placeholder] = attribute
        return placeholder

    def path(self, *attributes: str) -> str:
        return ".".join(self.name(attribute) for attribute in attributes)

    def value(self, value: Any) -> str:
        placeholder = f":v{len(self.values)}"
        self.values[placeholder] = value
        return placeholder

    def assign(self, attributes: dict[str, Any]) -> None:
        self.sets += [f"{self.name(name)} = {self.value(value)}" for name, value in attributes.items()]

    @property
    def empty(self) -> bool:
        return not (self.sets or self.removes or self.adds)

    def op(self) -> table.Op:
        clauses = []
        if self.sets:
            clauses.append("SET " + ", ".join(self.sets))
        if self.removes:
            clauses.append("REMOVE " + ", ".join(self.removes))
        if self.adds:
            clauses.append("ADD " + ", ".join(self.adds))
        return table.update_op(self.key, " ".join(clauses), self.values or None,
                               " AND ".join(self.conditions), self.names)


def react(change: Change, user_id: str, added: list[str], removed: list[str], at: str) -> None:
    """Add and take away `user_id`'s reactions: a reaction already there keeps its first `reactedAt`,
    taking one that is not there changes nothing."""
    for emoji in added:
        path = change.path("reactions", reaction_entry(user_id, emoji))
        change.sets.append(f"{path} = if_not_exists({path}, {change.value(at)})")
    for emoji in removed:
        change.removes.append(change.path("reactions", reaction_entry(user_id, emoji)))
    if added:
        room = change.value(MAX_REACTIONS - len(added))
        change.conditions.append(f"size({change.name('reactions')}) <= {room}")


def edit_body(change: Change, body: str, mentions: list[str], at: str) -> None:
    change.assign({"body": body, "mentions": mentions, "editedAt": at})


def set_status(change: Change, comment: Comment, status: str, user_id: str, at: str) -> None:
    """Move the comment from the status it was read in to `status` (fails if someone moved it meanwhile)."""
    change.conditions.append(f"{change.name('status')} = {change.value(comment.status)}")
    gsi = comment_keys.status_gsi(comment.space_id, comment.target, comment.id, status)
    change.assign({"status": status, "GSI1PK": gsi["GSI1PK"]})
    if status == RESOLVED:
        change.assign({"resolvedAt": at, "resolvedBy": user_id})
    else:
        change.removes += [change.name("resolvedAt"), change.name("resolvedBy")]


def target_token(change_request_id: str | None) -> str:
    """What names a comment's target inside its space (the space itself, or one change request)."""
    return comment_keys.target(change_request_id)


def post_comment_op(comment: Comment) -> table.Op:
    return table.put_op(comment.to_item(), "attribute_not_exists(PK)")


def comment_items(space_id: str, target: str, comment_ids: list[str]) -> list[Item]:
    """The comments (or whatever is left of them) of one target by id: one BatchGetItem (up to 100)."""
    return table.batch_get([comment_keys.comment(space_id, target, cid) for cid in comment_ids])


def space_counter_op(space_id: str, delta: int, resolved: int = 0) -> table.Op:
    """The space's open- and resolved-comments counters (the space must still be live)."""
    return counter_op(keys.space(space_id), delta, space=True, resolved=resolved)


def change_request_counter_op(space_id: str, change_request_id: str, delta: int,
                              resolved: int = 0) -> table.Op:
    """A change request's open- and resolved-comments counters."""
    return counter_op(cr_keys.change_request(space_id, change_request_id), delta, space=False,
                      resolved=resolved)


def counter_op(target_key: Key, delta: int, *, space: bool, resolved: int = 0) -> table.Op:
    """The target's `comments` (open comments, shown on the space or change request) and
    `commentsResolved` counters (with `comments`, the comment listing's `count`); a space must still
    be live."""
    condition = "attribute_exists(PK)" + (" AND attribute_not_exists(deletedAt)" if space else "")
    return table.update_op(target_key, "ADD comments :d, commentsResolved :r", {":d": delta, ":r": resolved},
                           condition)


# --- commenters ------------------------------------------------------------------------------------------
def commenter_op(space_id: str, target: str, user_id: str, delta: int, at: str) -> table.Op:
    """Upsert the (target, user) commenter item: `count` is their comments and replies there."""
    key = comment_keys.commenter(space_id, target, user_id)
    if delta > 0:
        return table.update_op(key, "SET #t = :t, userId = :u, firstAt = if_not_exists(firstAt, :at) "
                               "ADD #c :d", {":t": "commenter", ":u": user_id, ":at": at, ":d": delta},
                               names={"#t": "type", "#c": "count"})
    return table.update_op(key, "ADD #c :d", {":d": delta}, "attribute_exists(PK)", {"#c": "count"})


def forget_commenters(space_id: str, target: str, user_ids: list[str]) -> None:
    """Delete the commenter items whose count fell to zero (a concurrent post that counts again keeps its
    item: the condition fails; one that comes after recreates it whole, see commenter_op)."""
    from botocore.exceptions import ClientError

    from bindery.platform.aws import dynamodb_table

    for user_id in dict.fromkeys(user_ids):
        try:
            dynamodb_table().delete_item(Key=comment_keys.commenter(space_id, target, user_id),
                                         ConditionExpression="#c <= :zero",
                                         ExpressionAttributeNames={"#c": "count"},
                                         ExpressionAttributeValues={":zero": 0})
        except ClientError as error:
            if error.response["Error"]["Code"] != "ConditionalCheckFailedException":
                raise


def commenters_page(space_id: str, target: str, limit: int,
                    start_key: dict[str, Any] | None) -> table.QueryPage:
    """One page of the target's commenters, by user id (those whose comments were all deleted: skipped)."""
    return table.Query(partition=comment_keys.partition(space_id),
                       prefix=comment_keys.commenter_prefix(target), limit=limit, start_key=start_key,
                       filter=Attr("count").gt(0)).run()


# --- reads -----------------------------------------------------------------------------------------------
def get_comment(space_id: str, target: str, comment_id: str) -> Comment | None:
    item = table.get(comment_keys.comment(space_id, target, comment_id))
    return Comment.from_item(item) if item and item.get("type") == "comment" else None


@dataclass(frozen=True)
class CommentFilter:
    status: str | None = None  # None: all
    page: str | None = None
    authors: tuple[str, ...] = ()


def comments_page(space_id: str, target: str, wanted: CommentFilter, *, forward: bool, limit: int,
                  start_key: dict[str, Any] | None) -> table.QueryPage:
    """One page of the target's comments in id (time) order."""
    query = _comments_query(space_id, target, wanted)
    query.forward, query.limit, query.start_key = forward, limit, start_key
    return query.run()


def comments_count(space_id: str, target: str, wanted: CommentFilter) -> int:
    """How many comments `comments_page` lists over all its pages: one `Select=COUNT` Query."""
    return _comments_query(space_id, target, wanted).count()


def _comments_query(space_id: str, target: str, wanted: CommentFilter) -> table.Query:
    """The most selective filter picks the partition (page: GSI2, one author: GSI3, status: GSI1, else
    the space's partition); the others narrow what is read."""
    narrow: list[ConditionBase] = []
    if wanted.page:
        query = table.Query(partition=comment_keys.page_partition(space_id, target, wanted.page),
                            index="GSI2")
    elif len(wanted.authors) == 1:
        query = table.Query(partition=comment_keys.author_partition(space_id, target, wanted.authors[0]),
                            index="GSI3")
    elif wanted.status:
        query = table.Query(partition=comment_keys.status_partition(space_id, target, wanted.status),
                            index="GSI1")
    else:
        query = table.Query(partition=comment_keys.partition(space_id),
                            prefix=comment_keys.comment_prefix(target))
    if wanted.status and query.index != "GSI1":
        narrow.append(Attr("status").eq(wanted.status))
    if wanted.authors and query.index != "GSI3":
        narrow.append(Attr("postedBy").is_in(list(wanted.authors)))
    condition: ConditionBase | None = None
    for part in narrow:
        condition = part if condition is None else condition & part
    query.filter = condition
    return query
