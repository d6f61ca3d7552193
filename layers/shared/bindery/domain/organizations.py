"""Organization operations: they return the organization with the caller's role in it (`OrgView`), and
the routes shape that for the wire (bindery.api.wire.organizations)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bindery.domain.access.auth import Caller
from bindery.domain.access.organization import NO_ORG, OrgAccess, require_token_org
from bindery.domain.change_requests.rules import checked_merge_rules
from bindery.platform.clock import now_iso
from bindery.platform.errors import BadRequest, Forbidden, NotFound
from bindery.platform.ids import new_id
from bindery.platform.pagination import Listing, decode_cursor, encode_cursor
from bindery.requests.organizations import CreateOrganization, UpdateOrganization
from bindery.store import Transaction, TransactionConflict
from bindery.store import members as member_store
from bindery.store import orgs as org_store
from bindery.store import users as user_store
from bindery.store.batch_reads import items_by_key, ref
from bindery.store.members import Member

# Re-exported: the routes show what `agent_instructions` returns under this name.
from bindery.store.orgs import AgentInstructions as AgentInstructions  # noqa: PLC0414
from bindery.store.orgs import Organization
from bindery.store.users import User


@dataclass(frozen=True)
class OrgView:
    """An organization and the caller's role in it (None: a guest, or not a member), which its
    `permissions` on the wire follow."""

    org: Organization
    role: str | None


def _caller_user(caller: Caller) -> User:
    user = user_store.get_user(caller.user_id)
    if user is None:  # the token outlived its user
        raise NotFound("No matching user")
    return user


def list_orgs(caller: Caller, limit: int, page: str | None) -> Listing[OrgView]:
    """GSI1 gives a page of the caller's memberships; one BatchGetItem brings their organizations and the
    caller's user item, whose organization counter is the `count`."""
    scope = f"orgs:{caller.user_id}"
    start = decode_cursor(scope, page)
    result = member_store.user_memberships_page(caller.user_id, limit, start)
    cursor = encode_cursor(scope, result.last_key) if result.last_key else None
    if not result.members and start is None and cursor is None:
        return Listing(items=[], next_cursor=None, count=0)  # the whole listing was read: no organization
    found = items_by_key([user_store.user_key(caller.user_id),
                          *(org_store.org_key(member.org_id) for member in result.members)])
    user_item = found.get(ref(user_store.user_key(caller.user_id)))
    if user_item is None:  # the token outlived its user
        raise NotFound("No matching user")
    orgs = {member.org_id: Organization.from_item(found[ref(org_store.org_key(member.org_id))])
            for member in result.members if ref(org_store.org_key(member.org_id)) in found}
    # An SSO login's token acts in that login's organization only: it lists no other.
    items = [OrgView(orgs[member.org_id], member.role)
             for member in result.members if member.org_id in orgs and not member.disabled
             and caller.sso_org in (None, member.org_id)]
    count = User.from_item(user_item).org_count if caller.sso_org is None else 1
    return Listing(items=items, next_cursor=cursor, count=count)


def create_org(caller: Caller, body: CreateOrganization) -> OrgView:
    if caller.sso_org is not None:
        raise Forbidden("A token a single sign-on login issued acts only in that organization: create "
                        "organizations with another API token")
    user = _caller_user(caller)
    created = now_iso()
    org = Organization(id=new_id(), title=body.title, created_at=created, type=body.type,
                       use_case=body.useCase, community_type=body.communityType,
                       email_domains=sorted({d.lower() for d in body.emailDomains}),
                       merge_rules={"type": "none"})
    founder = Member.joining(org.id, user, "admin", created)
    org_store.create_org(org, founder)
    if org.email_domains:
        org_store.update_org(org, [])
    return OrgView(org, "admin")


def _check_default_content(org_id: str, pointer: dict[str, Any] | None) -> None:
    if pointer is not None and not org_store.site_exists(org_id, pointer["site"]):
        raise BadRequest(f"defaultContent: no site {pointer['site']} in this organization")


