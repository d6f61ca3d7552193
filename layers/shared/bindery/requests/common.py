"""Field types shared by request bodies (constraints as the reference spec states them)."""

from __future__ import annotations

import json
import math
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator
from pydantic_core import PydanticCustomError

RoleValue = Literal["admin", "create", "review", "edit", "comment", "read"]
RoleOrGuest = RoleValue | None
Url = Annotated[str, Field(max_length=2048, pattern=r"^https?://\S+$")]
Icon = Annotated[str, Field(max_length=50)]  # the spec's `Icon`: pages, site sections, section groups


# Text in a request body must be Unicode that UTF-8 can encode. JSON's `\ud800` escape decodes to a lone
# surrogate, which every encoder downstream (block keys, DynamoDB, S3) refuses with a 500. pydantic-core
# refuses one in a constrained string (a title) but passes an unconstrained `str` through: this is the
# same check, with the same error, for the strings it lets through (Markdown, documents).
def _not_unicode() -> PydanticCustomError:
    return PydanticCustomError("string_unicode",
                               "Input should be a valid string, unable to parse raw data as a unicode string")


# What a DynamoDB number can be (a document is stored as a map): 38 significant digits, magnitudes from
# 1e-130 to below 1e126. JSON allows more (and Python's parser NaN and Infinity).
_NUMBER_DIGITS = 38
_NUMBER_RANGE = (1e-130, 1e126)


def _storable_number(number: int | float) -> bool:
    if isinstance(number, bool):
        return True
    if isinstance(number, int):
        return len(str(abs(number)).rstrip("0")) <= _NUMBER_DIGITS
    return number == 0 or (math.isfinite(number) and _NUMBER_RANGE[0] <= abs(number) < _NUMBER_RANGE[1])


def _all_numbers_storable(value: Any) -> bool:
    """Whether every number in a JSON value can be stored (iterative, as _all_text_encodes)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, (int, float)):
            if not _storable_number(item):
                return False
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return True


def _encodes(text: str) -> bool:
    try:
        text.encode()
    except UnicodeEncodeError:
        return False
    return True


def _unicode_text(value: str) -> str:
    if not _encodes(value):
        raise _not_unicode()
    return value


Text = Annotated[str, AfterValidator(_unicode_text)]
"""An unconstrained string (Markdown) held to the Unicode rule above."""


def _all_text_encodes(value: Any) -> bool:
    """Whether every string (keys too) in a JSON value encodes; iterative, so depth cannot overflow."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if not _encodes(item):
                return False
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return True


class Body(BaseModel):
    """Base of request bodies. Unknown fields are ignored: the official spec's request bodies are open,
    and clients send fields of newer API versions (docs/decisions.md, "Request bodies"). Built on first use
    (defer_build), as the response models are (api/responses/base.py says why)."""

    model_config = ConfigDict(extra="ignore", defer_build=True)


class Document(BaseModel):
    """A rich-text document (`object: document`); blocks are checked by the content engine. Other
    top-level fields are ignored."""

    # Ignored as a body's unknown fields are: a stored document has only what the wire's JSONDocument
    # shows (schemathesis found one stored with an extra field, after which every read of it was a 500).
    model_config = ConfigDict(extra="ignore", defer_build=True)

    object: Literal["document"]
    data: dict[str, Any] = Field(default_factory=dict)
    nodes: list[dict[str, Any]] = Field(default_factory=list)

    @model_validator(mode="before")
    @classmethod
    def _unicode(cls, value: Any) -> Any:
        if not _all_text_encodes(value):
            raise _not_unicode()
        if not _all_numbers_storable(value):
            # Found by schemathesis: NaN, 1e300 or a 40-digit integer in a document's data was a 500.
            raise PydanticCustomError(
                "number_range",
                "Input should contain only finite numbers of at most 38 digits, between 1e-130 and 1e126 in "
                "magnitude")
        return value


# A JSON value stored whole in one DynamoDB item (agent and translation instructions, a site's adaptive
# schema) must leave room in its 400 KB item: a larger one was a 500 (DynamoDB's "Item size has exceeded
# the maximum allowed size", found by the bad-input corpus). Measured as the UTF-8 of its JSON.
MAX_STORED_JSON_BYTES = 100_000


def _fits_an_item(value: Any) -> Any:
    dumped = value.model_dump(mode="json") if isinstance(value, BaseModel) else value
    if len(json.dumps(dumped, ensure_ascii=False).encode()) > MAX_STORED_JSON_BYTES:
        raise PydanticCustomError("too_large", "Input should be at most {max} bytes as JSON",
                                  {"max": MAX_STORED_JSON_BYTES})
    return value


StoredDocument = Annotated[Document, AfterValidator(_fits_an_item)]
"""A document stored in one item (instructions), capped to fit it."""
StoredJson = Annotated[dict[str, Any], AfterValidator(_fits_an_item)]
"""A JSON object stored in one item (an adaptive schema), capped to fit it."""


def _unicode_json(value: Any) -> Any:
    if not _all_text_encodes(value):
        raise _not_unicode()
    return value


UnicodeJson = Annotated[dict[str, Any], AfterValidator(_unicode_json)]
"""A JSON object checked by hand further on (site customizations), held to the Unicode rule above: a lone
surrogate in a customization's title was stored (found by the bad-input corpus)."""


class MergeRule(BaseModel):
    model_config = ConfigDict(extra="ignore", defer_build=True)

    rule: Literal[
        "require_specific_reviewers", "require_one_of_specific_reviewers", "allow_bypass",
        "require_at_least_one_review", "require_all_reviews_approved", "require_agent_review",
        "require_up_to_date_change_request", "require_change_request_subject",
        "require_change_request_description",
    ]
    users: list[str] | None = None


class MergeRulesRules(BaseModel):
    model_config = ConfigDict(extra="ignore", defer_build=True)

    type: Literal["rules"]
    rules: list[MergeRule]


class MergeRulesNone(BaseModel):
    model_config = ConfigDict(extra="ignore", defer_build=True)

    type: Literal["none"]


StandaloneMergeRules = Annotated[MergeRulesRules | MergeRulesNone, Field(discriminator="type")]
