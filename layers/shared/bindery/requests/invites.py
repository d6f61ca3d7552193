"""Request bodies of the invite endpoints: email invites, and invite links to the organization, a space
or a collection."""

from __future__ import annotations

import re
from typing import Annotated, Any

from pydantic import Discriminator, Field, StrictBool, Tag, field_validator, model_validator
from pydantic_core import PydanticCustomError

from bindery.requests.common import Body, RoleOrGuest, Text

# All the memberships of one call are written in one transaction of at most 100 operations; a new user
# costs three (user, email guard, membership) and the organization's counters one more: 30 * 3 + 1 = 91.
MAX_EMAILS = 30

# Deliberately plain: one @, a dotted domain, no spaces. Deliverability is the mail server's business.
_EMAIL = re.compile(r"^[^@\s]+@[^@\s.]+(\.[^@\s.]+)+$")
MAX_EMAIL_LENGTH = 254


def is_email(value: str) -> bool:
    return len(value) <= MAX_EMAIL_LENGTH and _EMAIL.match(value) is not None


class EmailWithRole(Body):
    email: Text
    role: RoleOrGuest = Field(...)  # required, but may be null (a guest)


def _entry_kind(value: Any) -> str:
    return "object" if isinstance(value, dict | EmailWithRole) else "string"


# Tagged, so that a bad entry is reported against the form it was sent in, not against both forms.
InviteEntry = Annotated[
    Annotated[Text, Tag("string")] | Annotated[EmailWithRole, Tag("object")], Discriminator(_entry_kind),
]


class InviteUsersToOrganization(Body):
    emails: list[InviteEntry] = Field(max_length=MAX_EMAILS)
    role: RoleOrGuest = None
    sso: StrictBool = False

    @field_validator("emails")
    @classmethod
    def _valid_emails(cls, emails: list[str | EmailWithRole]) -> list[str | EmailWithRole]:
        for index, entry in enumerate(emails):
            email = entry if isinstance(entry, str) else entry.email
            if not is_email(email.strip()):
                raise PydanticCustomError(
                    "email", "entry {index} ('{email}') is not a valid email address",
                    {"index": index, "email": email[:80]},
                )
        return emails


def _required(name: str, variant: str) -> PydanticCustomError:
    return PydanticCustomError("variant", "{name} is required for an invite link to {variant}",
                               {"name": name, "variant": variant})


class CreateInviteLink(Body):
    """CreateOrganizationInvite: `{role}` for the organization, `{level, space}` or `{level, collection}`."""

    role: RoleOrGuest = None
    level: RoleOrGuest = None
    space: Annotated[str, Field(min_length=1, max_length=128)] | None = None
    collection: Annotated[str, Field(min_length=1, max_length=128)] | None = None

    @model_validator(mode="after")
    def _one_variant(self) -> CreateInviteLink:
        sent = self.model_fields_set
        if "space" in sent and "collection" in sent:
            raise PydanticCustomError("variant", "send either space or collection, not both")
        target = "space" if "space" in sent else "collection" if "collection" in sent else None
        if target is None:
            if "level" in sent:
                raise PydanticCustomError("variant", "level needs a space or a collection; "
                                                     "an invite link to the organization takes role")
            if "role" not in sent:
                raise _required("role", "the organization")
            return self
        if getattr(self, target) is None:
            raise PydanticCustomError("variant", "{target} may not be null", {"target": target})
        if "role" in sent:
            raise PydanticCustomError("variant", "an invite link to a {target} takes level, not role",
                                      {"target": target})
        if "level" not in sent:
            raise _required("level", f"a {target}")
        return self


class UpdateInviteLink(Body):
    """`{role}` for a link to the organization, `{level}` for a link to a space or a collection."""

    role: RoleOrGuest = None
    level: RoleOrGuest = None

    @model_validator(mode="after")
    def _one_field(self) -> UpdateInviteLink:
        if len(self.model_fields_set & {"role", "level"}) != 1:
            raise PydanticCustomError("variant", "send exactly one of role or level")
        return self
