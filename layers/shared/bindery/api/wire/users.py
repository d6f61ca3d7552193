"""User and member shapes.

`user_fields` and `member_fields` give the bodies other shapes nest (comments, change requests,
grants); `user_model` and `member_model` give the response models the user and member routes return.
"""

from __future__ import annotations

from typing import Any

from bindery.api.responses.users import OrganizationMember
from bindery.api.responses.users import User as UserModel
from bindery.api.wire.urls import api_url
from bindery.store.members import Member
from bindery.store.users import User


def user_fields(user: User) -> dict[str, Any]:
    body: dict[str, Any] = {"object": "user", "id": user.id, "displayName": user.display_name,
                            "urls": {"location": api_url(f"/users/{user.id}")}}
    if user.email:
        body["email"] = user.email
    if user.photo_url:
        body["photoURL"] = user.photo_url
    return body


def user_model(user: User) -> UserModel:
    return UserModel.model_validate(user_fields(user))


def member_fields(member: Member) -> dict[str, Any]:
    body: dict[str, Any] = {
        "object": "member", "id": member.user_id, "role": member.role, "user": user_fields(member.user),
        "disabled": member.disabled, "joinedAt": member.joined_at, "sso": member.sso,
        "spaces": member.spaces, "teams": member.teams,
    }
    if member.last_seen_at:
        body["lastSeenAt"] = member.last_seen_at
    return body


def member_model(member: Member) -> OrganizationMember:
    return OrganizationMember.model_validate(member_fields(member))
