"""Field types shared by request bodies (constraints as the reference spec states them)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

RoleValue = Literal["admin", "create", "review", "edit", "comment", "read"]
RoleOrGuest = RoleValue | None
Url = Annotated[str, Field(max_length=2048, pattern=r"^https?://\S+$")]


class Body(BaseModel):
    """Base of request bodies. Unknown fields are ignored: the official spec's request bodies are open,
    and clients send fields of newer API versions (docs/decisions.md, "Request bodies")."""

    model_config = ConfigDict(extra="ignore")


class Document(BaseModel):
    """A rich-text document (`object: document`); blocks are checked by the content engine."""

    model_config = ConfigDict(extra="allow")

    object: Literal["document"]
    data: dict[str, Any] = Field(default_factory=dict)
    nodes: list[dict[str, Any]] = Field(default_factory=list)


class MergeRule(BaseModel):
    model_config = ConfigDict(extra="ignore")

    rule: Literal[
        "require_specific_reviewers", "require_one_of_specific_reviewers", "allow_bypass",
        "require_at_least_one_review", "require_all_reviews_approved", "require_agent_review",
        "require_up_to_date_change_request", "require_change_request_subject",
        "require_change_request_description",
    ]
    users: list[str] | None = None


class MergeRulesRules(BaseModel):
    model_config = ConfigDict(extra="ignore")

    type: Literal["rules"]
    rules: list[MergeRule]


class MergeRulesNone(BaseModel):
    model_config = ConfigDict(extra="ignore")

    type: Literal["none"]


StandaloneMergeRules = Annotated[MergeRulesRules | MergeRulesNone, Field(discriminator="type")]
