"""Request bodies of site sections, section groups and moves (addSectionToSite, updateSiteSectionById,
moveSiteSection, moveSiteSpace, addSectionGroupToSite, updateSiteSectionGroupById, addSectionToGroup)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, model_validator
from pydantic_core import PydanticCustomError

from bindery.requests.common import Body, Icon
from bindery.requests.sites import Expression, Ref

SectionTitle = Annotated[str, Field(min_length=2, max_length=128)]
SectionPath = Annotated[str, Field(min_length=1, max_length=100)]
SectionDescription = Annotated[str, Field(max_length=256)]
GroupTitle = Annotated[str, Field(min_length=1, max_length=100)]


def _not_null(body: Body, nullable: set[str]) -> None:
    for name in body.model_fields_set - nullable:
        if getattr(body, name) is None:
            raise PydanticCustomError("not_null", "{name}: may not be null", {"name": name})


class AddSection(Body):
    spaceId: Ref
    title: SectionTitle | None = None
    icon: Icon | None = None


class UpdateSection(Body):
    """Only the fields sent change; `condition`, `icon` and `description` null remove them."""

    title: SectionTitle | None = None
    path: SectionPath | None = None
    defaultSiteSpace: Ref | None = None
    condition: Expression | None = None
    icon: Icon | None = None
    description: SectionDescription | None = None

    @model_validator(mode="after")
    def _checked(self) -> UpdateSection:
        _not_null(self, {"condition", "icon", "description"})
        return self


class SiteSectionPointer(Body):
    type: Literal["site-section"]
    siteSection: Ref


class SiteSpacePointer(Body):
    type: Literal["site-space"]
    siteSpace: Ref


def _one_side(position: Any) -> None:
    if position.before is not None and position.after is not None:
        raise PydanticCustomError("position", "position: give either before or after, not both")


class SectionPosition(Body):
    before: SiteSectionPointer | None = None
    after: SiteSectionPointer | None = None

    @model_validator(mode="after")
    def _checked(self) -> SectionPosition:
        _one_side(self)
        return self


class SiteSpacePosition(Body):
    before: SiteSpacePointer | None = None
    after: SiteSpacePointer | None = None

    @model_validator(mode="after")
    def _checked(self) -> SiteSpacePosition:
        _one_side(self)
        return self


class MoveSection(Body):
    position: SectionPosition | None = None


class MoveSiteSpace(Body):
    position: SiteSpacePosition | None = None


class AddSectionGroup(Body):
    title: GroupTitle
    icon: Icon | None = None
    sections: list[Ref] | None = None
    parent: Ref | None = None


class UpdateSectionGroup(Body):
    title: GroupTitle | None = None
    icon: Icon | None = None

    @model_validator(mode="after")
    def _checked(self) -> UpdateSectionGroup:
        _not_null(self, {"icon"})
        return self


class AddSectionToGroup(Body):
    sectionId: Ref