def update_org(access: OrgAccess, body: UpdateOrganization) -> OrgView:
    access.require("admin", "update the organization")
    org = access.org
    previous_domains = list(org.email_domains)
    previous_hostname = org.hostname
    sent = body.model_fields_set
    data = body.model_dump(mode="json")
    if body.mergeRules is not None:
        # Checked and stored as a space's rules are: `users` where the spec requires them, nowhere else
        # (schemathesis found `"users": null` answered back in every organization).
        data["mergeRules"] = checked_merge_rules(org.id, body.mergeRules.model_dump(mode="json",
                                                                                   exclude_none=True))
    if "defaultContent" in sent:
        _check_default_content(org.id, data["defaultContent"])
    simple = {"title": "title", "hostname": "hostname", "defaultRole": "default_role",
              "defaultContent": "default_content", "logo": "logo", "sso": "sso", "ai": "ai",
              "inviteLinks": "invite_links", "mergeRules": "merge_rules"}
    nullable = {"defaultRole", "defaultContent", "logo"}
    for name, attr in simple.items():
        if name in sent:
            if data[name] is None and name not in nullable:
                raise BadRequest(f"{name}: may not be null")
            setattr(org, attr, data[name])
    if "emailDomains" in sent:
        if data["emailDomains"] is None:
            raise BadRequest("emailDomains: may not be null")
        org.email_domains = sorted({d.lower() for d in data["emailDomains"]})
    try:
        org_store.update_org(org, previous_domains, previous_hostname)
    except TransactionConflict as conflict:
        if conflict.failed("hostname"):
            raise BadRequest(f"hostname: {org.hostname!r} is taken by another organization") from None
        raise
    return OrgView(org, access.role)


def join_org(caller: Caller, org_id: str) -> None:
    """Join through an allowed, verified email domain; members joining again change nothing."""
    require_token_org(caller, org_id)
    org = org_store.get_org(org_id)
    if org is None:
        raise NotFound(NO_ORG)
    user = _caller_user(caller)
    if member_store.get_member(org_id, user.id) is not None:
        return
    domain = user.email_domain
    if not (user.email_verified and domain and domain in org.email_domains):
        raise BadRequest("The user's email domain is not valid for this organization")
    member = Member.joining(org_id, user, org.default_role, now_iso())
    try:
        Transaction(member_store.add_member_ops(member)).commit()
    except TransactionConflict:
        # A concurrent join of the same user won; the caller is a member either way.
        if member_store.get_member(org_id, user.id) is None:
            raise


def ping(access: OrgAccess) -> None:
    member_store.touch_last_seen(access.member, now_iso())


def orgs_for_email_domain(caller: Caller, domain: str) -> list[OrgView]:
    """Organizations the caller could join with their verified email domain (others see none); the
    caller is not a member of them, so they come without a role."""
    user = _caller_user(caller)
    if not (user.email_verified and user.email_domain == domain.lower()):
        return []
    orgs = org_store.get_orgs(org_store.org_ids_for_email_domain(domain))
    return [OrgView(org, None) for org in orgs.values() if caller.sso_org in (None, org.id)]


def agent_instructions(access: OrgAccess) -> AgentInstructions:
    """The organization's instructions to AI agents: organization-wide content, so members with a role
    read them and guests, who see only what they were granted, do not (403)."""
    access.require("read", "read the agent instructions")
    org_id = access.org.id
    found = org_store.get_agent_instructions(org_id)
    if found is None:
        # Never set: an empty document, dated from the organization's creation, by nobody.
        empty = {"object": "document", "data": {}, "nodes": []}
        return AgentInstructions(org_id, empty, access.org.created_at, "")
    return found


def set_agent_instructions(access: OrgAccess, instructions: dict[str, Any]) -> AgentInstructions:
    access.require("admin", "change the agent instructions")
    org_store.put_agent_instructions(access.org.id, instructions, access.member.user_id, now_iso())
    return agent_instructions(access)
