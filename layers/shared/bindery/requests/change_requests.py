"""Request bodies of the change-request endpoints (reference spec 0.146.0; content edits from the
`updateChangeRequestContent` operation of spec 0.202.0)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from bindery.requests.comments import CommentBody
from bindery.requests.common import Body, Document, Icon, Text

Subject = Annotated[str, Field(min_length=0, max_length=100)]
Status = Literal["draft", "open", "archived", "merged"]
EditableStatus = Literal["draft", "open", "archived"]
ReviewStatus = Literal["changes-requested", "approved"]


class CreateChangeRequest(Body):
    subject: Subject | None = None
    agentTaskId: Annotated[str, Field(min_length=1, max_length=100)] | None = None
    # Bindery's: the conversations issues cluster the change request addresses (docs/decisions.md).
    conversationsIssuesCluster: Annotated[str, Field(min_length=1, max_length=128)] | None = None


class UpdateChangeRequest(Body):
    subject: Subject | None = None
    description: Document | None = None
    status: EditableStatus | None = None


class SubmitReview(Body):
    status: ReviewStatus
    # The spec's `Document`: `{markdown}`, `{document}`, or `{}` (no comment).
    comment: CommentBody | None = None

    @field_validator("comment", mode="before")
    @classmethod
    def _empty_is_none(cls, value: Any) -> Any:
        return None if value == {} else value


class RequestReviewers(Body):
    users: Annotated[list[Annotated[str, Field(min_length=1)]], Field(max_length=50)]
    subject: Subject | None = None
    description: Document | None = None


# --- content edits ------------------------------------------------------------------------------------
class PageBody(BaseModel):
    """The spec's `Document`: `{markdown}`, `{document}` or `{}` (an empty page)."""

    model_config = ConfigDict(extra="ignore", defer_build=True)

    markdown: Text | None = None
    document: Document | None = None

    @model_validator(mode="after")
    def _one_source(self) -> PageBody:
        if self.markdown is not None and self.document is not None:
            raise ValueError("give markdown or document, not both")
        return self


class PageFields(BaseModel):
    """RevisionPageUpdate: page metadata an insert or an update may set."""

    model_config = ConfigDict(extra="ignore", defer_build=True)

    title: Annotated[str, Field(min_length=1, max_length=200)] | None = None
    slug: Annotated[str, Field(min_length=0, max_length=100)] | None = None
    emoji: Annotated[str, Field(max_length=50)] | None = None
    icon: Icon | None = None
    description: Annotated[str, Field(max_length=1000)] | None = None
    hidden: bool | None = None
    noIndex: bool | None = None
    noRobotsIndex: bool | None = None
    condition: str | None = None


class InsertPage(PageFields):
    operation: Literal["insert_page"]
    document: PageBody
    into: Annotated[str, Field(min_length=1)] | None = None
    at: Annotated[int, Field(ge=0)] | None = None
    ref: Annotated[str, Field(min_length=1, max_length=200)] | None = None


class UpdatePage(PageFields):
    operation: Literal["update_page"]
    page: Annotated[str, Field(min_length=1)]
    document: PageBody | None = None
    # `into` omitted: the parent stays; null: the top level (see model_fields_set).
    into: Annotated[str, Field(min_length=1)] | None = None
    at: Annotated[int, Field(ge=0)] | None = None


class DeletePage(Body):
    operation: Literal["delete_page"]
    page: Annotated[str, Field(min_length=1)]


class RevertPage(Body):
    operation: Literal["revert_page"]
    page: Annotated[str, Field(min_length=1)]
    revision: Annotated[str, Field(min_length=1)] | None = None
    block: list[str] | None = None


class UploadedFile(Body):
    name: Annotated[str, Field(min_length=1, max_length=256)]
    ref: Annotated[str, Field(min_length=1, max_length=200)] | None = None
    contentType: Annotated[str, Field(min_length=1, max_length=255)] | None = None
    base64: str | None = None
    url: Annotated[str, Field(max_length=2048)] | None = None


class InsertFiles(Body):
    operation: Literal["insert_files"]
    files: Annotated[list[UploadedFile], Field(min_length=1, max_length=20)]


ContentChange = Annotated[InsertPage | UpdatePage | DeletePage | RevertPage | InsertFiles,
                          Field(discriminator="operation")]


class UpdateContent(Body):
    changes: Annotated[list[ContentChange], Field(min_length=1, max_length=50)]


def fields_set(model: BaseModel) -> dict[str, Any]:
    """The page fields a change names (even as null), by wire name."""
    return {name: getattr(model, name) for name in PageFields.model_fields if name in model.model_fields_set}
