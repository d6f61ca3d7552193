"""Request bodies of the comment operations (the reference spec's PostCommentSchema, UpdateCommentSchema,
PostCommentReplySchema and UpdateCommentReplySchema)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from bindery.requests.common import Body, Document, Text

Emoji = Annotated[str, Field(min_length=1, max_length=32, pattern=r"^\S+$")]
Reactions = Annotated[list[Emoji], Field(max_length=20)]
Id = Annotated[str, Field(min_length=1, max_length=128)]
CommentStatus = Literal["all", "open", "resolved"]


class CommentBody(BaseModel):
    """A `Document`: `{markdown}` or `{document}` (written to Markdown); exactly one of them."""

    model_config = ConfigDict(extra="ignore", defer_build=True)

    markdown: Text | None = None
    document: Document | None = None

    @model_validator(mode="after")
    def _one(self) -> CommentBody:
        if (self.markdown is None) == (self.document is None):
            raise ValueError("give either markdown or document")
        return self


class TableCell(BaseModel):
    model_config = ConfigDict(extra="ignore", defer_build=True)

    record: Id
    definition: Id


class PostComment(Body):
    node: Id | None = None
    page: Id | None = None
    body: CommentBody
    tableCell: TableCell | None = None


class _Update(Body):
    body: CommentBody | None = None
    addedReactions: Reactions | None = None
    removedReactions: Reactions | None = None

    @model_validator(mode="after")
    def _distinct(self) -> _Update:
        both = set(self.addedReactions or ()) & set(self.removedReactions or ())
        if both:
            raise ValueError(f"an emoji cannot be both added and removed: {sorted(both)[0]}")
        return self


class UpdateComment(_Update):
    resolved: bool | None = None


class PostReply(Body):
    body: CommentBody


class UpdateReply(_Update):
    """`resolved` is part of the change-request variant only (it resolves or reopens the thread)."""

    resolved: bool | None = None
