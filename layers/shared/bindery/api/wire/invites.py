"""Invite shapes: OrganizationInviteLink (to the organization, a space or a collection), and the answer to
an email invite (InvitedUsers)."""

from __future__ import annotations

from typing import Any

from bindery.api.responses.organizations import InvitedUsers, InviteLink, OrganizationInviteLink
from bindery.store.invites import LinkInvite


def invite_link_to_wire(invite: LinkInvite) -> OrganizationInviteLink:
    # `redundant` says whether the *requesting* user already has what the link grants. These shapes are
    # only served to the organization's admins, who manage links rather than use them: always false.
    body: dict[str, Any] = {"object": "invite", "id": invite.id, "redundant": False}
    if invite.target == "organization":
        body["role"] = invite.role
        return OrganizationInviteLink.model_validate(body)
    body["level"] = invite.role
    # The full Space and Collection shapes belong to their own wire modules; until those exist the link
    # names its target by object kind and id.
    if invite.space:
        body["space"] = {"object": "space", "id": invite.space}
    else:
        body["collection"] = {"object": "collection", "id": invite.collection}
    return OrganizationInviteLink.model_validate(body)


def invite_link_item(invite: LinkInvite) -> InviteLink:
    """A link as an item of a list page, which holds the link kinds themselves, not the root model that
    picks one."""
    return invite_link_to_wire(invite).root


def invited_users_to_wire(user_ids: list[str]) -> InvitedUsers:
    """The users who became members (new users among them), and how many."""
    return InvitedUsers(users=user_ids, invited=len(user_ids))
