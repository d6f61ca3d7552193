"""Teams and team memberships.

A team-member item lives in the organization's partition under its team (`TEAMMEMBER#team#user`) and in
GSI1 under its member, so "members of a team" and "teams of a member" are one Query each. Counters stay
exact because every write that adds or removes a membership also moves the team's `members` and the
member's `teams` in the same transaction; conditions make a duplicate add or a double remove fail whole.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from boto3.dynamodb.conditions import Attr

from bindery import keys
from bindery.store import grants as grant_store
from bindery.store import table
from bindery.store.table import Item

# A transaction holds at most 100 operations; a membership change costs two (the link and the member's
# counter, or the link and the team's counter), and one more is kept for the team or member it ends on.
LINKS_PER_TRANSACTION = 49

EXISTS = "attribute_exists(PK)"


@dataclass
class Team:
    org_id: str
    id: str
    title: str
    created_at: str
    members: int = 0
    spaces: int = 0

    def to_item(self) -> Item:
        return {
            **keys.team(self.org_id, self.id), "type": "team", "orgId": self.org_id, "id": self.id,
            "title": self.title, "titleSearch": self.title.lower(), "createdAt": self.created_at,
            "members": self.members, "spaces": self.spaces,
        }

    @classmethod
    def from_item(cls, item: Item) -> Team:
        return cls(org_id=item["orgId"], id=item["id"], title=item["title"], created_at=item["createdAt"],
                   members=int(item.get("members", 0)), spaces=int(item.get("spaces", 0)))


@dataclass
class TeamLink:
    """One user's membership of one team; `role` is a TeamMemberRole: `owner` or `member`."""

    org_id: str
    team_id: str
    user_id: str
    role: str
    added_at: str = ""

    @property
    def key(self) -> keys.Key:
        return keys.team_member(self.org_id, self.team_id, self.user_id)

    def to_item(self) -> Item:
        return {
            **self.key, **keys.team_member_gsi(self.org_id, self.team_id, self.user_id),
            "type": "team-member", "orgId": self.org_id, "teamId": self.team_id, "userId": self.user_id,
            "role": self.role, "addedAt": self.added_at,
        }

    @classmethod
    def from_item(cls, item: Item) -> TeamLink:
        return cls(org_id=item["orgId"], team_id=item["teamId"], user_id=item["userId"], role=item["role"],
                   added_at=item.get("addedAt", ""))


# --- reads ------------------------------------------------------------------------------------
def team_key(org_id: str, team_id: str) -> keys.Key:
    """A team's key, for reads batched with other kinds (`batch_reads.items_by_key`)."""
    return keys.team(org_id, team_id)


def link_key(org_id: str, team_id: str, user_id: str) -> keys.Key:
    """A team membership's key, for reads batched with other kinds."""
    return keys.team_member(org_id, team_id, user_id)


def get_team(org_id: str, team_id: str) -> Team | None:
    item = table.get(keys.team(org_id, team_id))
    return Team.from_item(item) if item else None


def teams_page(org_id: str, limit: int, start_key: dict[str, Any] | None,
               title: str | None = None) -> table.QueryPage:
    """The organization's teams in creation order (ids are time-ordered); `title` filters by substring."""
    return _teams_query(org_id, title, limit=limit, start_key=start_key).run()


def teams_count(org_id: str, title: str) -> int:
    """How many teams `teams_page` lists with the `title` filter over all its pages: one `Select=COUNT`
    Query (unfiltered, the organization's `teamCount` is the count)."""
    return _teams_query(org_id, title).count()


def _teams_query(org_id: str, title: str | None, *, limit: int = 1,
                 start_key: dict[str, Any] | None = None) -> table.Query:
    return table.Query(
        partition=keys.org_partition(org_id), prefix=keys.TEAM_PREFIX, limit=limit, start_key=start_key,
        filter=Attr("titleSearch").contains(title.lower()) if title else None,
    )


def links_of_member_page(org_id: str, user_id: str, limit: int, start_key: dict[str, Any] | None,
                         *, owned_only: bool = False) -> table.QueryPage:
    """GSI1: one member's team memberships, by team id; `owned_only` keeps those with the owner role."""
    return table.Query(
        partition=keys.member_teams_partition(org_id, user_id), index="GSI1", limit=limit,
        start_key=start_key, filter=Attr("role").eq("owner") if owned_only else None,
    ).run()


def owned_links_count(org_id: str, user_id: str) -> int:
    """How many teams the member owns (`links_of_member_page(owned_only=True)` over all its pages): one
    `Select=COUNT` Query."""
    return table.Query(partition=keys.member_teams_partition(org_id, user_id), index="GSI1",
                       filter=Attr("role").eq("owner")).count()


def links_of_team_page(org_id: str, team_id: str, limit: int,
                       start_key: dict[str, Any] | None) -> table.QueryPage:
    """A team's memberships, by user id (strongly consistent: the base table)."""
    return table.Query(partition=keys.org_partition(org_id), prefix=keys.team_member_prefix(team_id),
                       limit=limit, start_key=start_key).run()


