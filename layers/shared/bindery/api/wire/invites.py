"""Invite link shape: OrganizationInviteLink (to the organization, a space or a collection)."""

from __future__ import annotations

from typing import Any

from bindery.store.invites import LinkInvite


def invite_link_to_wire(invite: LinkInvite) -> dict[str, Any]:
    # `redundant` says whether the *requesting* user already has what the link grants. These shapes are
    # only served to the organization's admins, who manage links rather than use them: always false.
    body: dict[str, Any] = {"object": "invite", "id": invite.id, "redundant": False}
    if invite.target == "organization":
        body["role"] = invite.role
        return body
    body["level"] = invite.role
    # The full Space and Collection shapes belong to their own wire modules; until those exist the link
    # names its target by object kind and id.
    if invite.space:
        body["space"] = {"object": "space", "id": invite.space}
    else:
        body["collection"] = {"object": "collection", "id": invite.collection}
    return body
