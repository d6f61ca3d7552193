"""Email invites, invite links, and joining an organization through a link.

Invite links are returned as stored (`LinkInvite`), and an email invite answers with who became a member;
the routes shape both for the wire (bindery.api.wire.invites)."""

from __future__ import annotations

from bindery.domain.access.auth import Caller
from bindery.domain.access.organization import OrgAccess, require_token_org
from bindery.platform.clock import now_iso
from bindery.platform.errors import BadRequest, Conflict, NotFound
from bindery.platform.ids import new_id
from bindery.platform.pagination import Listing, decode_cursor, encode_cursor
from bindery.requests.invites import CreateInviteLink, InviteUsersToOrganization, UpdateInviteLink
from bindery.store import TransactionConflict
from bindery.store import invites as invite_store
from bindery.store import members as member_store
from bindery.store.invites import LinkInvite
from bindery.store.members import Member
from bindery.store.users import User

NO_INVITE = "No matching invite"
LINKS_OFF = "Invite links are switched off in this organization (inviteLinks is false)"
# A conflicting write between our reads and our transaction (the same email invited twice at once) makes
# us read again; a few rounds settle any realistic race.
_INVITE_ATTEMPTS = 3


# --- email invites ------------------------------------------------------------------------------
def _wanted(org_default: str | None, body: InviteUsersToOrganization) -> dict[str, tuple[str, str | None]]:
    """Lower-cased email → (email as sent, role); the first mention of an email wins."""
    default = body.role if "role" in body.model_fields_set else (org_default or "read")
    wanted: dict[str, tuple[str, str | None]] = {}
    for entry in body.emails:
        email, role = (entry, default) if isinstance(entry, str) else (entry.email, entry.role)
        email = email.strip()
        wanted.setdefault(email.lower(), (email, role))
    return wanted


def invite_users(access: OrgAccess, body: InviteUsersToOrganization) -> list[str]:
    """Make each email a member: existing users join, unknown emails get a new, unverified user first.
    The ids of the users who became members (the new users among them)."""
    access.require("admin", "invite members")
    org_id = access.org.id
    wanted = _wanted(access.org.default_role, body)
    for _ in range(_INVITE_ATTEMPTS):
        joined_at = now_iso()
        new_users: list[User] = []
        members: list[Member] = []
        for invitee in invite_store.find_invitees(org_id, list(wanted)):
            sent, role = wanted[invitee.email]
            if invitee.member is not None:
                continue  # already a member (even a disabled one, who stays disabled)
            user = invitee.user
            if user is None:
                if invitee.user_id is not None:
                    # An email guard whose user item is missing: inventing a second user would be wrong.
                    raise Conflict(f"emails: the user with the email {sent} cannot be read; nothing changed")
                # No token is issued: an operator gives one with `python -m bindery.platform.admin
                # create-token`.
                user = User(id=new_id(), display_name=sent.split("@", 1)[0], email=sent,
                            email_verified=False, created_at=joined_at)
                new_users.append(user)
            members.append(Member.joining(org_id, user, role, joined_at, sso=body.sso))
        try:
            invite_store.add_invited_members(org_id, new_users, members)
        except TransactionConflict:
            continue
        return [member.user_id for member in members]
    raise Conflict("The invited users changed while they were being invited; nothing was changed, try again")


# --- invite links -------------------------------------------------------------------------------
def list_links(access: OrgAccess, limit: int, page: str | None) -> Listing[LinkInvite]:
    access.require("admin", "list invite links")
    scope = f"link-invites:{access.org.id}"
    links, last_key = invite_store.link_invites_page(access.org.id, limit, decode_cursor(scope, page))
    return Listing(items=links,
                   next_cursor=encode_cursor(scope, last_key) if last_key else None,
                   count=access.org.invite_count)


def create_link(access: OrgAccess, body: CreateInviteLink) -> LinkInvite:
    access.require("admin", "create invite links")
    org = access.org
    if not org.invite_links:
        raise BadRequest(LINKS_OFF)
    invite = LinkInvite(org_id=org.id, id=new_id(), role=body.role, created_at=now_iso(),
                        created_by=access.member.user_id)
    if body.space is not None:
        if invite_store.invite_target(org.id, "space", body.space) is None:
            raise NotFound("No matching space")
        invite.space, invite.role = body.space, body.level
    elif body.collection is not None:
        if invite_store.invite_target(org.id, "collection", body.collection) is None:
            raise NotFound("No matching collection")
        invite.collection, invite.role = body.collection, body.level
    try:
        invite_store.create_link_invite(invite)
    except TransactionConflict as error:
        # The organization's condition failed: the switch went off after we read it.
        raise BadRequest(LINKS_OFF) from error
    return invite


def _existing_link(access: OrgAccess, invite_id: str) -> LinkInvite:
    invite = invite_store.get_link_invite(access.org.id, invite_id)
    if invite is None:
        raise NotFound(NO_INVITE)
    return invite


def get_link(access: OrgAccess, invite_id: str) -> LinkInvite:
    access.require("admin", "view invite links")
    return _existing_link(access, invite_id)


def update_link(access: OrgAccess, invite_id: str, body: UpdateInviteLink) -> LinkInvite:
    access.require("admin", "change invite links")
    invite = _existing_link(access, invite_id)
    expected, sent = ("role", "level") if invite.target == "organization" else ("level", "role")
    if expected not in body.model_fields_set:
        target = "the organization" if invite.target == "organization" else f"a {invite.target}"
        raise BadRequest(f"{sent}: an invite link to {target} takes {expected}, not {sent}")
    try:
        invite_store.set_link_invite_role(invite, body.role if expected == "role" else body.level)
    except TransactionConflict as error:
        raise NotFound(NO_INVITE) from error  # deleted meanwhile
    return invite


def delete_link(access: OrgAccess, invite_id: str) -> None:
    access.require("admin", "delete invite links")
    invite_store.delete_link_invite(access.org.id, invite_id)  # a missing link is already deleted


# --- joining through a link ---------------------------------------------------------------------
def join_with_link(caller: Caller, org_id: str, invite_id: str) -> None:
    """Any authenticated user holding a link's id may join with it; members calling it change nothing.

    Non-members are the audience here, so this does not go through `org_access` (which hides the
    organization from them). An unknown organization and an unknown link answer the same 404, so that
    guessing ids tells nothing about which organizations exist.
    """
    require_token_org(caller, org_id, NO_INVITE)
    context = invite_store.join_context(org_id, invite_id, caller.user_id)
    org, invite = context.org, context.invite
    if org is None or invite is None:
        raise NotFound(NO_INVITE)
    if not org.invite_links:
        raise BadRequest(LINKS_OFF)
    if invite.target != "organization":
        # Space and collection permissions have no storage yet; joining must not silently grant nothing.
        raise BadRequest(f"Joining through an invite link to a {invite.target} is not supported yet")
    if context.member is not None:
        return
    if context.user is None:  # the token outlived its user
        raise NotFound("No matching user")
    member = Member.joining(org_id, context.user, invite.role, now_iso())
    try:
        invite_store.join_with_link(member, invite)
    except TransactionConflict:
        if member_store.get_member(org_id, caller.user_id) is not None:
            return  # a concurrent join of the same user won; the caller is a member either way
        if invite_store.get_link_invite(org_id, invite_id) is None:
            raise NotFound(NO_INVITE) from None
        raise
