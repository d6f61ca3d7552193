"""Grants: a user's or a team's role on one space or collection.

A grant is stored twice, always in the same transaction: as an entry of the node's `grants` map
("user:<id>" / "team:<id>" → role), which the access check reads with the node in one GetItem, and as an
item of its own in the node's partition (`{KIND}#GRANT#{USER|TEAM}#id`), which the permission listings
page through. User grants are also indexed on GSI1 under the member, for "the spaces of a member".

Team grants are indexed on GSI1 under the team, so that deleting the team finds them.

Counters: the member's `spaces` counts their direct grants on spaces, the team's `spaces` its grants on
spaces; both move in the transaction that adds or removes the grant. Collection grants move no counter.
Every grant change also moves the node's `updatedAt` under an `updatedAt = :seen` condition: writes that
replace a whole node item use the same condition, so none of them can put back a stale `grants` map.

Removing a member or deleting a team takes every grant they hold in the organization away with them
(`remove_grants`, `grant_removal`): what does not fit the transaction that removes the member or team
goes first, a GSI1 page per transaction, each consistent on its own, so that a retry finishes the job.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import Any

from bindery import keys
from bindery.platform.clock import iso, now
from bindery.store import table
from bindery.store.batch_reads import items_by_key, ref
from bindery.store.content_nodes import Node
from bindery.store.table import Item

EXISTS = "attribute_exists(PK)"
Ops = list[table.Op]


def map_key(principal: str, principal_id: str) -> str:
    return f"{principal}:{principal_id}"


def split_map_key(entry: str) -> tuple[str, str]:
    """The principal ("user" / "team") and its id, from an entry of a node's `grants` map."""
    principal, principal_id = entry.split(":", 1)
    return principal, principal_id


def grants_partition(org_id: str, principal: str, principal_id: str) -> str:
    """GSI1: the grants of one member or team of one organization."""
    if principal == "user":
        return keys.user_grants_partition(org_id, principal_id)
    return keys.team_grants_partition(org_id, principal_id)


def grant_key(kind: str, content_id: str, principal: str, principal_id: str) -> keys.Key:
    return keys.grant(kind, content_id, principal, principal_id)


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
        item["GSI1PK"] = grants_partition(self.org_id, self.principal, self.principal_id)
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


def principal_grants_page(org_id: str, principal: str, principal_id: str, *, limit: int,
                          start_key: dict[str, Any] | None, kind: str | None = None,
                          forward: bool = True) -> table.QueryPage:
    """GSI1: one page of a member's (or team's) grants, collections before spaces, each by content id;
    `kind` keeps one of the two."""
    return table.Query(partition=grants_partition(org_id, principal, principal_id), index="GSI1",
                       prefix=f"{kind.upper()}#" if kind else None, forward=forward, limit=limit,
                       start_key=start_key).run()


def user_grants_page(org_id: str, user_id: str, kind: str, *, forward: bool, limit: int,
                     start_key: dict[str, Any] | None) -> table.QueryPage:
    """GSI1: one page of a member's direct grants on spaces (or collections), by content id."""
    return principal_grants_page(org_id, "user", user_id, kind=kind, forward=forward, limit=limit,
                                 start_key=start_key)


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


def node_grants_op(node: Node, changes: dict[str, str | None], updated_at: str) -> table.Op:
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


def put_grant_op(grant: Grant, *, new: bool) -> table.Op:
    return table.put_op(grant.to_item(), "attribute_not_exists(PK)" if new else EXISTS)


def delete_grant_op(grant_key: keys.Key) -> table.Op:
    return table.delete_op(grant_key, EXISTS)


# `spaces` is a DynamoDB reserved word: it is always named through a placeholder.
def member_spaces_op(org_id: str, user_id: str, delta: int) -> table.Op:
    return table.update_op(keys.member(org_id, user_id), "ADD #n :d", {":d": delta}, EXISTS, {"#n": "spaces"})


def team_spaces_op(org_id: str, team_id: str, delta: int) -> table.Op:
    return table.update_op(keys.team(org_id, team_id), "ADD #n :d", {":d": delta}, EXISTS, {"#n": "spaces"})


def spaces_counter_op(org_id: str, principal: str, principal_id: str, delta: int) -> table.Op:
    """The `spaces` counter of the member or team a grant names."""
    counter = member_spaces_op if principal == "user" else team_spaces_op
    return counter(org_id, principal_id, delta)


def add_member_count_op(org_id: str, joined: int) -> table.Op:
    """The organization's member count, for guests a grant brings in (the organization must exist)."""
    return table.update_op(keys.org(org_id), "ADD memberCount :n", {":n": joined}, EXISTS,
                           name="member-count")