def _every_link(read_page: Callable[[dict[str, Any] | None], table.QueryPage]) -> list[TeamLink]:
    """Every page of a listing of memberships, 1000 a Query."""
    links: list[TeamLink] = []
    start: dict[str, Any] | None = None
    while True:
        page = read_page(start)
        links.extend(TeamLink.from_item(item) for item in page.items)
        if not page.last_key:
            return links
        start = page.last_key


def all_links_of_team(org_id: str, team_id: str) -> list[TeamLink]:
    return _every_link(lambda start: links_of_team_page(org_id, team_id, 1000, start))


def all_links_of_member(org_id: str, user_id: str) -> list[TeamLink]:
    return _every_link(lambda start: links_of_member_page(org_id, user_id, 1000, start))


# --- operations for transactions ----------------------------------------------------------------
def member_teams_op(org_id: str, user_id: str, delta: int) -> table.Op:
    return table.update_op(keys.member(org_id, user_id), "ADD teams :d", {":d": delta}, EXISTS)


def team_members_op(org_id: str, team_id: str, delta: int) -> table.Op:
    return table.update_op(keys.team(org_id, team_id), "ADD members :d", {":d": delta}, EXISTS)


def add_link_ops(link: TeamLink) -> list[table.Op]:
    """The link and its member's counter; the team's counter is the caller's (one op per team)."""
    return [table.put_op(link.to_item(), "attribute_not_exists(PK)"),
            member_teams_op(link.org_id, link.user_id, 1)]


def delete_if_op(key: keys.Key, condition: str, values: dict[str, Any],
                 names: dict[str, str] | None = None) -> table.Op:
    """A Delete whose condition compares with values (`table.delete_op` takes a bare condition only)."""
    op = table.delete_op(key, condition)
    op["Delete"]["ExpressionAttributeValues"] = values
    if names:
        op["Delete"]["ExpressionAttributeNames"] = names
    return op


def remove_link_op(link: TeamLink) -> table.Op:
    return table.delete_op(link.key, EXISTS)


def set_role_op(link: TeamLink, role: str) -> table.Op:
    return table.update_op(link.key, "SET #r = :r", {":r": role}, EXISTS, names={"#r": "role"})


# --- whole writes -------------------------------------------------------------------------------
def create_team(team: Team, links: list[TeamLink]) -> None:
    """The team, its first memberships and the organization's team counter, atomically."""
    if len(links) > LINKS_PER_TRANSACTION:
        raise ValueError(f"at most {LINKS_PER_TRANSACTION} members at creation")
    team.members = len(links)
    ops = [table.put_op(team.to_item(), "attribute_not_exists(PK)"),
           table.update_op(keys.org(team.org_id), "ADD teamCount :one", {":one": 1}, EXISTS)]
    for link in links:
        ops.extend(add_link_ops(link))
    table.transact(ops)


def rename_team(team: Team, title: str) -> None:
    table.transact([table.update_op(keys.team(team.org_id, team.id), "SET title = :t, titleSearch = :s",
                                    {":t": title, ":s": title.lower()}, EXISTS)])
    team.title = title


def delete_team(team: Team) -> None:
    """The team, every membership of it, its grants on the organization's spaces and collections
    (store.grants), and the counters they move.

    What cannot go in one transaction with the team goes first, in steps that are each atomic and move the
    counters they touch: grants a GSI1 page (of 49) per step with their nodes' map entries, then
    memberships 49 per step. A failure part-way leaves a smaller, consistent team and a retry finishes.
    The last transaction deletes the team only if its `members` and `spaces` counters say no membership
    and no space grant was added meanwhile.
    """
    org_id = team.org_id
    links = all_links_of_team(org_id, team.id)
    grants = grant_store.remove_grants(org_id, "team", team.id, keep=LINKS_PER_TRANSACTION - len(links))
    while len(links) + len(grants) > LINKS_PER_TRANSACTION:
        chunk, links = links[:LINKS_PER_TRANSACTION], links[LINKS_PER_TRANSACTION:]
        table.transact([*(op for link in chunk for op in _drop_member_ops(link)),
                        team_members_op(org_id, team.id, -len(chunk))])

    def last_step() -> list[table.Op]:
        removal = grant_store.grant_removal(org_id, "team", team.id, grants)
        ops = [
            delete_if_op(keys.team(org_id, team.id), "members = :n AND #s = :s",
                         {":n": len(links), ":s": removal.spaces}, {"#s": "spaces"}),
            table.update_op(keys.org(org_id), "ADD teamCount :d", {":d": -1}, EXISTS),
        ]
        return [*ops, *(op for link in links for op in _drop_member_ops(link)), *removal.ops]

    grant_store.transact_step(last_step)


def _drop_member_ops(link: TeamLink) -> list[table.Op]:
    """A membership of a team being deleted and its member's counter (the team's moves once per step)."""
    return [remove_link_op(link), member_teams_op(link.org_id, link.user_id, -1)]
