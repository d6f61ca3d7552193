"""Request bodies of the space endpoints (CreateSpace and updateSpaceById of the reference spec)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

from bindery.requests.common import Body, MergeRulesNone, MergeRulesRules, RoleValue, Url

SpaceTitle = Annotated[str, Field(max_length=50)]
Emoji = Annotated[str, Field(max_length=50)]
EditMode = Literal["live", "locked"]
# TranslationLanguage of the reference spec.
Language = Literal[
    "en", "fr", "de", "es", "it", "pt", "pt-br", "ru", "ja", "zh", "yue", "ko", "ar", "hi", "nl", "pl", "tr",
    "sv", "no", "da", "fi", "el", "cs", "hu", "ro", "th", "vi", "id", "ms", "he", "uk", "sk", "bg", "hr",
    "lt", "lv", "et", "sl",
]
DefaultLevel = RoleValue | Literal["inherit"] | None


class MergeRulesInherit(BaseModel):
    model_config = ConfigDict(extra="ignore", defer_build=True)

    type: Literal["inherit"]


SpaceMergeRules = Annotated[MergeRulesInherit | MergeRulesRules | MergeRulesNone, Field(discriminator="type")]


class CreateSpace(Body):
    """`empty` is accepted because every new space starts empty. Creating a space from a template or a
    computed source is not supported here: those fields are refused by name rather than ignored like
    other unknown fields, since ignoring them would silently make an empty space."""

    title: SpaceTitle | None = None
    emoji: Emoji | None = None
    parent: Annotated[str, Field(min_length=1, max_length=128)] | None = None
    language: Language | None = None
    editMode: EditMode | None = None
    empty: Literal[True] | None = None
    template: Any = None
    computed: Any = None

    @field_validator("template", "computed")
    @classmethod
    def _unsupported(cls, value: Any, info: ValidationInfo) -> Any:
        raise ValueError(f"creating a space with `{info.field_name}` is not supported: create it, then "
                         "apply a template with POST /spaces/{spaceId}/content/template")


class UpdateSpace(Body):
    """Every field is optional; which were sent (even as null) is `model_fields_set`."""

    editMode: EditMode | None = None
    title: SpaceTitle | None = None
    defaultLevel: DefaultLevel = None
    language: Language | None = None
    mergeRules: SpaceMergeRules | None = None
    emoji: Emoji | None = None
    icon: Url | None = None