def principal_exists(org_id: str, principal: str, principal_id: str) -> bool:
    """Whether the member or team still exists (one GetItem)."""
    return table.get(principal_key(org_id, principal, principal_id)) is not None


def exists_op(key: keys.Key) -> table.Op:
    """The member or team a grant names must still exist when the grant is written."""
    return table.condition_op(key, EXISTS)


def principal_ops(node: Node, principal: str, principal_id: str, delta: int) -> list[table.Op]:
    """What a grant change does to the member or team it names: on a space, its `spaces` counter moves
    by `delta` (an added or removed grant); otherwise it is only checked to still exist."""
    if node.kind == "space" and delta:
        return [spaces_counter_op(node.org_id, principal, principal_id, delta)]
    return [exists_op(principal_key(node.org_id, principal, principal_id))]


# --- every grant of a member or team, when it leaves ----------------------------------------------
# A grant taken away costs two writes (its item, its node's map entry); a transaction keeps one more for
# the member or team, and one for the organization in the step that removes the member or team.
GRANTS_PER_TRANSACTION = 49
STEP_ATTEMPTS = 3  # a step that loses a race with a change of one of its nodes reads again


@dataclass
class GrantRemoval:
    ops: Ops
    spaces: int  # how many of the grants were on live spaces: what the `spaces` counter loses


def _entry_removal_op(node: Item, entry: str) -> table.Op:
    """Take `entry` out of the node's `grants` map (a deleted space too: restoring it must not bring the
    grant back), if the node is unchanged since it was read; `updatedAt` moves, as for every grant change.
    A node that no longer holds the entry (GSI1 lags a removal) is only checked to be as read."""
    key = keys.content(node["type"], node["id"])
    seen = {":seen": node["updatedAt"]}
    if entry not in (node.get("grants") or {}):
        return table.condition_op(key, "updatedAt = :seen", seen)
    return table.update_op(key, "SET updatedAt = :now REMOVE #g.#k",
                           {**seen, ":now": next_updated_at(node["updatedAt"])}, "updatedAt = :seen",
                           {"#g": "grants", "#k": entry})


def grant_removal(org_id: str, principal: str, principal_id: str, grants: list[Grant]) -> GrantRemoval:
    """The writes that take `grants` (read from the member's or team's GSI1 partition) away, after ONE
    BatchGetItem of their spaces and collections: each grant item, and each node's map entry under the
    node's `updatedAt = :seen`. A node transferred to another organization is left alone (its grant, if
    kept, is that organization's now; GSI1 had not caught up), and a node that is gone leaves only its
    grant item to delete."""
    nodes = items_by_key(keys.content(grant.kind, grant.content_id) for grant in grants)
    entry = map_key(principal, principal_id)
    removal = GrantRemoval(ops=[], spaces=0)
    for grant in grants:
        node = nodes.get(ref(keys.content(grant.kind, grant.content_id)))
        if node is not None and node["orgId"] != org_id:
            continue
        removal.ops.append(table.delete_op(grant.key))
        if node is None:
            continue
        removal.ops.append(_entry_removal_op(node, entry))
        if node["type"] == "space" and "deletedAt" not in node and entry in (node.get("grants") or {}):
            removal.spaces += 1
    return removal


def transact_step(build: Callable[[], Ops]) -> None:
    """One step of a removal: `build` reads what it needs and returns the writes; a step that loses a race
    builds again from fresh reads, a few times, then raises the last `TransactionConflict`."""
    for attempt in range(STEP_ATTEMPTS):
        try:
            table.transact(build())
        except table.TransactionConflict:
            if attempt == STEP_ATTEMPTS - 1:
                raise
            continue
        return


def _removal_step(org_id: str, principal: str, principal_id: str, grants: list[Grant]) -> Ops:
    removal = grant_removal(org_id, principal, principal_id, grants)
    counter = [spaces_counter_op(org_id, principal, principal_id, -removal.spaces)] if removal.spaces else []
    return [*removal.ops, *counter]


def remove_grants(org_id: str, principal: str, principal_id: str, *, keep: int) -> list[Grant]:
    """Take the member's (or team's) grants away a GSI1 page at a time, each page one transaction with
    their `spaces` counter, until the last page holds at most `keep`: those are returned, for the caller's
    transaction that removes the member or team itself (`grant_removal`)."""
    page = principal_grants_page(org_id, principal, principal_id, limit=GRANTS_PER_TRANSACTION,
                                 start_key=None)
    while True:
        grants = [Grant.from_item(item) for item in page.items]
        if not page.last_key and len(grants) <= keep:
            return grants
        if grants:
            transact_step(partial(_removal_step, org_id, principal, principal_id, grants))
        if not page.last_key:
            return []
        page = principal_grants_page(org_id, principal, principal_id, limit=GRANTS_PER_TRANSACTION,
                                     start_key=page.last_key)
