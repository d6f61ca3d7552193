"""Grants: a user's or a team's role on one space or collection.

A grant is stored twice, always in the same transaction: as an entry of the node's `grants` map
("user:<id>" / "team:<id>" → role), which the access check reads with the node in one GetItem, and as an
item of its own in the node's partition (`{KIND}#GRANT#{USER|TEAM}#id`), which the permission listings
page through. User grants are also indexed on GSI1 under the member, for "the spaces of a member".

Counters: the member's `spaces` counts their direct grants on spaces, the team's `spaces` its grants on
spaces; both move in the transaction that adds or removes the grant. Collection grants move no counter.
Every grant change also moves the node's `updatedAt` under an `updatedAt = :seen` condition: writes that
replace a whole node item use the same condition, so none of them can put back a stale `grants` map.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from bindery import keys
from bindery.clock import iso, now
from bindery.store import table
from bindery.store.content_nodes import Node
from bindery.store.table import Item

EXISTS = "attribute_exists(PK)"


def map_key(principal: str, principal_id: str) -> str:
    return f"{principal}:{principal_id}"


def principal_key(org_id: str, principal: str, principal_id: str) -> keys.Key:
    """The member or team item a grant names."""
    return keys.member(org_id, principal_id) if principal == "user" else keys.team(org_id, principal_id)


@dataclass
class Grant:
    kind: str  # "space" | "collection"
    content_id: str
    org_id: str
    principal: str  # "user" | "team"
    principal_id: str
    role: str

    @property
    def key(self) -> keys.Key:
        return keys.grant(self.kind, self.content_id, self.principal, self.principal_id)

    def to_item(self) -> Item:
        item: Item = {**self.key, "type": "grant", "kind": self.kind, "contentId": self.content_id,
                      "orgId": self.org_id, "principal": self.principal, "principalId": self.principal_id,
                      "role": self.role}
        if self.principal == "user":
            item["GSI1PK"] = keys.user_grants_partition(self.org_id, self.principal_id)
            item["GSI1SK"] = f"{self.kind.upper()}#{self.content_id}"
        return item

    @classmethod
    def from_item(cls, item: Item) -> Grant:
        return cls(kind=item["kind"], content_id=item["contentId"], org_id=item["orgId"],
                   principal=item["principal"], principal_id=item["principalId"], role=item["role"])


# --- reads ------------------------------------------------------------------------------------
def grants_page(kind: str, content_id: str, principal: str, limit: int,
                start_key: dict[str, Any] | None) -> table.QueryPage:
    """One page of a node's user (or team) grants, by principal id (strongly consistent)."""
    return table.Query(partition=keys.content(kind, content_id)["PK"],
                       prefix=keys.grant_prefix(kind, principal), limit=limit, start_key=start_key).run()


def user_grants_page(org_id: str, user_id: str, kind: str, *, forward: bool, limit: int,
                     start_key: dict[str, Any] | None) -> table.QueryPage:
    """GSI1: one page of a member's direct grants on spaces (or collections), by content id."""
    return table.Query(partition=keys.user_grants_partition(org_id, user_id), index="GSI1",
                       prefix=f"{kind.upper()}#", forward=forward, limit=limit, start_key=start_key).run()


# --- operations for transactions ----------------------------------------------------------------
def next_updated_at(seen: str) -> str:
    """Now, or 1 ms after `seen` if the clock has not moved past it: the new value must differ from the
    one other writers hold, or their `updatedAt = :seen` condition would not notice this write."""
    stamp = iso(now())
    if stamp > seen:
        return stamp
    try:
        previous = datetime.strptime(seen, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)
    except ValueError:
        return stamp
    return iso(previous + timedelta(milliseconds=1))


def node_grants_op(node: Node, changes: dict[str, str | None], updated_at: str) -> dict[str, Any]:
    """Set (role) or remove (None) entries of the node's `grants` map, if the node is still the one read.
    A deleted space is refused too: its grants are frozen until it is restored."""
    names: dict[str, str] = {"#g": "grants"}
    values: dict[str, Any] = {":now": updated_at, ":seen": node.updated_at}
    sets, removes = ["updatedAt = :now"], []
    for index, (entry, role) in enumerate(changes.items()):
        names[f"#k{index}"] = entry
        if role is None:
            removes.append(f"#g.#k{index}")
        else:
            values[f":r{index}"] = role
            sets.append(f"#g.#k{index} = :r{index}")
    expression = "SET " + ", ".join(sets) + (" REMOVE " + ", ".join(removes) if removes else "")
    return table.update_op(keys.content(node.kind, node.id), expression, values,
                           f"{EXISTS} AND attribute_not_exists(deletedAt) AND updatedAt = :seen", names)


def put_grant_op(grant: Grant, *, new: bool) -> dict[str, Any]:
    return table.put_op(grant.to_item(), "attribute_not_exists(PK)" if new else EXISTS)


def delete_grant_op(grant_key: keys.Key) -> dict[str, Any]:
    return table.delete_op(grant_key, EXISTS)


# `spaces` is a DynamoDB reserved word: it is always named through a placeholder.
def member_spaces_op(org_id: str, user_id: str, delta: int) -> dict[str, Any]:
    return table.update_op(keys.member(org_id, user_id), "ADD #n :d", {":d": delta}, EXISTS, {"#n": "spaces"})


def team_spaces_op(org_id: str, team_id: str, delta: int) -> dict[str, Any]:
    return table.update_op(keys.team(org_id, team_id), "ADD #n :d", {":d": delta}, EXISTS, {"#n": "spaces"})


def exists_op(key: keys.Key) -> dict[str, Any]:
    """The member or team a grant names must still exist when the grant is written."""
    return table.condition_op(key, EXISTS)


def principal_ops(node: Node, principal: str, principal_id: str, delta: int) -> list[dict[str, Any]]:
    """What a grant change does to the member or team it names: on a space, its `spaces` counter moves
    by `delta` (an added or removed grant); otherwise it is only checked to still exist."""
    if node.kind == "space" and delta:
        counter = member_spaces_op if principal == "user" else team_spaces_op
        return [counter(node.org_id, principal_id, delta)]
    return [exists_op(principal_key(node.org_id, principal, principal_id))]
