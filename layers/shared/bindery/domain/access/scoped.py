"""Organization access together with the items a request names (a member, a team, memberships), read in
one BatchGetItem: the request then knows who calls, in what role, and what they point at."""

from __future__ import annotations

from dataclasses import dataclass

from bindery.domain.access.auth import Caller
from bindery.domain.access.organization import NO_ORG, OrgAccess, require_sso_login, require_token_org
from bindery.platform.errors import NotFound
from bindery.store import Item, Key
from bindery.store import members as member_store
from bindery.store import orgs as org_store
from bindery.store import teams as team_store
from bindery.store.batch_reads import items_by_key, ref
from bindery.store.members import Member
from bindery.store.orgs import Organization
from bindery.store.teams import Team, TeamLink


@dataclass(frozen=True)
class Scoped:
    access: OrgAccess
    items: dict[tuple[str, str], Item]

    @property
    def org_id(self) -> str:
        return self.access.org.id

    def member(self, user_id: str) -> Member | None:
        if user_id == self.access.member.user_id:
            return self.access.member
        item = self.items.get(ref(member_store.member_key(self.org_id, user_id)))
        return Member.from_item(item) if item else None

    def team(self, team_id: str) -> Team | None:
        item = self.items.get(ref(team_store.team_key(self.org_id, team_id)))
        return Team.from_item(item) if item else None

    def link(self, team_id: str, user_id: str) -> TeamLink | None:
        item = self.items.get(ref(team_store.link_key(self.org_id, team_id, user_id)))
        return TeamLink.from_item(item) if item else None


def scoped_access(org_id: str, caller: Caller, *extra: Key) -> Scoped:
    """Like `org_access` (404 unless the caller is an active member), with `extra` read alongside."""
    require_token_org(caller, org_id)
    org_key, member_key = org_store.org_key(org_id), member_store.member_key(org_id, caller.user_id)
    found = items_by_key([org_key, member_key, *extra])
    org_item, member_item = found.get(ref(org_key)), found.get(ref(member_key))
    if org_item is None or member_item is None:
        raise NotFound(NO_ORG)
    member = Member.from_item(member_item)
    if member.disabled:
        raise NotFound(NO_ORG)
    org = Organization.from_item(org_item)
    require_sso_login(org, member, caller)
    return Scoped(access=OrgAccess(org=org, member=member), items=found)
