"""Request bodies of the space and collection permission endpoints (InviteUsersAndTeams, and the role of
one user or team)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, field_validator, model_validator
from pydantic_core import PydanticCustomError

from bindery.requests.common import Body, RoleOrGuest
from bindery.requests.invites import is_email

# One invite is one transaction of at most 100 operations. A user unknown until now costs four (user,
# email guard, guest membership, grant), anyone else two (grant, and their counter or an existence
# check); the node's map and the organization's member counter take two more: 24 * 4 + 2 = 98.
MAX_INVITEES = 24

UserRef = Annotated[str, Field(min_length=1, max_length=320)]
TeamRef = Annotated[str, Field(min_length=1, max_length=128)]


class InviteUsersAndTeams(Body):
    """`users` holds user ids or emails; `role` is required, and null takes the grants away."""

    role: RoleOrGuest = Field(...)
    users: list[UserRef] | None = Field(default=None, max_length=MAX_INVITEES)
    teams: list[TeamRef] | None = Field(default=None, max_length=MAX_INVITEES)

    @field_validator("users")
    @classmethod
    def _valid_emails(cls, users: list[str] | None) -> list[str] | None:
        for index, entry in enumerate(users or []):
            if "@" in entry and not is_email(entry.strip()):
                raise PydanticCustomError("email", "entry {index} ('{email}') is not a valid email address",
                                          {"index": index, "email": entry[:80]})
        return users

    @model_validator(mode="after")
    def _someone(self) -> InviteUsersAndTeams:
        users, teams = self.users or [], self.teams or []
        if not users and not teams:
            raise PydanticCustomError("invitees", "users or teams: name at least one user or team")
        if len(users) + len(teams) > MAX_INVITEES:
            raise PydanticCustomError("invitees", "users and teams: at most {max} in one request",
                                      {"max": MAX_INVITEES})
        return self


class UpdatePermission(Body):
    """The role of one user or team; null takes their grant away."""

    role: RoleOrGuest = Field(...)
